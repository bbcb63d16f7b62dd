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
                            compatible=True, reasons=(), unreachable=(), python_download=None)
    assert option_label(match, installed="current") == "★ jax0.4.23-cpu              current · recommended"
    assert option_label(match) == "★ jax0.4.23-cpu              recommended"


async def test_a_returning_user_is_told_on_the_first_screen_what_is_current(isolated_state, tmp_path, gpu_server):
    """Walk 20 #6: the first screen read as for a new user; the working environment sat below the fold."""
    from tests.fixtures.pilot import SIZE, facts_shown, screen_text
    from wizard.tui.app import WizardApp

    gpu_server("no-nvidia")
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await facts_shown(pilot)
        assert "Your GraphCast environment" not in screen_text(app)  # a new user: nothing to say
    env = tmp_path / "env"
    env.mkdir()
    with StateLock("test"):
        history = load_history(locked=True)
        history.add(Entry(id="20261122-210100-bbbb", kind="install", recipe="jax0.4.23-cpu", env=str(env),
                          status="verified", current=True))
        history.save()
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await facts_shown(pilot)
        shown = " ".join(screen_text(app).split())
        assert "Your GraphCast environment: jax0.4.23-cpu (verified), current." in shown
        assert "h: History and rollback" in shown and "Press Enter to choose a recipe." in shown
        # Walk 21 #12: the recommendation says it is that environment, not a new install to make.
        assert "Recommended: jax0.4.23-cpu — already installed (current)" in shown, shown
