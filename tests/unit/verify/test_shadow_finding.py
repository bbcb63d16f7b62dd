"""The GraphCast check names a stray copy of a module it imports as the root cause (issue 24, P9)."""

from __future__ import annotations

from wizard.verify.check import _shadow_finding
from wizard.verify.protocol import Tier


def test_a_failed_check_names_a_stray_copy_first(tmp_path):
    """What activation cannot leave out (the env lacks the module: a broken env) is named as the root cause."""
    env = tmp_path / "env"
    (env / "lib" / "python3.11" / "site-packages").mkdir(parents=True)  # no jax of its own
    stray = tmp_path / "checkouts"
    (stray / "jaxlib").mkdir(parents=True)
    tier = Tier.from_probe({"name": "jax_import", "ok": True, "status": "passed", "seconds": 1.0,
                            "jax_path": str(tmp_path / "elsewhere" / "jax")})
    finding = _shadow_finding([tier], env, {"PYTHONPATH": str(stray)})
    assert finding is not None and finding.id == "pythonpath_shadows_env"
    assert any("jax was imported from" in e for e in finding.evidence)
    assert any(str(stray) in e and "jaxlib" in e for e in finding.evidence)
    inside = Tier.from_probe({"name": "jax_import", "ok": True, "status": "passed", "seconds": 1.0,
                              "jax_path": str(env / "lib" / "python3.11" / "site-packages" / "jax")})
    assert _shadow_finding([inside], env, {}) is None


