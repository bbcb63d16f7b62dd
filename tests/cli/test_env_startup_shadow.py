"""A stray jax put first by a `.pth` file or a `sitecustomize.py` inside the environment (22nd hostile pass P6):
verify named only where jax came from (for a sitecustomize.py) with a fix about PYTHONPATH; `forecast` imported the
stray copy and said "'graphcast' is not a package"; `kernel install` said nothing. Every command that runs the
environment now runs the same check (`wizard.verify.shadow.probe_shadow`) and names the file in one wording."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_forecast_child_fails import _files
from tests.fixtures.state import last_json, run_cli
from wizard.verify.protocol import Tier
from wizard.verify.shadow import environment_shadow, probe_shadow


def _stray(tmp_path: Path) -> Path:
    stray = tmp_path / "stray"
    (stray / "jax").mkdir(parents=True)
    (stray / "jax" / "__init__.py").write_text("print('FAKE JAX')\n")
    return stray


def _put_first(site: Path, how: str, stray: Path) -> Path:
    if how == "pth":
        file = site / "zz_stray.pth"
        file.write_text(f"{stray}\n")
    else:
        file = site / "sitecustomize.py"
        file.write_text(f"import sys; sys.path.insert(0, '{stray}')\n")
    return file


def _fake_env(tmp_path: Path) -> tuple[Path, Path]:
    env = tmp_path / "env"
    site = env / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    (env / "pyvenv.cfg").write_text("home = /usr/bin\ninclude-system-site-packages = false\n")
    return env, site


def test_a_sitecustomize_that_puts_a_stray_jax_first_is_named_with_its_own_fix(tmp_path):
    env, site = _fake_env(tmp_path)
    stray = _stray(tmp_path)
    file = _put_first(site, "sitecustomize", stray)
    tier = Tier.from_probe({"name": "jax_import", "ok": True, "status": "passed", "seconds": 1.0,
                            "jax_path": str(stray / "jax")})
    for finding in (probe_shadow([tier], env, {}), probe_shadow([], env, {}), environment_shadow(env, {})):
        assert finding is not None and finding.id == "pythonpath_shadows_env"
        line = next(e for e in finding.evidence if str(file) in e)
        assert "runs at every start" in line and f"puts {stray} first" in line and "jax" in line
        assert "sitecustomize.py" in finding.fix and "PYTHONPATH" not in finding.fix


def test_a_sitecustomize_whose_folder_is_built_in_code_is_still_named_when_jax_came_from_outside(tmp_path):
    env, site = _fake_env(tmp_path)
    (site / "sitecustomize.py").write_text("import os, sys; sys.path.insert(0, os.environ['HOME'] + '/x')\n")
    tier = Tier.from_probe({"name": "jax_import", "ok": True, "status": "passed", "seconds": 1.0,
                            "jax_path": str(tmp_path / "elsewhere" / "jax")})
    finding = probe_shadow([tier], env, {})
    assert any(str(site / "sitecustomize.py") in e and "may have put it first" in e for e in finding.evidence)


@pytest.fixture
def tiny_env(tiny):
    tiny.house.add("ipykernel", "6.0")
    tiny.write("tiny-k", ["pkg-a==1.0", "ipykernel==6.0"])
    installed, result = tiny.install("tiny-k", "--no-verify")
    assert installed.returncode == 0, installed.stderr
    env = Path(result["env"])
    return env, next(env.glob("lib/python3*/site-packages"))


@pytest.mark.parametrize("how", ["pth", "sitecustomize"])
def test_forecast_and_kernel_install_name_what_puts_a_stray_jax_first(tiny_env, tmp_path, how):
    env, site = tiny_env
    file = _put_first(site, how, _stray(tmp_path))
    proc = run_cli("forecast", "--env", str(env), "--assets", str(_files(tmp_path / "assets")), "--json", timeout=300)
    assert "Traceback" not in proc.stderr
    first = last_json(proc)["findings"][0]
    assert first["id"] == "pythonpath_shadows_env", json.dumps(last_json(proc)["findings"])[:800]
    assert any(str(file) in e for e in first["evidence"])
    proc = run_cli("kernel", "install", "--env", str(env), "--name", f"k-{how}", "--json",
                   env={"JUPYTER_DATA_DIR": str(tmp_path / "jupyter")})
    assert proc.returncode == 0, proc.stderr
    said = json.dumps(last_json(proc)["cautions"])
    assert str(file) in said and "stray" in said and "A copy of jax or GraphCast" in said
    plain = run_cli("kernel", "install", "--env", str(env), "--name", f"k2-{how}",
                    env={"JUPYTER_DATA_DIR": str(tmp_path / "jupyter")})
    assert str(file) in " ".join(plain.stdout.split()) + " ".join(plain.stderr.split())


@pytest.mark.parametrize("how", ["finder", "linked"])
def test_an_import_hook_or_a_pth_naming_a_link_that_leads_out_is_named_by_every_command(tmp_path, how):
    """23rd hostile pass P5: a `.pth` whose import line installs a meta-path finder mapping jax to a stray copy (as
    editable installs do), and a `.pth` naming `../zz_rel`, a link inside the env to the stray folder: forecast and
    kernel install (`probe_shadow` with no tiers) said nothing, and verify named only jax's origin, spelled inside
    the env."""
    env, site = _fake_env(tmp_path)
    stray = _stray(tmp_path)
    if how == "finder":
        (site / "zz_finder.py").write_text(
            "import sys, importlib.util\nclass F:\n    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'jax':\n            return importlib.util.spec_from_file_location('jax', "
            f"'{stray}/jax/__init__.py', submodule_search_locations=['{stray}/jax'])\nsys.meta_path.insert(0, F())\n")
        pth = site / "__editable__.zz_jax.pth"
        pth.write_text("import zz_finder\n")
        jax_path = stray / "jax"
    else:
        (site.parent / "zz_rel").symlink_to(stray)
        pth = site / "zz_rel.pth"
        pth.write_text("../zz_rel\n")
        jax_path = site.parent / "zz_rel" / "jax"
    tier = Tier.from_probe({"name": "jax_import", "ok": True, "status": "passed", "seconds": 1.0,
                            "jax_path": str(jax_path)})
    for finding in (probe_shadow([tier], env, {}), probe_shadow([], env, {}), environment_shadow(env, {})):
        assert finding is not None and finding.id == "pythonpath_shadows_env"
        line = next(e for e in finding.evidence if str(pth) in e)
        assert str(stray) in line and "jax" in line, line
        if how == "finder":
            assert "zz_finder.py" in line and "import hook" in line
        assert "delete the .pth file" in finding.fix.lower()
    if how == "linked":
        assert f"(really {stray / 'jax'})" in probe_shadow([tier], env, {}).evidence[0]


def test_an_editable_install_of_another_package_is_no_finding(tmp_path):
    env, site = _fake_env(tmp_path)
    project = tmp_path / "proj" / "src" / "mypkg"
    project.mkdir(parents=True)
    (project / "__init__.py").write_text("")
    (site / "__editable___mypkg_finder.py").write_text(f"MAPPING = {{'mypkg': '{project}'}}\n")
    (site / "__editable__.mypkg-1.0.pth").write_text("import __editable___mypkg_finder\n")
    assert probe_shadow([], env, {}) is None and environment_shadow(env, {}) is None
