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
