"""An XLA flag in the user's XLA_FLAGS that names a place another user could swap (a dump folder, the CUDA data
folder, autotune results) is left out of what activation gives a shell, the kernel and verify's probe, and named;
the other flags stay.

Before (32nd hostile pass, part B, P3): `XLA_FLAGS=--xla_dump_to=<another user's folder>` reached verify's probe
(`probe_environment`, the activation's variables), which wrote its dumps there as root, through that user's links,
and nothing named XLA_FLAGS."""

from __future__ import annotations

import pytest

from tests.fixtures.modes import open_folder
from wizard.install.activation import compute_activation
from wizard.verify.check import probe_environment


@pytest.mark.parametrize("flag", ["xla_dump_to", "xla_gpu_cuda_data_dir", "xla_gpu_per_fusion_autotune_cache_dir",
                                  "xla_gpu_dump_autotune_results_to", "xla_gpu_load_autotune_results_from"])
def test_a_place_another_user_could_swap_is_left_out_and_named(tmp_path, flag):
    env = tmp_path / "env"
    env.mkdir()
    theirs = open_folder(tmp_path / "ww") / "dump"
    word = f"--{flag}={theirs}"
    base = {"PATH": "/usr/bin:/bin", "XLA_FLAGS": f"{word} --xla_cpu_enable_fast_math=false"}
    act = compute_activation(env, base, marker={})
    assert act.set["XLA_FLAGS"] == "--xla_cpu_enable_fast_math=false"
    removal = next(r for r in act.removals if r.variable == "XLA_FLAGS")
    assert removal.folder == word and "unset XLA_FLAGS" in removal.reason, removal.reason
    child, removed = probe_environment(env, "cpu", base=base)
    assert child["XLA_FLAGS"] == "--xla_cpu_enable_fast_math=false"
    assert any(r["variable"] == "XLA_FLAGS" and r["dir"] == word for r in removed), removed


def test_only_a_swappable_place_makes_xla_flags_unset(tmp_path):
    env = tmp_path / "env"
    env.mkdir()
    act = compute_activation(env, {"PATH": "/usr/bin", "XLA_FLAGS": "--xla_dump_to=relative/dump"}, marker={})
    assert "XLA_FLAGS" in act.unset and act.removals[0].variable == "XLA_FLAGS"


def test_ones_own_places_and_plain_flags_are_kept(tmp_path):
    env = tmp_path / "env"
    env.mkdir()
    mine = tmp_path / "dump"
    mine.mkdir()
    act = compute_activation(env, {"PATH": "/usr/bin", "XLA_FLAGS": f"--xla_dump_to={mine} "
                                   "--xla_force_host_platform_device_count=2"}, marker={})
    assert "XLA_FLAGS" not in act.set and "XLA_FLAGS" not in act.unset and not act.removals, act.removals
