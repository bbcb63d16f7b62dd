"""Walk 26 #7 (the rest), in the app: where the index does not answer and a good install came from a bundle here, the
machine screen recommends the bundle's recipe with why, and the Plan screen marks the index ✗ with the way that works,
from the download measurement its worker already makes. The real app, the tiny recipes, every index closed."""

from __future__ import annotations

from tests.fixtures.pilot import screen_text, until
from wizard.install.options import InstallOptions
from wizard.recipes.loader import get_recipe
from wizard.tui.app import WizardApp
from wizard.tui.screens.machine import MachineScreen
from wizard.tui.screens.plan import PlanScreen


async def test_the_app_recommends_the_bundle_and_marks_the_closed_index(gpu_server, tiny, tmp_path, monkeypatch,
                                                                       isolated_state, closed_indexes):
    gpu_server("no-nvidia")
    z = (tiny.recipes / "tiny-a.yaml").read_text().replace("id: tiny-a", "id: tiny-z").replace("preference: 0",
                                                                                             "preference: 5")
    (tiny.recipes / "tiny-z.yaml").write_text(z)
    bundle = tiny.bundle_installed(tmp_path / "gc-bundle", monkeypatch)
    dirs = (str(tiny.recipes),)
    app = WizardApp(list(dirs))
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None, settle=0.3)
        shown = " ".join(screen_text(app).split())
        # Installed from the bundle and current: said so, where tiny-z (which needs the index) was recommended before.
        assert "Recommended: tiny-a — already installed (current)" in shown and "Recommended: tiny-z" not in shown
        assert app.screen.matches and next(m for m in app.screen.matches if m.recommended).summary.startswith(
            f"recommended: the package index {closed_indexes.rstrip('/')} does not answer from here")
        wheel = next((bundle / "wheels").glob("graphcast-*.whl"))
        options = InstallOptions(recipe_id="tiny-a", recipes_dirs=dirs, graphcast_src=str(wheel))
        app.push_screen(PlanScreen(get_recipe("tiny-a", list(dirs)), options))
        await until(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.index_down is not None,
                    timeout=60, settle=0.3)
        text = " ".join(str(app.screen.query_one("#plan").render()).split())
        assert "Packages: ✗ the index" in text, text
        assert "install from it again (`" in text and f"--bundle {bundle}`)" in text, text  # the whole line (walk 38 #3)
