"""A checkout's git files are read as regular files only, and bounded (`git_dirs.read_git_file`): a FIFO `.git/HEAD`
is an OSError that names it, never an `open()` that blocks, and an endless `packed-refs` is refused by its size.

35th hostile pass (part A) P6: a FIFO HEAD hung plan, install and bundle (install's worker thread with it, so SIGTERM
could not end the run), and a 3 GB packed-refs of one line was read whole."""

from __future__ import annotations

import errno
import os
import threading
import time
from pathlib import Path

import pytest

from wizard.git_dirs import GitDirs, first_line
from wizard.install.git_objects import head_commit, no_commit_words


def _unblock_a_reader(fifo: Path, stop: threading.Event) -> threading.Thread:
    """Writes to `fifo` once a reader has it open, so a reader that blocked in open() (the fault) gets a line and
    the test fails instead of hanging."""

    def run() -> None:
        while not stop.is_set():
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                if exc.errno != errno.ENXIO:  # ENXIO: no reader yet
                    return
                time.sleep(0.05)
                continue
            os.write(fd, b"ref: refs/heads/main\n")
            os.close(fd)
            return

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _git(tmp_path: Path) -> GitDirs:
    git = tmp_path / ".git"
    (git / "refs" / "heads").mkdir(parents=True)
    return GitDirs(git, git)


def test_a_fifo_head_is_named_not_opened(tmp_path):
    dirs = _git(tmp_path)
    os.mkfifo(dirs.own / "HEAD")
    stop = threading.Event()
    _unblock_a_reader(dirs.own / "HEAD", stop)
    try:
        with pytest.raises(OSError) as info:
            first_line(dirs.own / "HEAD")
        assert "named pipe" in str(info.value)
        with pytest.raises(OSError):
            head_commit(dirs)
        assert "named pipe" in no_commit_words(dirs)
    finally:
        stop.set()


def test_an_endless_packed_refs_is_refused_by_its_size(tmp_path):
    dirs = _git(tmp_path)
    (dirs.own / "HEAD").write_text("ref: refs/heads/main\n")
    with open(dirs.common / "packed-refs", "wb") as handle:
        handle.truncate(64 * 1024 * 1024)  # sparse: one line of NULs, far past any real packed-refs
    with pytest.raises(OSError) as info:
        head_commit(dirs)
    assert "MiB" in str(info.value)


def test_a_normal_packed_refs_still_names_the_commit(tmp_path):
    dirs = _git(tmp_path)
    (dirs.own / "HEAD").write_text("ref: refs/heads/main\n")
    commit = "a" * 40
    (dirs.common / "packed-refs").write_text(f"# pack-refs with: peeled fully-peeled sorted\n{commit} refs/heads/main\n")
    assert head_commit(dirs) == commit
