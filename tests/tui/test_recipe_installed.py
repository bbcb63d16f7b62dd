"""The recipe list says which recipes the user already has, before a second copy gets built."""

from __future__ import annotations

from wizard.history.store import Entry, load_history
from wizard.lock import StateLock
from wizard.tui.screens.recipe import installed_recipes, option_label


def test_installed_and_current_recipes_are_marked(isolated_state, tmp_path):
    kept, current, gone = tmp_path / "kept", tmp_path / "current", tmp_path / "gone"
    kept.mkdir()
    current.mkdir()
    with StateLock("test"):
        history = load_history(locked=True)
        history.add(Entry(id="20261122-210000-aaaa", kind="install", recipe="jax0.4.23-cpu", env=str(kept),
                          status="verified"))
        history.add(Entry(id="20261122-210100-bbbb", kind="install", recipe="jax0.10.2-cpu", env=str(current),
                          status="verified", current=True))
        history.add(Entry(id="20261122-210200-cccc", kind="install", recipe="jax0.10.2-cuda12", env=str(gone),
                          status="installed"))
        history.add(Entry(id="20261122-210300-dddd", kind="install", recipe="jax0.10.2-cuda13", env=str(kept),
                          status="failed"))
        history.save()
    assert installed_recipes() == {"jax0.4.23-cpu": "installed", "jax0.10.2-cpu": "current"}


def test_the_row_says_it_first():
    from types import SimpleNamespace

    match = SimpleNamespace(recipe=SimpleNamespace(id="jax0.4.23-cpu"), recommended=True, cautioned=False,
                            compatible=True, reasons=())
    assert option_label(match, installed="current") == "★ jax0.4.23-cpu              current · recommended"
    assert option_label(match) == "★ jax0.4.23-cpu              recommended"
