"""Walk 27 #5: with GC_WIZARD_HOME under a folder only root can write, `plan`, the Plan screen and `detect` said
nothing and only `install` refused, advising "fix its owner or permissions" (root's work). Now the plan and the
machine summary say it before anything runs, and the install refuses, with one wording (`paths.state_write_problem`)
and a way a normal user can take: `unset GC_WIZARD_HOME` or an exact `export GC_WIZARD_HOME=…` of their own. Real
wizard processes run as a second, normal user (`runuser`); needs root to make that user."""

from __future__ import annotations

import os
from pathlib import Path

from tests.fixtures.modes import wizard_as
from tests.fixtures.tiny import Tiny
from tests.fixtures.wheels import build_wheel


class _House:
    """A wheelhouse the second user can read (pytest's own temporary folder is root's, 0700)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir()

    def add(self, name: str, version: str, **kw) -> Path:
        return build_wheel(self.path, name, version, **kw)


def _said(proc) -> str:
    return " ".join((proc.stdout + proc.stderr).split())


def test_an_unmakeable_state_folder_is_named_by_the_plan_detect_and_install_alike(second_user, public_tmp):
    tiny = Tiny(public_tmp, _House(public_tmp / "wheels"))
    admin = public_tmp / "admin"  # root's, 0755: the user may read it, not make anything in it
    admin.mkdir(mode=0o755)
    home = public_tmp / "home"
    home.mkdir()
    os.chown(home, *_ids(second_user))
    env = {"GC_WIZARD_HOME": str(admin / "gcw"), "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    wrong = f"the state folder {admin / 'gcw'} (set by GC_WIZARD_HOME) cannot be made: you cannot write in {admin}"
    ways = ("`unset GC_WIZARD_HOME` (the default state folder, " f"{home}/.local/share/gc-wizard)",
            f"`export GC_WIZARD_HOME={home}/gc-wizard`")

    plan = wizard_as(second_user, "plan", "tiny-a", *tiny.args()[:-1], env=env)
    assert plan.returncode == 0, plan.stderr
    said = _said(plan)
    assert f"! {wrong[0].upper()}{wrong[1:]}, so `install` would stop before its first step." in said, said
    assert all(way in said for way in ways), said

    detect = wizard_as(second_user, "detect", env=env)
    assert detect.returncode == 0, detect.stderr
    said = _said(detect)
    assert wrong[1:] in said and all(way in said for way in ways), said

    install = wizard_as(second_user, "install", "tiny-a", "--yes", *tiny.args(), env=env)
    assert install.returncode == 1, install.stderr
    said = _said(install)
    assert f"gc-wizard: {wrong}, so gc-wizard has nowhere to keep" in said, said
    assert all(way in said for way in ways) and "Traceback" not in said, said
    for root_only in ("chown", "sudo", "owner or permissions", "as root"):
        assert root_only not in said, said
    assert list(admin.iterdir()) == []


def test_a_root_owned_state_folder_is_refused_with_a_way_of_the_users_own(second_user, public_tmp):
    state = public_tmp / "gcw"
    state.mkdir(mode=0o755)  # root's state, readable by all
    home = public_tmp / "home"
    home.mkdir()
    os.chown(home, *_ids(second_user))
    env = {"GC_WIZARD_HOME": str(state), "HOME": str(home)}
    proc = wizard_as(second_user, "history", env=env)
    assert proc.returncode == 1, proc.stdout
    said = _said(proc)
    assert "belongs to user root" in said and f"`export GC_WIZARD_HOME={home}/gc-wizard`" in said, said


def _ids(user: str) -> tuple[int, int]:
    import pwd

    entry = pwd.getpwnam(user)
    return entry.pw_uid, entry.pw_gid
