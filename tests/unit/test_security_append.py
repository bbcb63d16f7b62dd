"""`security.open_private_append`, the logs' one opener: a regular file only, never through a link at the path,
never waiting on a FIFO (30th hostile pass (part A) P6)."""

from __future__ import annotations

import errno
import os
import socket

import pytest

from wizard.security import open_private_append


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
