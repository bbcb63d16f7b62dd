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
