"""A recipe whose newest install failed its GraphCast check is marked in both recipe lists and on the Machine screen,
with the failure and what to do, never recommended as if untroubled. Walk 28 #8: after `jax0.4.23-cuda12-cudnn89`'s
check failed on node vm (CUDA found no usable GPU), `recipes` and the app recommended it again with no word of it."""

from __future__ import annotations

from tests.fixtures.cli import run_inproc
from tests.fixtures.results import FAILED_CHECK
from tests.fixtures.results import install_entry as _install
from tests.fixtures.state import save_entries
from wizard.paths import wizard_command


def test_the_recipes_list_marks_the_recipe_with_its_failed_check_and_the_diagnosis(gpu_server, isolated_state):
    gpu_server("no-nvidia")
    save_entries([_install(6, "failed", FAILED_CHECK)])
    said = run_inproc("recipes")
    assert said.returncode == 0, said.stderr
    text = " ".join(said.stdout.split())
    assert "! jax0.4.23-cpu" in text and "* jax0.4.23-cpu" not in text
    assert ("! Your last install of it failed its GraphCast check on node vm (at JAX backend and devices: CUDA found "
            "no usable GPU), history 20261128-181226-db4b.") in text
    # the program as a new shell runs it, as the Next lines name it (walk 33 #4)
    assert f"`{wizard_command()} diagnose /state/logs/install-20261128-181226-db4b.log` names the cause" in text
