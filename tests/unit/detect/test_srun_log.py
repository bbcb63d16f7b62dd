"""The srun log keeps srun's argv, masked and private like every other log (fifth hostile pass 1i/7f): a token
passed with `--srun-arg=--export=ALL,HF_TOKEN=…` was written in clear, to a file other users could read."""

from __future__ import annotations

import os
import stat

from wizard.detect.slurm import _keep_lines, _srun_log

TOKEN = "hf_" + "QwErTyUiOpAsDfGhJkLzXcVbNm123456"
PASSWORD = "SrunPw0rd99"


def test_the_srun_log_is_masked_and_private_whatever_the_umask():
    old = os.umask(0)
    try:
        log = _srun_log(["srun", f"--export=ALL,HF_TOKEN={TOKEN}", f"--comment=https://u:{PASSWORD}@h/x", "python"])
        _keep_lines(log, [f"srun: echo https://u:{PASSWORD}@h/x", f"HF_TOKEN={TOKEN}"])
    finally:
        os.umask(old)
    text = log.read_text()
    assert TOKEN not in text and PASSWORD not in text and "<redacted>" in text
    assert "--export=ALL" in text and "python" in text  # the rest of the command stays readable
    assert stat.S_IMODE(log.stat().st_mode) == 0o600


def test_the_srun_log_masks_secret_words_anywhere_in_an_exported_name():
    """27th hostile pass (part A) P4: `--export=ALL,SSHPASS=…`, `REDIS_AUTH=…` and `BASIC_AUTH=user:pw` were written
    in clear to the srun log (its `# argv:` line and srun's own line quoting it)."""
    secrets = {"SSHPASS": "SEKv9aa", "REDIS_AUTH": "SEKv5aa", "BASIC_AUTH": "user:SEKv6aa"}
    argv = ["srun", *(f"--export=ALL,{k}={v}" for k, v in secrets.items()), "python"]
    log = _srun_log(argv)
    _keep_lines(log, ["srun: error: invalid argument list: " + " ".join(argv[1:])])
    text = log.read_text()
    assert "SEKv" not in text and text.count("<redacted>") >= 6, text
    assert "SSHPASS=<redacted>" in text and "--export=ALL" in text
