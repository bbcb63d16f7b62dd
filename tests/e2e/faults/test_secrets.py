"""Secrets never reach a log, the report, history.json or a printed plan; private files stay private.

One seed text holds every form of credential people paste (issue 12): URL userinfo with awkward
characters, bearer and token headers, `password:` lines, a private-key block, and the token styles of
Hugging Face, GitHub, AWS and Weights & Biases, under variable names and bare. It goes through the real
paths: a real installer step that prints it (the runner's log), a real GraphCast probe that prints it
(the verify log), the support report built from a failing run's log, and an install whose find-links
URL carries a password (history.json, `plan --json`).
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import REPO, last_json

SECRETS = {
    "url userinfo": ("pip install --index-url https://alice:p@ss:w#rd!@pypi.example.org/simple jax", "p@ss:w#rd!"),
    "url token as user": ("git clone https://ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789@github.com/lab/x.git",
                          "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"),
    "bearer header": ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.s3cr3tsig", "eyJhbGciOiJIUzI1NiJ9"),
    "token header": ("curl -H 'Authorization: token glpat-abcdefghijklmnopqrst1234'", "glpat-abcdefghijklmnopqrst1234"),
    "password line": ("password: hunter2-correct-horse", "hunter2-correct-horse"),
    "password env": ("DB_PASSWORD=Tr0ub4dor&3", "Tr0ub4dor&3"),
    "private key": ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"
                    "QyNTUxOQAAACBkZXJpdmVkLWtleS1tYXRlcmlhbA\n-----END OPENSSH PRIVATE KEY-----",
                    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"),
    "hf token var": ("export HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345"),
    "hf token bare": ("logged in with hf_ZyXwVuTsRqPoNmLkJiHgFeDcBa987654 ok", "hf_ZyXwVuTsRqPoNmLkJiHgFeDcBa987654"),
    "github pat": ('{"GITHUB_TOKEN": "github_pat_11AAAAAAA0abcdefghij_KLMNOPQRSTUVWXYZ0123456789"}',
                   "github_pat_11AAAAAAA0abcdefghij_KLMNOPQRSTUVWXYZ0123456789"),
    "aws key id": ("aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    "aws secret": ("AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                   "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    "wandb key var": ("WANDB_API_KEY=0123456789abcdef0123456789abcdef01234567", "0123456789abcdef0123456789abcdef01234567"),
    "wandb login": ("wandb login fedcba9876543210fedcba9876543210fedcba98", "fedcba9876543210fedcba9876543210fedcba98"),
    "secret in yaml": ("client_secret: 'Zm9vYmFyYmF6cXV4'", "Zm9vYmFyYmF6cXV4"),
}
#: Look like secrets to a careless rule, but are what an admin needs to read.
KEPT = ["graphcast @ git+https://github.com/google-deepmind/graphcast@97d1ad50b0b7af4aaed7790167dffa769bae1f2c",
        "Successfully installed jax-0.4.23 jaxlib-0.4.23", "XLA_PYTHON_CLIENT_PREALLOCATE=false",
        "ssh://git@github.com/lab/repo.git", "Loaded runtime CuDNN library: 8.2.1 but source was compiled with: 8.6.0"]
SEED = "\n".join([text for text, _ in SECRETS.values()] + KEPT) + "\n"


def _leaks(text: str) -> list[str]:
    return [name for name, (_, secret) in SECRETS.items() if secret in text]


@pytest.mark.parametrize("name", list(SECRETS))
def test_each_secret_form_is_redacted(name):
    from wizard.security import redact_secrets

    text, secret = SECRETS[name]
    out = redact_secrets(text)
    assert secret not in out and "<redacted>" in out, out


@pytest.mark.parametrize("text", KEPT)
def test_what_an_admin_needs_is_kept(text):
    from wizard.security import redact_secrets

    assert redact_secrets(text) == text


def test_a_real_installer_step_printing_secrets_leaves_none_in_its_log(tmp_path):
    from wizard.install.plan import Step
    from wizard.install.runner import StepLog, run_step

    seed = tmp_path / "seed.txt"
    seed.write_text(SEED)
    step = Step(name="noisy", title="prints every secret", argv=(sys.executable, "-c", f"print(open({str(seed)!r}).read())"))
    log_path = tmp_path / "step.log"
    with StepLog(log_path) as log:
        result = run_step(step, log=log)
    assert result.ok
    text = log_path.read_text()
    assert _leaks(text) == [] and all(kept in text for kept in KEPT[:3])
    assert stat.S_IMODE(log_path.stat().st_mode) == 0o600


def test_the_report_over_a_seeded_failing_log_has_no_secret_and_is_private(isolated_state, tmp_path):
    logs = isolated_state / "logs"
    logs.mkdir(parents=True)
    log = logs / "install-e1.log"
    log.write_text(SEED)
    entry = {"id": "e1", "kind": "install", "recipe": "jax0.4.23-cpu", "env": "/nowhere", "status": "failed",
             "log": str(log), "error": "step failed: " + SECRETS["url userinfo"][0]}
    (isolated_state / "history.json").write_text(json.dumps({"version": 1, "entries": [entry]}))
    out = tmp_path / "report.md"
    out.write_text("old report\n")
    os.chmod(out, 0o644)
    proc = subprocess.run([sys.executable, "-m", "wizard", "report", "--out", str(out)], capture_output=True, text=True,
                          env={**os.environ}, preexec_fn=lambda: os.umask(0), timeout=180,
                          cwd=str(REPO))
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    assert "Failing log" in text and "CuDNN library: 8.2.1" in text
    assert _leaks(text) == []
    assert stat.S_IMODE(out.stat().st_mode) == 0o600  # even over an existing 0644 file, with umask 000


def test_history_and_plan_never_hold_a_password(isolated_state, tiny):
    dead = "https://labuser:Sup3r-S3cret@127.0.0.1:9/simple/"
    args = ["--recipes-dir", str(tiny.recipes), "--find-links", dead, "--graphcast-src", str(tiny.graphcast),
            "--no-verify"]
    plan = run_inproc("plan", "tiny-a", "--json", *args[:-1])
    assert plan.returncode == 0, plan.stderr
    assert "Sup3r-S3cret" not in plan.stdout and "labuser:***@" in plan.stdout
    text_plan = run_inproc("plan", "tiny-a", *args[:-1])
    assert "Sup3r-S3cret" not in text_plan.stdout
    proc = run_inproc("install", "tiny-a", "--yes", "--json", *args,
                   env={"UV_INDEX_URL": dead, "UV_DEFAULT_INDEX": dead, "UV_NO_CACHE": "1"})
    assert proc.returncode == 1, proc.stderr
    assert "Sup3r-S3cret" not in proc.stdout + proc.stderr
    history = (isolated_state / "history.json").read_text()
    assert "Sup3r-S3cret" not in history and "127.0.0.1:9" in history
    for log in (isolated_state / "logs").glob("*.log"):
        assert "Sup3r-S3cret" not in log.read_text()


def test_state_folder_0700_and_files_0600_whatever_the_umask(tmp_path, tiny, monkeypatch):
    home = tmp_path / "fresh-state"
    monkeypatch.setenv("GC_WIZARD_HOME", str(home))
    proc = subprocess.run([sys.executable, "-m", "wizard", "install", "tiny-a", "--yes", "--json", *tiny.args()],
                          capture_output=True, text=True, preexec_fn=lambda: os.umask(0), timeout=300,
                          cwd=str(REPO))
    assert proc.returncode == 0, proc.stderr
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    files = [home / "history.json", home / "wizard.lock", *(home / "logs").glob("*.log")]
    assert len(files) >= 3
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_the_verify_log_of_a_probe_printing_secrets_has_none(tiny, isolated_state):
    seed = isolated_state.parent / "probe-seed.txt"
    seed.write_text(SEED)
    tiny.house.add("jax", "0.4.23", module_source=f"print(open({str(seed)!r}).read())\nraise ImportError('no jaxlib')\n")
    tiny.write("tiny-jax", ["jax==0.4.23"])
    proc, result = tiny.install("tiny-jax")
    assert proc.returncode == 0, proc.stderr
    verify = run_inproc("verify", "--env", result["env"], "--level", "quick", "--json")
    assert verify.returncode == 1, verify.stderr
    log = Path(last_json(verify)["log"]).read_text()
    assert "probe-seed" in log or "Loaded runtime CuDNN" in log  # the probe's output is there
    assert _leaks(log) == [] and _leaks(verify.stdout) == []
