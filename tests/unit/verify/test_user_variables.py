"""31st hostile pass (part B) P12: the user's variables that change how Python, JAX or XLA behave
(`PYTHONWARNINGS=error`, `JAX_NUMPY_RANK_PROMOTION=raise`) are named by verify, the forecast and `diagnose --env`,
with `unset` as the fix; before, a working env failed verify with "matches no known failure" and no name."""

from __future__ import annotations

from pathlib import Path

from wizard.verify import check
from wizard.verify.check import ProbeRun, ProbeStream, _findings
from wizard.verify.inspect_env import inspect_env
from wizard.verify.protocol import Tier
from wizard.verify.user_variables import FINDING_ID, user_behaviour_variables, with_behaviour_finding

WARNING = ("FutureWarning: The return type of `Dataset.dims` will be changed to return a set of dimension names in "
           "future")
RANK = ("ValueError: Operands could not be broadcast together with shapes (3,) (2, 3) and with the config option "
        "jax_numpy_rank_promotion='raise'")


def test_only_the_users_own_behaviour_variables_count():
    base = {"PYTHONWARNINGS": "error", "JAX_NUMPY_RANK_PROMOTION": "raise", "XLA_FLAGS": "--xla_dump_to=/tmp/x",
            "PYTHONUNBUFFERED": "1", "PYTHONPATH": "/somewhere", "TF_CLI_CONFIG_FILE": "/root/.terraformrc",
            "TF_VAR_region": "eu", "TF_CPP_MIN_LOG_LEVEL": "3", "JAX_PLATFORMS": "cuda", "HOME": "/root"}
    child = {**base, "JAX_PLATFORMS": "cpu", "XLA_PYTHON_CLIENT_PREALLOCATE": "false"}  # the recipe's, the wizard's
    assert user_behaviour_variables(child, base) == [
        ("JAX_NUMPY_RANK_PROMOTION", "raise"), ("PYTHONWARNINGS", "error"), ("XLA_FLAGS", "--xla_dump_to=/tmp/x")]


def test_a_failure_matching_nothing_known_names_the_variable_first_with_unset_as_fix():
    child = base = {"PYTHONWARNINGS": "error", "PATH": "/usr/bin"}
    (found,) = with_behaviour_finding([], child, base, failure=WARNING)
    assert found.id == FINDING_ID and "PYTHONWARNINGS" in found.title
    assert "PYTHONWARNINGS=error" in found.explanation and "`unset PYTHONWARNINGS`" in found.fix
    assert not with_behaviour_finding([], {"PATH": "/usr/bin"}, {"PATH": "/usr/bin"}, failure=WARNING)
    quiet = {"PYTHONWARNINGS": "ignore::DeprecationWarning"}  # warnings shown or hidden, never raised
    assert not with_behaviour_finding([], quiet, quiet, failure=WARNING)


def test_verify_names_the_variable_before_its_plain_failure(monkeypatch, tmp_path):
    """The check's own findings (`check._findings`): the variable first, "matches no known failure" after it, the
    way to the log; a known cause keeps its place, with the variable as a note only where the failure names it."""
    monkeypatch.setenv("JAX_NUMPY_RANK_PROMOTION", "raise")
    monkeypatch.setattr(check, "_login_node", lambda facts: False)
    tiers = [Tier("jax_import", "passed"), Tier("backend", "passed"), Tier("cudnn_op", "skipped"),
             Tier("graphcast_jit_init", "failed", error={"type": "ValueError", "message": RANK.split(": ", 1)[1]})]
    stream = ProbeStream(started=True)
    stream.stderr.append(RANK)
    found = _findings(stream, tiers, ProbeRun(returncode=1, seconds=3.0, cancelled=False, timed_out=False), facts=None,
                      env=tmp_path, child_env={"JAX_NUMPY_RANK_PROMOTION": "raise"}, launcher=[],
                      log_file=tmp_path / "v.log", timeout=900)
    assert [f.id for f in found] == [FINDING_ID, "verify_failed"]
    assert "JAX_NUMPY_RANK_PROMOTION=raise" in found[0].explanation and "unset JAX_NUMPY_RANK_PROMOTION" in found[0].fix


def test_diagnose_env_names_the_variables_of_this_shell(tmp_path: Path):
    env = tmp_path / "env"
    (env / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    (env / "bin").mkdir()
    report = inspect_env(env, {"PATH": "/usr/bin:/bin", "PYTHONWARNINGS": "error"}, read_driver=False, ldconfig=[])
    assert [f.id for f in report.findings][-1] == FINDING_ID
    assert "`unset PYTHONWARNINGS`" in report.findings[-1].fix
    clean = inspect_env(env, {"PATH": "/usr/bin:/bin"}, read_driver=False, ldconfig=[])
    assert FINDING_ID not in [f.id for f in clean.findings]
