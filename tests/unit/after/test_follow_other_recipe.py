"""Walk 26 #11: a rollback to another recipe's environment says what stays behind — the kernel and module file of
the recipe it leaves keep running that env — and the command that adds this one's, in the rollback question
(`follow_preview`, which both faces show); `follow_current` moves nothing of another recipe. Real venvs, a real kernelspec, a real module file."""

from __future__ import annotations

import sysconfig
import venv
from pathlib import Path

import ipykernel

from wizard.after.follow import follow_current, follow_preview
from wizard.after.kernel import kernel_install
from wizard.after.module import module_install
from wizard.install.envs import write_marker
from wizard.paths import envs_dir


def _env(recipe: str, version: str) -> Path:
    env = envs_dir() / f"{recipe}-20261128-114444"
    env.parent.mkdir(parents=True, exist_ok=True)
    venv.create(env, with_pip=False)
    write_marker(env, {"recipe": recipe, "title": recipe, "backend": "cpu", "graphcast_version": version})
    purelib = sysconfig.get_path("purelib", vars={"base": str(env), "platbase": str(env)})
    Path(purelib, "test-ipykernel.pth").write_text(str(Path(ipykernel.__file__).parents[1]) + "\n")
    return env


def test_rolling_back_to_another_recipe_says_its_kernel_and_module_stay(isolated_state, tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter"))
    new, old = _env("jax0.12.0.1-cpu", "0.2"), _env("jax0.4.23-cpu", "0.1.1")
    kernel = kernel_install(new)["name"]
    module_install(new)
    said = " ".join(" ".join(follow_preview(old)).split())
    assert f"The Jupyter kernel {kernel} stays on its own environment; `gc-wizard kernel install` adds one for " \
           f"{old}." in said, said
    assert "The module graphcast/jax0.12.0.1-cpu stays on its own environment; `gc-wizard module install` adds " \
           f"one for {old}." in said, said
    assert follow_current(old) == []  # nothing of another recipe is moved
    kernel_install(old)  # once it has its own, nothing more is said of the kernel
    assert not any("Jupyter kernel" in line for line in follow_preview(old))
