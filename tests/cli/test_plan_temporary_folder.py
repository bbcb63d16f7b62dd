"""`plan` names the temporary folder (TMPDIR) that `install` would refuse before its first step, in the install's own
sentence (`install.private_args.temporary_root_refusal`), marked "!" and in `--json` as `temporary_refused`.

Before (31st hostile pass, part A P7 and part B P9): with TMPDIR missing, named with a byte that is not UTF-8, or a
folder another user could swap, `plan` exited 0 without a word and ended "To run it: … install …", and that install
then refused at once. The real CLI in a child process (the temporary folder is read once per process)."""

from __future__ import annotations

import json
import os

import pytest

from tests.fixtures.modes import open_folder
from tests.fixtures.state import run_cli


@pytest.mark.parametrize("kind, words", [("missing", "cannot be used: no such folder"),
                                         ("not-utf8", "holds a byte that is not UTF-8"),
                                         ("open", "so another user could swap the private files")])
def test_plan_names_the_temporary_folder_install_refuses(tmp_path, isolated_state, tiny, kind, words):
    if kind == "missing":
        folder = str(tmp_path / "no-such-tmp")
    elif kind == "not-utf8":
        folder = os.fsdecode(os.fsencode(tmp_path) + b"/tmp\xff")
        os.mkdir(folder)
    else:
        folder = str(open_folder(tmp_path / "ww"))
    env = {"TMPDIR": folder}
    plan = run_cli("plan", "tiny-a", *tiny.args()[:-1], env=env)
    assert plan.returncode == 0, plan.stderr
    said = " ".join(plan.stdout.split())  # the plan wraps its lines
    assert "! The temporary folder (TMPDIR)" in said and words in said, plan.stdout
    assert "`install` would stop before its first step" in said, plan.stdout
    shown = json.loads(run_cli("plan", "tiny-a", *tiny.args()[:-1], "--json", env=env).stdout)
    assert words in (shown.get("temporary_refused") or ""), shown.get("temporary_refused")
    proc, _ = tiny.install("tiny-a", env=env)
    assert proc.returncode in (1, 2) and words in proc.stderr, proc.stderr  # another user's folder: exit 1


def test_plan_says_nothing_of_a_usable_temporary_folder(tmp_path, isolated_state, tiny):
    plan = json.loads(run_cli("plan", "tiny-a", *tiny.args()[:-1], "--json", env={"TMPDIR": str(tmp_path)}).stdout)
    assert plan["temporary_refused"] is None
