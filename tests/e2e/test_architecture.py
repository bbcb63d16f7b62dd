"""The import-linter contracts in pyproject.toml hold, and they really catch a forbidden import.

The second test copies the package to a scratch folder, adds one import the architecture forbids (the
core reaching into the TUI, the TUI reaching into the CLI's commands, a stage reaching up, a face
reaching past wizard.flows into a stage) and expects `lint-imports` to fail naming it: a contract that cannot fail proves nothing.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.state import REPO

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

pytestmark = pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter is not installed (test extra)")


def _lint(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=root, capture_output=True, text=True,
                          timeout=300, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)})


def test_contracts_hold_on_the_tree():
    proc = _lint(REPO)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "broken" not in proc.stdout.lower().split("contracts:")[-1].replace("0 broken", "")


@pytest.mark.parametrize(("module", "line", "contract"), [
    ("wizard/install/plan.py", "import wizard.tui.app", "The core never imports a face"),
    ("wizard/verify/diagnose.py", "import rich", "The core never imports a face"),
    ("wizard/tui/screens/plan.py", "import wizard.commands.recipes", "The two faces are independent"),
    ("wizard/detect/chain.py", "import wizard.install.plan", "The folders are the layers"),
    # The use-case layer sits above every stage: a stage that reaches up into it breaks the layers.
    ("wizard/install/runner.py", "import wizard.flows.transaction", "The folders are the layers"),
    ("wizard/history/store.py", "import wizard.verify.check", "The folders are the layers"),
    # The faces reach the stages only through wizard.flows: a command, a screen or the CLI's entry point
    # importing a stage breaks the faces contract, even deferred into a function.
    ("wizard/commands/detect.py", "from wizard.detect.chain import detect", "The faces import only wizard.flows"),
    ("wizard/tui/screens/machine.py", "def _late():\n    from wizard.history.store import load_history",
     "The faces import only wizard.flows"),
    ("wizard/cli.py", "import wizard.install.plan", "The faces import only wizard.flows"),
    ("wizard/tui/app.py", "import wizard.lock", "The faces import only wizard.flows"),
    # The base utilities stack: errors once built the sentences that name the state folder, and it, paths,
    # full_disk, source_trust and security imported one another through deferred imports.
    ("wizard/errors.py", "def _late():\n    from wizard import paths", "The base utilities stack"),
    ("wizard/security.py", "def _late():\n    from wizard.errors import UserError", "The base utilities stack"),
])
def test_a_forbidden_import_breaks_a_contract(tmp_path, module, line, contract):
    shutil.copytree(REPO / "wizard", tmp_path / "wizard", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / module
    target.write_text(target.read_text() + f"\n{line}  # added by the test\n")
    proc = _lint(tmp_path)
    assert proc.returncode != 0, proc.stdout[-3000:]
    broken = proc.stdout.split("Broken contracts")[-1]
    assert contract in broken, proc.stdout[-3000:]
