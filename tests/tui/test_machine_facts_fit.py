"""Walk 28 #18: the Machine screen's fact lines were cut for 78 columns, but the facts pane shows 76 at 80×24 (its
padding and its scrollbar), so a long line's last word wrapped to column 0 (" GPU", " them"). Every line the core
cut fits the pane as drawn, on each stand-in server."""

from __future__ import annotations

import pytest

from tests.fixtures.pilot import SIZE, facts_shown
from wizard.tui.app import WizardApp


@pytest.mark.parametrize("profile", ["a100x2-535", "v100-470-smi", "version-mismatch", "no-nvidia"])
async def test_every_fact_line_fits_the_pane(gpu_server, isolated_state, profile):
    gpu_server(profile)
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await facts_shown(pilot)
        await pilot.pause(0.2)
        facts = app.screen.query_one("#facts")
        room = facts.content_region.width
        too_long = [line for line in str(facts.render()).splitlines() if len(line.rstrip()) > room]
        assert not too_long, (room, too_long)
