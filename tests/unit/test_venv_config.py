"""The one pyvenv.cfg reader (wizard/venv_config.py): what detection, activation and the swap rule all read."""

from __future__ import annotations

import ast
import os
from pathlib import Path

from wizard import venv_config

WIZARD = Path(__file__).resolve().parents[2] / "wizard"


def test_keys_are_read_as_site_reads_them(tmp_path):
    config = tmp_path / "pyvenv.cfg"
    config.write_text("home = /opt/py/bin\nInclude-System-Site-Packages = TRUE\nprompt = a=b\nno separator\n")
    assert venv_config.read(config) == {
        "home": "/opt/py/bin", "include-system-site-packages": "TRUE", "prompt": "a=b"}


def test_a_missing_file_a_folder_or_a_fifo_reads_as_empty_without_blocking(tmp_path):
    fifo = tmp_path / "fifo.cfg"
    os.mkfifo(fifo)
    assert venv_config.read(tmp_path / "absent.cfg") == {}
    assert venv_config.read(tmp_path) == {}
    assert venv_config.read(fifo) == {}  # opening a FIFO with no writer would hang


def test_a_huge_file_is_read_only_as_far_as_a_config_goes(tmp_path):
    config = tmp_path / "pyvenv.cfg"
    config.write_bytes(b"home = /usr/bin\n" + b"x" * (1 << 20) + b"\nversion = 3.11.9\n")
    assert venv_config.read(config) == {"home": "/usr/bin"}


def _parses_key_value_lines(function: ast.AST) -> bool:
    """Whether a function splits text at "=" (`.partition("=")`, `.split("=", …)`): how a config line is parsed."""
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
               and node.func.attr in {"partition", "split"} and node.args
               and isinstance(node.args[0], ast.Constant) and node.args[0].value == "="
               for node in ast.walk(function))


def test_no_other_function_parses_pyvenv_cfg_itself():
    """Every reader goes through venv_config: a second parser (source_trust's, beside detection's) is how two
    readers drifted apart, one opening whatever the path named."""
    offenders = []
    for path in sorted(WIZARD.rglob("*.py")):
        if path.name == "venv_config.py":
            continue
        text = path.read_text(encoding="utf-8")
        if "pyvenv" not in text:
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef) and _parses_key_value_lines(node):
                if "pyvenv" in (ast.get_source_segment(text, node) or ""):
                    offenders.append(f"{path.relative_to(WIZARD)}:{node.lineno} {node.name}")
    assert offenders == []


def test_the_python_version_is_read_from_the_environments_own_file(tmp_path):
    """`python_version`: the one reader of what an env runs (32nd hostile pass (part B) P4)."""
    from wizard.venv_config import python_version

    for text, expected in [("version_info = 3.11.7\n", "3.11.7"), ("version = 3.11.2\n", "3.11.2"),
                           ("version_info = 3.12.0.final.0\n", "3.12.0"), ("version_info = 3.13.1rc1\n", "3.13.1"),
                           ("version = x\n", None), ("version_info = 3.\u0661\u0661.1\n", None), ("", None)]:
        (tmp_path / "pyvenv.cfg").write_text(text)
        assert python_version(tmp_path) == expected, text
    (tmp_path / "pyvenv.cfg").unlink()
    assert python_version(tmp_path) is None


def test_a_pyvenv_cfg_that_is_not_a_file_is_named_not_called_missing(tmp_path):
    """35th hostile pass (part A) P7: an env whose pyvenv.cfg is a FIFO was said to have "pyvenv.cfg is missing"
    (activate, verify, module and kernel install) and `diagnose --env` called it a system Python. The sentence
    and the report name what the path is."""
    import sys

    from wizard.paths import env_python_problem
    from wizard.verify.inspect_env import inspect_env

    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    (env / "bin" / "python").symlink_to(sys.executable)
    (env / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    os.mkfifo(env / "pyvenv.cfg")
    said = env_python_problem(env)
    assert said is not None and "pyvenv.cfg is a named pipe (FIFO), not a regular file" in said
    assert "missing" not in said
    report = inspect_env(env, {"PATH": "/usr/bin:/bin"}, read_driver=False, ldconfig=[])
    assert "named pipe (FIFO)" in report.kind and report.kind != "system"
    (env / "pyvenv.cfg").unlink()
    assert "pyvenv.cfg is missing" in env_python_problem(env)
    assert inspect_env(env, {"PATH": "/usr/bin:/bin"}, read_driver=False, ldconfig=[]).kind == "system"
