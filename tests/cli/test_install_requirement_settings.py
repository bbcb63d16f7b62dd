"""Installer settings that change WHICH packages are installed (25th hostile pass (part B) P4): uv took the user's
`UV_OVERRIDE` and installed pkg-a 1.1 from a file outside every wheelhouse in place of the recipe's pin, pip took
`PIP_REQUIREMENT` and added a package no recipe asked for — both "Installed", the variable named nowhere — and `lock`
wrote the override into a lock made to be shared. Each such variable or settings-file key is refused by name before
anything runs, as `PIP_TARGET` is (`installer_files.requirement_problem`): by the install, by every installer step
(`runner.check_step`), by `lock` and `bundle`, and the plan marks it."""

from __future__ import annotations

import os
import sys

import pytest

from tests.fixtures.state import last_json, run_cli
from tests.fixtures.wheels import build_wheel
from wizard.install.plan import Step
from wizard.install.runner import StepSetupError, check_step


@pytest.fixture
def override(tmp_path):
    """A requirements file that swaps the recipe's pkg-a 1.0 for a 1.1 wheel outside every wheelhouse."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    wheel = build_wheel(elsewhere, "pkg-a", "1.1")
    path = tmp_path / "ovr.txt"
    path.write_text(f"pkg-a @ {wheel.as_uri()}\n")
    return path


@pytest.mark.parametrize(("installer", "variable"), [
    ("uv", "UV_OVERRIDE"), ("uv", "UV_CONSTRAINT"), ("uv", "UV_EXCLUDE"),
    ("pip", "PIP_REQUIREMENT"), ("pip", "PIP_CONSTRAINT"), ("pip", "PIP_EDITABLE"),
])
def test_a_requirement_variable_is_refused_by_name_before_anything_runs(tiny, override, installer, variable):
    proc = run_cli("install", "tiny-a", "--installer", installer, "--yes", "--json", *tiny.args(),
                   env={variable: str(override)})
    assert proc.returncode == 2, proc.stdout + proc.stderr
    error = last_json(proc)["error"]
    assert error.startswith(f"{variable}={override} in the environment would make {installer} install other "
                            "packages than the recipe's pins"), error
    assert f"env -u {variable} gc-wizard" in error and "Nothing was started" in error
    assert "Traceback" not in proc.stderr and tiny.history() == []
    envs = os.path.join(os.environ["GC_WIZARD_HOME"], "envs")
    assert not os.path.isdir(envs) or os.listdir(envs) == []


def test_the_plan_marks_it_and_lock_writes_nothing(tiny, override, tmp_path):
    plan = run_cli("plan", "tiny-a", "--json", "--recipes-dir", str(tiny.recipes), "--find-links",
                   str(tiny.house.path), "--offline", "--graphcast-src", str(tiny.graphcast),
                   env={"UV_OVERRIDE": str(override)})
    assert plan.returncode == 0, plan.stdout + plan.stderr
    assert last_json(plan)["settings_refused"].startswith(f"UV_OVERRIDE={override} in the environment")
    out = tmp_path / "tiny-a.lock.txt"
    lock = run_cli("lock", "tiny-a", "--json", "--recipes-dir", str(tiny.recipes), "--find-links",
                   str(tiny.house.path), "--offline", "--out", str(out), env={"UV_OVERRIDE": str(override)})
    assert lock.returncode == 2, lock.stdout + lock.stderr
    assert "UV_OVERRIDE=" in last_json(lock)["error"] and not out.exists()


def test_settings_file_keys_are_refused_naming_the_file(tiny, tmp_path, override):
    home = tmp_path / "home"
    (home / ".config" / "uv").mkdir(parents=True)
    toml = home / ".config" / "uv" / "uv.toml"
    toml.write_text('override-dependencies = ["pkg-a==1.1"]\n')
    proc = run_cli("install", "tiny-a", "--yes", "--json", *tiny.args(),
                   env={"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")})
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert last_json(proc)["error"].startswith(f"`override-dependencies = …` in {toml} would make uv install other")
    conf = tmp_path / "pip.conf"
    conf.write_text(f"[install]\nrequirement = {override}\n")
    proc = run_cli("install", "tiny-a", "--installer", "pip", "--yes", "--json", *tiny.args(),
                   env={"PIP_CONFIG_FILE": str(conf)})
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert last_json(proc)["error"].startswith(f"`requirement = …` in {conf} would make pip install other")
    assert tiny.history() == []


def test_every_installer_step_checks_it_and_an_off_switch_is_no_refusal(tmp_path, override):
    """The runner's own check covers the steps no install check precedes (a rollback's re-sync)."""
    python = str(tmp_path / "env" / "bin" / "python")
    sync = Step(name="sync", title="sync", kind="install", argv=("uv", "pip", "sync", "--python", python, "r.txt"))
    with pytest.raises(StepSetupError, match="UV_OVERRIDE="):
        check_step(sync, {"PATH": os.environ.get("PATH", ""), "UV_OVERRIDE": str(override)})
    pip = Step(name="pip", title="pip", kind="install", argv=(sys.executable, "-m", "pip", "install", "x"))
    with pytest.raises(StepSetupError, match="PIP_NO_DEPS=1"):
        check_step(pip, {"PATH": os.environ.get("PATH", ""), "PIP_NO_DEPS": "1"})
    check_step(pip, {"PATH": os.environ.get("PATH", ""), "PIP_NO_DEPS": "0", "UV_OVERRIDE": str(override)})
