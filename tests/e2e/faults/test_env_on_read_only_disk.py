"""`plan --env DIR` on a read-only file system says so, as `install` does (30th hostile pass (part A) P7: the plan
exited 0 with "0 GiB free there" for a read-only 64 MiB tmpfs, and only `install` refused). Both refuse with one
sentence naming the read-only file system, and nothing is made."""

from __future__ import annotations

import pytest

from tests.fixtures.cli import run_inproc


@pytest.mark.parametrize("command", ["plan", "install"])
def test_plan_and_install_name_the_read_only_tmpfs(tiny, read_only_tmpfs, command):
    args = [a for a in tiny.args() if command == "install" or a != "--no-verify"]  # plan takes no --no-verify
    proc = run_inproc(command, "tiny-a", "--env", str(read_only_tmpfs / "env"), *args,
                      *(["--yes"] if command == "install" else []))
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert f"{read_only_tmpfs} is on a read-only file system" in " ".join(proc.stderr.split()), proc.stderr
    assert "Traceback" not in proc.stderr and not (read_only_tmpfs / "env").exists()


@pytest.mark.parametrize("inside", [False, True], ids=["the folder itself", "a folder to be made in it"])
def test_a_state_folder_on_a_read_only_disk_is_named_so_by_plan_and_install(tiny, read_only_tmpfs, monkeypatch,
                                                                           inside):
    """The state folder's sentence (`paths.state_write_problem`) names the read-only file system as `--env`'s does
    (`write_block_words`), not "not writable by you" / "you cannot write in" (no permission fixes it); and the
    install's disk check says it too, not "only 0.0 GiB are free … free some space" (leftovers of the 30th hostile
    pass, item 5)."""
    state = read_only_tmpfs / "state" if inside else read_only_tmpfs
    monkeypatch.setenv("GC_WIZARD_HOME", str(state))
    planned = run_inproc("plan", "tiny-a", *[a for a in tiny.args() if a != "--no-verify"])
    said = " ".join(planned.stdout.split())
    expected = (f"cannot be made: {read_only_tmpfs} is on a read-only file system" if inside
                else f"The state folder {state} (set by GC_WIZARD_HOME) is on a read-only file system")
    assert expected in said and "not writable by you" not in said and "you cannot write in" not in said, said
    installed = run_inproc("install", "tiny-a", "--yes", *tiny.args())
    error = " ".join(installed.stderr.split())
    assert installed.returncode == 1 and "Traceback" not in installed.stderr, installed.stderr
    assert "on a read-only file system, so gc-wizard has nowhere to keep its environments" in error, error
    assert "GiB are free" not in error and not (read_only_tmpfs / "state").exists()
