"""The memory preflight: which GraphCast and GenCast models this machine's GPUs and host RAM hold.

The figures are the data file's (`wizard/data/model_memory.yaml`); the facts are built per case, or come
from real detection through the stand-in GPU servers, with host RAM read from real /proc-style files.
"""

from __future__ import annotations

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.facts import facts_with
from tests.fixtures.state import last_json
from tests.standins import standin_env
from wizard.detect.environment import memory_info
from wizard.detect.facts import Facts
from wizard.detect.preflight import VERDICTS, assess, load_needs, summary_lines
from wizard.errors import UserError


def verdicts(facts: Facts) -> dict[str, str]:
    return {fit.need.id: fit.verdict for fit in assess(facts)}


@pytest.mark.parametrize("name, facts, expected", [
    ("h100-80g-2tb", facts_with((81559,), 2048),
     {"graphcast-1deg": "fits", "graphcast-0p25deg": "fits", "gencast-1deg": "fits", "gencast-0p25deg": "fits"}),
    ("h100-80g-256g-ram: 0.25° GenCast cannot compile", facts_with((81559,), 256),
     {"graphcast-1deg": "fits", "graphcast-0p25deg": "fits", "gencast-1deg": "fits",
      "gencast-0p25deg": "host_too_small"}),
    ("l40-48g: 0.25° GenCast runs out of GPU memory (wn#107)", facts_with((46068,), 512),
     {"graphcast-1deg": "fits", "graphcast-0p25deg": "fits", "gencast-1deg": "fits",
      "gencast-0p25deg": "gpu_too_small"}),
    ("rtx4090-24g: 0.25° GraphCast does not fit (wn#33)", facts_with((24564,), 64),
     {"graphcast-1deg": "fits", "graphcast-0p25deg": "gpu_too_small", "gencast-1deg": "fits",
      "gencast-0p25deg": "gpu_too_small"}),
    ("rtx3060-12g: GenCast 1° needs about 16 GB", facts_with((12288,), 64),
     {"graphcast-1deg": "fits", "graphcast-0p25deg": "gpu_too_small", "gencast-1deg": "gpu_too_small",
      "gencast-0p25deg": "gpu_too_small"}),
    ("no-gpu-24g", facts_with((), 24),
     {"graphcast-1deg": "cpu_only", "graphcast-0p25deg": "no", "gencast-1deg": "cpu_only", "gencast-0p25deg": "no"}),
    ("slurm-job-limited-to-16g", facts_with((81559,), 1024, limit_gib=16),
     {"graphcast-1deg": "fits", "graphcast-0p25deg": "host_too_small", "gencast-1deg": "host_too_small",
      "gencast-0p25deg": "host_too_small"}),
    ("gpu-memory-unreadable", facts_with((None,), 64), dict.fromkeys(
        ("graphcast-1deg", "graphcast-0p25deg", "gencast-1deg", "gencast-0p25deg"), "unknown")),
    ("host-ram-unknown", facts_with((81559,), None),
     {"graphcast-1deg": "unknown", "graphcast-0p25deg": "unknown", "gencast-1deg": "unknown",
      "gencast-0p25deg": "unknown"}),
], ids=lambda v: v if isinstance(v, str) else "")
def test_what_fits(name, facts, expected):
    assert verdicts(facts) == expected
    for fit in assess(facts):
        assert fit.verdict in VERDICTS and fit.message
        data = fit.to_dict()
        assert data["fits"] == (fit.verdict == "fits") and data["source"] and data["needs"].startswith("needs ~")


def test_mixed_gpus_name_the_ones_that_fit():
    fits = {f.need.id: f for f in assess(facts_with((24564, 81559), 1024))}
    assert fits["gencast-0p25deg"].gpus == (1,) and "GPU 1" in fits["gencast-0p25deg"].message
    assert fits["graphcast-1deg"].gpus == (0, 1) and "GPUs 0, 1" in fits["graphcast-1deg"].message


