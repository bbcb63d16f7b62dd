"""The running step's row shows a download's share only while that file downloads (`StepList.progress_from`)."""

from __future__ import annotations

from wizard.tui.widgets.step_list import StepList


def test_a_finished_files_100_percent_is_not_left_beside_a_step_with_work_still_to_come():
    steps = StepList([("install", "Install the 84 pinned packages")])
    steps.progress_from("Progress 524288 of 1048576")
    assert steps.progress == "this file 50%"
    steps.progress_from("Progress 1048576 of 1048576")
    assert steps.progress == ""  # the file is whole; the step is not
    steps.progress_from("Installed 84 packages in 2.1s")
    assert steps.progress == "installed 84 packages"


def test_a_files_share_names_the_file_so_the_next_file_does_not_read_as_the_step_going_backwards():
    """Walk 28 #6: "81%" then "44%" beside one step, while pip went from one file to the next. The name is the
    core's (`InstallProgress.current`), read from pip's own lines as the install screen feeds them."""
    from wizard.install.progress import InstallProgress

    steps, progress = StepList([("install", "Install the 97 pinned packages")]), InstallProgress()
    shown = []
    for line in ("Collecting jaxlib==0.4.23+cuda12.cudnn89",
                 "  Downloading jaxlib-0.4.23+cuda12.cudnn89-cp311-cp311-manylinux2014_x86_64.whl (131.8 MB)",
                 "Progress 106000000 of 131800000",
                 "Collecting nvidia-cudnn-cu12==8.9.7.29",
                 "  Downloading nvidia_cudnn_cu12-8.9.7.29-py3-none-manylinux1_x86_64.whl (704.7 MB)",
                 "Progress 310000000 of 704700000"):
        progress.feed(line)
        steps.progress_from(line, progress.current[0] if progress.current else None)
        if line.startswith("Progress"):
            shown.append(steps.progress)
    assert shown == ["jaxlib 80%", "nvidia_cudnn_cu12 43%"]


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
