"""32nd hostile pass (part A) P4: on an ASCII stdout (`PYTHONIOENCODING=ascii`, `LC_ALL=C PYTHONUTF8=0`) install's
copy-me lines named a state folder `…/sté` as `…/st?`: `export GC_WIZARD_HOME='…/st?'` set a folder that does not
exist. The output layer writes what the encoding lacks as its UTF-8 bytes (`streams._bytes_or_stand_in`), so the line
a shell runs names the real folder. A real install of tiny local wheels, a real bash that runs the printed line."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.fixtures.state import REPO


@pytest.mark.parametrize("locale", [{"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C", "PYTHONUTF8": "0",
                                                                     "PYTHONCOERCECLOCALE": "0"}])
def test_the_printed_export_line_names_the_real_state_folder(tiny, tmp_path, locale):
    home = os.fsencode(tmp_path) + "/st\u00e9".encode()
    env = {k: v for k, v in os.environb.items()
           if k not in (b"LC_ALL", b"LANG", b"PYTHONUTF8", b"PYTHONIOENCODING", b"GC_WIZARD_HOME")}
    env.update({k.encode(): v.encode() for k, v in locale.items()})
    env[b"GC_WIZARD_HOME"] = home
    made = subprocess.run([sys.executable, "-m", "wizard", "install", "tiny-a", "--yes", *tiny.args()],
                          capture_output=True, env=env, cwd=str(REPO), timeout=300, check=False)
    assert made.returncode == 0, made.stderr.decode(errors="replace")
    line = next(row.strip() for row in made.stdout.splitlines() if row.strip().startswith(b"export GC_WIZARD_HOME="))
    said = subprocess.run(["bash", "-c", line.decode("utf-8", "surrogateescape") + '; printf %s "$GC_WIZARD_HOME"'],
                          capture_output=True, check=True, timeout=30)
    assert said.stdout == home, (line, said.stdout)
