"""Which recipes' newest install failed its GraphCast check (`flows.history.last_failed_checks`, walk 28 #8): a good
install since clears it, a stop since changes nothing, and a step's failure or a stopped check is not one."""

from __future__ import annotations

from tests.fixtures.results import FAILED_CHECK
from tests.fixtures.results import install_entry as _install
from tests.fixtures.state import save_entries
from wizard.flows.history import last_failed_checks
from wizard.history.store import VerifySummary


def test_a_good_install_since_or_a_stop_is_no_failed_check(isolated_state):
    stopped = VerifySummary(ok=False, failed_tier="backend", stopped=True)
    save_entries([_install(1, "failed", FAILED_CHECK), _install(2, "verified"),
                  _install(3, "failed", stopped, recipe="other"),
                  _install(4, "failed", FAILED_CHECK, recipe="later"), _install(5, "cancelled", recipe="later"),
                  _install(6, "failed", None, recipe="no-check")])
    assert set(last_failed_checks()) == {"later"}  # a stop since is no new answer; a step's failure is no check's
