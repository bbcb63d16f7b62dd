"""Which keyring provider makes uv or pip run the `keyring` PATH finds (`installer_keyring.runs_keyring`): the
refusal of one another user could change is tested through the CLI (tests/cli/test_installer_keyring.py)."""

from __future__ import annotations

import os

from wizard.installer_keyring import keyring_problem


def _swappable(folder):
    """A `keyring` every user can write in `folder` (0755), as PATH's first."""
    folder.mkdir(mode=0o755)
    (folder / "keyring").write_text("#!/bin/sh\n")
    (folder / "keyring").chmod(0o777)
    return f"{folder}:{os.environ['PATH']}"


def test_which_provider_runs_the_keyring(tmp_path):
    """uv's default runs none; pip's default (`auto`) runs it only when pip may ask for input; `disabled` and
    `import` run no program; a pip.conf's `keyring-provider` counts as the variable does."""
    base = {"PATH": _swappable(tmp_path / "kbin"), "PIP_CONFIG_FILE": os.devnull, "UV_NO_CONFIG": "1"}
    assert keyring_problem("uv", base, tmp_path) is None
    assert "pip's default keyring-provider" in keyring_problem("pip", base, tmp_path)
    assert keyring_problem("pip", {**base, "PIP_NO_INPUT": "1"}, tmp_path) is None
    for provider in ("disabled", "import"):
        assert keyring_problem("pip", {**base, "PIP_KEYRING_PROVIDER": provider}, tmp_path) is None
    conf = tmp_path / "pip.conf"
    conf.write_text("[global]\nkeyring-provider = subprocess\nno-input = true\n")
    said = keyring_problem("pip", {**base, "PIP_CONFIG_FILE": str(conf)}, tmp_path)
    assert said.startswith(f"`keyring-provider = subprocess` in {conf} makes pip run"), said
