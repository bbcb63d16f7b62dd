"""An `--out` target on a disk out of inodes, and a resolver killed by the file-size limit, are named for what they
are (23rd hostile pass P6/P7): "No space left on device" with `df -h` at 0%, and "uv could not resolve …:" with a
blank reason under `ulimit -f`, sent the user the wrong way."""

from __future__ import annotations

import resource
import subprocess
import sys

from tests.fixtures.state import REPO


def test_every_out_writer_names_a_disk_out_of_inodes(no_inodes_tmpfs, tiny, isolated_state):
    from tests.fixtures.cli import run_inproc

    own = ["--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path), "--offline"]
    for args, what in ((["report", "--out", str(no_inodes_tmpfs / "r.md")], "the report to"),
                       (["lock", "tiny-a", *own, "--out", str(no_inodes_tmpfs / "l.txt")], "the lock")):
        proc = run_inproc(*args)
        said = " ".join(proc.stderr.split())
        assert proc.returncode == 1, proc.stdout + proc.stderr
        assert f"cannot write {what} {no_inodes_tmpfs}" in said and "no more files can be made there" in said, said
        assert "inodes" in said and "No space left on device" not in said


def test_a_resolver_killed_by_the_file_size_limit_is_said_so(tiny, isolated_state, tmp_path):
    def limit() -> None:
        # One byte: uv must write its lock (hundreds of bytes) and is killed doing so; Python ignores SIGXFSZ, so the
        # wizard's own writes would fail with EFBIG instead (1024 bytes let a small lock through on another machine)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1, 1))

    own = ["--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path), "--offline"]
    argv = [sys.executable, "-m", "wizard", "lock", "tiny-a", *own, "--out", str(tmp_path / "l.txt")]
    proc = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=300, preexec_fn=limit)
    said = " ".join(proc.stderr.split())
    assert proc.returncode != 0 and "could not resolve" not in said, said
    # Whichever the limit stops first — uv writing the lock ("uv was stopped by SIGXFSZ … while resolving recipe
    # tiny-a; nothing was written") or a write of the wizard's own ("stopped by SIGXFSZ …; nothing was left
    # half-done") — the limit is named, never a resolution failure with a blank reason.
    assert "SIGXFSZ (the file-size limit)" in said and "nothing was" in said, said
    assert not (tmp_path / "l.txt").exists()
