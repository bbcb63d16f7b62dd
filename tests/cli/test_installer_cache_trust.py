"""The installer's download cache passes the swap rule every install source goes through: a uv or pip cache
another user owns (for root) or every user can write is not used; the plan names it and why, and the steps use a
private cache inside the state (`UV_CACHE_DIR`/`PIP_CACHE_DIR`) instead.

Before (25th hostile pass (part B) P1): uv installs from a cache entry without checking it against its wheel, so
root's install with `XDG_CACHE_HOME`/`UV_CACHE_DIR` leading to another user's (or a 0777) cache took their
rewritten `pkg_a.py` into root's environment and ran it as uid 0, and `plan` named the cache without a word of
its owner or mode. Real uv, the tiny recipes' real wheels, real folders and owners."""

from __future__ import annotations

import os
import subprocess

from tests.fixtures.cli import run_inproc
from tests.fixtures.modes import NOBODY, need_root, open_folder
from tests.fixtures.state import last_json
from wizard.install.cache_trust import pip_cache
from wizard.paths import state_dir


def _plan(tiny, env: dict[str, str], *extra: str) -> dict:
    args = [a for a in tiny.args(*extra) if a != "--no-verify"]
    proc = run_inproc("plan", "tiny-a", *args, "--json", env=env)
    assert proc.returncode == 0, proc.stderr
    return last_json(proc)


def _step_env(plan: dict, name: str) -> dict:
    return next(step["env"] for step in plan["steps"] if step["name"] == name)


def test_a_uv_cache_every_user_can_write_is_replaced_by_a_private_one_named_in_the_plan(tiny, tmp_path):
    cache = open_folder(tmp_path / "ww") / "uv"
    plan = _plan(tiny, {"UV_CACHE_DIR": str(cache)})
    own = str(state_dir() / "cache" / "uv")
    assert _step_env(plan, "install-requirements")["UV_CACHE_DIR"] == own
    assert _step_env(plan, "install-graphcast")["UV_CACHE_DIR"] == own
    note = next(n for n in plan["notes"] if "download cache" in n)
    assert f"uv's download cache {cache} is not used, because {tmp_path / 'ww'} is a folder every user can write" \
        in note and f"a cache of its own, {own} (UV_CACHE_DIR)" in note


def test_for_root_a_uv_cache_another_user_owns_is_not_used(tiny, tmp_path):
    need_root("give a cache to another user")
    cache = tmp_path / "theirs" / "uv"
    cache.mkdir(parents=True)
    os.chown(cache, NOBODY, NOBODY)
    plan = _plan(tiny, {"XDG_CACHE_HOME": str(tmp_path / "theirs")})
    assert _step_env(plan, "install-requirements")["UV_CACHE_DIR"] == str(state_dir() / "cache" / "uv")
    assert any(f"(uid {NOBODY}) owns, and gc-wizard runs as root" in n for n in plan["notes"])


def test_a_cache_only_you_can_write_is_used_as_it_is(tiny, tmp_path):
    plan = _plan(tiny, {"UV_CACHE_DIR": str(tmp_path / "mine" / "uv")})
    assert "UV_CACHE_DIR" not in _step_env(plan, "install-requirements")
    assert not any("download cache" in n for n in plan["notes"])


def test_the_pip_installer_gets_the_same_rule(tiny, tmp_path, monkeypatch):
    monkeypatch.delenv("PIP_NO_CACHE_DIR", raising=False)  # a machine set to cache nothing has no cache to judge
    cache = open_folder(tmp_path / "ww") / "pip"
    assert pip_cache({"PIP_CACHE_DIR": str(cache)}) == cache
    assert pip_cache({"XDG_CACHE_HOME": str(tmp_path / "x")}) == tmp_path / "x" / "pip"
    plan = _plan(tiny, {"PIP_CACHE_DIR": str(cache)}, "--installer", "pip")
    assert _step_env(plan, "install-requirements")["PIP_CACHE_DIR"] == str(state_dir() / "cache" / "pip")



def test_a_pip_cache_named_in_a_pip_conf_is_judged_as_one_named_by_a_variable(tiny, tmp_path, monkeypatch):
    """pip reads `cache-dir` from its settings files too; the rule read only the variables and the default, so a lab
    pip.conf's shared 0777 cache was used as it was (a gap the P1 fixer named)."""
    monkeypatch.delenv("PIP_NO_CACHE_DIR", raising=False)  # a machine set to cache nothing has no cache to judge
    cache = open_folder(tmp_path / "ww") / "pip"
    conf = tmp_path / "pip.conf"
    conf.write_text(f"[global]\ncache-dir = {cache}\n")
    assert pip_cache({"PIP_CONFIG_FILE": str(conf)}) == cache
    assert pip_cache({"PIP_CONFIG_FILE": str(conf), "PIP_CACHE_DIR": str(tmp_path / "own")}) == tmp_path / "own"
    conf.write_text(f"[global]\ncache-dir = {cache}\n[install]\nno-cache-dir = true\n")
    assert pip_cache({"PIP_CONFIG_FILE": str(conf)}) is None
    conf.write_text(f"[global]\ncache-dir = {cache}\n")
    plan = _plan(tiny, {"PIP_CONFIG_FILE": str(conf)}, "--installer", "pip")
    assert _step_env(plan, "install-requirements")["PIP_CACHE_DIR"] == str(state_dir() / "cache" / "pip")

