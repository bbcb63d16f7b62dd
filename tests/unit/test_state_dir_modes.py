"""Every folder of the state, and each folder one level inside those, is this user's and closed to other
writers (fifth hostile pass 7d/7h: a 0777 state folder used as it was, a link planted at the lock's name;
sixth pass 7c/7g: a 0777 `modules/` whose `graphcast/` another user swapped for their own, so the owner's
`module load` ran their Lua, and an `envs/` owned by another user, who swapped the current env)."""

from __future__ import annotations

import os
import stat

import pytest

from wizard.errors import OperationFailed
from wizard.paths import ensure_state_dir

_MANAGED = ("envs", "logs", "modules", "frozen", "assets", "forecasts", "bundles")


def test_an_existing_world_writable_state_folder_is_closed_to_other_writers(tmp_path):
    state = tmp_path / "state"
    inner = [state / name for name in _MANAGED]
    deeper = [state / "envs" / "e1", state / "modules" / "graphcast", state / "assets" / "params",
              state / "forecasts" / "run1"]
    for folder in (state, *inner, *deeper):
        folder.mkdir()
        os.chmod(folder, 0o777)
    (state / "envs" / "e1" / "bin").mkdir()
    os.chmod(state / "envs" / "e1" / "bin", 0o777)
    ensure_state_dir(state)
    for folder in (state, *inner, *deeper):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o755, folder
    assert stat.S_IMODE((state / "envs" / "e1" / "bin").stat().st_mode) == 0o777  # inside an env: uv's and pip's


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder to another user needs root (CI runs as root)")
@pytest.mark.parametrize("where", ["", "envs", "modules", "modules/graphcast", "envs/tiny-a-20261126-000000"])
def test_a_folder_another_user_owns_is_refused_by_name(tmp_path, where):
    state = tmp_path / "state"
    for folder in (state, state / "envs", state / "modules", state / where):
        folder.mkdir(exist_ok=True)
    os.chown(state / where, 65534, 65534)
    with pytest.raises(OperationFailed) as refused:
        ensure_state_dir(state)
    said = str(refused.value)
    assert str(state / where).rstrip("/") in said and "uid 65534" in said and "not to you" in said


def test_a_new_state_folder_is_private():
    state = ensure_state_dir()
    assert stat.S_IMODE(state.stat().st_mode) == 0o700


def test_a_state_folder_made_a_link_to_another_disk_is_guarded_there(tmp_path):
    """Seventh hostile pass 10d: `logs -> /elsewhere` (0777): logs were written there and it stayed open. The folder
    the link names is the user's choice and is never changed (ninth pass Y4: a group's 2775 cache lost its group
    write through the link); one every user can write without the sticky bit is refused by name."""
    state, elsewhere = tmp_path / "state", tmp_path / "scratch-logs"
    state.mkdir()
    elsewhere.mkdir()
    os.chmod(elsewhere, 0o777)
    (state / "logs").symlink_to(elsewhere)
    with pytest.raises(OperationFailed, match=r"scratch-logs, where a link in the state folder leads, is writable by "
                                              r"every user .*nothing was changed"):
        ensure_state_dir(state)
    assert stat.S_IMODE(elsewhere.stat().st_mode) == 0o777 and (state / "logs").is_symlink()


@pytest.mark.parametrize("mode", [0o2775, 0o1777, 0o775, 0o700])
def test_a_linked_folder_keeps_its_modes_a_shared_cache_its_group_write(tmp_path, mode):
    """Ninth hostile pass Y4: `assets -> /lab/gc-assets` (2775, the lab's shared download cache) became 2755 when
    the owner ran `activate`, and their teammates could no longer add to it."""
    state, shared = tmp_path / "state", tmp_path / "lab-assets"
    state.mkdir()
    shared.mkdir()
    os.chmod(shared, mode)
    (state / "assets").symlink_to(shared)
    ensure_state_dir(state)
    assert stat.S_IMODE(shared.stat().st_mode) == mode


