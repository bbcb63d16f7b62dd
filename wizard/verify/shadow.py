"""`pythonpath_shadows_env`: a copy of jax, GraphCast or a `sitecustomize` on PYTHONPATH, outside the
environment, that its Python would import instead of its own — one finding, built here for the GraphCast check
and `diagnose --env` alike.

Which folders count is decided once, in `wizard.install.activation.stray_pythonpath`: the same call makes
`activate` and the Jupyter kernel leave them out, so the three never disagree (fifth hostile pass 9d/9e/9f:
`diagnose --env` said nothing, `activate` re-exported the folder and `kernel install` baked it into kernel.json).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from wizard.install.activation import Removal, stray_other_entries, stray_pythonpath
from wizard.verify.diagnose import Finding

FINDING_ID = "pythonpath_shadows_env"
TITLE = "A copy of jax or GraphCast outside the environment was imported"
#: When the copy was left out (by `activate`, the kernel, the check) and only a bare `python` would meet it.
TITLE_LEFT_OUT = "A copy of jax or GraphCast on PYTHONPATH would be imported instead of the environment's"
FIX = ("Take that folder off PYTHONPATH (`unset PYTHONPATH`, or remove it where your shell's start-up file sets "
       "it), or activate the environment with `eval \"$(gc-wizard activate)\"`, which leaves it out; a folder a "
       ".pth file adds goes with that file (delete it), and the user site with `export PYTHONNOUSERSITE=1`; then "
       "run `gc-wizard verify` again.")


def removal_evidence(removals: Sequence[Removal], *, where: str | None = None) -> list[str]:
    """One evidence line per PYTHONPATH folder the decision took out: the folder and what it holds."""
    out = []
    for removal in removals:
        if removal.variable != "PYTHONPATH":
            continue
        relative = "" if where is None or os.path.isabs(removal.folder) else f" (from {where}, where it runs)"
        out.append(f"PYTHONPATH holds {removal.folder}{relative}: {removal.reason}")
    return out


def pythonpath_finding(env: Path, evidence: Sequence[str], *, in_effect: bool, priority: int = 5) -> Finding | None:
    """The finding for `evidence`; None when there is none. `in_effect`: the copy was imported (the check ran
    with it), else it was left out and only a `python` run outside `activate` would meet it."""
    if not evidence:
        return None
    if in_effect:
        explanation = (f"The check ran {env}'s Python, but Python found a module it imports (or a sitecustomize, "
                       "which Python runs at every start) somewhere else first — a folder on PYTHONPATH (a source "
                       "checkout, another project), or one a .pth file or the user site adds, is searched before "
                       "the environment's own packages, so what failed may not be the environment at all.")
    else:
        explanation = (f"With this PYTHONPATH, {env}'s Python imports the copy in that folder instead of the "
                       "environment's own (or runs its sitecustomize at every start): a script, `python` or a "
                       "notebook started without `gc-wizard activate` gets the stray copy. `gc-wizard activate`, "
                       "the Jupyter kernel and the check leave that folder out.")
    return Finding(id=FINDING_ID, title=TITLE if in_effect else TITLE_LEFT_OUT, explanation=explanation, fix=FIX, evidence=tuple(evidence),
                   priority=priority)


def environment_shadow(env: Path, environ: dict[str, str]) -> Finding | None:
    """`diagnose --env`: the PYTHONPATH of `environ` (the user's shell) read by the shared decision, and the
    folders a `.pth` file or the user site put on sys.path from outside the environment (those are in effect
    for every start of its Python, `activate`d or not)."""
    value = environ.get("PYTHONPATH")
    removals = stray_pythonpath(env, value)[1] if value else []
    other = stray_other_entries(env, environ)
    if other:
        return pythonpath_finding(env, [*other, *removal_evidence(removals)], in_effect=True)
    return pythonpath_finding(env, removal_evidence(removals), in_effect=False)
