"""The cluster options mean the same wherever they stand: before the command, after it, and in the
spellings people type (`--slurm detect`, `--srun-arg --gpus=1`). Without a cluster: a run that honours
`--slurm` needs srun, so with srun off PATH the sentence about srun proves the option was not dropped."""

from __future__ import annotations

import venv

import pytest

from tests.fixtures.cli import bare_program, run_inproc
from tests.fixtures.state import last_json
from wizard.cli import COMMANDS
from wizard.commands.options import normalize_cluster_words

NO_SRUN = "--slurm needs Slurm's srun, which is not on PATH here"


@pytest.fixture
def no_srun(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no srun, no sinfo: whatever honours --slurm says so


@pytest.mark.parametrize("argv", [
    ["--slurm", "gpu", "detect"], ["detect", "--slurm", "gpu"], ["--slurm", "detect"],
    ["--slurm", "gpu", "--srun-arg=--gpus=1", "detect"], ["--slurm", "gpu", "recipes"],
    ["--slurm", "gpu", "plan", "jax0.4.23-cpu"], ["plan", "jax0.4.23-cpu", "--slurm", "gpu"],
    ["--slurm", "gpu", "report"], ["--slurm", "gpu", "--slurm-wait", "30", "verify", "--env", "{venv}"],
])
def test_slurm_is_honoured_before_and_after_the_command(argv, no_srun, tmp_path):
    if "{venv}" in argv:
        venv.EnvBuilder(with_pip=False, symlinks=True).create(tmp_path / "env")
    proc = run_inproc(*[a.replace("{venv}", str(tmp_path / "env")) for a in argv])
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert NO_SRUN in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


def test_with_json_the_failure_is_the_last_line(no_srun):
    proc = run_inproc("--slurm", "gpu", "detect", "--json")
    assert proc.returncode == 2 and NO_SRUN in last_json(proc)["error"]


@pytest.mark.parametrize(("argv", "says"), [
    (["--slurm", "gpu", "history"], "`gc-wizard history` runs nothing on a GPU node, so it does not take --slurm"),
    (["--srun-arg=--gpus=1", "remove", "x"], "does not take --srun-arg"),  # rollback takes it (walk 28 #9)
    (["--slurm", "gpu", "detect", "--slurm", "other"], "--slurm is given twice"),
    (["detect", "--srun-arg", "--gpus=1"], "--srun-arg needs --slurm"),
    (["--slurm-wait", "60", "detect"], "--slurm-wait needs --slurm"),
    (["detect", "--slurm", "gpu", "--slurm-wait", "0"], "must be a number of seconds above zero"),
])
def test_misplaced_or_stray_cluster_options_are_one_sentence(argv, says, no_srun):
    proc = run_inproc(*argv)
    assert proc.returncode == 2 and says in bare_program(proc.stderr), proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_two_spellings_argparse_cannot_read_are_made_plain():
    cases = {
        ("--slurm", "detect"): ["--slurm=", "detect"],
        ("--slurm", "gpu", "detect"): ["--slurm", "gpu", "detect"],
        ("detect", "--slurm", "verify"): ["detect", "--slurm", "verify"],  # after the command: a partition
        ("--slurm", "install", "R"): ["--slurm=", "install", "R"],
        ("detect", "--srun-arg", "--gpus=1", "--slurm"): ["detect", "--srun-arg=--gpus=1", "--slurm"],
        ("detect", "--srun-arg", "-G", "1"): ["detect", "--srun-arg=-G", "1"],
        ("--recipes-dir", "detect", "--slurm", "recipes"): ["--recipes-dir", "detect", "--slurm=", "recipes"],
    }
    for argv, expected in cases.items():
        assert normalize_cluster_words(list(argv), COMMANDS) == expected, argv


@pytest.mark.parametrize(("argv", "hint"), [
    (["detect", "--slrum", "gpu"], "did you mean --slurm?"),
    (["verify", "--srun-args=--gpus=1"], "did you mean --srun-arg?"),
    (["plan", "jax0.4.23-cpu", "--graphcast-scr", "x"], "did you mean --graphcast-src?"),
    (["instal", "jax0.4.23-cpu"], "did you mean install?"),  # a misspelt command (walk 19 #11)
    (["histroy", "--json"], "did you mean history?"),
    (["plan", "jax0.4.23-cpu", "--installer", "pipp"], "did you mean pip?"),
])
def test_a_mistyped_option_gets_the_one_it_was_probably_meant_to_be(argv, hint):
    proc = run_inproc(*argv)
    assert proc.returncode == 2 and ("unrecognized arguments" in proc.stderr or "unknown command" in proc.stderr
                                     or "is not one of" in proc.stderr) and hint in proc.stderr, proc.stderr
    assert "did you mean" not in run_inproc("detect", "--bogus").stderr
