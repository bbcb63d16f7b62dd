"""The check screen while its Slurm job waits: it says the job is queued (and why), never "running";
once the job starts on a node it names the node, and the tier's clock starts then."""

from __future__ import annotations

from tests.fixtures.pilot import ScreenHost, until
from wizard.detect.srun_job import JobState
from wizard.tui.screens.verify import VerifyScreen


async def test_a_queued_check_says_queued_then_the_node_it_runs_on():
    screen = VerifyScreen()

    app = ScreenHost(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen is screen)
        screen.show_job(JobState("queued", "12", "Resources", waited=55))
        await pilot.pause()
        text = str(screen.query_one("#tiers").render())
        assert ("waiting for a node: job 12 queued (Resources: every node it may use is busy; it starts when one "
                "frees up), 0:55 so far · Ctrl-C cancels the job") in text, text
        assert "running" not in text
        screen.show_job(JobState("running", "12", node="gpu07", waited=60))
        await pilot.pause()
        text = str(screen.query_one("#tiers").render())
        assert "On node gpu07 (job 12), through srun:" in text and "import jax and jaxlib" in text, text
