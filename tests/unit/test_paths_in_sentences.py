"""Every path inside a sentence is shown on one line, by one escaping (`security.shown_path`): a newline, carriage
return, escape or C1 control in a folder's name is written as its escape, never raw (38th hostile pass (part A) P5:
GC_WIZARD_HOME holding a newline broke `history`'s "No installs yet in the state folder …" across two lines)."""

from __future__ import annotations

import errno
import os

import pytest

from wizard import full_disk, paths
from wizard.error_sentences import describe_os_error
from wizard.install.no_space import no_room_sentence

#: Each control a name may hold, with the escape a sentence shows for it.
CONTROLS = {"\n": "\\u000a", "\r": "\\u000d", "\x1b": "\\u001b", "\x9b": "\\u009b"}


def _sentences(home, other) -> list[str]:
    return [
        paths.state_words(),
        paths.temporary_words(other),
        describe_os_error(OSError(errno.EACCES, os.strerror(errno.EACCES), str(home / "history.json"))),
        describe_os_error(OSError(errno.EACCES, os.strerror(errno.EACCES), str(other / "out.txt"))),
        describe_os_error(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(other / "out.txt"))),
        describe_os_error(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))),  # no path: the places it can be
        no_room_sentence("the bundle", other, "the disk is full"),
        full_disk.disk_words(other / "gone" / "x.whl"),
    ]


@pytest.mark.parametrize("control", list(CONTROLS), ids=[repr(c) for c in CONTROLS])
def test_a_control_in_a_path_is_escaped_in_every_sentence_that_names_it(tmp_path, monkeypatch, control):
    home = tmp_path / f"h{control}15"
    other = tmp_path / f"o{control}ut"
    other.mkdir()
    monkeypatch.setenv("GC_WIZARD_HOME", str(home))
    monkeypatch.setenv("TMPDIR", str(other))
    for sentence in _sentences(home, other):
        assert control not in sentence, repr(sentence)
    said = _sentences(home, other)
    assert said[0] == f"the state folder {tmp_path}/h{CONTROLS[control]}15 (set by GC_WIZARD_HOME)"
    assert f"{tmp_path}/o{CONTROLS[control]}ut" in said[1] and f"h{CONTROLS[control]}15" in said[2]
    assert f"o{CONTROLS[control]}ut" in said[6]
