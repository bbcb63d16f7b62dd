"""A low `ulimit -n` is named as the open-files limit, never as "out of pty devices" (hostile pass P9).

Each step runs in a pty (pexpect). When the process has no file descriptor left, Python's `pty` module swallows
`os.openpty`'s EMFILE and ends in `OSError('out of pty devices')`, which the install printed. These tests lower
RLIMIT_NOFILE for real, in the child that runs `gc-wizard install`, over a range of limits: wherever the wizard
meets the limit (the pty, the pipes pexpect opens first), it must say which limit, with its number, and never
print a traceback. The pty limit's own words (kernel.pty.max) stay for the errno that means it.
"""

from __future__ import annotations

import errno

import pytest

from tests.fixtures.state import run_cli_with_open_files_limit
from wizard.errors import pty_sentence

#: Limits low enough that the wizard itself runs out while starting the first step's pty (about 7 on CPython
#: 3.11), and one or two either side; below 6 the interpreter cannot even import its own modules.
LIMITS = range(6, 11)


@pytest.mark.timeout(300)
def test_a_low_open_files_limit_is_named_with_its_number(tiny):
    said = {}
    for limit in LIMITS:
        proc = run_cli_with_open_files_limit(limit, "install", "tiny-a", "--yes", *tiny.args())
        out = proc.stdout + proc.stderr
        assert "Traceback" not in out, f"ulimit -n {limit}:\n{out}"
        assert "out of pty devices" not in out, f"ulimit -n {limit}:\n{out}"
        assert "kernel.pty.max" not in out, f"ulimit -n {limit}:\n{out}"
        if "could not start" in out:
            said[limit] = out
    assert said, "no limit in the range reached the step's start; widen LIMITS"
    for limit, out in said.items():
        assert f"limit of open files (`ulimit -n` is {limit})" in out, out
        assert f"It is also the hard limit (`ulimit -Hn` is {limit}), so only an admin can raise it" in out


def test_a_full_pty_table_is_named_as_the_pty_limit():
    words = pty_sentence(OSError(errno.ENOSPC, "No space left on device"))
    assert "kernel.pty.max" in words and "/dev/ptmx" in words and "ulimit" not in words


def test_the_system_wide_file_table_is_not_the_user_limit():
    words = pty_sentence(OSError(errno.ENFILE, "Too many open files in system"))
    assert "fs.file-max" in words and "ulimit -n 4096" not in words
