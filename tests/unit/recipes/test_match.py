"""Matching the twelve shipped recipes to many machine profiles, table-driven, edge values included.

Two GraphCast versions: the three JAX 0.4.23 recipes run v0.1.1 (the demo notebook) and stay the default
wherever they fit; the JAX 0.10.2 (Python 3.11–3.12) and JAX 0.12.0.1 (Python 3.12–3.13) recipes run v0.2
(with GenCast) and are recommended where the old stack cannot run (Blackwell, only Python 3.12 or 3.13, a
driver only CUDA 13 takes) — JAX 0.12 where its Python is on the machine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from wizard.detect.facts import DiskInfo, Driver, EnvironmentInfo, Facts, Gpu, Platform, PythonInfo
from wizard.recipes.loader import load_recipes, parse_recipe
from wizard.recipes.match import graphcast_label, group_by_graphcast, match_recipes, version_tuple

CU12, CU11, CPU = "jax0.4.23-cuda12-cudnn89", "jax0.4.23-cuda11-cudnn86", "jax0.4.23-cpu"
M12, M13, MCPU = "jax0.10.2-cuda12", "jax0.10.2-cuda13", "jax0.10.2-cpu"
N12, N13, NCPU = "jax0.12.0.1-cuda12", "jax0.12.0.1-cuda13", "jax0.12.0.1-cpu"
SIX = {CU12, CU11, CPU, M12, M13, MCPU}
#: JAX 0.12.0.1 and WeatherNext v0.3.0 (Python 3.12–3.13): where the wizard's Python is 3.11 and nothing else
#: is found or downloaded, they do not fit, so the six older verdicts stay as they were. WeatherNext fits
#: wherever JAX 0.12's stack does, and never outranks it (its gdm-xarray-jax is on GitHub only).
W12, W13, WCPU = "weathernext0.3.0-cuda12", "weathernext0.3.0-cuda13", "weathernext0.3.0-cpu"
ALL = SIX | {N12, N13, NCPU, W12, W13, WCPU}
GPU_NAMES = {"12.0": "NVIDIA GeForce RTX 5090", "8.0": "NVIDIA A100-SXM4-80GB", "9.0": "NVIDIA H100 80GB HBM3", "7.0": "Tesla V100-SXM2-32GB",
             "7.5": "Tesla T4", "3.7": "Tesla K80", "5.0": "Quadro K2200", "5.2": "Tesla M40",
             "6.0": "Tesla P100-PCIE-16GB", "10.0": "NVIDIA B200", "8.9": "NVIDIA L4", None: "NVIDIA Unknown"}


def make_facts(driver: tuple[str | None, str | None] | None = ("535.104.05", "12.2"), ccs=("8.0",),
               python="3.11.7", os="linux", arch="x86_64", glibc: str | None = "2.35") -> Facts:
    return Facts(
        driver=Driver(version=driver[0], cuda_driver_version=driver[1], source="nvml") if driver else None,
        gpus=tuple(Gpu(index=i, name=GPU_NAMES[cc], memory_total_mib=16384, compute_capability=cc,
                       source="nvml" if driver else "procfs") for i, cc in enumerate(ccs)),
        cuda_libraries=(),
        python=PythonInfo(version=python, executable="/usr/bin/python3"),
        environment=EnvironmentInfo(kind="system", path="/usr"),
        disk=DiskInfo(state_free_gib=100.0),
        platform=Platform(os=os, arch=arch, glibc=glibc),
    )


@dataclass
class Case:
    id: str
    facts: Facts
    recommended: str | None
    compatible: set[str]
    reasons: dict[str, list[str]] = field(default_factory=dict)
    """recipe id -> substrings that must each appear in one of its reasons."""
    warnings: dict[str, list[str]] = field(default_factory=dict)
    no_warnings: tuple[str, ...] = ()
    pythons: tuple[PythonInfo, ...] = ()
    downloads: bool = False
    graphcast_version: str | None = None
    summary: str = ""
    """A substring of the recommended recipe's summary (why it was chosen)."""


