"""srun's failures read as a cause and a fix: each class from srun's own lines (as slurm-wlm 22–24 prints
them), new members of each class included, and an unknown one still says what srun said."""

from __future__ import annotations

import pytest

from wizard.detect.srun_errors import explain, srun_lines

CASES = [
    # (what srun printed, the kind, words the sentence must have, the user's input to fix?)
    ("srun: error: resolve_ctls_from_dns_srv: res_nsearch error: Unknown host\nsrun: error: fetch_config: DNS SRV "
     "lookup failed\nsrun: error: _establish_config_source: failed to fetch config\nsrun: fatal: Could not establish "
     "a configuration source", "no_config", ["Slurm configuration", "SLURM_CONF", "login node"], True),
    ("srun: error: s_p_parse_file: cannot stat file /etc/slurm/slurm.conf: No such file or directory, retrying in "
     "1sec up to 60sec\nsrun: error: ClusterName needs to be specified\nsrun: fatal: Unable to process "
     "configuration file", "no_config", ["Slurm configuration"], True),
    ("srun: error: invalid partition specified: gpus\nsrun: error: Unable to allocate resources: Invalid partition "
     "name specified", "bad_partition", ["Slurm has no partition gpus", "--slurm PARTITION"], True),
    ("srun: error: Invalid generic resource (gres) specification", "gres_refused",
     ["GPU request", "partition gpu has no GPUs", "--gpus/--gres"], True),
    ("srun: error: Unable to allocate resources: Invalid TRES specification", "gres_refused", ["GPU request"], True),
    ("srun: error: Unable to allocate resources: Invalid account or account/partition combination specified",
     "account_refused", ["account", "--srun-arg=--account=NAME"], True),
    ("srun: error: Unable to allocate resources: Invalid qos specification", "account_refused", ["QOS"], True),
    ("srun: error: Unable to allocate resources: Job violates accounting/QOS policy (job submit limit, user's "
     "size and/or time limits)", "account_refused", ["QOS"], True),
    ("srun: error: Invalid --time specification", "time_invalid", ["time limit", "--srun-arg=--time="], True),
    ("srun: error: Unable to allocate resources: Requested time limit is invalid (missing or exceeds some limit)",
     "time_invalid", ["time limit"], True),
    ("slurmstepd: error: *** STEP 41.0 ON gpu07 CANCELLED AT 2026-11-25T10:00:00 DUE TO TIME LIMIT ***\n"
     "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.", "time_limit",
     ["time limit", "more time"], False),
    ("srun: error: Memory specification can not be satisfied\nsrun: error: Unable to allocate resources: Requested "
     "node configuration is not available", "resources_refused", ["memory or CPUs"], True),
    ("srun: error: Node failure on gpu07\nsrun: error: Job allocation 17 has been revoked", "node_failure",
     ["node failed", "try again"], False),
    ("slurmstepd: error: *** JOB 52 ON gpu03 CANCELLED AT 2026-11-25T10:00:00 DUE TO NODE FAILURE, SEE "
     "SLURMCTLD LOG FOR DETAILS ***", "node_failure", ["node failed"], False),
    ("slurmstepd-vm: error: *** STEP 17.0 ON vm CANCELLED AT 2026-11-26T17:32:05 ***\nsrun: Job step aborted: "
     "Waiting up to 7 seconds for job step to finish.\nsrun: error: vm: task 0: Terminated", "cancelled",
     ["cancelled from outside gc-wizard"], False),
    ("srun: error: Unable to contact slurm controller (connect failure)", "no_controller",
     ["Slurm controller"], False),
    ("/shared/venv/bin/python: No module named wizard\nsrun: error: gpu07: task 0: Exited with exit code 1",
     "not_started", ["storage the GPU nodes share"], False),
]


@pytest.mark.parametrize(("stderr", "kind", "words", "user_input"), CASES, ids=[c[1] + str(i) for i, c in
                                                                                enumerate(CASES)])
def test_each_known_failure_is_a_cause_and_a_fix(stderr, kind, words, user_input, monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")  # no sinfo here: the sentence must stand without the cluster
    problem = explain(stderr, partition="gpu" if kind != "bad_partition" else "gpus", what="run detection")
    assert problem.kind == kind
    assert problem.user_input is user_input
    for word in words:
        assert word in problem.sentence, problem.sentence
    assert "resolve_ctls_from_dns_srv" not in problem.sentence and "srun: error" not in problem.sentence
    assert problem.sentence.count(". ") <= 2, f"one or two sentences: {problem.sentence}"


def test_an_unknown_failure_says_what_srun_said_last(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    problem = explain("srun: verbose chatter\nsrun: error: something Slurm has never said before", partition=None,
                      what="run the GraphCast check")
    assert problem.kind == "srun_failed"
    assert problem.sentence == ("srun could not run the GraphCast check on the default partition: srun: error: "
                                "something Slurm has never said before.")


def test_srun_lines_keep_srun_and_slurmstepd_words_not_verbose_chatter():
    text = ("srun: defined options\nsrun: jobid 8: nodes(1):`vm', cpu counts: 1(x1)\nsrun: error: boom\n"
            "slurmstepd: error: *** STEP 8.0 ON vm CANCELLED AT 2026 ***\nthe task's own line")
    assert srun_lines(text) == ["srun: error: boom", "slurmstepd: error: *** STEP 8.0 ON vm CANCELLED AT 2026 ***"]
