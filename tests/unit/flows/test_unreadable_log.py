"""A log this user may not read is refused with the ways on (walk 27 #9: a lab-mate's log gave "Permission denied."
and nothing more, though `diagnose` reads pasted text and the owner can send it)."""

from __future__ import annotations

import os

from tests.fixtures.modes import NOBODY, need_root
from wizard.flows.diagnosis import unreadable_log


def test_the_refusal_names_the_file_its_owner_and_how_to_paste_it(tmp_path):
    need_root("give a file to another user (chown)")
    log = tmp_path / "labmate.log"
    log.write_text("ValueError: x\n")
    os.chown(log, NOBODY, NOBODY)
    said = unreadable_log(str(log))
    assert said.startswith(f"cannot read the log file {log}: you may not read it, which ") and f"uid {NOBODY}" in said
    assert "gc-wizard diagnose -" in said and "Ctrl-D" in said and "in the app: d" in said


def test_a_log_gone_since_is_still_one_sentence(tmp_path):
    said = unreadable_log(str(tmp_path / "gone.log"))
    assert said.startswith(f"cannot read the log file {tmp_path / 'gone.log'}: you may not read it. Ask its owner")
