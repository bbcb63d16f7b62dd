"""`plan --installer pip` refuses a pip settings file that is a FIFO or a device, as `install` does, by the one reader
every installer step starts through (`installer_files.settings_problem`).

Before (32nd hostile pass, part A, P3): with `PIP_CONFIG_FILE=FIFO` (or `/dev/zero`, or a FIFO at
`$XDG_CONFIG_HOME/pip/pip.conf`) the plan exited 0 with no "!" line, while `install --installer pip` refused at once
("pip reads its settings from …, and it is a named pipe"); uv's plan refused `UV_CONFIG_FILE=FIFO`. The real CLI in
this process, on the tiny recipes."""

from __future__ import annotations

import json
import os

import pytest

from tests.fixtures.cli import run_inproc


@pytest.mark.parametrize("where", ["PIP_CONFIG_FILE", "/dev/zero", "XDG_CONFIG_HOME"])
def test_the_plan_refuses_the_pip_settings_file_install_refuses(tiny, monkeypatch, tmp_path, where):
    if where == "/dev/zero":
        monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/zero")
        named = "/dev/zero"
    else:
        fifo = tmp_path / "cfg" / "pip" / "pip.conf" if where == "XDG_CONFIG_HOME" else tmp_path / "fifo"
        fifo.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(fifo)
        monkeypatch.setenv(where, str(tmp_path / "cfg") if where == "XDG_CONFIG_HOME" else str(fifo))
        if where == "XDG_CONFIG_HOME":
            monkeypatch.delenv("PIP_CONFIG_FILE")  # the tests' /dev/null turns every pip settings file off
        named = str(fifo)
    plan = run_inproc("plan", "tiny-a", "--installer", "pip", *tiny.args()[:-1])
    assert plan.returncode == 2, (plan.stdout, plan.stderr)
    assert f"pip reads its settings from {named}, and it is a" in plan.stderr, plan.stderr
    described = run_inproc("plan", "tiny-a", "--installer", "pip", "--json", *tiny.args()[:-1])
    assert described.returncode == 2 or named in json.loads(described.stdout)["settings_refused"]
