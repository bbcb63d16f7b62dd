"""A GPU node that shows the job no GPU is named as that node (not "this machine"), with the likely fixes
first among the problems. Without Slurm's clients on PATH the generic fixes are given."""

from __future__ import annotations

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from tests.standins import standin_env
from wizard.detect.facts import Facts
from wizard.detect.slurm import SlurmTarget, with_node_words


def _facts(tmp_path) -> Facts:
    """Real detection on a machine with no NVIDIA driver (the stand-in profile), as read through srun."""
    proc = run_inproc("detect", "--json", env=standin_env("no-nvidia", tmp_path / "standin"))
    assert proc.returncode == 0, proc.stderr
    facts = Facts.from_dict(last_json(proc))
    assert "no_nvidia_driver" in [w.id for w in facts.warnings]
    return facts._replace(slurm={"node": "gpu07", "job_id": "12", "partition": "gpu", "srun": ["/usr/bin/srun"]})


def test_a_gpu_less_node_is_named_with_the_gpu_request_and_partition_hints(monkeypatch, tmp_path):
    found = _facts(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path))
    facts = with_node_words(found, SlurmTarget("gpu"))
    first = facts.warnings[0]
    assert first.id == "slurm_node_no_gpu"
    assert first.message.startswith("Node gpu07 (partition gpu) shows this job no NVIDIA GPU")
    assert "--srun-arg=--gpus=1" in first.message and "another partition" in first.message
    assert "no_nvidia_driver" not in [w.id for w in facts.warnings]  # "this machine" would be the login node


def test_a_request_already_made_is_not_suggested_again(monkeypatch, tmp_path):
    found = _facts(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path))
    facts = with_node_words(found, SlurmTarget("gpu", ("--gres=gpu:1",)))
    assert "choose another partition" in facts.warnings[0].message


def test_recipe_verdicts_on_node_facts_name_the_node(tmp_path):
    """Verdicts made from facts read through srun are about that node, never "this machine" (the login node)."""
    from wizard.recipes.loader import load_recipes
    from wizard.recipes.match import match_recipes

    matches = match_recipes(load_recipes([]), _facts(tmp_path))
    assert all(m.machine == "node gpu07" for m in matches)
    text = " ".join([m.summary for m in matches] + [r for m in matches for r in m.reasons])
    assert "this machine" not in text