def test_a_state_folder_under_a_folder_every_user_can_write_is_refused(tmp_path):
    """Tenth hostile pass Y3: `GC_WIZARD_HOME=/shared/0777/sub/state` was used, though the same place is refused for
    an `--env`: any local user could rename `sub` away and put their own state, envs and history there."""
    open_to_all = tmp_path / "wwa"
    (open_to_all / "sub").mkdir(parents=True)
    os.chmod(open_to_all, 0o777)
    with pytest.raises(OperationFailed, match=r"the state folder .*/wwa/sub/state is under .*/wwa, which is writable "
                                              r"by every user .*GC_WIZARD_HOME"):
        ensure_state_dir(open_to_all / "sub" / "state")
    assert not (open_to_all / "sub" / "state").exists()  # refused before anything was made
    os.chmod(open_to_all, 0o1777)  # sticky, as /tmp: nobody can rename what is not theirs
    assert ensure_state_dir(open_to_all / "sub" / "state").is_dir()


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder to another user needs root (CI runs as root)")
@pytest.mark.parametrize("how", ["folder above", "link to it"])
def test_a_state_reached_through_another_users_folder_or_link_is_refused(tmp_path, how):
    """Thirteenth hostile pass #63/#64: a state under a folder `nobody` owns, and GC_WIZARD_HOME a link `nobody`
    owns in /tmp, were used as they were; their owner could swap the state. Refused before anything is made."""
    if how == "folder above":
        above = tmp_path / "theirs"
        above.mkdir()
        os.chown(above, 65534, 65534)
        state = above / "sub" / "state"
    else:
        (tmp_path / "mine").mkdir()
        state = tmp_path / "via-link"
        state.symlink_to(tmp_path / "mine")
        os.chown(state, 65534, 65534, follow_symlinks=False)
    with pytest.raises(OperationFailed) as refused:
        ensure_state_dir(state)
    assert "uid 65534" in str(refused.value) and "could swap the state" in str(refused.value)
    made = [p for p in tmp_path.rglob("*") if p.name in ("sub", "state") or p.parent.name == "mine"]
    assert made == []  # nothing made before the refusal


def test_the_change_to_the_state_folder_is_said_once(tmp_path):
    """Thirteenth pass #34/#37: `history` and `report` closed a 0777 state folder to 0755 without a word. The change
    stays (anyone could swap an env otherwise) and every command says it once, on stderr, naming the folder and the
    mode it had; a run that changes nothing says nothing."""
    from tests.fixtures.cli import run_inproc

    state = tmp_path / "state"
    state.mkdir()
    os.chmod(state, 0o777)
    first = run_inproc("history", "--json", env={"GC_WIZARD_HOME": str(state)})
    assert first.returncode == 0 and first.stdout.strip().splitlines()[-1] == "[]"
    said = [line for line in first.stderr.splitlines() if "took group and other write off" in line]
    assert said == [f"gc-wizard: took group and other write off {state} (it was 0777), so no other user can swap "
                    "what gc-wizard runs from it."]
    assert stat.S_IMODE(state.stat().st_mode) == 0o755
    again = run_inproc("history", "--json", env={"GC_WIZARD_HOME": str(state)})
    assert "took group" not in again.stderr


@pytest.mark.parametrize("where", ["history.json", "logs/install-20261126-000000-ab12.log", "frozen/e1.txt",
                                   "envs/e1/gc-wizard-env.json", "modules/graphcast/tiny-a.lua"])