LOUD = "NO GPU RECIPE FITS"
CASES = [
    Case("a100-535", make_facts(), CU12, {CU12, CU11, CPU, M12, MCPU}, no_warnings=(CU12, CU11, CPU)),
    Case("a100x2-535", make_facts(ccs=("8.0", "8.0")), CU12, {CU12, CU11, CPU, M12, MCPU}, no_warnings=(CU12,)),
    Case("driver-exactly-525.60.13", make_facts(("525.60.13", "12.0")), CU12, {CU12, CU11, CPU, M12, MCPU},
         warnings={CU12: ["driver 525.60.13 is below 535.54.03"]}),
    Case("driver-525.60.12", make_facts(("525.60.12", "12.0")), CU11, {CU11, CPU, MCPU},
         reasons={CU12: ["needs NVIDIA driver >= 525.60.13; this one is 525.60.12"]}),
    Case("driver-535.54.03-no-warning", make_facts(("535.54.03", "12.2")), CU12, {CU12, CU11, CPU, M12, MCPU},
         no_warnings=(CU12,)),
    Case("v100-470-cuda11.4", make_facts(("470.82.01", "11.4"), ("7.0",)), CU11, {CU11, CPU, MCPU},
         reasons={CU12: ["needs a driver for CUDA >= 12.0; this one supports 11.4",
                         "needs NVIDIA driver >= 525.60.13; this one is 470.82.01"]},
         warnings={CU11: ["below 520.61.05"]}),
    Case("t4-driver-exactly-450.80.02", make_facts(("450.80.02", "11.0"), ("7.5",)), CU11, {CU11, CPU, MCPU},
         reasons={CU12: ["needs a driver for CUDA >= 12.0; this one supports 11.0"]}),
    Case("driver-450.80.01", make_facts(("450.80.01", "11.0"), ("7.5",)), CPU, {CPU, MCPU},
         reasons={CU11: ["needs NVIDIA driver >= 450.80.02; this one is 450.80.01"]},
         warnings={CPU: [LOUD, "450.80.02"]}),
    Case("driver-418-cuda10.1", make_facts(("418.87.00", "10.1"), ("7.0",)), CPU, {CPU, MCPU},
         reasons={CU11: ["needs a driver for CUDA >= 11.0; this one supports 10.1"]}, warnings={CPU: [LOUD]}),
    Case("cc-5.0-below-5.2", make_facts(ccs=("5.0",)), CPU, {CPU, MCPU},
         reasons={CU12: ["compute capability 5.0 of GPU 0 (Quadro K2200) is below 5.2"],
                  CU11: ["compute capability 5.0 of GPU 0 (Quadro K2200) is below 5.2"]},
         warnings={CPU: [LOUD, "Quadro K2200"]}),
    Case("cc-exactly-5.2", make_facts(ccs=("5.2",)), CU12, {CU12, CU11, CPU, M12, MCPU}),
    Case("k80-3.7", make_facts(("470.82.01", "11.4"), ("3.7",)), CPU, {CPU, MCPU},
         reasons={CU11: ["compute capability 3.7 of GPU 0 (Tesla K80) is below 5.2"]}, warnings={CPU: [LOUD]}),
    Case("h100-535.54.03", make_facts(("535.54.03", "12.2"), ("9.0",)), CU12, {CU12, CU11, CPU, M12, MCPU}),
    Case("h100-driver-530-hopper-rule", make_facts(("530.30.02", "12.1"), ("9.0",)), CU11, {CU11, CPU, M12, MCPU},
         reasons={CU12: ["GPU 0 (NVIDIA H100 80GB HBM3) (compute capability 9.0) needs NVIDIA driver >= 535.54.03"]}),
    Case("a100-driver-530-only-a-warning", make_facts(("530.30.02", "12.1"), ("8.0",)), CU12, {CU12, CU11, CPU, M12, MCPU},
         warnings={CU12: ["below 535.54.03"]}),
    # Blackwell on a 570 driver: only the CUDA 12 modern stack runs, and JAX warns of cuBLAS corrupting
    # results there, so it is not recommended; the CPU stack is, loudly, naming driver 580 for CUDA 13.
    Case("b200-cc-10.0-driver-570", make_facts(("570.124.06", "12.8"), ("10.0",)), CPU, {CPU, M12, MCPU},
         reasons={CU12: ["compute capability 10.0 of GPU 0 (NVIDIA B200) is above 9.0"],
                  M13: ["needs NVIDIA driver >= 580; this one is 570.124.06"]},
         warnings={CPU: [LOUD, "NOT RECOMMENDED on GPU 0 (NVIDIA B200)", "(jax0.10.2-cuda12)",
                         "needs a driver for CUDA >= 13.0; this one supports 12.8 (jax0.10.2-cuda13, jax0.12.0.1-cuda13, weathernext0.3.0-cuda13)"],
                   M12: ["cuBLAS"]}),
    Case("b200-driver-580", make_facts(("580.82.07", "13.0"), ("10.0",)), M13, {CPU, M12, M13, MCPU},
         reasons={CU12: ["compute capability 10.0 of GPU 0 (NVIDIA B200) is above 9.0"]},
         warnings={M12: ["NOT RECOMMENDED on GPU 0 (NVIDIA B200)", "cuBLAS"]}, no_warnings=(M13,),
         summary="no GraphCast v0.1.1 recipe fits this machine (jax0.4.23-cuda12-cudnn89: compute capability 10.0"),
    Case("b200-driver-565-too-old-for-cudnn", make_facts(("565.57.01", "12.7"), ("10.0",)), CPU, {CPU, MCPU},
         reasons={M12: ["needs NVIDIA driver >= 570.26"], M13: ["needs NVIDIA driver >= 580"]},
         warnings={CPU: [LOUD]}),
    # JAX's cuBLAS warning covers compute capability 10.x and 11.x only: an RTX 5090 (12.0) is not cautioned,
    # and CUDA 13 still wins on the higher CUDA major.
    Case("rtx5090-cc-12.0-driver-580", make_facts(("580.82.07", "13.0"), ("12.0",)), M13, {CPU, M12, M13, MCPU},
         no_warnings=(M12, M13)),
    Case("rtx5090-cc-12.0-driver-575", make_facts(("575.51.03", "12.9"), ("12.0",)), M12, {CPU, M12, MCPU},
         no_warnings=(M12,)),
    Case("a100-driver-580-old-stack-stays", make_facts(("580.82.07", "13.0"), ("8.0",)), CU12, SIX,
         no_warnings=(CU12, M12, M13)),
    Case("h100-driver-535", make_facts(("535.104.05", "12.2"), ("9.0",)), CU12, SIX - {M13},
         reasons={M13: ["needs a driver for CUDA >= 13.0; this one supports 12.2",
                        "needs NVIDIA driver >= 580; this one is 535.104.05"]},
         warnings={M12: ["driver 535.104.05 is below 575.51.03"]}),
    Case("t4-cc-7.5-driver-580", make_facts(("580.82.07", "13.0"), ("7.5",)), CU12, SIX),
    Case("v100-cc-7.0-driver-580", make_facts(("580.82.07", "13.0"), ("7.0",)), CU12, SIX - {M13},
         reasons={M13: ["compute capability 7.0 of GPU 0 (Tesla V100-SXM2-32GB) is below 7.5"]}),
    # --graphcast-version narrows the recommendation; the other recipes stay listed and compatible.
    Case("a100-asks-for-v0.2", make_facts(), M12, SIX - {M13}, graphcast_version="0.2",
         summary="recommended for GraphCast v0.2"),
    Case("a100-asks-for-v0.1.1", make_facts(), CU12, SIX - {M13}, graphcast_version="0.1.1"),
    Case("b200-asks-for-v0.1.1", make_facts(("580.82.07", "13.0"), ("10.0",)), CPU, {CPU, M12, M13, MCPU},
         graphcast_version="0.1.1", warnings={CPU: [LOUD, "compute capability 10.0 of GPU 0 (NVIDIA B200) is above 9.0"]}),
    Case("no-gpu-asks-for-v0.2", make_facts(None, ccs=()), MCPU, {CPU, MCPU}, graphcast_version="0.2"),
    Case("python-3.12-asks-for-v0.1.1", make_facts(python="3.12.3"), None, {M12, MCPU, N12, NCPU, W12, WCPU},
         graphcast_version="0.1.1"),
    Case("mixed-a100-k80", make_facts(ccs=("8.0", "3.7")), CU12, {CU12, CU11, CPU, M12, MCPU},
         warnings={CU12: ["GPU 1 (Tesla K80)", "CUDA_VISIBLE_DEVICES=0"]}),
    Case("mixed-k80-h100-p100", make_facts(ccs=("3.7", "9.0", "6.0")), CU12, {CU12, CU11, CPU, M12, MCPU},
         warnings={CU12: ["GPU 0 (Tesla K80)", "CUDA_VISIBLE_DEVICES=1,2"]}),
    Case("mixed-all-unusable", make_facts(ccs=("3.7", "5.0")), CPU, {CPU, MCPU},
         reasons={CU12: ["GPU 0 (Tesla K80) is below 5.2", "GPU 1 (Quadro K2200) is below 5.2"]},
         warnings={CPU: [LOUD]}),
    Case("no-driver-no-gpu", make_facts(None, ccs=()), CPU, {CPU, MCPU},
         reasons={CU12: ["no NVIDIA driver was found"], CU11: ["no NVIDIA driver was found"]}, no_warnings=(CPU,)),
    Case("driver-not-loaded-gpu-on-bus", make_facts(None, ccs=("8.0",)), CPU, {CPU, MCPU},
         reasons={CU12: ["no usable NVIDIA driver was found, although the machine has GPU 0"]},
         warnings={CPU: [LOUD]}),
    Case("driver-but-no-gpu", make_facts(ccs=()), CPU, {CPU, MCPU},
         reasons={CU12: ["no GPU was found"]}, warnings={CPU: [LOUD]}),
    # Only Python 3.12 on the machine: the 0.4.23 stacks cannot run, the modern CUDA 12 stack can.
    Case("python-3.12-nothing-else", make_facts(python="3.12.3"), N12, {M12, MCPU, N12, NCPU, W12, WCPU},
         reasons={CU12: ["Python 3.12 is outside 3.10–3.11"], CPU: ["Python 3.12 is outside 3.10–3.11"]},
         summary="no GraphCast v0.1.1 recipe fits this machine (jax0.4.23-cuda12-cudnn89: Python 3.12"),
    Case("python-3.12-only-uv-could-download", make_facts(python="3.12.3"), N12, SIX - {M13} | {N12, NCPU, W12, WCPU},
         downloads=True,
         warnings={CU12: ["uv will download one"], M12: ["below 575.51.03"]},
         summary="no GraphCast v0.1.1 recipe fits this machine (jax0.4.23-cuda12-cudnn89: Python 3.12 is outside"),
    Case("python-3.12-only-no-gpu", make_facts(None, ccs=(), python="3.12.3"), NCPU, {MCPU, NCPU, WCPU},
         summary="jax0.4.23-cpu: Python 3.12 is outside 3.10–3.11"),
    # Python 3.13 alone (Debian 13, Fedora): only the JAX 0.12 stacks run there.
    Case("python-3.13-only", make_facts(python="3.13.1"), N12, {N12, NCPU, W12, WCPU},
         reasons={M12: ["Python 3.13 is outside 3.11–3.12"], N13: ["needs a driver for CUDA >= 13.0"]},
         summary="no GraphCast v0.1.1 recipe fits this machine (jax0.4.23-cuda12-cudnn89: Python 3.13"),
    # Blackwell on driver 580 with a Python 3.13 on the machine: JAX 0.12's CUDA 13 stack, with the reason.
    Case("b200-driver-580-python-3.13-on-path", make_facts(("580.82.07", "13.0"), ("10.0",)), N13,
         {CPU, M12, M13, MCPU, N12, N13, NCPU, W12, W13, WCPU}, pythons=(PythonInfo("3.13.0", "/usr/bin/python3.13"),),
         warnings={N12: ["NOT RECOMMENDED on GPU 0 (NVIDIA B200)", "cuBLAS"],
                   N13: ["will use Python 3.13.0 (/usr/bin/python3.13)"]},
         summary="no GraphCast v0.1.1 recipe fits this machine (jax0.4.23-cuda12-cudnn89: compute capability 10.0"),
    # The real H100 server (tests/data/real/h100): driver 580.159.04, Python 3.12 only.
    Case("h100-driver-580-python-3.12", make_facts(("580.159.04", "13.0"), ("9.0",), python="3.12.3"), N13,
         {M12, M13, MCPU, N12, N13, NCPU, W12, W13, WCPU}, no_warnings=(N13,)),
    Case("python-3.12-with-3.10-on-path", make_facts(python="3.12.3"), CU12, {CU12, CU11, CPU, M12, MCPU, N12, NCPU, W12, WCPU},
         pythons=(PythonInfo("3.10.13", "/usr/bin/python3.10"),),
         warnings={CU12: ["will use Python 3.10.13 (/usr/bin/python3.10)"]}),
    Case("python-3.9-uv-may-download", make_facts(python="3.9.18"), CU12, {CU12, CU11, CPU, M12, MCPU, N12, NCPU, W12, WCPU},
         downloads=True,
         warnings={CPU: ["uv will download one"]}),
    Case("python-exactly-3.10.0", make_facts(python="3.10.0"), CU12, {CU12, CU11, CPU}),
    Case("aarch64-gh200", make_facts(ccs=("9.0",), arch="aarch64"), CPU, {CPU},
         reasons={CU12: ["has wheels for x86_64 only; this machine is aarch64"]}, warnings={CPU: [LOUD]}),
    Case("musl", make_facts(None, ccs=(), glibc=None), None, set(),
         reasons={CPU: ["no glibc was found"]}),
    Case("glibc-2.12", make_facts(glibc="2.12"), None, set(), reasons={CU12: ["needs glibc >= 2.17; this machine has 2.12"]}),
    Case("macos-arm", make_facts(None, ccs=(), os="darwin", arch="arm64", glibc=None), CPU, {CPU},
         reasons={CU12: ["runs on linux only; this machine runs darwin"]}),
    Case("windows", make_facts(None, ccs=(), os="windows", glibc=None), None, set(),
         reasons={CPU: ["runs on linux, darwin only; this machine runs windows"]}),
    Case("driver-version-unreadable", make_facts((None, "12.2")), CU12, {CU12, CU11, CPU, M12, MCPU},
         warnings={CU12: ["driver's version could not be read"]}),
    Case("cuda-version-unreadable", make_facts(("535.104.05", None)), CU12, {CU12, CU11, CPU, M12, MCPU},
         warnings={CU12: ["CUDA version could not be read"]}),
    Case("cc-unknown", make_facts(ccs=(None,)), CU12, {CU12, CU11, CPU, M12, MCPU},
         warnings={CU12: ["compute capability of GPU 0 (NVIDIA Unknown) is unknown"]}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_profile(case: Case):
    matches = match_recipes(load_recipes(), case.facts, pythons=case.pythons, python_downloads=case.downloads,
                            graphcast_version=case.graphcast_version)
    by_id = {m.recipe.id: m for m in matches}
    assert set(by_id) == ALL

    recommended = [m.recipe.id for m in matches if m.recommended]
    assert recommended == ([case.recommended] if case.recommended else [])
    if case.recommended:
        assert matches[0].recipe.id == case.recommended, "the recommended recipe comes first"
        assert case.summary in matches[0].summary, matches[0].summary
        if case.graphcast_version:
            assert matches[0].graphcast_version == case.graphcast_version
    assert {m.recipe.id for m in matches if m.compatible} == case.compatible

    for m in matches:
        # Compatible <=> no reasons; an incompatible recipe always says why.
        assert m.compatible == (not m.reasons), (m.recipe.id, m.reasons)
        assert m.summary
    for recipe_id, needles in case.reasons.items():
        text = " | ".join(by_id[recipe_id].reasons)
        for needle in needles:
            assert needle in text, f"{recipe_id}: {needle!r} not in {text!r}"
    for recipe_id, needles in case.warnings.items():
        text = " | ".join(by_id[recipe_id].warnings)
        for needle in needles:
            assert needle in text, f"{recipe_id}: {needle!r} not in {text!r}"
    for recipe_id in case.no_warnings:
        assert by_id[recipe_id].warnings == (), by_id[recipe_id].warnings


def test_every_gpu_reason_is_listed_not_just_the_first():
    facts = make_facts(("470.82.01", "11.4"), ("3.7",), python="3.12.1")
    cu12 = next(m for m in match_recipes(load_recipes(), facts, python_downloads=False) if m.recipe.id == CU12)
    assert len(cu12.reasons) == 4, cu12.reasons  # CUDA version, driver version, compute capability, Python


def test_each_recipe_says_which_graphcast_it_runs():
    data = {d["id"]: d for d in (m.to_dict() for m in match_recipes(load_recipes(), make_facts()))}
    assert {i: d["graphcast_version"] for i, d in data.items()} == {
        CU12: "0.1.1", CU11: "0.1.1", CPU: "0.1.1", M12: "0.2", M13: "0.2", MCPU: "0.2", N12: "0.2", N13: "0.2",
        NCPU: "0.2", W12: "0.3", W13: "0.3", WCPU: "0.3"}


def test_groups_by_graphcast_version_oldest_first():
    matches = match_recipes(load_recipes(), make_facts(("580.82.07", "13.0"), ("10.0",)))
    groups = group_by_graphcast(matches)
    assert [v for v, _ in groups] == ["0.1.1", "0.2", "0.3"]
    # Recommended (its Python is on the machine), then the others, GPU and newer CUDA first.
    assert [m.recipe.id for m in groups[1][1]] == [M13, N13, N12, M12, NCPU, MCPU]
    assert sum(m.recommended for _, ms in groups for m in ms) == 1
    assert graphcast_label("0.2").startswith("GraphCast v0.2 — with GenCast")


def test_a_caution_never_wins_even_with_a_higher_cuda():
    """CUDA 13 outranks CUDA 12 anyway; a cautioned recipe loses even to a CPU stack."""
    facts = make_facts(("575.51.03", "12.9"), ("10.0", "10.0"))
    matches = match_recipes(load_recipes(), facts)
    m12 = next(m for m in matches if m.recipe.id == M12)
    assert m12.compatible and m12.cautioned and not m12.recommended
    assert "not recommended on this GPU" in m12.summary
    assert m12.to_dict()["cautioned"] is True


def test_cpu_only_machine_gets_cpu_without_alarm():
    matches = match_recipes(load_recipes(), make_facts(None, ccs=()))
    cpu = matches[0]
    assert cpu.recipe.id == CPU and cpu.recommended
    assert "no NVIDIA GPU was found" in cpu.summary
    assert not any(LOUD in w for w in cpu.warnings)


def test_a_compatible_recipe_says_why_it_is_not_the_recommended_one():
    by_id = {m.recipe.id: m for m in match_recipes(load_recipes(), make_facts(None, ccs=()))}
    modern_cpu = by_id["jax0.10.2-cpu"]
    assert modern_cpu.compatible and not modern_cpu.recommended
    assert modern_cpu.summary == "compatible; pick it for GraphCast v0.2 (the recommendation is for v0.1.1)"
    on_gpu = [m for m in match_recipes(load_recipes(), make_facts()) if m.compatible and not m.recommended]
    assert on_gpu and all(m.summary != "compatible" and m.summary.startswith("compatible") for m in on_gpu)


def test_mixed_gpus_report_the_usable_ones():
    matches = match_recipes(load_recipes(), make_facts(ccs=("3.7", "8.0", "9.0")))
    assert matches[0].usable_gpus == (1, 2)


def test_admin_preference_wins_the_recommendation(tmp_path):
    text = (load_recipes()[CU11].path.read_text()
            .replace(f"id: {CU11}", "id: lab-cuda11").replace("preference: 0", "preference: 5"))
    lab = parse_recipe(text, tmp_path / "lab-cuda11.yaml")
    recipes = {**load_recipes(), lab.id: lab}
    assert match_recipes(recipes, make_facts())[0].recipe.id == "lab-cuda11"


def test_to_dict_is_the_interface_shape():
    data = match_recipes(load_recipes(), make_facts())[0].to_dict()
    for key in ("id", "title", "requirements", "compatible", "recommended", "reasons", "warnings", "backend"):
        assert key in data
    assert data["requirements"][0] == "jax==0.4.23"


@pytest.mark.parametrize("text, expected", [
    ("535.104.05", (535, 104, 5)), ("525.60.13", (525, 60, 13)), ("12.2", (12, 2)), ("", None), (None, None),
])
def test_version_tuple(text, expected):
    assert version_tuple(text) == expected


def test_the_recommendation_says_why_this_jax_and_this_cuda_over_the_other_fitting_stacks():
    """On an H100 with driver 580 and a Python 3.13 found, four v0.2 GPU stacks fit: the summary names why
    JAX 0.12 (newer than 0.10.2) and why CUDA 13; the passed-over stack says which JAX was chosen instead."""
    facts = make_facts(("580.82.07", "13.0"), ("9.0",))
    py313 = PythonInfo(version="3.13.1", executable="/usr/bin/python3.13")
    by_id = {m.recipe.id: m for m in match_recipes(load_recipes(), facts, pythons=(py313,), python_downloads=False,
                                                    graphcast_version="0.2")}
    best = by_id[N13]
    assert best.recommended
    assert "JAX 0.12.0.1 is the newest release that runs it here (newer than 0.10.2)" in best.summary
    assert "CUDA 13 is what JAX's install guide now leads with" in best.summary
    assert by_id[M13].summary == ("compatible; the recommended stack runs the same GraphCast on JAX 0.12.0.1 (this one: "
                                  "0.10.2); GenCast's forecast fails on JAX 0.10.2 (its sampler: "
                                  "`xarray_jax_tracer_incompatible`); GraphCast's runs")
    # With no rival for the same GraphCast and backend there is nothing to explain, and nothing is said.
    only = [r for r in load_recipes().values() if r.id in (N13, CPU)]
    alone = match_recipes(only, facts, pythons=(py313,), python_downloads=False)[0]
    assert alone.recipe.id == N13 and "newest release" not in alone.summary and "install guide" not in alone.summary


def test_the_cpu_recommendation_for_v02_says_what_the_close_alternative_cannot_do():
    """Walk 26 #6: with no GPU, jax0.12.0.1-cpu beat jax0.10.2-cpu with a reason that fits both ("no NVIDIA GPU
    was found"); the deciding one — GenCast's forecast fails on JAX 0.10.2 — comes from the recipe's `limit` and is
    said beside both, in the one summary the app's recipe screen and `recipes` print."""
    py313 = PythonInfo(version="3.13.1", executable="/usr/bin/python3.13")
    by_id = {m.recipe.id: m for m in match_recipes(load_recipes(), make_facts(None, ()), pythons=(py313,),
                                                    python_downloads=False, graphcast_version="0.2")}
    assert by_id[NCPU].recommended
    assert "GenCast's forecast fails on JAX 0.10.2" in by_id[NCPU].summary
    assert "GenCast's forecast fails on JAX 0.10.2" in by_id[MCPU].summary
    assert "Python 3.11 and 3.12" in by_id[MCPU].recipe.description
    assert by_id[MCPU].to_dict()["limit"].startswith("GenCast's forecast fails")


def test_a_recipe_without_a_jax_pin_is_said_so_never_none():
    """Review: a test recipe's summary said "(this one: None)": a pin a recipe lacks is said in words."""
    import dataclasses

    facts = make_facts(("580.82.07", "13.0"), ("9.0",))
    py313 = PythonInfo(version="3.13.1", executable="/usr/bin/python3.13")
    recipes = load_recipes()
    other = recipes[M13]
    recipes[M13] = dataclasses.replace(other, requirements=tuple(r for r in other.requirements
                                                                 if not r.lower().startswith("jax==")))
    by_id = {m.recipe.id: m for m in match_recipes(recipes, facts, pythons=(py313,), python_downloads=False,
                                                    graphcast_version="0.2")}
    summary = by_id[M13].summary
    assert "None" not in summary and "on JAX 0.12.0.1 (this one pins no JAX)" in summary, summary
