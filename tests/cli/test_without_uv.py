"""A wizard installed without its uv (a venv whose uv was removed, PATH without one): every install is refused
before anything runs, `--installer pip` too (eighteenth hostile pass P18: every pip step ran, then the finished
environment was removed because uv, which freezes it, was missing)."""

from __future__ import annotations

import json
import site
import subprocess
import venv

from tests.fixtures.state import REPO


def test_install_without_uv_is_refused_before_anything_runs_whichever_installer(tiny, tmp_path):
    # A venv that reaches the wizard's dependencies through a .pth, but whose own site-packages holds a `uv` that is
    # not there (its import fails, as for a package removed in part): the wizard's Python has no uv, PATH has none.
    root = tmp_path / "wizard-venv"
    venv.create(root, with_pip=False)
    own = next(root.glob("lib/python3*/site-packages"))
    (own / "uv").mkdir()
    (own / "uv" / "__init__.py").write_text("raise ImportError('uv was removed from this environment')\n")
    (own / "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "GC_WIZARD_HOME": str(tmp_path / "state")}
    for extra in ((), ("--installer", "pip")):
        proc = subprocess.run([str(root / "bin" / "python"), "-m", "wizard", "install", "tiny-a", "--yes", "--json",
                               *tiny.args(), *extra], capture_output=True, text=True, env=env, cwd=REPO, timeout=300)
        assert proc.returncode == 1, proc.stdout + proc.stderr
        error = json.loads(proc.stdout.splitlines()[-1])["error"]
        assert error.startswith("uv, which gc-wizard installs with (and, with --installer pip too,"), error
        assert "Traceback" not in proc.stderr
    assert not (tmp_path / "state" / "history.json").exists() or json.loads(
        (tmp_path / "state" / "history.json").read_text()).get("entries") == []  # nothing started, nothing recorded
