"""A stopped install's log names the stop in a line of its own, and `diagnose` reads it back: who or what stopped it
(walk 28 #14: the log said only `FAILED (cancelled)`, and `diagnose` said "No known problem found")."""

from __future__ import annotations

import threading

from wizard.flows.diagnosis import diagnose_file
from wizard.flows.session import plan_for
from wizard.flows.transaction import InstallEvents, run_install
from wizard.install.options import InstallOptions


class _StopAtFirstStep(InstallEvents):
    def __init__(self, cancel: threading.Event) -> None:
        self.cancel = cancel

    def step_started(self, step) -> None:
        self.cancel.set()


def test_a_stopped_install_says_by_whom_and_diagnose_reads_it(tiny):
    options = InstallOptions(recipe_id="tiny-a", recipes_dirs=(str(tiny.recipes),), find_links=(str(tiny.house.path),),
                             offline=True, graphcast_src=str(tiny.graphcast), verify=False, assume_yes=True)
    cancel = threading.Event()
    result = run_install(plan_for(options), options, _StopAtFirstStep(cancel), cancel=cancel)
    assert result.cancelled
    found = diagnose_file(result.log)
    assert not found.found and not found.findings and found.unknown is None  # exit 0: nothing failed (walk 33 #3)
    assert found.stopped is not None and found.stopped.why == "cancelled by the user"
    assert found.stopped.recipe == "tiny-a"
    assert "It was stopped in the install step" in " ".join(found.lines(100))
    # walk 29 N3: the local GraphCast the run named on its first line travels to the line that goes again
    assert found.stopped.given is not None and found.stopped.given[1] == str(tiny.graphcast)
    # walk 33 #3: and every other option it took, from the line the install wrote to go again
    again = found.stopped.again
    assert again is not None and again[:3] == ("gc-wizard", "install", "tiny-a"), again
    for option in ("--recipes-dir", "--find-links", "--offline", "--graphcast-src"):
        assert option in again, again


def test_the_line_to_go_again_carries_the_local_graphcast_the_run_used(tmp_path):
    """Walk 29 N3: "run `gc-wizard install jax0.4.23-cpu` with the same options again" left out the `--graphcast-src`
    a server without GitHub needs; the line now carries it, shell-quoted, as every fix line does."""
    from wizard.paths import wizard_command
    from wizard.verify.diagnose import Stopped

    checkout = tmp_path / "graph cast"
    checkout.mkdir()
    stopped = Stopped(step=None, why="cancelled by the user", recipe="jax0.4.23-cpu", given=("0.1.1", str(checkout)))
    me = wizard_command()  # walk 33 #4: the program a new shell runs
    assert f"`{me} install jax0.4.23-cpu --graphcast-src '{checkout}'` with the same options" in stopped.next_step
    plain = Stopped(step=None, why="cancelled by the user", recipe="jax0.4.23-cpu")
    assert f"`{me} install jax0.4.23-cpu` with the same options" in plain.next_step
