"""28th hostile pass (part A) P3: a state folder whose path is UTF-8 (`…/sté`, made in a UTF-8 shell), read under
`LC_ALL=C PYTHONUTF8=0` (a cron job, an ssh session without LANG), was empty: every history.json entry was skipped as
holding "a lone UTF-16 surrogate", `history --json` said `[]` and `activate` "install one". history.json holds a path's
bytes as UTF-8 (`paths.path_from_json`/`path_for_json`), whatever the locale that reads or writes it. A real install of
tiny local wheels, read and written again by real wizard processes in the C locale."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.fixtures.state import REPO
from wizard import paths

C_LOCALE = {"LC_ALL": "C", "PYTHONUTF8": "0"}


def _run(*args: str, home: bytes, locale: dict | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environb.items() if k not in (b"LC_ALL", b"LANG", b"PYTHONUTF8", b"GC_WIZARD_HOME")}
    env.update({k.encode(): v.encode() for k, v in (locale or {}).items()})
    env[b"GC_WIZARD_HOME"] = home
    return subprocess.run([sys.executable, "-m", "wizard", *args], capture_output=True, env=env, cwd=str(REPO),
                          timeout=300, check=False)


def test_a_utf8_state_folder_reads_whole_under_the_c_locale(tiny, tmp_path):
    home = os.fsencode(tmp_path) + "/st\u00e9".encode()
    made = _run("install", "tiny-a", "--yes", *tiny.args(), home=home, locale={"LC_ALL": "C.UTF-8"})
    assert made.returncode == 0, made.stderr.decode(errors="replace")
    listed = _run("history", "--json", home=home, locale=C_LOCALE)
    assert listed.returncode == 0, listed.stderr
    entries = json.loads(listed.stdout.splitlines()[-1])
    assert len(entries) == 1 and b"surrogate" not in listed.stderr, listed.stderr
    code = _run("activate", home=home, locale=C_LOCALE)
    assert code.returncode == 0 and home + b"/envs/" in code.stdout, code.stderr
    # a second install under C writes its entry in the same spelling, so a UTF-8 shell reads both
    again = _run("install", "tiny-b", "--yes", *tiny.args(), home=home, locale=C_LOCALE)
    assert again.returncode == 0, again.stderr.decode(errors="replace")
    with open(home + b"/history.json", "rb") as file:
        saved = json.loads(file.read().decode("utf-8"))
    entries = saved["entries"] if isinstance(saved, dict) else saved
    assert [e["env"].startswith(home.decode("utf-8")) for e in entries] == [True, True], entries
    text = _run("history", home=home, locale={"LC_ALL": "C.UTF-8"})
    assert b"could not be read" not in text.stderr and text.stdout.count(b"tiny-") >= 2, text


def test_a_character_the_locale_cannot_spell_is_not_called_a_lone_surrogate(monkeypatch):
    monkeypatch.setattr(os, "fsencode", lambda value: value.encode("ascii"))
    problem = paths.unholdable_text("/st\u00e9/envs/x")
    assert "surrogate" not in problem and "'\\xe9'" in problem and "LC_ALL=C.UTF-8" in problem, problem
    assert "surrogate" in paths.unholdable_text("/x/\ud800")
