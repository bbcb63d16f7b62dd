"""A library `LD_PRELOAD` or `LD_AUDIT` names in a place another user could swap is left out of what activation
gives a shell, the kernel and verify's probe, and named, as such a folder on `LD_LIBRARY_PATH` is.

Before (31st hostile pass, part B, P3): verify's probe (`probe_environment`, the activation's variables) loaded
another user's `LD_PRELOAD`/`LD_AUDIT` library as root, and neither verify nor `activate` named it."""

from __future__ import annotations

import pytest

from tests.fixtures.modes import open_folder
from wizard.install.activation import compute_activation
from wizard.verify.check import probe_environment


@pytest.mark.parametrize("variable", ["LD_PRELOAD", "LD_AUDIT"])
def test_a_library_another_user_could_swap_is_left_out_and_named(tmp_path, variable):
    env = tmp_path / "env"
    env.mkdir()
    theirs = open_folder(tmp_path / "ww") / "libhack.so"
    theirs.write_bytes(b"")
    mine = tmp_path / "libmine.so"
    mine.write_bytes(b"")
    separator = " " if variable == "LD_PRELOAD" else ":"
    base = {"PATH": "/usr/bin:/bin", variable: f"{theirs}{separator}{mine}"}
    act = compute_activation(env, base, marker={})
    assert act.set[variable] == str(mine)
    removal = next(r for r in act.removals if r.variable == variable)
    assert removal.folder == str(theirs) and "every user can write" in removal.reason, removal.reason
    child, removed = probe_environment(env, "cpu", base=base)
    assert child[variable] == str(mine)
    assert any(r["variable"] == variable and r["dir"] == str(theirs) for r in removed), removed


def test_a_library_of_ones_own_and_a_bare_name_are_kept(tmp_path):
    env = tmp_path / "env"
    env.mkdir()
    mine = tmp_path / "libmine.so"
    mine.write_bytes(b"")
    act = compute_activation(env, {"PATH": "/usr/bin", "LD_PRELOAD": f"{mine} libjemalloc.so.2",
                                   "LD_AUDIT": str(mine)}, marker={})
    assert "LD_PRELOAD" not in act.set and "LD_AUDIT" not in act.set and not act.removals, act.removals