def test_a_file_the_wizard_reads_back_loses_group_and_other_write_said_once(tmp_path, where):
    """Twentieth pass P7: a state restored with loose modes had its folders closed, but history.json and the logs
    stayed 0666, so any user could edit the history the wizard trusts. Each of the user's files directly in a
    folder the state guards loses group/other write, said once naming it and its old mode; links are not followed,
    and what is inside an environment's own folders (bin/, lib/) stays uv's and pip's."""
    from tests.fixtures.cli import run_inproc

    state = tmp_path / "state"
    target = state / where
    target.parent.mkdir(parents=True)
    target.write_text('{"version": 1, "entries": []}' if where == "history.json" else "{}")
    os.chmod(target, 0o666)
    outside = tmp_path / "outside.txt"
    outside.write_text("")
    os.chmod(outside, 0o666)
    if target.parent.name != "frozen" and target.parent.parent.name != "envs":
        # Where the history reads files back (frozen sets, env markers) such a link is refused instead (29th hostile
        # pass (part B) P7: the test below); elsewhere it is left, and what it leads to is never changed.
        (target.parent / "link.txt").symlink_to(outside)
    (state / "envs" / "e1" / "bin").mkdir(parents=True, exist_ok=True)
    (state / "envs" / "e1" / "bin" / "python").write_text("")
    os.chmod(state / "envs" / "e1" / "bin" / "python", 0o777)
    first = run_inproc("history", "--json", env={"GC_WIZARD_HOME": str(state)})
    said = [line for line in first.stderr.splitlines() if "took group" in line]
    assert said == [f"gc-wizard: took group and other write off {target.name} (it was 0666) in {target.parent}, so "
                    "no other user can change what gc-wizard reads back from there."], first.stderr
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert stat.S_IMODE(outside.stat().st_mode) == 0o666  # nothing outside the state
    assert stat.S_IMODE((state / "envs" / "e1" / "bin" / "python").stat().st_mode) == 0o777
    again = run_inproc("history", "--json", env={"GC_WIZARD_HOME": str(state)})
    assert "took group" not in again.stderr


def test_a_note_about_a_folder_deleted_before_the_end_is_not_said(tmp_path, monkeypatch):
    """walk 23 #8: the app, quit 20 minutes after a cancelled install it had itself removed, said
    it took write off `.lock` in that environment's folder, which no longer existed. The notes said at the end of a
    run are those about folders still there; the others stay said for folders that are."""
    from wizard import paths

    monkeypatch.setattr(paths, "TIGHTENED", [])
    monkeypatch.setattr(paths, "ENV_WARNINGS", [])
    state = tmp_path / "state"
    for name in ("gone", "kept"):
        (state / "envs" / name).mkdir(parents=True)
        (state / "envs" / name / ".lock").write_text("")
        os.chmod(state / "envs" / name / ".lock", 0o666)
    ensure_state_dir(state)
    assert len(paths.end_notes()) == 2
    (state / "envs" / "gone" / ".lock").unlink()
    (state / "envs" / "gone").rmdir()
    (said,) = paths.end_notes()
    assert f"in {state / 'envs' / 'kept'}," in said and "gone" not in said


def _modes(root):
    return sorted((str(p), p.lstat().st_mode) for p in [root, *root.rglob("*")])


@pytest.mark.parametrize("command", [("history",), ("history", "--json"), ("activate",), ("detect", "--json")])
def test_a_folder_that_is_no_state_is_refused_before_anything_changes(tmp_path, command):
    """24th hostile pass (part B) P6: `GC_WIZARD_HOME` on a copy of a system root had `history` take write off its
    1777 tmp/ and var/tmp, a 2775 lab folder and a team's 0664 file, then say "No installs yet". A non-empty folder
    holding nothing of gc-wizard's is refused by name (exit 2) with every mode and file as it was; `detect`, which
    needs no state, runs and writes no cache there."""
    from tests.fixtures.cli import run_inproc

    root = tmp_path / "root"
    for folder, mode in (("tmp", 0o1777), ("var/tmp", 0o1777), ("srv", 0o775), ("srv/lab", 0o2775),
                         ("home/alice/proj", 0o775)):
        (root / folder).mkdir(parents=True)
        os.chmod(root / folder, mode)
    (root / "srv" / "team.cfg").write_text("x")
    os.chmod(root / "srv" / "team.cfg", 0o664)
    before = _modes(root)
    proc = run_inproc(*command, env={"GC_WIZARD_HOME": str(root)})
    assert _modes(root) == before
    assert "Traceback" not in proc.stderr and "took group" not in proc.stderr
    if command[0] == "detect":
        assert proc.returncode == 0
    else:
        assert proc.returncode == 2 and f"the state folder {root} " in proc.stderr and "nothing was changed" in \
            proc.stderr, proc.stderr


