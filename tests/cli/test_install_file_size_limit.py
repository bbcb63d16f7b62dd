"""An installer killed by a file-size limit is said from its signal, with the limit and how to lift it.

27th hostile pass (part A) P3: under `ulimit -f 20` uv died of SIGXFSZ before printing a line, and `install` said "The
installer said: exit status None (the installer was killed by SIGXFSZ (the file-size limit))" on stderr and in
history: a Python null and no fix. The real CLI, real uv, a real RLIMIT_FSIZE.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys

from tests.fixtures.state import REPO


def test_an_install_killed_by_the_file_size_limit_names_the_limit_and_its_fix(tiny, isolated_state):
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (20 * 1024, 20 * 1024))

    argv = [sys.executable, "-m", "wizard", "install", "tiny-a", "--yes", *tiny.args()]
    proc = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=600, preexec_fn=limit)
    said = " ".join(proc.stderr.split())
    assert proc.returncode != 0, said
    assert "None" not in said, said
    if "SIGXFSZ" in said:  # which write the limit stops first depends on the machine; the installer's is the case
        assert "`ulimit -f unlimited`" in said and "now 20 KB" in said, said
    history = json.loads((isolated_state / "history.json").read_text()) if (isolated_state / "history.json").exists() \
        else {}
    assert "exit status None" not in json.dumps(history)
