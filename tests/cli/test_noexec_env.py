"""An environment folder on a noexec mount is said by the plan and refused by the install before any download.

31st hostile pass (part A) P2: with the state folder on a noexec tmpfs the plan said nothing, the whole install ran,
and only its check found that jaxlib's libraries could not be loaded from the environment. The mount is looked at
by `paths.env_mount_block` (the neighbour of the read-only check), here faked under one folder (`tests/fixtures/noexec`)."""

from __future__ import annotations

from tests.fixtures.cli import run_inproc
from tests.fixtures.noexec import noexec_under, nosymfollow_under
from tests.fixtures.state import last_json


def _plan_args(tiny) -> list[str]:
    return [arg for arg in tiny.args() if arg != "--no-verify"]


def test_the_plan_marks_and_install_refuses_a_state_folder_on_a_noexec_mount(tmp_path, monkeypatch, tiny):
    mount = tmp_path / "nx"
    mount.mkdir()
    monkeypatch.setenv("GC_WIZARD_HOME", str(mount / "state"))
    noexec_under(monkeypatch, mount)
    plan = run_inproc("plan", "tiny-a", *_plan_args(tiny))
    assert plan.returncode == 0, plan.stderr
    text = " ".join(plan.stdout.split())
    assert f"is on a file system mounted noexec ({mount})" in text, plan.stdout
    assert "point GC_WIZARD_HOME at a folder on a disk that allows programs" in text
    data = last_json(run_inproc("plan", "tiny-a", *_plan_args(tiny), "--json"))
    assert f"mounted noexec ({mount})" in data["env_noexec"]

    refused = run_inproc("install", "tiny-a", "--yes", *tiny.args())
    assert refused.returncode == 2, refused.stderr
    assert f"mounted noexec ({mount})" in refused.stderr and "without --force" in refused.stderr
    envs = mount / "state" / "envs"
    assert not envs.exists() or not any(p for p in envs.iterdir() if not p.name.startswith(".")), list(envs.iterdir())


def test_an_env_folder_on_a_noexec_mount_is_named_with_env_as_the_way_out(tmp_path, monkeypatch, tiny):
    mount = tmp_path / "nx"
    mount.mkdir()
    noexec_under(monkeypatch, mount)
    plan = last_json(run_inproc("plan", "tiny-a", *_plan_args(tiny), "--env", str(mount / "gc"), "--json"))
    assert plan["env_noexec"].startswith(f"{mount / 'gc'} is on a file system mounted noexec ({mount})")
    assert "give --env a folder on a disk that allows programs" in plan["env_noexec"]
    elsewhere = last_json(run_inproc("plan", "tiny-a", *_plan_args(tiny), "--env", str(tmp_path / "ok"), "--json"))
    assert elsewhere["env_noexec"] is None


def test_the_plan_marks_and_install_refuses_a_folder_on_a_nosymfollow_mount(tmp_path, monkeypatch, tiny):
    """34th hostile pass (part A) P4: on a nosymfollow mount the venv's `bin/python` link cannot be followed; the plan
    said nothing and the install failed after the build ("Too many levels of symbolic links")."""
    mount = tmp_path / "nsf"
    mount.mkdir()
    nosymfollow_under(monkeypatch, mount)
    plan = last_json(run_inproc("plan", "tiny-a", *_plan_args(tiny), "--env", str(mount / "gc"), "--json"))
    assert plan["env_noexec"].startswith(f"{mount / 'gc'} is on a file system mounted nosymfollow ({mount})")
    assert "symbolic link" in plan["env_noexec"]
    # its own way out, not noexec's "a disk that allows programs": programs run there (fixers' leftover, 34th pass)
    works = "a file system that follows symbolic links (one not mounted nosymfollow)"
    assert f"give --env a folder on {works}" in plan["env_noexec"] and "allows programs" not in plan["env_noexec"]
    monkeypatch.setenv("GC_WIZARD_HOME", str(mount / "state"))
    refused = run_inproc("install", "tiny-a", "--yes", *tiny.args())
    assert refused.returncode == 2, refused.stderr
    said = " ".join(refused.stderr.split())
    assert f"mounted nosymfollow ({mount})" in said, refused.stderr
    assert f"point GC_WIZARD_HOME at a folder on {works}, or give --env one" in said, said
