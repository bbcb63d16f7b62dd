"""`diagnose` on the log of a stopped install says it was stopped, where, and how to go again: never "No known problem
found", exit 0 (walk 28 #14: a Ctrl-C'd install's log, which says `FAILED (cancelled)`, read as a clean run)."""

from __future__ import annotations

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json

#: walk 28's Ctrl-C'd CLI install, as logged before the log named the stop in a line of its own
STOPPED = """\
[gc-wizard] Installing jax0.4.23-cpu into /home/newbie/.local/share/gc-wizard/envs/jax0.4.23-cpu-20261128-181547 \
(pip, new environment); GraphCast v0.1.1

===== 2026-11-28T18:15:48+00:00  install-requirements: Install the 84 pinned packages
$ /home/newbie/.local/share/gc-wizard/envs/jax0.4.23-cpu-20261128-181547/bin/python -m pip install jax==0.4.23
  (cwd /home/newbie/.local/share/gc-wizard/envs)
Collecting jax==0.4.23
  Downloading jax-0.4.23-py3-none-any.whl (1.7 MB)
[gc-wizard] stopping the step (cancelled)
===== install-requirements: FAILED (cancelled) in 5.9 s
[gc-wizard] removed the unfinished environment /home/newbie/.local/share/gc-wizard/envs/jax0.4.23-cpu-20261128-181547
"""


def test_a_stopped_install_log_is_said_stopped_with_its_step_and_the_way_to_go_again(tmp_path, isolated_state):
    log = tmp_path / "install-20261128-181547-e4d1.log"
    log.write_text(STOPPED)
    said = run_inproc("diagnose", str(log))
    assert said.returncode == 1, said.stdout  # docs/interface.md: a stopped run is no clean bill
    text = " ".join(said.stdout.split())
    assert "No known problem" not in text
    assert f"{log} is a run that was stopped, not one that failed [stopped]" in text
    assert "It was stopped in the install step install-requirements (Install the 84 pinned packages)" in text
    assert "nothing in it failed" in text and "`gc-wizard install jax0.4.23-cpu` with the same options" in text
    data = last_json(run_inproc("diagnose", str(log), "--json"))
    assert data["findings"] == [] and "unrecognised" not in data
    assert data["stopped"]["id"] == "stopped" and data["stopped"]["step"].startswith("the install step install-req")
