"""A low open-file limit is named as `ulimit -n`, with its number and its fix, wherever it ends a command (24th hostile
pass (part A) P9): an OSError put into a sentence as it is (`cannot run uv: [Errno 24] …`, rollback's `cannot list the
packages of …: [Errno 24] …`), a child quoting it (uv's `Too many open files (os error 24)`), and a child whose words
name something else under a very low limit (uv at 12: "Could not detect either glibc version nor musl libc version").
The limits are real (RLIMIT_NOFILE lowered in the child that runs the wizard); uv is the real one."""

from __future__ import annotations

import errno
import os

import pytest

from tests.fixtures.state import run_cli_with_open_files_limit
from wizard.errors import OperationFailed, UserError


@pytest.mark.timeout(300)
@pytest.mark.parametrize("limit", [8, 12])
def test_lock_under_a_low_open_files_limit_names_it(tiny, tmp_path, limit):
    proc = run_cli_with_open_files_limit(limit, "lock", "tiny-a", "--recipes-dir", str(tiny.recipes),
                                         "--find-links", str(tiny.house.path), "--offline",
                                         "--out", str(tmp_path / "l.txt"))
    said = " ".join((proc.stdout + proc.stderr).split())
    assert proc.returncode == 1, said
    assert f"`ulimit -n` is {limit}" in said and "[Errno 24]" not in said and "Traceback" not in said, said


@pytest.mark.timeout(300)
def test_an_install_whose_installer_quotes_the_limit_names_it(tiny):
    proc = run_cli_with_open_files_limit(12, "install", "tiny-a", "--yes", *tiny.args())
    said = " ".join((proc.stdout + proc.stderr).split())
    assert proc.returncode == 1, said
    assert "limit of open files (`ulimit -n` is 12)" in said and "Traceback" not in said, said


def test_an_os_error_of_a_limit_put_in_a_sentence_is_written_as_the_limit():
    soft = os.sysconf("SC_OPEN_MAX")
    for cls in (OperationFailed, UserError):
        exc = OSError(errno.EMFILE, os.strerror(errno.EMFILE), "/state/envs/e1")
        said = str(cls(f"cannot list the packages of /state/envs/e1: {exc}; the current environment is unchanged."))
        assert "[Errno 24]" not in said and f"limit of open files (`ulimit -n` is {soft})" in said, said
        assert said.endswith("; the current environment is unchanged.")
    said = str(OperationFailed(f"cannot run uv: {OSError(errno.ENFILE, os.strerror(errno.ENFILE))}"))
    assert "fs.file-max" in said and "[Errno 23]" not in said, said
    assert str(OperationFailed("nothing about files here")) == "nothing about files here"