def test_only_what_the_wizard_made_in_a_state_is_swept(tmp_path):
    """24th hostile pass (part B) P6: in a real state, a folder or file the user keeps beside the wizard's own
    (`notes/`, `team.txt`) is theirs: its modes stay; the wizard's history.json and envs/ are still closed."""
    state = tmp_path / "state"
    (state / "envs" / "e1").mkdir(parents=True)
    (state / "notes").mkdir()
    (state / "history.json").write_text('{"version": 1, "entries": []}')
    (state / "team.txt").write_text("")
    for path, mode in ((state / "notes", 0o775), (state / "team.txt", 0o664), (state / "history.json", 0o666),
                       (state / "envs", 0o777)):
        os.chmod(path, mode)
    ensure_state_dir(state)
    assert stat.S_IMODE((state / "notes").stat().st_mode) == 0o775
    assert stat.S_IMODE((state / "team.txt").stat().st_mode) == 0o664
    assert stat.S_IMODE((state / "history.json").stat().st_mode) == 0o644
    assert stat.S_IMODE((state / "envs").stat().st_mode) == 0o755


@pytest.mark.parametrize("where", ["", "envs", "modules/graphcast"])
def test_a_sticky_folder_every_user_can_write_is_refused_never_changed(tmp_path, where):
    """24th hostile pass (part B) P6: a 1777 folder became 1755. A sticky world-writable folder is shared on
    purpose: it is refused by name, before any other change, and keeps its bits."""
    state = tmp_path / "state"
    (state / "envs").mkdir(parents=True)
    (state / "modules" / "graphcast").mkdir(parents=True)
    (state / "history.json").write_text("{}")
    os.chmod(state / "history.json", 0o666)
    os.chmod(state / where, 0o1777)
    with pytest.raises(OperationFailed, match=r"sticky as /tmp is.*nothing was changed"):
        ensure_state_dir(state)
    assert stat.S_IMODE((state / where).stat().st_mode) == 0o1777
    assert stat.S_IMODE((state / "history.json").stat().st_mode) == 0o666


def test_a_command_the_lock_turns_away_changes_no_mode(tmp_path):
    """24th hostile pass (part B) N1: a `remove` refused by the lock ("Another gc-wizard is already working") still
    took write off uv's 0666 `.lock` inside the running install's new env. While another wizard holds the lock,
    neither a command that reads the state nor one the lock turns away changes a mode in it."""
    import subprocess
    import sys

    from tests.fixtures.cli import run_inproc
    from tests.fixtures.state import REPO
    from wizard.errors import LockHeld
    from wizard.lock import StateLock

    state = tmp_path / "state"
    (state / "envs" / "tiny-a-1").mkdir(parents=True)
    inside = state / "envs" / "tiny-a-1" / ".lock"
    inside.write_text("")
    code = ("import time; from wizard.lock import StateLock\n"
            "with StateLock('install tiny-a'):\n    print('locked', flush=True); time.sleep(120)\n")
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, cwd=REPO,
                              env={**os.environ, "GC_WIZARD_HOME": str(state)})
    try:
        assert holder.stdout.readline().strip() == "locked"
        os.chmod(inside, 0o666)  # as uv's lock file is while the holder's install runs
        read = run_inproc("history", "--json", env={"GC_WIZARD_HOME": str(state)})
        assert read.returncode == 0 and "took group" not in read.stderr
        os.environ["GC_WIZARD_HOME"] = str(state)
        with pytest.raises(LockHeld):
            StateLock("remove x").acquire()
        assert stat.S_IMODE(inside.stat().st_mode) == 0o666
    finally:
        holder.kill()
        holder.wait()
    with StateLock("remove x"):  # the lock free again: the sweep runs, as before
        assert stat.S_IMODE(inside.stat().st_mode) == 0o644