def test_a_relative_entry_is_read_from_where_the_check_runs_not_from_here(tmp_path, monkeypatch):
    """The probe runs in the environment's folder, so Python reads a relative PYTHONPATH entry from there: a
    `jax/` beside the user (the wizard's working folder) is not what the check imported (a false positive the
    third pass left), while an entry that reaches a stray copy from the environment's folder is."""
    env = tmp_path / "envs" / "e"
    (env / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    here = tmp_path / "work"
    (here / "src" / "jax").mkdir(parents=True)
    monkeypatch.chdir(here)
    assert _shadow_finding([], env, {"PYTHONPATH": "src"}) is None
    assert _shadow_finding([], env, {"PYTHONPATH": "./src:"}) is None
    (tmp_path / "stray" / "numpy").mkdir(parents=True)
    finding = _shadow_finding([], env, {"PYTHONPATH": "src:../../stray"})
    assert finding is not None and finding.evidence == (
        f"PYTHONPATH holds ../../stray, with numpy (from {env}, where the check runs)",)


def test_diagnose_env_names_a_stray_folder_with_the_decision_activate_makes(tmp_path):
    """9d: `diagnose --env` read the env from disk and never looked at PYTHONPATH. It now asks the same
    `stray_pythonpath` that activate and the kernel use; a folder of the user's own tools is not named."""
    from wizard.verify.inspect_env import inspect_env

    env = tmp_path / "env"
    (env / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    (env / "bin").mkdir()
    (env / "pyvenv.cfg").write_text("home = /usr/bin\n")
    stray, tools = tmp_path / "checkouts", tmp_path / "tools"
    (stray / "haiku").mkdir(parents=True)
    (tools / "mytools").mkdir(parents=True)
    report = inspect_env(env, {"PATH": "/usr/bin", "PYTHONPATH": f"{tools}:{stray}"}, read_driver=False)
    first = report.findings[0]
    assert first.id == "pythonpath_shadows_env" and "activate" in first.explanation
    assert first.evidence == (f"PYTHONPATH holds {stray}: it holds haiku, which would be imported instead of the "
                              "environment's own",)
    clean = inspect_env(env, {"PATH": "/usr/bin", "PYTHONPATH": str(tools)}, read_driver=False)
    assert "pythonpath_shadows_env" not in [f.id for f in clean.findings]


def _env_with_site(tmp_path):
    env = tmp_path / "env"
    site = env / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    (env / "pyvenv.cfg").write_text("home = /usr/bin\ninclude-system-site-packages = false\n")
    return env, site


def test_a_pth_file_that_adds_a_stray_copy_is_named_with_the_file(tmp_path):
    """Sixth hostile pass 9b: a `zz-dev.pth` (a leftover `pip install -e`) added a folder with a stray jax;
    the check imported it and named only 'No module named jaxlib', `diagnose --env` said nothing."""
    from wizard.verify.shadow import environment_shadow

    env, site = _env_with_site(tmp_path)
    for name, module in (("zz-dev.pth", "jax"), ("__editable__.graphcast.pth", "graphcast"), ("x.pth", "xarray")):
        stray = tmp_path / f"stray-{module}"
        (stray / module).mkdir(parents=True)
        (site / name).write_text(f"# a comment\nimport os; os.getcwd()\n{stray}\n")
        tier = Tier.from_probe({"name": "jax_import", "ok": False, "status": "failed", "seconds": 1.0,
                                "jax_path": str(stray / module)})
        for finding in (_shadow_finding([tier], env, {}), environment_shadow(env, {})):
            assert finding is not None and finding.id == "pythonpath_shadows_env"
            assert any(str(site / name) in e and str(stray) in e and module in e for e in finding.evidence), finding
        (site / name).unlink()
    (site / "inside.pth").write_text(f"{site / 'sub'}\n")  # a folder inside the env is the env's own
    (site / "sub" / "jax").mkdir(parents=True)
    assert environment_shadow(env, {}) is None


def test_the_user_site_is_named_only_where_the_env_reads_it(tmp_path):
    """Sixth hostile pass 9c: an env made with --system-site-packages reads the user's site-packages first, where
    a jax was; with include-system-site-packages = false (every env gc-wizard makes) it is not on sys.path."""
    from wizard.verify.shadow import environment_shadow

    env, _site = _env_with_site(tmp_path)
    user = tmp_path / "userbase"
    (user / "lib" / "python3.11" / "site-packages" / "jax").mkdir(parents=True)
    assert environment_shadow(env, {"PYTHONUSERBASE": str(user)}) is None
    (env / "pyvenv.cfg").write_text("home = /usr/bin\ninclude-system-site-packages = true\n")
    finding = environment_shadow(env, {"PYTHONUSERBASE": str(user)})
    assert finding is not None and any("user site-packages" in e and str(user) in e for e in finding.evidence)
    assert environment_shadow(env, {"PYTHONUSERBASE": str(user), "PYTHONNOUSERSITE": "1"}) is None


def test_a_folder_holding_a_standard_library_name_is_left_out_with_pythons_own_named(tmp_path):
    """Seventh hostile pass 9e/9f: a `json/` on PYTHONPATH was kept by activate and the kernel, and the env's
    `import json` ran its code. A project's own `test/` folder is not counted."""
    from wizard.install.activation import stray_pythonpath

    env, _site = _env_with_site(tmp_path)
    for name in ("json", "typing.py", "dataclasses", "logging"):
        stray = tmp_path / f"pp-{name}"
        (stray / name).mkdir(parents=True) if "." not in name else (stray.mkdir(), (stray / name).write_text(""))
        keep, removals = stray_pythonpath(env, str(stray))
        assert keep == [] and "Python's own standard library" in removals[0].reason, (name, removals)
    project = tmp_path / "project"
    (project / "test").mkdir(parents=True)
    (project / "mylib").mkdir()
    assert stray_pythonpath(env, str(project)) == ([str(project)], [])


def test_the_wizards_own_imports_do_not_come_from_pythonpath(tmp_path):
    """Seventh hostile pass 9a/9b: a stale `yaml/` on PYTHONPATH gave the wizard itself a traceback, a `json/` ran
    its code inside the wizard. Those folders now come after the wizard's own packages."""
    import os
    import subprocess
    import sys

    (tmp_path / "yaml").mkdir()
    (tmp_path / "yaml" / "__init__.py").write_text("")
    (tmp_path / "json").mkdir()
    (tmp_path / "json" / "__init__.py").write_text(f"open({str(tmp_path / 'RAN')!r}, 'w')\n")
    proc = subprocess.run([sys.executable, "-m", "wizard", "recipes", "--json"], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(tmp_path), "GC_WIZARD_HOME": str(tmp_path / "s")},
                          timeout=120)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert not (tmp_path / "RAN").exists()


def test_an_import_that_died_is_explained_by_a_stray_copy_the_env_reaches(tmp_path):
    """Eleventh hostile pass #206/#207: a stray jax that raises at import (in the user site of an env made with
    --system-site-packages, or in a folder a .pth adds) killed the probe before any tier said where jax came from,
    and the check said "matches no known failure" while `diagnose --env` named it. The check now names it too."""
    from wizard.verify.shadow import environment_shadow

    env, site = _env_with_site(tmp_path)
    died = Tier.from_probe({"name": "jax_import", "ok": False, "status": "failed", "seconds": 0.2})
    stray = tmp_path / "stray"
    (stray / "graphcast").mkdir(parents=True)
    (site / "zz_stray.pth").write_text(f"{stray}\n")
    for finding in (_shadow_finding([died], env, {}), _shadow_finding([], env, {}), environment_shadow(env, {})):
        assert finding is not None and finding.id == "pythonpath_shadows_env", finding
        assert any(str(stray) in e and "graphcast" in e for e in finding.evidence), finding.evidence
    (site / "zz_stray.pth").unlink()
    user = tmp_path / "ub"
    (user / "lib" / "python3.11" / "site-packages" / "jax").mkdir(parents=True)
    (env / "pyvenv.cfg").write_text("home = /usr/bin\ninclude-system-site-packages = true\n")
    finding = _shadow_finding([died], env, {"PYTHONUSERBASE": str(user)})
    assert finding is not None and any("user site-packages" in e for e in finding.evidence)
    assert _shadow_finding([died], env, {"PYTHONUSERBASE": str(user), "PYTHONNOUSERSITE": "1"}) is None