def _uv(*argv: str, env: dict[str, str]) -> None:
    from uv import find_uv_bin

    proc = subprocess.run([find_uv_bin(), *argv], env={**os.environ, **env}, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr


def _poisoned_cache(tiny, tmp_path):
    """A uv cache in a 0777 folder, filled by real uv with pkg-a 1.0, whose `pkg_a.py` another user rewrote."""
    cache = open_folder(tmp_path / "ww") / "uv"
    scratch = tmp_path / "scratch"
    _uv("venv", "--offline", str(scratch), env={"UV_CACHE_DIR": str(cache)})
    _uv("pip", "install", "--offline", "--python", str(scratch / "bin" / "python"), "--find-links",
        str(tiny.house.path), "pkg-a==1.0", env={"UV_CACHE_DIR": str(cache)})
    planted = [p for p in cache.rglob("pkg_a.py") if "archive-v0" in p.parts]
    assert planted
    for path in planted:
        path.write_text("MARK = 'planted by another user'\n")
    return cache


def test_an_install_never_takes_a_planted_file_from_such_a_cache(tiny, tmp_path):
    """The tester's case end to end: the cache filled by real uv, a file in its entry rewritten, then installed."""
    cache = _poisoned_cache(tiny, tmp_path)
    proc, result = tiny.install("tiny-a", env={"UV_CACHE_DIR": str(cache)})
    assert proc.returncode == 0, proc.stderr
    installed = list((state_dir() / "envs").glob("tiny-a-*/lib/python*/site-packages/pkg_a.py"))
    assert installed and all("planted" not in p.read_text() for p in installed)
    # uv's empty 0666 lock files in the state's private cache are tightened without a note about each run.
    later = run_inproc("history")
    assert later.returncode == 0 and "took group and other write off" not in later.stderr, later.stderr


def test_the_plans_download_cache_line_says_the_private_cache_is_this_installs_own(tiny, tmp_path):
    cache = open_folder(tmp_path / "ww") / "uv"
    args = [a for a in tiny.args() if a != "--no-verify"]
    proc = run_inproc("plan", "tiny-a", *args, env={"UV_CACHE_DIR": str(cache)})
    assert proc.returncode == 0, proc.stderr
    own = state_dir() / "cache" / "uv"
    text = " ".join(proc.stdout.split())  # the plan is wrapped to the terminal's width
    assert f"Download cache: {own} (this install's own: uv's is not used, see the notes)" in text


def test_every_installing_step_the_runner_runs_gets_the_rule_not_only_a_plans(tiny, tmp_path):
    """Rollback's and `sync`'s `uv pip sync` install "offline, from the cache" first, with no plan to name a
    private cache: the runner applies the rule to every step that installs, and says why in the step's log."""
    from uv import find_uv_bin

    from wizard.install.plan import Step
    from wizard.install.runner import StepLog, run_step

    cache = _poisoned_cache(tiny, tmp_path)
    target = tmp_path / "target"
    _uv("venv", "--offline", str(target), env={"UV_CACHE_DIR": str(tmp_path / "mine")})
    requirements = tmp_path / "req.txt"
    requirements.write_text("pkg-a==1.0\n")
    step = Step(name="sync-offline", title="Install the frozen package set (offline, from the cache)",
                argv=(find_uv_bin(), "pip", "sync", "--python", str(target / "bin" / "python"), "--offline",
                      "--find-links", str(tiny.house.path), str(requirements)), env={}, cwd=str(tmp_path))
    log_path = tmp_path / "step.log"
    with StepLog(log_path) as log:
        result = run_step(step, log=log, environ={**os.environ, "UV_CACHE_DIR": str(cache)})
    assert result.ok, result.error
    (installed,) = target.glob("lib/python*/site-packages/pkg_a.py")
    assert "planted" not in installed.read_text()
    assert f"uv's download cache {cache} is not used" in log_path.read_text()


def test_a_lock_is_resolved_and_hashed_without_such_a_cache(tiny, tmp_path):
    """`lock`'s `uv pip compile --generate-hashes` runs outside the runner: its hashes would come from what the
    cache holds, so the same rule applies there (and to the frozen set's hashes and a bundle's downloads)."""
    cache = open_folder(tmp_path / "ww") / "uv"
    out = tmp_path / "tiny-a.lock.txt"
    proc = run_inproc("lock", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                      "--offline", "--out", str(out), env={"UV_CACHE_DIR": str(cache)})
    assert proc.returncode == 0, proc.stderr
    assert out.is_file() and not cache.exists()
    assert f"uv's download cache {cache} is not used" in " ".join(proc.stderr.split())


def test_a_uv_venv_step_such_as_a_rebuilds_never_writes_or_reads_such_a_cache(tmp_path):
    """`uv venv` keeps what it learns of interpreters in the cache too; rollback's rebuild runs it with no plan."""
    from uv import find_uv_bin

    from wizard.install.plan import Step
    from wizard.install.runner import StepLog, run_step

    cache = open_folder(tmp_path / "ww") / "uv"
    step = Step(name="create-env", title="Recreate the environment", kind="create_env",
                argv=(find_uv_bin(), "venv", "--offline", str(tmp_path / "env")), env={}, cwd=str(tmp_path))
    with StepLog(tmp_path / "step.log") as log:
        result = run_step(step, log=log, environ={**os.environ, "UV_CACHE_DIR": str(cache)})
    assert result.ok, result.error
    assert not cache.exists()
