"""An install is recorded only when the environment holds what its steps installed: pip's `--dry-run` ended 0 having
installed nothing, and the environment (only pip in it) was recorded "installed" and made current (35th hostile pass
(part A) P5). `PIP_DRY_RUN` is refused before anything runs; here that refusal is taken away, to hold the check after
the steps for any other way to the same end."""

from __future__ import annotations

import json

from wizard import installer_files
from wizard.flows import transaction
from wizard.install import runner
from wizard.install.installed_check import missing_packages


def test_an_install_that_installed_nothing_is_not_recorded(tiny, inproc, monkeypatch):
    for module in (installer_files, transaction, runner):
        monkeypatch.setattr(module, "requirement_problem", lambda *_a, **_k: None)
    proc = inproc("install", "tiny-a", "--installer", "pip", "--yes", "--json", *tiny.args(), env={"PIP_DRY_RUN": "1"})
    assert proc.returncode != 0, proc.stdout + proc.stderr
    error = json.loads(proc.stdout.strip().splitlines()[-1])["error"]
    assert "pkg-a, graphcast are not in" in error and "nothing was recorded as installed" in error, error
    assert all(entry.get("status") != "installed" for entry in tiny.history())


class _Step:
    def __init__(self, name):
        self.name = name


class _Plan:
    def __init__(self, requirements, lock=None):
        self.recipe = type("R", (), {"requirements": tuple(requirements)})()
        self.steps = (_Step("install-requirements"), _Step("install-graphcast"))
        self.lock = lock


def test_missing_packages_reads_names_as_pip_does():
    plan = _Plan(["Pkg_A==1.0", "pkg-b[x]>=2", "pkg-c==1; sys_platform == 'win32'"])
    assert missing_packages(plan, ["pkg-a==1.0", "pkg.b==2.1", "graphcast @ file:///x.whl"]) == []
    assert missing_packages(plan, ["pip==24.0"]) == ["Pkg_A", "pkg-b", "graphcast"]
    assert missing_packages(_Plan(["pkg-a==1"], lock="/x.txt"), ["graphcast==0.1"]) == []
