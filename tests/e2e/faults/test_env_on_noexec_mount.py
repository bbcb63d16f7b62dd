"""A state folder on a real noexec tmpfs (as some clusters mount /tmp and scratch): the plan names the mount and
`install` refuses before any download (31st hostile pass (part A) P2: the plan said nothing, the whole install ran,
and the check's fix blamed TMPDIR). The in-process tests beside the CLI stand the mount in; this one mounts it."""

from __future__ import annotations

from tests.fixtures.state import last_json, run_cli


def test_a_real_noexec_state_folder_is_named_by_the_plan_and_refused_by_install(tiny, noexec_tmpfs):
    env = {"GC_WIZARD_HOME": str(noexec_tmpfs / "state")}
    plan_args = [arg for arg in tiny.args() if arg != "--no-verify"]
    planned = last_json(run_cli("plan", "tiny-a", *plan_args, "--json", env=env))
    assert f"mounted noexec ({noexec_tmpfs})" in planned["env_noexec"], planned["env_noexec"]
    refused = run_cli("install", "tiny-a", "--yes", *tiny.args(), env=env)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr, refused.stderr
    assert "without --force" in " ".join(refused.stderr.split()), refused.stderr
    envs = noexec_tmpfs / "state" / "envs"
    assert not envs.exists() or not [p for p in envs.iterdir() if not p.name.startswith(".")]
