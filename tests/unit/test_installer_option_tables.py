"""Every path-valued option of the installers' commands the wizard runs, read from the installed pip's own option
parser and uv's `--help`, is in the tables: made absolute (`PATH_VARIABLES`), and for pip judged by one rule
(written to, trusted, a source, placement, requirements, or named below with why). `PIP_REPORT` was in none, and
root's pip followed another user's link there (35th hostile pass (part A) P4); `UV_WORKING_DIR` (uv 0.13's name
for `--directory`) and `UV_EXCLUDE` were found missing by this test."""

from __future__ import annotations

import re
import subprocess

from wizard import installer_files as files
from wizard.uv_tool import uv_bin

#: pip path variables judged elsewhere or not at all, with why: its settings file (`settings_problem`), its cache
#: (`cache_trust`), a client certificate (a credential it reads, never code), `pip download -d` (the bundle names
#: its own folder on the command line, which wins over the variable).
_PIP_ELSEWHERE = {"PIP_CONFIG_FILE", "PIP_CACHE_DIR", "PIP_CLIENT_CERT", "PIP_DEST", "PIP_DESTINATION_DIR",
                  "PIP_DESTINATION_DIRECTORY"}
#: uv's `--python` takes a name or a path; every uv step the wizard runs names its Python on the command line.
_UV_NOT_PATHS = {"UV_PYTHON"}
_UV_PATH_WORDS = re.compile(r"(DIR|FILE|DIRECTORY|PROJECT|CONSTRAINTS|OVERRIDES|EXCLUDES|FIND_LINKS|INDEX|INDEX_URL"
                            r"|REQUIREMENTS)$")


def _pip_path_variables() -> set[str]:
    from pip._internal.commands import create_command

    found = set()
    for name in ("install", "download"):
        command = create_command(name)
        for group in [command.parser, *command.parser.option_groups]:
            for option in group.option_list:
                if option.type == "path" or (option.metavar or "").lower() in ("file", "dir", "path"):
                    found |= {"PIP_" + long[2:].upper().replace("-", "_") for long in option._long_opts}
    return found


def test_every_pip_path_option_is_in_the_tables():
    found = _pip_path_variables()
    assert "PIP_REPORT" in found and "PIP_LOG" in found  # the reading works
    assert found - set(files.PATH_VARIABLES) == set()
    judged = (set(files.WRITTEN_VARIABLES["pip"]) | {t.variable for t in files.TRUSTED_VARIABLES["pip"]}
              | {v for v, _s, _k in files.SOURCE_VARIABLES["pip"]}
              | {"PIP_" + k.upper().replace("-", "_") for k in files._PIP_PLACEMENT + files._PIP_REQUIREMENT_KEYS})
    assert found - judged - _PIP_ELSEWHERE == set()


def test_every_uv_path_option_is_in_the_tables():
    found = set()
    for command in (["pip", "install"], ["pip", "sync"], ["pip", "freeze"], ["pip", "compile"], ["venv"]):
        text = subprocess.run([str(uv_bin()), *command, "--help"], capture_output=True, text=True, check=True).stdout
        for block in re.split(r"\n(?=\s{2,}(?:-\w, )?--)", text):
            option = re.match(r"\s*(?:-\w, )?--[\w-]+ <(\w+)>", block)
            variable = re.search(r"\[env:\s*`?(UV_\w+)`?", block)
            if option and variable and _UV_PATH_WORDS.search(option.group(1)):
                found.add(variable.group(1))
    assert {"UV_CONFIG_FILE", "UV_FIND_LINKS"} <= found  # the reading works
    assert found - set(files.PATH_VARIABLES) - _UV_NOT_PATHS == set()
