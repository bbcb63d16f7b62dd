"""An entry of LD_LIBRARY_PATH, LD_PRELOAD or LD_AUDIT holding one of ld.so's dynamic string tokens (`$PLATFORM`,
`${PLATFORM}`, `$LIB`, `${LIB}`, `$ORIGIN`: any `$`) is left out of what activation gives a shell, the kernel and
verify's probe, and of what detect's GPU probes load, and named: the folder ld.so reads is not the one written, so
the swap rule, which reads the written text, cannot judge it.

Before (33rd hostile pass, part B, P8): `LD_LIBRARY_PATH='ROOTDIR/$PLATFORM'`, with `ROOTDIR/x86_64` another user's
folder, was judged by root's ROOTDIR (the literal folder is not there) and kept; verify's probe loaded their
libstdc++.so.6 as root, and `activate` exported it unnamed. Spelled `ROOTDIR/x86_64` it was left out."""

from __future__ import annotations

import pytest

from wizard import children
from wizard.detect.deadline import probe_env
from wizard.install.activation import compute_activation
from wizard.verify.check import probe_environment

TOKENS = ["$PLATFORM", "${PLATFORM}", "$LIB", "${LIB}", "$ORIGIN"]


@pytest.mark.parametrize("token", TOKENS)
def test_a_library_path_entry_holding_a_token_is_left_out_and_named(tmp_path, token):
    env = tmp_path / "env"
    env.mkdir()
    mine = tmp_path / "mine"
    mine.mkdir()
    entry = f"{tmp_path}/{token}"
    base = {"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": f"{entry}:{mine}"}
    act = compute_activation(env, base, marker={})
    assert act.set["LD_LIBRARY_PATH"] == str(mine)
    removal = next(r for r in act.removals if r.variable == "LD_LIBRARY_PATH")
    assert removal.folder == entry and "ld.so" in removal.reason, removal.reason
    child, removed = probe_environment(env, "cpu", base=base)
    assert child["LD_LIBRARY_PATH"] == str(mine)
    assert any(r["variable"] == "LD_LIBRARY_PATH" and r["dir"] == entry for r in removed), removed


@pytest.mark.parametrize("variable", ["LD_PRELOAD", "LD_AUDIT"])
@pytest.mark.parametrize("token", TOKENS)
def test_a_library_named_with_a_token_is_left_out_even_inside_the_env(tmp_path, variable, token):
    env = tmp_path / "env"
    env.mkdir()
    for entry in (f"{tmp_path}/{token}/libhack.so", f"{env}/{token}/../../../libhack.so"):
        act = compute_activation(env, {"PATH": "/usr/bin", variable: entry}, marker={})
        assert variable in act.unset, (entry, act.set.get(variable))
        assert [r.folder for r in act.removals if r.variable == variable] == [entry]


@pytest.mark.parametrize("variable", ["LD_LIBRARY_PATH", "LD_PRELOAD", "LD_AUDIT"])
def test_detects_probes_leave_a_token_out_and_name_it(tmp_path, monkeypatch, variable):
    monkeypatch.setattr(children, "SKIPPED_PROGRAMS", [])
    entry = f"{tmp_path}/$PLATFORM" + ("" if variable == "LD_LIBRARY_PATH" else "/libhack.so")
    env = probe_env({"PATH": "/usr/bin:/bin", variable: entry})
    assert variable not in env
    assert any(entry in note and "ld.so" in note for note in children.SKIPPED_PROGRAMS), children.SKIPPED_PROGRAMS


def test_detects_probes_split_the_library_path_at_semicolons_as_ld_so_does(tmp_path, monkeypatch):
    monkeypatch.setattr(children, "SKIPPED_PROGRAMS", [])
    shared = tmp_path / "everyone"
    shared.mkdir()
    shared.chmod(0o777)
    env = probe_env({"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": f"/usr/lib;{shared}"})
    assert env["LD_LIBRARY_PATH"] == "/usr/lib"
