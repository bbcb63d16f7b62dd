"""The machine, for both faces: the facts to plan with, what fits in memory, the Slurm partitions to offer.

Kept apart from `flows.session` (which also plans and diagnoses) because `gc-wizard detect` and the
Machine screen need only this: importing the planner, the recipe matcher and the log catalogue for a
`detect --json` doubled its start-up (issue 23). The Slurm modules are loaded only when asked for.
"""

from __future__ import annotations

from wizard.detect.facts import Facts
from wizard.detect.preflight import ModelFit, assess
from wizard.detect.where import detect_where

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing `typing` (start-up time, issue 23)
if TYPE_CHECKING:
    from wizard.detect.slurm import SlurmTarget


def machine_facts(slurm: SlurmTarget | None = None, **how) -> Facts:
    """The facts to plan with: a GPU node through srun (`slurm`), an assumed GPU (`assume_driver`,
    `assume_cc`), or this machine; `on_line`, `on_state` and `cancel` as `detect.where.detect_where` takes them."""
    return detect_where(slurm, **how)


class PythonSearch:
    """The interpreters on this machine, looked for while detection runs, for `detect --json`'s `pythons`.

    In a child process (`python -m wizard.recipes.pythons`): the search is the recipe layer's (packaging, the
    recipe loader), which `detect --json` must not import (start-up time, issue 23); the child starts first and
    probes the interpreters while this process detects. `result()` is its list, or None when it failed (then
    `pythons` stays null: not known)."""

    def __init__(self) -> None:
        import sys
        import threading

        self._found: list[dict] | None = None
        self._argv = [sys.executable, "-m", "wizard.recipes.pythons"]
        self._thread = threading.Thread(target=self._run, name="python-search", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        import json
        import subprocess

        # subprocess directly, not `children.run_capture`: its parent-death hook loads ctypes, which `detect --json`
        # does not otherwise load; the child only probes interpreters (each with its own timeout) and then ends.
        try:
            proc = subprocess.run(self._argv, capture_output=True, text=True, errors="replace",
                                  timeout=PYTHON_SEARCH_SECONDS, stdin=subprocess.DEVNULL)
            found = json.loads(proc.stdout) if proc.returncode == 0 else None
        except Exception:  # a search that fails leaves `pythons` null (not known), never fails the facts
            return
        if isinstance(found, list):
            self._found = [p for p in found if isinstance(p, dict) and {"version", "executable"} <= set(p)]

    def result(self) -> list[dict] | None:
        self._thread.join(PYTHON_SEARCH_SECONDS + 1)
        return self._found


#: At most this long for the child that looks for interpreters (each probe has its own 10 s timeout).
PYTHON_SEARCH_SECONDS = 30.0


def preflight(facts: Facts) -> list[ModelFit]:
    """What fits in memory: GraphCast and GenCast at 1° and 0.25° against the GPUs and the host RAM."""
    return assess(facts)


def slurm_offer() -> list[str] | None:
    """Slurm's partitions when srun is here (to offer detection on a GPU node), else None."""
    # Deferred for start-up time: only a machine without a GPU asks Slurm (module docstring).
    from wizard.detect.slurm import partitions, srun_on_path

    return partitions() if srun_on_path() else None


def slurm_partitions() -> list[str]:
    """Slurm's partitions (sinfo answers in well under a second)."""
    # Deferred for start-up time, as above.
    from wizard.detect.slurm import partitions

    return partitions()
