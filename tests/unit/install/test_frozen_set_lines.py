"""The package list a rebuild syncs (state/frozen/ID.txt, and the entry's `packages`) holds only `name==version` pins
with their hashes and the entry's own GraphCast source.

31st hostile pass (part B) P6: `evilpkg @ file:///their/evil.whl` appended to frozen/ID.txt was installed by the
rebuild as root (its `.pth` ran), while `-r FILE` and `--find-links DIR` in the same file were refused and the same
line in history.json was refused too (`recorded_set.foreign_requirement`). The file's reader refuses it, naming the
file and the line, before anything is made."""

from __future__ import annotations

import pytest

from wizard.errors import UserError
from wizard.install.envs import frozen_dir, requirements_source

HASH = "--hash=sha256:" + "a" * 64
GRAPHCAST = "graphcast @ file:///srv/gc/graphcast-0.1.1-py3-none-any.whl"
PACKAGES = ["pkg-a==1.0", "pkg-b==2.0", GRAPHCAST]


def _lock(*extra: str):
    frozen_dir().mkdir(parents=True, exist_ok=True)
    lock = frozen_dir() / "e1.txt"
    lock.write_text("# The exact package set of /e, frozen by gc-wizard.\n"
                    f"pkg-a==1.0 \\\n    {HASH}\npkg-b==2.0 \\\n    {HASH} \\\n    --hash=sha256:{'b' * 64}\n"
                    f"{GRAPHCAST}\n" + "".join(line + "\n" for line in extra))
    return lock


def test_the_wizards_own_frozen_set_is_synced(isolated_state, tmp_path):
    lock = _lock()
    assert requirements_source(PACKAGES, str(lock), tmp_path) == str(lock)


@pytest.mark.parametrize("extra", [
    "evilpkg @ file:///home/them/evilpkg-1.0-py3-none-any.whl",
    "evilpkg@https://example.org/evilpkg-1.0-py3-none-any.whl",
    "evilpkg @ file:///home/them/evilpkg-1.0-py3-none-any.whl \\\n    " + HASH,
    "graphcast @ file:///home/them/graphcast-0.1.1-py3-none-any.whl",  # not the source the entry records
    "/home/them/evilpkg-1.0-py3-none-any.whl",
    "evilpkg>=1.0",
    "-r /home/them/more.txt",
])
def test_any_other_line_in_the_frozen_set_is_refused_naming_the_file_and_line(isolated_state, tmp_path, extra):
    lock = _lock(extra)
    with pytest.raises(UserError) as refused:
        requirements_source(PACKAGES, str(lock), tmp_path)
    assert f"{lock} line 8" in str(refused.value)
    assert "Nothing" in str(refused.value) and "changed" in str(refused.value)


def test_a_direct_reference_in_the_recorded_packages_is_refused_too(isolated_state, tmp_path):
    """The other door of the same sync: the entry's packages written out when no frozen file is kept."""
    with pytest.raises(UserError, match="not a name==version pin"):
        requirements_source(["pkg-a==1.0", "evilpkg @ file:///home/them/e.whl"], None, tmp_path)
    assert requirements_source(["pkg-a==1.0", GRAPHCAST], None, tmp_path)


def test_a_rebuild_is_refused_before_anything_is_made(isolated_state):
    """`rollback` asks the saved list's reader in its checks (`saved_list_problem`), before the env is made."""
    from wizard.flows.rollback import saved_list_problem
    from wizard.history.store import Entry

    lock = _lock("evilpkg @ file:///home/them/evilpkg-1.0-py3-none-any.whl")
    entry = Entry(id="e1", kind="install", recipe="tiny-a", env="/e", packages=PACKAGES,
                  requirements_file=str(lock))
    problem = saved_list_problem(entry)
    assert problem is not None and f"{lock} line 8" in problem and "evilpkg" in problem
    _lock()
    assert saved_list_problem(entry) is None


@pytest.mark.parametrize("extra", [f"pkg-c==1.0 \\\n    {HASH}", "pkg_c==1.0", "pkg-a==1.1"])
def test_a_pin_the_entry_does_not_record_is_refused_before_the_rebuild(isolated_state, tmp_path, extra):
    """33rd hostile pass (part B) P3: `pkg-c==1.0 --hash=…` (a wheel in the user's own wheelhouse carrying a `.pth`)
    added to frozen/ID.txt passed the pre-check, was installed by the rebuild (its `.pth` ran as root), and was only
    found "extra" after the sync. The lock may pin only the entry's own packages: refused by the saved list's check
    before anything is made, and by the sync's reader."""
    from wizard.flows.rollback import saved_list_problem
    from wizard.history.store import Entry

    lock = _lock(extra)
    with pytest.raises(UserError) as refused:
        requirements_source(PACKAGES, str(lock), tmp_path)
    assert f"{lock} line 8" in str(refused.value) and "does not record" in str(refused.value)
    entry = Entry(id="e1", kind="install", recipe="tiny-a", env="/e", packages=PACKAGES, requirements_file=str(lock))
    problem = saved_list_problem(entry)
    assert problem is not None and f"{lock} line 8" in problem and "does not record" in problem
