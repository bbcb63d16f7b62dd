"""What a rollback says of an entry it cannot rebuild from its record (thirteenth hostile pass #29): a GraphCast
source whose URL held a secret is the wizard's own record, kept masked — not an edit of history.json."""

from __future__ import annotations

from wizard.flows.rollback import recorded_set_problem
from wizard.history.store import Entry


def _entry(line: str) -> Entry:
    return Entry(id="20261127-000000-aaaa", kind="install", recipe="tiny-a", env="/nowhere/env",
                 status="installed", packages=["pkg-a==1.0", line])


def test_a_masked_source_url_is_not_called_an_edit(isolated_state):
    problem = recorded_set_problem(_entry("graphcast @ http://127.0.0.1:1/w/graphcast-0.1.1-py3-none-any.whl?k=<redacted>"))
    assert problem is not None and "from a URL holding a secret" in problem and "edited" not in problem
    assert "gc-wizard install tiny-a --graphcast-src URL" in problem


def test_a_source_no_install_records_is_still_called_an_edit(isolated_state):
    problem = recorded_set_problem(_entry("graphcast @ file:///elsewhere/graphcast-0.1.1-py3-none-any.whl"))
    assert problem is not None and "the entry was edited" in problem


def test_the_install_again_line_leaves_out_a_recorded_place_another_user_could_swap(isolated_state, public_tmp):
    """34th hostile pass (part B) P2: the recorded --recipes-dir / --graphcast-src, now in a folder another user
    could change, was offered in "install the recipe again (`gc-wizard install …`)", a line plan/install refuse.
    The same swap rule leaves it out (DIR/FILE in its place) and the line's comment says why."""
    from tests.fixtures.modes import open_folder
    from wizard.flows.rollback import install_advice

    shared = open_folder(public_tmp / "shared")  # anyone may write here: anyone could swap the recipes
    (shared / "recipes").mkdir()
    wheel = shared / "graphcast-0.1.1-py3-none-any.whl"
    wheel.write_bytes(b"")
    mine = public_tmp / "mine"
    mine.mkdir()
    entry = Entry(id="20261127-000000-aaaa", kind="install", recipe="tiny-a", env="/nowhere/env", status="installed",
                  recipes_dir=str(shared / "recipes"), graphcast_given=str(wheel), find_links=[str(mine)])
    line = install_advice(entry)
    command, _, why = line.partition("  # ")
    assert str(shared) not in command and "--recipes-dir DIR" in command and "--graphcast-src FILE" in command, line
    assert f"--find-links {mine}" in command
    assert str(shared / "recipes") in why and str(wheel) in why, line


def test_the_install_again_line_holds_a_file_url_to_the_same_swap_rule(isolated_state, public_tmp):
    """Fixers' leftover after the 34th hostile pass: a recorded `file://` GraphCast source (or wheelhouse) in a folder
    another user could swap was offered as it was — the rule read plain paths only, and took any `://` for remote.
    Every spelling is read as plan/install read it (`source_spelling`), and held to the same rule."""
    from tests.fixtures.modes import open_folder
    from wizard.flows.rollback import install_advice

    shared = open_folder(public_tmp / "shared")
    wheel = shared / "graphcast-0.1.1-py3-none-any.whl"
    wheel.write_bytes(b"")
    (shared / "repo").mkdir()
    mine = public_tmp / "mine"
    mine.mkdir()
    for given, word in ((f"file://{wheel}", "FILE"), (f"file:{wheel}", "FILE"),
                        (f"graphcast @ file://localhost{wheel}", "FILE"), (f"git+file://{shared / 'repo'}@v0.1.1", "DIR")):
        entry = Entry(id="20261127-000000-aaaa", kind="install", recipe="tiny-a", env="/nowhere/env",
                      status="installed", graphcast_given=given, find_links=[f"file://{shared}", f"file://{mine}"])
        line = install_advice(entry)
        command, _, why = line.partition("  # ")
        assert str(shared) not in command and f"--graphcast-src {word}" in command, line
        assert "--find-links DIR" in command and f"--find-links file://{mine}" in command, line
        assert str(shared) in why, line
    kept = install_advice(Entry(id="20261127-000000-aaaa", kind="install", recipe="tiny-a", env="/nowhere/env",
                                status="installed", graphcast_given=f"file://{mine}"))
    assert f"--graphcast-src file://{mine}" in kept and "#" not in kept, kept
