"""The shell's own words for a command a signal ended name the cause (eighteenth hostile pass P19: bash's
`line N: PID Killed  CMD` and job control's `[1]+  Killed  CMD` were reported clean, exit 0)."""

from __future__ import annotations

import pytest

from wizard.verify.diagnose import diagnose_text, unrecognised


@pytest.mark.parametrize("text", [
    "bash: line 1: 12345 Killed                  python run_graphcast.py",
    "/var/spool/slurmd/job4242/slurm_script: line 17: 30811 Killed                  python forecast.py --steps 4",
    "[1]+  Killed                  python forecast.py",
    "[2]-  Killed                  srun python -m graphcast_demo",
    "[3]   Killed                  nohup python train.py",
])
def test_a_command_the_shell_reports_killed_is_out_of_memory(text):
    for wrapped in (text, f"Loading weights…\n{text}\n", f"2026-11-27 10:00:00 {text}"):
        assert [f.id for f in diagnose_text(wrapped)][:1] == ["host_out_of_memory"], wrapped


@pytest.mark.parametrize("text", [
    "Killed processes: 0", "[1]+  Done                    python forecast.py", "bash: line 3: 999 Terminated  sleep 9",
])
def test_other_job_words_are_not_out_of_memory(text):
    assert "host_out_of_memory" not in [f.id for f in diagnose_text(text + "\n")]
    if "Done" in text:
        assert unrecognised(text + "\n") is None
