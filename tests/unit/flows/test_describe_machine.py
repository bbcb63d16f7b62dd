"""One wording for the machine's facts (`flows.describe_machine`): `gc-wizard detect`, the plain flow and the
Machine screen print the same rows; the screen only wraps them to its width. On a real H100's captured facts."""

from __future__ import annotations

from types import SimpleNamespace

from tests.fixtures.real_gpu import capture
from wizard.detect.facts import Facts
from wizard.flows.describe_machine import (
    fact_lines,
    fact_rows,
    machine_lines,
    next_step_text,
    problem_lines,
    where_sentence,
)

REAL = Facts.from_dict(capture("detect.json"))


def test_the_rows_name_the_driver_gpus_libraries_that_matter_and_the_host():
    rows = dict(fact_rows(REAL))
    assert rows["Driver"] == "580.159.04  (supports CUDA up to 13.0; from nvml)"
    assert rows["GPU 0"] == "NVIDIA H100 80GB HBM3, 80 GiB, compute capability 9.0"
    assert rows["cudnn 9.14.0"].endswith("(via ldconfig)  <- loads first")
    # The wheel copies in another venv do not load first: counted, not listed (detect --json lists them).
    assert rows["CUDA libs"].startswith("11 more copies off the search path")
    assert "GraphCast env" not in rows  # only a face that shows the current environment passes it
    assert dict(fact_rows(REAL, "none yet"))["GraphCast env"] == "none yet"


def test_a_screen_wraps_the_same_words_under_their_column_and_keeps_the_arrow_whole():
    plain = fact_lines(REAL, "/envs/gc1\n  jax0.4.23-cpu · ok")
    narrow = fact_lines(REAL, "/envs/gc1\n  jax0.4.23-cpu · ok", columns=78)
    column = plain[0].index("580")
    assert all(len(line) <= 78 or "/" in line.split()[-1] for line in narrow)
    assert " ".join(" ".join(narrow).split()) == " ".join(" ".join(plain).split())  # rewrapped, never reworded
    cudnn = next(i for i, line in enumerate(narrow) if line.startswith("cudnn 9.14.0"))
    assert narrow[cudnn + 1].startswith(" " * column) and narrow[cudnn + 1].endswith("<- loads first")
    assert not any(line.endswith("<-") for line in narrow)
    assert narrow[narrow.index("GraphCast env".ljust(column - 2) + "  /envs/gc1") + 1].startswith(" " * column + "  jax")


def test_problems_come_first_with_their_ids_and_the_node_is_one_sentence():
    lines = machine_lines(REAL)
    assert lines[0] == "Problems:" and lines[1] == f"  {problem_lines(REAL)[0]}"
    assert problem_lines(REAL)[0].startswith("! [path_cuda_toolkit] /usr/local/cuda/bin on PATH")
    assert where_sentence(REAL) is None
    node = REAL._replace(slurm={"srun": True, "node": "gpu07", "job_id": "12", "partition": "gpu"})
    assert where_sentence(node) == "Detected on node gpu07 (through srun, job 12, partition gpu)."


def test_a_number_keeps_its_unit_and_the_arrow_its_words_at_any_width():
    """Walk 21 #15: `needs ~8` / `GB GPU`, `~300` / `GB RAM`, and `<- loads` / `first` across two lines."""
    import re

    for columns in range(56, 100):
        lines = machine_lines(REAL, columns=columns)
        for line in lines:
            assert not re.match(r"\s*(GB|GiB|MiB)\b", line), (columns, line)
            assert "<- loads" not in line or "<- loads first" in line, (columns, line)


def test_a_system_cuda_runtime_newer_than_the_driver_says_whether_it_matters():
    """Walk 24 #9: "cudart 13.0.96 … <- loads first" beside "supports CUDA up to 12.2", with no word on whether the
    CUDA 12 recipe cared. Every GPU recipe brings its own runtime as a pip wheel, which loads first in its env."""
    old_driver = REAL._replace(driver=REAL.driver._replace(cuda_driver_version="12.2"))
    cudart = next(value for label, value in fact_rows(old_driver) if label.startswith("cudart "))
    assert cudart.endswith("<- loads first\n  newer than CUDA 12.2, the most this driver supports; the GPU recipes "
                           "bring their own CUDA runtime as pip wheels, which load first in their environment, so it "
                           "does not affect them"), cudart
    assert "newer than" not in next(v for label, v in fact_rows(REAL) if label.startswith("cudart "))
    assert "so it does not affect them" in " ".join(" ".join(machine_lines(old_driver, columns=80)).split())


CPU = SimpleNamespace(recipe=SimpleNamespace(id="jax0.4.23-cpu", alternatives=()),
                      summary="recommended: no NVIDIA GPU was found, so the CPU stack is the one that fits")


def test_where_a_gpu_node_is_offered_g_is_the_first_step_and_the_cpu_recipe_the_choice_without_it():
    """Walk 28 #3: the login node's screen recommended the CPU stack and "Press Enter" under the offer of g."""
    offered = next_step_text(REAL, CPU, offer=["gpu", "cpu"])
    assert offered.startswith("This node has no GPU, but Slurm is here (partitions: gpu, cpu). Press g to detect")
    assert "Recommended" not in offered and "Press Enter" not in offered
    assert offered.endswith("Without a GPU node, for this node itself: jax0.4.23-cpu — no NVIDIA GPU was found, so "
                            "the CPU stack is the one that fits.\nEnter chooses a recipe for this node instead.")
    # No offer: the recommendation and Enter, as before; a returning user's line stays on top.
    assert next_step_text(REAL, CPU) == ("Recommended: jax0.4.23-cpu — no NVIDIA GPU was found, so the CPU stack is "
                                         "the one that fits\nPress Enter to choose a recipe.")
    assert next_step_text(REAL, None, returning="Yours: x").startswith("Yours: x\nPress Enter")
