"""Walk 25 #7: on a 2-core CPU server the GenCast jit init ran two minutes showing only "(running, 110 s)", and the
plan had said neither that v0.2 recipes check GenCast too nor how long that takes. The plan (CLI and app) now says
how long each jit init takes on the recipe's backend, from the check's data (`wizard/data/check_times.yaml`), and
the Verify screen shows that beside the running tier's clock."""

from __future__ import annotations

from tests.fixtures.cli import run_inproc
from tests.fixtures.pilot import ScreenHost, until
from wizard.tui.screens.verify import VerifyScreen, running_line
from wizard.verify.check_time import tier_time
from wizard.verify.protocol import Tier


def _joined(text: str) -> str:
    return " ".join(text.split())


def test_the_plan_says_how_long_the_check_takes_on_the_cpu_gencast_included():
    v02 = run_inproc("plan", "jax0.10.2-cpu")
    assert v02.returncode == 0, v02.stderr
    assert ("then the GraphCast check: its GraphCast jit init takes about 50 s and GenCast's about 2 min on the "
            "CPU (measured on 2 CPU cores)") in _joined(v02.stdout)
    v011 = run_inproc("plan", "jax0.4.23-cpu")
    assert "its GraphCast jit init takes about 50 s on the CPU (measured on 2 CPU cores)" in _joined(v011.stdout)
    assert "GenCast's" not in v011.stdout
    gpu = run_inproc("plan", "jax0.4.23-cuda12-cudnn89")
    assert "its GraphCast jit init takes about 30 s on a GPU (an estimate)" in _joined(gpu.stdout)


def test_the_figures_are_the_data_files():
    assert tier_time("gencast_jit_init", "cpu").seconds == 112 and tier_time("gencast_jit_init", "cpu").cores == 2
    assert tier_time("graphcast_jit_init", "gpu").basis == "estimate"
    assert tier_time("graphcast_jit_init", "cuda").backend == "gpu"  # any accelerator reads the GPU row
    assert tier_time("graphcast_jit_init", None) is None


_DONE = [Tier("jax_import", "passed", details={"versions": {"graphcast": "0.2"}}),
         Tier("backend", "passed", details={"default_backend": "cpu"}), Tier("cudnn_op", "skipped"),
         Tier("graphcast_jit_init", "passed")]


def test_the_running_tier_shows_its_usual_time_beside_the_clock():
    assert running_line(_DONE, 110.2) == "… GenCast jit init (1°, GPU-safe attention) (running, 110 s of about 2 min)"
    assert running_line(_DONE[:3], 12.0).endswith("(running, 12 s of about 50 s)")
    assert running_line(_DONE[:1], 1.0).endswith("(running, 1 s)")  # the backend is not known yet


async def test_the_verify_screen_shows_the_estimate_while_gencast_runs():
    screen = VerifyScreen()

    app = ScreenHost(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen is screen)
        for tier in _DONE:
            screen.add_tier(tier)
        await pilot.pause()
        text = str(screen.query_one("#tiers").render())
        assert "GenCast jit init (1°, GPU-safe attention) (running, 0 s of about 2 min)" in text, text
