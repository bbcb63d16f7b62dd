"""How a node without GPUs is told to ask for one, from what the cluster's own clients say.

This machine's test cluster cannot have GPU gres (Slurm refuses GPU resources without GPU devices), so the
GPU cluster is at the hardware boundary here: `sinfo` and `scontrol` stand-ins print what those clients print
on GPU clusters (their real formats: `%P|%G` rows, a partition's `TRES=` line), and the real code reads them.
"""

from __future__ import annotations

import os
import stat

import pytest

from wizard.detect.slurm import SlurmTarget, node_without_gpu

SINFO = """#!/bin/sh
case "$*" in
  *"%P|%G"*) printf 'gpu*|gpu:a100:4(S:0-1)\\ngpu*|gpu:a100:4(S:0-1)\\ncpu|(null)\\nbigmem|(null)\\nh100|gpu:h100:8\\n' ;;
  *"%P"*) printf 'gpu*\\ncpu\\nbigmem\\nh100\\n' ;;
esac
"""
SCONTROL = """#!/bin/sh
printf 'PartitionName=%s\\n   AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL\\n   State=UP TotalCPUs=128 TotalNodes=2\\n   TRES=%s\\n' "$4" "$TRES"
"""


@pytest.fixture
def gpu_cluster(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, text in (("sinfo", SINFO), ("scontrol", SCONTROL)):
        path = bin_dir / name
        path.write_text(text)
        path.chmod(path.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return monkeypatch


def test_a_partition_counting_gpus_as_tres_is_asked_with_gpus(gpu_cluster):
    gpu_cluster.setenv("TRES", "cpu=128,mem=1000G,node=2,billing=128,gres/gpu=8")
    text = node_without_gpu("node17", "gpu", SlurmTarget("gpu"))
    assert text.startswith("Node node17 (partition gpu) shows this job no NVIDIA GPU")
    assert "add --srun-arg=--gpus=1" in text


def test_a_partition_with_gpu_gres_only_is_asked_with_gres(gpu_cluster):
    gpu_cluster.setenv("TRES", "cpu=128,mem=1000G,node=2,billing=128")
    assert "add --srun-arg=--gres=gpu:1" in node_without_gpu("node17", "gpu", SlurmTarget("gpu"))
    # The default partition (sinfo's '*') when none was named.
    assert "add --srun-arg=--gres=gpu:1" in node_without_gpu("node17", None, SlurmTarget(None))


def test_a_partition_without_gpus_names_the_ones_that_have_them(gpu_cluster):
    gpu_cluster.setenv("TRES", "cpu=64,mem=500G,node=4")
    text = node_without_gpu("c3", "cpu", SlurmTarget("cpu"))
    assert "Choose a partition with GPUs: gpu, h100" in text and "--srun-arg" not in text


def test_a_gpu_request_already_made_is_not_suggested_again(gpu_cluster):
    gpu_cluster.setenv("TRES", "cpu=128,gres/gpu=8")
    text = node_without_gpu("node17", "gpu", SlurmTarget("gpu", ("--gpus=1",)))
    assert "add --srun-arg" not in text and "h100" in text
