"""`gc-wizard plan` prints the core's plan lines (`flows.describe_plan`, the app's Plan screen's too), then
the command that runs that very plan. In-process, a tiny real recipe planned offline."""

from __future__ import annotations

import re

from tests.fixtures.cli import run_inproc
from wizard.flows.describe_plan import STEPS_HEADING, PlanHints, install_command, plan_lines
from wizard.flows.review import review
from wizard.install.options import InstallOptions
from wizard.paths import wizard_command


def test_plan_prints_the_core_lines_then_the_command_that_runs_the_plan(tiny, isolated_state):
    options = InstallOptions(recipe_id="tiny-a", recipes_dirs=(str(tiny.recipes),),
                             find_links=(str(tiny.house.path),), offline=True, graphcast_src=str(tiny.graphcast))
    proc = run_inproc("plan", "tiny-a", *tiny.args()[:-1])
    assert proc.returncode == 0, proc.stderr
    checked = review(options)
    core = plan_lines(checked, hints=PlanHints(refusal="  `gc-wizard install` refuses it (exit 2) without --force."))
    # The new folder's name carries the second it was planned in: the two plans may be a second apart.
    text, core = ([re.sub(r"-\d{8}-\d{6}", "-<when>", line) for line in lines] for lines in (proc.stdout.splitlines(), core))
    download = next(i for i, line in enumerate(core) if line.startswith("Download: "))
    assert [line for i, line in enumerate(text[: len(core)]) if i != download] == \
        [line for i, line in enumerate(core) if i != download]  # the size is measured, not shown as "checking"
    assert text[download].startswith("Download: ") and "checking" not in text[download]
    assert text[len(core):] == ["", re.sub(r"-\d{8}-\d{6}", "-<when>",
                                           f"To run it: {install_command(checked.plan, wizard_command())}")]
    assert STEPS_HEADING in text and f"  GraphCast 0.1.1 from {checked.plan.graphcast_src}, --no-deps" in text
