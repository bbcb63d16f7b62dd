"""Walk 25 #1/#2 in the app at 80×24: the Recipe screen flags a recipe whose Python uv would download from a host
that does not answer (not "✓ fits this machine"); the Plan screen marks that Python ✗ and Enter asks first; and a
uv plan where pip.conf names a `cert` (an HTTPS-inspecting proxy's CA) and uv has none says so, with i, which
switches to pip and takes the caution away. The words are the core's, the same the CLI prints
(tests/cli/test_python_download_reach.py, tests/cli/test_pip_cert_tls.py)."""

from __future__ import annotations

from tests.cli.test_python_download_reach import MIRROR
from tests.fixtures.pilot import SIZE, screen_rows, until
from wizard.install.options import InstallOptions
from wizard.recipes.loader import get_recipe
from wizard.tui.app import WizardApp
from wizard.tui.screens.confirm import ConfirmScreen
from wizard.tui.screens.machine import MachineScreen
from wizard.tui.screens.plan import PlanScreen
from wizard.tui.screens.recipe import RecipeScreen


def _plan_text(app) -> str:
    return " ".join(str(app.screen.query_one("#plan").render()).split())


def _tiny313(tiny, monkeypatch) -> tuple[str, ...]:
    (tiny.recipes / "tiny-313.yaml").write_text(
        (tiny.recipes / "tiny-a.yaml").read_text().replace("id: tiny-a", "id: tiny-313")
        .replace('">=3.10,<3.13"', '">=3.13,<3.14"'))
    monkeypatch.setenv("UV_PYTHON_INSTALL_MIRROR", MIRROR)
    return (str(tiny.recipes),)


async def test_the_recipe_list_flags_and_the_plan_marks_the_python_download(tiny, monkeypatch,
                                                                            only_the_wizards_python):
    dirs = _tiny313(tiny, monkeypatch)
    app = WizardApp(list(dirs))
    approved = []
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RecipeScreen))
        row = next(r for r in screen_rows(app) if "tiny-313" in r)
        assert "│ ! tiny-313 " in row and "Python 3.13 download (py.invalid) unreachable" in row, row
        assert "fits" not in row
        other = next(r for r in screen_rows(app) if "tiny-a " in r)
        assert "py.invalid" not in other  # its Python is here

        options = InstallOptions(recipe_id="tiny-313", recipes_dirs=dirs, graphcast_src=str(tiny.graphcast))
        app.push_screen(PlanScreen(get_recipe("tiny-313", list(dirs)), options), approved.append)
        await until(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None)
        text = _plan_text(app)
        assert "to be downloaded by uv) ✗ ! No fitting Python is on this machine" in text, text
        assert "Install python3.13" in text and "`--python PATH`" in text
        await pilot.press("enter")  # an install that would fail at its first step is asked about first
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        asked = " ".join(screen_rows(app))
        assert "py.invalid" in asked and "Install anyway?" in asked, asked
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, PlanScreen))
        assert approved == []


def _pip_has_a_cert(monkeypatch, tmp_path):
    ca = tmp_path / "site-ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")  # only named, never read: the plan compares the settings
    conf = tmp_path / "pip.conf"
    conf.write_text(f"[global]\ncert = {ca}\n")
    monkeypatch.setenv("PIP_CONFIG_FILE", str(conf))
    for name in ("SSL_CERT_FILE", "SSL_CERT_DIR", "UV_SYSTEM_CERTS", "UV_NATIVE_TLS", "PIP_CERT"):
        monkeypatch.delenv(name, raising=False)
    return ca, conf


async def test_the_plan_screen_says_uv_lacks_pips_cert_and_i_switches(tiny, monkeypatch, tmp_path):
    ca, conf = _pip_has_a_cert(monkeypatch, tmp_path)
    dirs = (str(tiny.recipes),)
    app = WizardApp(list(dirs))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        # uv chosen: the plan's own default is pip here since walk 27 #2 (the test below)
        options = InstallOptions(recipe_id="tiny-a", recipes_dirs=dirs, graphcast_src=str(tiny.graphcast),
                                 installer="uv")
        app.push_screen(PlanScreen(get_recipe("tiny-a", list(dirs)), options))
        await until(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None)
        text = _plan_text(app)
        assert f"! pip here trusts the certificates in {ca} (`cert` in {conf})" in text, text
        assert "in the app: i on the Plan screen" in text and "UV_SYSTEM_CERTS=1" in text
        await pilot.press("i")
        await until(pilot, lambda: app.screen.plan is not None and app.screen.plan.installer == "pip")
        assert "pip here trusts" not in _plan_text(app)


async def test_pip_is_the_plans_default_here_and_the_app_keeps_the_switch(tiny, monkeypatch, tmp_path):
    """Walk 27 #2: the plan warned that uv would fail on TLS here and still took uv; after the user switched to pip,
    the next plan of the session was back on uv. Now the first plan takes pip (why, in the core's line), i switches
    to uv, and the next Plan screen of the session keeps the user's uv until i switches it back."""
    ca, _conf = _pip_has_a_cert(monkeypatch, tmp_path)
    app = WizardApp([str(tiny.recipes)], graphcast_src=str(tiny.graphcast))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RecipeScreen))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None)
        text = _plan_text(app)
        assert app.screen.plan.installer == "pip", text
        assert f"Installer pip, not uv: pip here trusts the certificates in {ca}" in text, text
        await pilot.press("i")
        await until(pilot, lambda: app.screen.plan is not None and app.screen.plan.installer == "uv")
        await pilot.press("escape")  # back to the recipes, and the same recipe's plan again: uv, as chosen
        await until(pilot, lambda: isinstance(app.screen, RecipeScreen))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None)
        assert app.screen.plan.installer == "uv" and "! pip here trusts" in _plan_text(app)
        await pilot.press("i")
        await until(pilot, lambda: app.screen.plan is not None and app.screen.plan.installer == "pip")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, RecipeScreen))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None)
        assert app.screen.plan.installer == "pip"
