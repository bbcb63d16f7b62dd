"""29th hostile pass (part A) P1: `diagnose` (text and `--json` evidence) printed secrets in 22 shapes the masker did
not know — Oracle `user/password@`, XML `key=`/`name=` + `value=` pairs and keyed element text, Ruby and Java
setters, CLI tools that take the secret as their next bare argument, an AWS key id's secret, and separators spelled
as `%3D`, `&#61;`, `\\u003d` or fullwidth `＝`. Two mechanisms now: diagnose quotes only the matched span and a bounded
context (`evidence_window`), and the masker decodes a line's escapes before it matches (`_mask_decoded`) and knows the
new forms. This runs the real command on real log files."""

from __future__ import annotations

import json

import pytest

from tests.fixtures.cli import run_inproc

SECRET = "SEKa1b2c3d4e5"
PREFIX = "RESOURCE_EXHAUSTED: Out of memory while trying to allocate 123 bytes. "
#: The tester's 22 shapes (`/tmp/t29a/repro/P1.sh`), each with the secret where `{}` stands.
SHAPES = [
    "jdbc:oracle:thin:scott/{}@db.lab:1521/orcl",
    "sqlplus scott/{}@orcl",
    ':password => "{}"',
    'conn.setPassword("{}")',
    "wandb login {}",
    '<entry key="password">{}</entry>',
    '<add key="ClearTextPassword" value="{}" />',
    '<property name="db.password" value="{}"/>',
    "password {}",
    "token%3D{}",
    "password%3D{}",
    "password&#61;{}",
    "password\\u003d{}",
    "PASSWORD＝{}",
    "AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCY{}",
    "kaggle config set -n key -v {}",
    "ldapsearch -x -D cn=admin -w {}",
    "keytool -list -storepass {}",
    "vault login {}",
    "gh auth login --with-token <<< {}",
    "npm config set //registry.lab/:_authToken {}",
    "rclone config create r s3 secret_access_key {}",
]


@pytest.mark.parametrize("as_json", [False, True])
def test_diagnose_masks_each_shape(tmp_path, as_json):
    logs = []
    for number, shape in enumerate(SHAPES):
        log = tmp_path / f"{number}.log"
        log.write_text(PREFIX + shape.format(SECRET) + "\n", encoding="utf-8")
        logs.append((shape, log))
    for shape, log in logs:
        proc = run_inproc("diagnose", str(log), *(["--json"] if as_json else []),
                          env={"GC_WIZARD_HOME": str(tmp_path / "state")})
        shown = proc.stdout + proc.stderr
        assert "gpu_out_of_memory" in shown, shown
        assert "a1b2c3d4e5" not in shown, (shape, shown)
        assert "Traceback" not in shown
        if as_json:
            json.loads(proc.stdout.strip().splitlines()[-1])

