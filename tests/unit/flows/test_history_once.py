"""One read of the history passed to each reader (`flows.history.history_once`): a history that could not be read is
said by each as it says its own failure, and none reads the file again."""

from __future__ import annotations

from types import SimpleNamespace

from wizard.errors import WizardError
from wizard.flows import history as flows_history


def test_a_read_that_failed_is_said_by_each_reader_as_its_own(monkeypatch):
    monkeypatch.setattr(flows_history, "load_history", lambda: (_ for _ in ()).throw(AssertionError("read again")))
    failed = WizardError("history.json is not JSON")
    assert flows_history.current_env_text(failed) == "unknown (the history cannot be read: history.json is not JSON)"
    assert flows_history.returning_user_line(failed) is None and flows_history.forecast_env(failed) is None
    assert flows_history.installed_recipes(failed) == {} and flows_history.last_failed_checks(failed) == {}
    recipe = SimpleNamespace(id="r", alternatives=("alt",), find_links=("https://example.org/wheels",))
    assert flows_history.unreachable_page_seen(recipe, failed) is None


def test_history_once_gives_the_exception_instead_of_raising_it(monkeypatch):
    failed = WizardError("history.json is not JSON")
    monkeypatch.setattr(flows_history, "load_history", lambda: (_ for _ in ()).throw(failed))
    assert flows_history.history_once() is failed