def test_the_documented_gencast_figures_and_every_basis_named():
    needs = {n.id: n for n in load_needs()}
    assert (needs["gencast-1deg"].gpu_gb, needs["gencast-1deg"].host_gb) == (16, 24)
    assert (needs["gencast-0p25deg"].gpu_gb, needs["gencast-0p25deg"].host_gb) == (60, 300)
    assert needs["gencast-0p25deg"].basis == "documented" and needs["graphcast-1deg"].basis == "estimate"
    lines = summary_lines(assess(facts_with((), 24)))
    assert lines[0].startswith("GraphCast 1°: CPU only") and "(estimate)" in lines[0]
    assert lines[3].startswith("GenCast 0.25°: no") and "~300 GB RAM (documented)" in lines[3]


def test_a_broken_table_is_one_sentence(tmp_path):
    bad = tmp_path / "model_memory.yaml"
    bad.write_text("models:\n  - id: x\n    model: GenCast\n")
    with pytest.raises(UserError, match="model memory table .* is unreadable"):
        load_needs(bad)


def test_host_memory_from_meminfo_and_a_cgroup_limit(tmp_path, monkeypatch):
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       263842816 kB\nMemFree:         1000 kB\nMemAvailable:   250000000 kB\n")
    root = tmp_path / "cgroup"
    root.mkdir()
    memory = memory_info(meminfo, root)
    assert memory.total_mib == 263842816 // 1024 and memory.available_mib == 250000000 // 1024
    assert memory.usable_mib == memory.total_mib
    # A Slurm job's cgroup (v2 memory.max at the root the process sees) caps what one process can use.
    (root / "memory.max").write_text(str(16 * 2**30) + "\n")
    limited = memory_info(meminfo, root)
    assert limited.limit_mib == 16 * 1024 and limited.usable_mib == 16 * 1024
    (root / "memory.max").write_text("max\n")
    assert memory_info(meminfo, root).limit_mib is None
    assert memory_info(tmp_path / "missing", root) is None


def test_detect_json_and_text_carry_memory_and_preflight(tmp_path):
    proc = run_inproc("detect", "--json", env=standin_env("b200x2-580", tmp_path))
    assert proc.returncode == 0, proc.stderr
    data = last_json(proc)
    assert data["memory"]["total_mib"] > 0 and data["memory"]["source"] == "procfs"
    by_id = {p["id"]: p for p in data["preflight"]}
    assert set(by_id) == {"graphcast-1deg", "graphcast-0p25deg", "gencast-1deg", "gencast-0p25deg"}
    # Two 179 GiB B200s hold every model; whether the host RAM does depends on this machine's RAM.
    assert by_id["gencast-0p25deg"]["gpus"] == [0, 1]
    assert by_id["gencast-0p25deg"]["verdict"] in ("fits", "host_too_small")
    text = run_inproc("detect", env=standin_env("b200x2-580", tmp_path)).stdout
    assert "Host RAM" in text and "What fits in memory" in text and "GenCast 0.25°:" in text


def test_this_machines_memory_is_one_figure_in_one_unit_in_every_place():
    """Walk 21 #14: `Host RAM 23.5 GiB total` on the machine screen, `(host RAM 25 GB)` in what fits, and
    `Host RAM 24105 MiB` in the support report read as three different numbers."""
    from wizard.after.report import _machine_section
    from wizard.flows.describe_machine import fact_rows

    facts = facts_with((24564,), 23.54)
    assert dict(fact_rows(facts))["Host RAM"].startswith("23.5 GiB total")
    messages = " ".join(fit.message for fit in assess(facts_with((), 23.54)))
    assert "host RAM 23.5 GiB" in messages and " GB)" not in messages
    assert "largest GPU has 24 GiB" in " ".join(f.message for f in assess(facts_with((24564,), 1024)))
    report = "\n".join(_machine_section(facts))
    assert "23.5 GiB" in report and "MiB" not in report
