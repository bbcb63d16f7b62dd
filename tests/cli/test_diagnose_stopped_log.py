"""`diagnose` on the log of a stopped install says it was stopped, where, and how to go again: never "No known problem
found" (walk 28 #14: a Ctrl-C'd install's log, which says `FAILED (cancelled)`, read as a clean run), and exit 0, for
nothing in it failed (walk 33 #3); the way to go again is the install line the run wrote, every option it took."""

from __future__ import annotations

import shlex

from tests.fixtures.cli import bare_program, run_inproc
from tests.fixtures.state import last_json
from wizard.paths import wizard_command

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
    assert said.returncode == 0, said.stdout  # docs/interface.md: nothing in a stopped run failed (walk 33 #3)
    text = " ".join(said.stdout.split())
    assert "No known problem" not in text
    assert f"{log} is a run that was stopped, not one that failed [stopped]" in text
    assert "It was stopped in the install step install-requirements (Install the 84 pinned packages)" in text
    assert "nothing in it failed" in text and f"`{wizard_command()} install jax0.4.23-cpu` with the same options" in text
    data = last_json(run_inproc("diagnose", str(log), "--json"))
    assert data["findings"] == [] and "unrecognised" not in data
    assert data["stopped"]["id"] == "stopped" and data["stopped"]["step"].startswith("the install step install-req")


def test_the_way_to_go_again_is_the_line_the_install_wrote_with_every_option_it_took(tiny, tmp_path, isolated_state):
    """Walk 33 #3: a stopped `--alternative pypi-plugin` install's "run it again" named `--graphcast-src` but not the
    alternative, so pasted it was refused. The install writes its own line (the plan's one builder) after its first,
    and `diagnose` gives it back whole, with the program a new shell runs (`wizard_command`), exit 0."""
    proc, data = tiny.install("tiny-a", "--python", "3.11")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = open(data["log"]).read().splitlines()
    again = lines[1].removeprefix("[gc-wizard] to run this install again: ")
    # its program as a new shell runs it (walk 37 #6), read back by `diagnose` whatever it is
    assert not again.startswith("gc-wizard ") or wizard_command() == "gc-wizard", again
    words = shlex.split(bare_program(again))
    assert words[:3] == ["gc-wizard", "install", "tiny-a"], lines[:2]
    for option in ("--recipes-dir", "--find-links", "--offline", "--python", "--graphcast-src"):
        assert option in words, again
    stopped = tmp_path / "install-stopped.log"  # the same run, stopped in its first step
    stopped.write_text("\n".join(lines[:2]) + "\n" + STOPPED.split("\n", 2)[2])
    said = run_inproc("diagnose", str(stopped))
    assert said.returncode == 0, said.stdout
    text = " ".join(said.stdout.split())
    assert f"run `{wizard_command()} {shlex.join(words[1:])}` again" in text, text


def test_a_logged_line_with_words_the_wizard_never_writes_is_not_offered(tmp_path, isolated_state):
    """A log is untrusted: a "run again" line with another option, or no recipe id, falls back to the recipe's line."""
    for bad in ("gc-wizard install jax0.4.23-cpu --alternative pypi-plugin; rm -rf ~",
                "gc-wizard install jax0.4.23-cpu --exec /bin/sh", "gc-wizard install '../x'"):
        log = tmp_path / "install.log"
        log.write_text(STOPPED.replace("GraphCast v0.1.1\n", f"GraphCast v0.1.1\n[gc-wizard] to run this install "
                                       f"again: {bad}\n", 1))
        text = " ".join(run_inproc("diagnose", str(log)).stdout.split())
        assert f"`{wizard_command()} install jax0.4.23-cpu` with the same options" in text, text
        assert "rm -rf" not in text
