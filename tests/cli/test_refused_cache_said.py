"""A state cache the state's link rule refuses (`paths.state_subfolder`) is skipped, and said: `detect` and `plan`
left it without a word, so the user never learnt why every run parsed its tables again, nor of the link."""

from __future__ import annotations

from tests.fixtures.modes import open_folder


def test_detect_says_once_which_cache_it_did_not_use_and_why(tmp_path, isolated_state, inproc):
    shared = open_folder(tmp_path / "open")  # every user can write it, no sticky bit
    (shared / "tables").mkdir()
    (isolated_state / "cache").symlink_to(shared)
    proc = inproc("detect", "--json")
    assert proc.returncode == 0, proc.stderr
    said = " ".join(proc.stderr.split())  # read across any fold, wherever the paths put it
    lead = f"{isolated_state / 'cache'} was not used as gc-wizard's cache (nothing was read or written there):"
    assert said.count(lead) == 1, said
    assert f"{shared}, where a link in the state folder leads, is writable by every user" in said
    assert list((shared / "tables").iterdir()) == []