@pytest.mark.parametrize("where", ["history.json", "last-assets.json", "frozen/e1.txt", "envs/e1/gc-wizard.json"])
@pytest.mark.parametrize("how", ["their file", "a link to their file", "a link into their folder"])
def test_a_file_the_history_reads_back_that_another_user_could_change_is_refused(tmp_path, where, how):
    """29th hostile pass (part B) P7: `history.json` a link into another user's file was read without a word, and
    their edit chose which environment root's `activate` and `verify` used. A file the wizard reads back (the state's
    own files, frozen sets, env markers) that is another user's, or a link to one, or a link into a folder of
    theirs, is refused by name before anything is read or changed; the user's own link is left as it is."""
    from tests.fixtures.modes import NOBODY, need_root

    need_root("give a file to another user (chown)")
    state = tmp_path / "state"
    (state / "envs" / "e1").mkdir(parents=True)
    (state / "frozen").mkdir()
    os.chmod(state, 0o700)
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    target = theirs / "h.json"
    target.write_text("{}\n")
    if how != "a link into their folder":
        os.chown(target, NOBODY, NOBODY)
    os.chown(theirs, NOBODY, NOBODY)
    path = state / where
    if how == "their file":
        os.rename(target, path)
    else:
        path.symlink_to(target)
    with pytest.raises(OperationFailed) as info:
        ensure_state_dir(state)
    said = str(info.value)
    assert said.startswith(str(path)) and "nothing was changed" in said, said
    assert ("belongs to" in said) if how != "a link into their folder" else (f"reached through {theirs}" in said)
    assert os.path.islink(path) == (how != "their file")
    mine = tmp_path / "mine.json"
    mine.write_text("{}\n")
    path.unlink()
    path.symlink_to(mine)
    ensure_state_dir(state)  # the user's own file through a link of theirs: their choice, left as it is


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder to another user needs root (CI runs as root)")
@pytest.mark.parametrize("name", ["frozen", "logs", "envs", "modules", "forecasts", "assets"])
def test_a_state_folder_linked_into_another_users_folder_is_refused(tmp_path, name):
    """33rd hostile pass (part B) P3: `frozen -> <another user's folder>/frozen` was used without a word (root's
    frozen sets written there, and one that user rewrote was installed by a rebuild), and `logs ->` the same, while
    `envs ->` and `modules ->` were refused later on their own paths. Every sub-folder of the state linked elsewhere
    meets the one swap rule (`source_trust.swap_risk`) on its way and where it leads, before anything is written."""
    state, theirs = tmp_path / "state", tmp_path / "theirs"
    state.mkdir()
    (theirs / name).mkdir(parents=True)
    os.chown(theirs, 65534, 65534)
    (state / name).symlink_to(theirs / name)
    with pytest.raises(OperationFailed) as refused:
        ensure_state_dir(state)
    said = str(refused.value)
    assert str(state / name) in said and "uid 65534" in said and "nothing was changed" in said


def test_a_frozen_set_in_a_linked_frozen_folder_is_judged_like_one_in_the_state(tmp_path):
    """The files the history reads back are judged where a link leads too: a frozen set there that is a link to a
    file another user could change is refused as it is in the state's own `frozen/`."""
    state, mine, open_to_all = tmp_path / "state", tmp_path / "scratch-frozen", tmp_path / "wwa"
    for folder in (state, mine, open_to_all):
        folder.mkdir()
    os.chmod(open_to_all, 0o777)
    (open_to_all / "e1.txt").write_text("pkg-a==1.0\n")
    (mine / "e1.txt").symlink_to(open_to_all / "e1.txt")
    (state / "frozen").symlink_to(mine)
    with pytest.raises(OperationFailed, match=r"e1\.txt .*in the state folder .*could change what gc-wizard reads"):
        ensure_state_dir(state)
