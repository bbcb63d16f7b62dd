"""Walk 28 #7: a failed GraphCast check says which node and Slurm job it ran on, in one wording from the core
(`describe_check.checked_where`/`check_ran_words`), on the CLI (verify, install, rollback) and the app's screens."""

from __future__ import annotations

from tests.fixtures.results import install_result
from wizard.flows.describe_check import check_ran_words, checked_where
from wizard.flows.types import Finding
from wizard.verify.check import VerifyResult

WHERE = {"node": "vm", "via": "srun", "srun": ["srun"], "job_id": "5"}
FINDING = Finding(id="no_cuda_device", title="CUDA found no usable GPU", explanation="", fix="Check the job's GPUs.",
                  evidence=())


def _failed(**kw) -> VerifyResult:
    return VerifyResult(ok=False, env="/e", backend="cuda", level="quick", tiers=[], findings=[FINDING], log="/l",
                        seconds=5.0, **kw)


def test_the_node_and_job_in_one_wording():
    assert checked_where(WHERE) == " on node vm (Slurm job 5)"
    assert checked_where(None) == ""
    assert check_ran_words(_failed(where=WHERE)) == "The GraphCast check ran on node vm (Slurm job 5)."
    # here, never started on a node, stopped: nothing to say
    assert check_ran_words(_failed()) is None
    assert check_ran_words(_failed(where=WHERE, started=False)) is None
    assert check_ran_words(_failed(where=WHERE, cancelled=True)) is None


def test_the_not_done_screen_names_the_node_and_job():
    from wizard.tui.screens.done import summary_text

    text = summary_text(install_result(ok=False, env="/e", log="/l", error="installed, but …",
                                       verify=_failed(where=WHERE)), None)
    assert text.startswith("Installed, but the GraphCast check failed on node vm (Slurm job 5).")


def test_rollback_lines_name_the_node_and_job_of_a_failed_check():
    from wizard.flows.describe import rollback_lines
    from wizard.flows.results import RollbackResult

    result = RollbackResult(ok=False, from_id="b", to_id="a", env="/e", verify=_failed(where=WHERE), rebuilt=False,
                            restored=False, error="the target environment failed its GraphCast check", log="/l")
    assert "The GraphCast check ran on node vm (Slurm job 5)." in rollback_lines(result)
