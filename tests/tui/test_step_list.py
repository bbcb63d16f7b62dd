"""The running step's row shows a download's share only while that file downloads (`StepList.progress_from`)."""

from __future__ import annotations

from wizard.tui.widgets.step_list import StepList


def test_a_finished_files_100_percent_is_not_left_beside_a_step_with_work_still_to_come():
    steps = StepList([("install", "Install the 84 pinned packages")])
    steps.progress_from("Progress 524288 of 1048576")
    assert steps.progress == "50%"
    steps.progress_from("Progress 1048576 of 1048576")
    assert steps.progress == ""  # the file is whole; the step is not
    steps.progress_from("Installed 84 packages in 2.1s")
    assert steps.progress == "installed 84 packages"


def test_a_rollbacks_check_row_marks_the_passed_tier_first_so_a_cut_row_does_not_read_as_running():
    """Walk 20 #4: "JAX backend and devices ✓", cut at 80 columns to "JAX backend and devi…", read as that tier
    running through the whole jit init."""
    from types import SimpleNamespace

    from wizard.tui.messages import VerifyTier
    from wizard.tui.screens.rollback import RollbackScreen
    from wizard.verify.protocol import Tier

    steps = StepList([("check", "Checking that GraphCast runs")])
    steps.state["check"] = "running"
    screen = object.__new__(RollbackScreen)  # the handler alone: it reads only these two widgets
    screen.__dict__.update(_step_list=steps, _live_log=SimpleNamespace(add_line=lambda line: None))
    RollbackScreen.on_verify_tier(screen, VerifyTier(Tier("backend", "passed", 1.2)))
    assert steps.progress.startswith("✓ JAX backend and devices")
