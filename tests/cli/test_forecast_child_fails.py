"""A forecast whose child process fails (hostile pass 19 P5): in an environment without JAX the child stops at its
imports, and the wizard stopped on an error of its own (a TypeError joining the child's bounded stdout to its
stderr) instead of saying what failed. The failure is a forecast result with its findings, exit 1."""

from __future__ import annotations

import json
import zipfile

from tests.fixtures.state import last_json, run_cli
from wizard.after.assets import DEFAULT_DATASET, DEFAULT_MODEL, STATS_FILES


def _files(root):
    """The five files a first forecast reads, in the layout `--assets DIR` takes (their content never read here:
    the child fails at `import jax` first)."""
    for kind in ("params", "dataset", "stats"):
        (root / kind).mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(root / "params" / DEFAULT_MODEL, "w") as archive:
        archive.writestr("a.npy", b"")
    (root / "dataset" / DEFAULT_DATASET).write_bytes(b"CDF\x01" + b"\0" * 64)
    for name in STATS_FILES:
        (root / "stats" / name).write_bytes(b"CDF\x01" + b"\0" * 64)
    return root


def test_a_forecast_child_that_fails_is_a_diagnosed_result_not_a_crash(tiny, tmp_path):
    installed, result = tiny.install("tiny-a", "--no-verify")
    assert installed.returncode == 0, installed.stderr
    proc = run_cli("forecast", "--env", result["env"], "--assets", str(_files(tmp_path / "assets")), "--json",
                   timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "error of its own" not in proc.stderr and "Traceback" not in proc.stderr
    data = last_json(proc)
    assert data["ok"] is False and data["error"] and data["log"]
    assert data["findings"], data  # what the child printed was diagnosed
    assert "jax" in json.dumps(data["findings"]).lower()
