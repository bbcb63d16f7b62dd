"""`pythonpath_shadows_env`: a copy of jax, GraphCast or a `sitecustomize` on PYTHONPATH, outside the
environment, that its Python would import instead of its own — one finding, built here for the GraphCast check
and `diagnose --env` alike.

Which folders count is decided once, in `wizard.install.activation.stray_pythonpath`: the same call makes
`activate` and the Jupyter kernel leave them out, so the three never disagree (fifth hostile pass 9d/9e/9f:
`diagnose --env` said nothing, `activate` re-exported the folder and `kernel install` baked it into kernel.json).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from wizard.install.activation import (
    STACK_MODULES,
    STARTUP_MODULES,
    STARTUP_WORDS,
    Removal,
    folder_modules,
    startup_files,
    stray_other_entries,
    stray_pythonpath,
)
from wizard.verify.diagnose import Finding
from wizard.verify.protocol import Tier

FINDING_ID = "pythonpath_shadows_env"
TITLE = "A copy of jax or GraphCast outside the environment was imported"
#: When the copy was left out (by `activate`, the kernel, the check) and only a bare `python` would meet it.
TITLE_LEFT_OUT = "A copy of jax or GraphCast on PYTHONPATH would be imported instead of the environment's"
FIX = ("Take that folder off PYTHONPATH (`unset PYTHONPATH`, or remove it where your shell's start-up file sets "
       "it), or activate the environment with `eval \"$(gc-wizard activate)\"`, which leaves it out; a folder a "
       ".pth file adds goes with that file (delete it), one a sitecustomize.py puts first with that file (delete it, "
       "or the line that changes sys.path), and the user site with `export PYTHONNOUSERSITE=1`; then "
       "run `gc-wizard verify` again.")
#: Each cause's own fix, said when the evidence names only causes of that kind (`fix_for`).
_FIXES = (
    ("PYTHONPATH holds ", "take that folder off PYTHONPATH (`unset PYTHONPATH`, or remove it where your shell's "
                          "start-up file sets it), or activate the environment with `eval \"$(gc-wizard activate)\"`, "
                          "which leaves it out"),
    ("(a .pth file)", "delete the .pth file named (a leftover `pip install -e`, or one made by hand)"),
    ("(an import line of a .pth file)", "delete the .pth file named (a leftover `pip install -e`, or one made by hand)"),
    (STARTUP_WORDS, "delete the sitecustomize.py or usercustomize.py named, or the line in it that changes sys.path"),
    ("the user site-packages", "run with `export PYTHONNOUSERSITE=1`, or take that copy out of your user site"),
)


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
    return Finding(id=FINDING_ID, title=TITLE if in_effect else TITLE_LEFT_OUT, explanation=explanation,
                   fix=fix_for(evidence), evidence=tuple(evidence), priority=priority)


def fix_for(evidence: Sequence[str]) -> str:
    """The fix for what `evidence` names: each cause's own (a .pth file, a sitecustomize.py, PYTHONPATH, the user
    site), or the whole list when a line names none of them (22nd hostile pass P6: for a sitecustomize.py the fix
    spoke only of PYTHONPATH, a .pth file and the user site)."""
    named = [fix for key, fix in _FIXES if any(key in line for line in evidence)]
    if not named or any(not any(key in line for key, _ in _FIXES) and not line.startswith(_HOW_PREFIXES)
                        for line in evidence):
        return FIX
    said = list(dict.fromkeys(named))
    return "; ".join(said)[0].upper() + "; ".join(said)[1:] + "; then run `gc-wizard verify` again."


#: Evidence lines that say what was imported, not how it got first.
_HOW_PREFIXES = ("jax was imported from ",)


def shadow_caution(finding: Finding | None) -> str | None:
    """`finding` as the one sentence a command that runs the environment without a findings list says
    (`kernel install`): the same title, evidence and fix as verify's and forecast's finding."""
    if finding is None:
        return None
    return f"{finding.title}: {'; '.join(finding.evidence)}. {finding.fix}"


def startup_evidence(env: Path, environ: Mapping[str, str]) -> list[str]:
    """The start-up files that may have put a copy first without naming a folder we can read (a path built in
    code): said when jax came from outside and nothing else explains it."""
    return [f"{path} {STARTUP_WORDS} may have put it first" for path in startup_files(env, environ)]


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


def probe_shadow(tiers: list[Tier], env: Path, child_env: Mapping[str, str],
                    removed: Sequence[Mapping[str, str]] = ()) -> Finding | None:
    """`pythonpath_shadows_env` when the probe's jax came from outside the environment, or a PYTHONPATH folder
    the check ran with holds one of the modules it imports (an entry inside the environment that reaches out
    with `..`); else, when the activation left such a folder out (`removed`), the same finding as a note: the
    check did not meet it, a `python` run outside `activate` would. Without it a stray `jax` checkout on
    PYTHONPATH gave "matches no known failure"."""
    evidence = []
    jax_tier = next((t for t in tiers if t.name == "jax_import"), None)
    jax_path = (jax_tier.details.get("jax_path") if jax_tier is not None else None) or ""
    real_env = os.path.realpath(env)
    if jax_path and not os.path.realpath(jax_path).startswith(real_env + os.sep):
        really = os.path.realpath(jax_path)  # judged and named where it really is (23rd hostile pass P5)
        evidence.append(f"jax was imported from {jax_path}" + (f" (really {really})" if really != jax_path else ""))
        how = stray_other_entries(env, child_env)  # how it got there: a .pth file, a sitecustomize, the user site
        evidence += how or startup_evidence(env, child_env)
    elif not jax_path:
        # The import itself died (a stray copy that raises, or one built for another jaxlib), so no tier says where
        # jax came from: a user site or a .pth folder outside the env that holds one is then the likeliest cause,
        # as `diagnose --env` says (eleventh hostile pass #206/#207: "matches no known failure").
        evidence += stray_other_entries(env, child_env)
    for entry in [p for p in (child_env.get("PYTHONPATH") or "").split(os.pathsep) if p]:
        # A relative entry is searched from the probe's working folder, the environment (run_probe's cwd), not
        # from the wizard's: read from here, a `jax/` beside the user named a folder the check never searched.
        folder = os.path.join(env, entry)
        held = sorted((STACK_MODULES | STARTUP_MODULES) & folder_modules(folder))
        if held and not os.path.realpath(folder).startswith(real_env + os.sep):
            evidence.append(f"PYTHONPATH holds {entry}, with {', '.join(held)}"
                            + ("" if os.path.isabs(entry) else f" (from {env}, where the check runs)"))
    if evidence:
        return pythonpath_finding(env, evidence, in_effect=True)
    left_out = [Removal(r["variable"], r["dir"], r["reason"]) for r in removed]
    return pythonpath_finding(env, removal_evidence(left_out), in_effect=False, priority=90)


PRELOAD_ID = "ld_preload_cuda"


def preload_finding(removed: Sequence[Mapping[str, str]]) -> Finding | None:
    """A note for each CUDA, cuDNN, NCCL or driver library the activation took off LD_PRELOAD for the check (the same
    decision `activate` and the kernel make): the check ran without it, a program started from this shell would not
    (22nd hostile pass P8: verify named it nowhere)."""
    evidence = [f"LD_PRELOAD holds {item['dir']}: {item['reason']}" for item in removed
                if item.get("variable") == "LD_PRELOAD"]
    if not evidence:
        return None
    return Finding(id=PRELOAD_ID, title="A CUDA library is preloaded into every program (LD_PRELOAD)",
                   explanation=("The check ran without it (gc-wizard activate, the Jupyter kernel and verify leave it "
                                "out), but a `python` or script started from this shell loads it before anything "
                                "else, so JAX talks to it instead of the environment's own libraries or the "
                                "installed driver."),
                   fix=("Activate the environment with `eval \"$(gc-wizard activate)\"`, which leaves it out, or "
                        "`unset LD_PRELOAD` (or remove it where your shell's start-up file sets it)."),
                   evidence=tuple(evidence), priority=90)
