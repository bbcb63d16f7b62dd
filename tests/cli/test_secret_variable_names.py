"""27th hostile pass (part A) P4: standard secret variables whose names the masker did not know — `SSHPASS`,
`REDISCLI_AUTH`, `REDIS_AUTH`, `OP_SESSION_*`, `NPM_CONFIG__AUTH` — were shown by `diagnose` (text and `--json`)
while `DOCKER_PASS` in the same log was masked. The one name rule (`wizard.security`) now matches the secret words
anywhere in a name; this runs the real command on a real log file."""

from __future__ import annotations

import json

import pytest

from tests.fixtures.cli import run_inproc

SECRETS = {"SSHPASS": "SEKx1aa", "REDISCLI_AUTH": "SEKx2aa", "REDIS_AUTH": "SEKx8aa", "OP_SESSION_my": "SEKx5aa",
           "NPM_CONFIG__AUTH": "dTpTRUt4M2Fh", "DOCKER_PASS": "SEKx9aa"}


@pytest.mark.parametrize("as_json", [False, True])
def test_diagnose_masks_every_standard_secret_variable(tmp_path, as_json):
    log = tmp_path / "sec.log"
    log.write_text("".join(
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 1234 "
        f"bytes. {name}={value}\n" for name, value in SECRETS.items()))
    proc = run_inproc("diagnose", str(log), *(["--json"] if as_json else []),
                      env={"GC_WIZARD_HOME": str(tmp_path / "state")})
    shown = proc.stdout + proc.stderr
    assert "Out of memory" in shown or "memory" in shown.lower(), shown
    for name, value in SECRETS.items():
        assert value not in shown, (name, shown)
    if as_json:
        json.loads(proc.stdout.strip().splitlines()[-1])
