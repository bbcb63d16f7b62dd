"""The GraphCast check of an environment on its own (`gc-wizard verify`): which environment, what it is
meant to run on, the probe run inside it, and its record in the history.

Why a use case: the face used to read the environment's marker for the backend and the recipe's
`runtime_env`, run the probe, and write the history entry and the marker's date itself (three stages).
"""

from __future__ import annotations

from wizard.after.target import resolve_env
from wizard.detect.srun_job import DEFAULT_WAIT
from wizard.errors import WizardError
from wizard.flows.history import record_check
from wizard.install.envs import Env
from wizard.paths import guard_env_python
from wizard.verify.check import VerifyResult, verify_env

__all__ = ["check_env", "env_to_check", "record_check", "record_or_why"]


def env_to_check(env: str | None) -> Env:
    """`--env DIR`, else the current environment from the history (a UserError says there is none). The probe
    runs its python: held to the rule of every run of an env's python (`paths.guard_env_python`, 24th hostile pass
    (part B) P7), not only to activate's."""
    found = resolve_env(env)
    guard_env_python(found.path)
    return found


def backend_of(env: Env) -> str:
    """What the environment is meant to run on: its marker's backend, or "auto" for one the user built
    (judged by its jaxlib build)."""
    return env.marker.backend if env.marker is not None else "auto"


def check_env(env: Env, *, level: str = "notebook", slurm=None, **how) -> VerifyResult:
    """Run the GraphCast probe in `env` under its recipe's runtime variables, on a GPU node through srun
    when `slurm` is a target; `how` as `verify.check.verify_env` takes it (timeout, cancel, on_tier…)."""
    runtime_env = dict(env.marker.runtime_env) if env.marker is not None else {}
    launcher = slurm.srun("gc-wizard-verify") if slurm is not None else []
    return verify_env(env.path, backend=backend_of(env), level=level, runtime_env=runtime_env, launcher=launcher,
                      job_wait=slurm.wait if slurm is not None else DEFAULT_WAIT, **how)


def record_or_why(env, result: VerifyResult, started: str) -> str | None:
    """A finished check's history entry (`record_check`), or why it is not recorded, in the words `verify` says on
    stderr and in `--json`'s "not_recorded" (walk 26 #10) and the app's check of a kept install shows (walk 26 #9):
    a finished check is still worth its result, so a failure to record is never an error. None: recorded."""
    if result.cancelled:
        return "the check was cancelled, and a cancelled check is not recorded"
    try:
        if not record_check(env, result, started=started):
            return "another gc-wizard holds the state folder, so this verify is not in `gc-wizard history`"
    except (OSError, WizardError) as exc:
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return f"this verify could not be recorded in the history ({detail})"
    return None
