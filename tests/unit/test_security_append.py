"""`security.open_private_append`, the logs' one opener: a regular file only, never through a link at the path,
never waiting on a FIFO (30th hostile pass (part A) P6)."""

from __future__ import annotations

import errno
import os
import socket

import pytest

from wizard.security import open_private_append, open_private_log, write_private_file


def test_a_new_file_is_made_private_and_appended_to(tmp_path):
    path = tmp_path / "run.log"
    for text in ("one\n", "two\n"):
        fd = open_private_append(path)
        os.write(fd, text.encode())
        os.close(fd)
    assert path.read_text() == "one\ntwo\n" and path.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("reader", [False, True])
def test_a_fifo_is_refused_at_once_with_or_without_a_reader(tmp_path, reader):
    path = tmp_path / "run.log"
    os.mkfifo(path)
    held = os.open(path, os.O_RDONLY | os.O_NONBLOCK) if reader else None
    try:
        with pytest.raises(OSError) as caught:
            open_private_append(path)
        assert caught.value.errno in (errno.ENXIO, errno.EINVAL)
    finally:
        if held is not None:
            os.close(held)


def test_a_link_at_the_path_is_never_written_through(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("mine\n")
    (tmp_path / "run.log").symlink_to(victim)
    with pytest.raises(OSError) as caught:
        open_private_append(tmp_path / "run.log")
    assert caught.value.errno == errno.ELOOP and victim.read_text() == "mine\n"


def test_a_device_or_a_socket_is_refused(tmp_path):
    with pytest.raises(OSError):
        open_private_append("/dev/null")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp_path / "s"))
    try:
        with pytest.raises(OSError):
            open_private_append(tmp_path / "s")
    finally:
        sock.close()


def test_the_log_opener_writes_any_string(tmp_path):
    """A byte's surrogate is written as the byte, any other lone surrogate (a hand-edited history entry's `\\ud800`)
    as its escape, never an error that stops the run at the line recording it (32nd hostile pass (part A) P6)."""
    path = tmp_path / "run.log"
    with open_private_log(path) as log:
        log.write("recipe tiny-a\ud800 at /st/\udcff \udfff é\n")
    assert path.read_bytes() == b"recipe tiny-a\\ud800 at /st/\xff \\udfff " + "é".encode() + b"\n"
    assert path.stat().st_mode & 0o777 == 0o600


def test_the_step_log_and_private_files_write_any_string(tmp_path):
    from wizard.install.runner import StepLog

    with StepLog(tmp_path / "run.log") as log:
        log.note("rollback to tiny-a\ud800")
    assert b"rollback to tiny-a\\ud800" in (tmp_path / "run.log").read_bytes()
    write_private_file(tmp_path / "report.md", "entry tiny-a\ud800 \udcff\n")
    assert (tmp_path / "report.md").read_bytes() == b"entry tiny-a\\ud800 \xff\n"
