"""The Machine screen's render reads history.json once (`flows.history.history_once`, passed to every line that
comes from it): before (leftovers of the 30th hostile pass, item 4) it was read five times — the current
environment's row, the returning user's line, the forecast key, the installed mark and the failed-check mark each read
and parsed the whole file again."""

from __future__ import annotations

from tests.fixtures.pilot import facts_shown, screen_text
from wizard.history import store
from wizard.tui.app import WizardApp


async def test_one_render_of_the_machine_screen_reads_the_history_once(gpu_server, isolated_state, tmp_path,
                                                                       monkeypatch):
    gpu_server("no-nvidia")
    env = tmp_path / "env"
    env.mkdir()
    history = store.load_history()
    history.add(store.Entry(id="20261128-120000-aaaa", kind="install", recipe="jax0.4.23-cpu", env=str(env),
                            status="verified", current=True))
    history.save()
    reads = []
    real = store._read
    monkeypatch.setattr(store, "_read", lambda path: reads.append(path) or real(path))  # counted in this test only
    app = WizardApp()
    async with app.run_test(size=(100, 40)) as pilot:
        await facts_shown(pilot)
        reads.clear()
        app.screen.show_facts()
        assert len(reads) == 1, reads
        await pilot.pause()
        shown = " ".join(screen_text(app).split())
    # what each line read from it is still said
    assert "Your GraphCast environment: jax0.4.23-cpu (verified), current. f: a forecast with it" in shown, shown
    assert str(env) in shown
