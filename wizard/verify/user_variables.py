"""`behaviour_variables_set`: variables of the user's shell that change how Python, JAX or XLA behave in the
environment (`PYTHONWARNINGS=error`, `JAX_NUMPY_RANK_PROMOTION=raise`, `XLA_FLAGS`, `TF_*`), named in one finding
for the GraphCast check, the forecast and `diagnose --env` alike.

Why: the check runs under the user's own variables, as `activate` gives them to a shell, so a working environment
failed verify under `PYTHONWARNINGS=error` (GraphCast's own FutureWarning became an exception) or
`JAX_NUMPY_RANK_PROMOTION=raise`, and the finding said only "matches no known failure" (31st hostile pass (part B)
P12). As for PYTHONPATH (`wizard.verify.shadow`), the variable is named, and `unset` is the fix.

A variable counts when it is the user's: the probe's environment holds it with the value the shell has, so neither
the activation, the recipe's runtime variables nor the wizard's own additions set it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from wizard.recipes.runtime_env import OWN_RULE_VARIABLES, PLACE_FAMILIES, loaded_from
from wizard.security import cut, shell_word
from wizard.verify.diagnose import Finding

FINDING_ID = "behaviour_variables_set"
#: The families of variables read by Python itself, JAX (`JAX_*` are its config options), XLA and TensorFlow's
#: C++ runtime (XLA's logging and GPU switches): only TensorFlow's own `TF_*` families, since Terraform's
#: `TF_VAR_*`, `TF_LOG` and `TF_CLI_CONFIG_FILE` share the prefix and change nothing here.
#: libtpu's and JAX's plugin loader's (`TPU_`, `LIBTPU_`, `PJRT_`) too; and within the libraries' families
#: (`runtime_env.PLACE_FAMILIES`), any variable that names a library or plugin to load (`runtime_env.loaded_from`:
#: `NCCL_NET_PLUGIN`, `CUDA_INJECTION64_PATH`), the ones the activation kept as no other user's (36th hostile pass
#: (part B) P1: such a variable was named nowhere).
PREFIXES = ("PYTHON", "JAX_", "XLA_", "TF_CPP_", "TF_XLA_", "TF_GPU_", "TF_FORCE_", "TF_ENABLE_", "TF_CUDNN_",
            "TF_DETERMINISTIC_", "TPU_", "LIBTPU_", "PJRT_")
#: Those that change nothing a check or a notebook depends on: output buffering and encoding, bytecode files, the
#: interactive start-up file, log verbosity. PYTHONPATH has its own finding (`shadow`), and PYTHONNOUSERSITE is
#: the wizard's own advice.
QUIET = frozenset({
    "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONPYCACHEPREFIX",
    "PYTHONHASHSEED", "PYTHONSTARTUP", "PYTHONBREAKPOINT", "PYTHONFAULTHANDLER", "PYTHONNOUSERSITE", "PYTHONPATH",
    "PYTHONHOME", "PYTHONSAFEPATH", "PYTHONCOERCECLOCALE", "PYTHONLEGACYWINDOWSSTDIO", "PYTHONUSERBASE",
    "TF_CPP_MIN_LOG_LEVEL",
})


def user_behaviour_variables(child: Mapping[str, str], base: Mapping[str, str]) -> list[tuple[str, str]]:
    """The (name, value) pairs of `child` (what the environment's Python runs under) that the user's shell `base`
    set and that change how Python, JAX or XLA behave, by name."""
    return sorted((name, value) for name, value in child.items()
                  if _counted(name, value) and name not in QUIET and base.get(name) == value
                  and (name != "PYTHONWARNINGS" or "error" in value.lower()))  # `ignore`, `default`: only words


def _counted(name: str, value: str) -> bool:
    """Whether `name` is one of the variables this finding names: `PREFIXES`, or a library's variable that names a
    library or plugin to load (`runtime_env.loaded_from`, kind "paths", within `PLACE_FAMILIES`)."""
    if name.startswith(PREFIXES):
        return True
    found = loaded_from(name, value) if name.startswith(PLACE_FAMILIES) else None
    return found is not None and found[0] == "paths" and name not in OWN_RULE_VARIABLES


def _mentioned(name: str, text: str) -> bool:
    """Whether a failure's text names the variable, or the JAX option it sets (`jax_numpy_rank_promotion`)."""
    return name.lower() in text.lower()


def behaviour_finding(child: Mapping[str, str], base: Mapping[str, str], *, failure: str | None = None,
                      what: str = "The check", again: str = "gc-wizard verify", priority: int = 90,
                      mentioned_in: str | None = None) -> Finding | None:
    """The finding naming the user's variables (`user_behaviour_variables`), or None when there are none.

    `failure`: the failure's own message, quoted as evidence (None: nothing failed, as for `diagnose --env`, which
    reads the environment without running it). `mentioned_in`: name only the variables this text (all the failure
    printed) names: a failure that already matches a known cause gets the note only when a variable is in its words."""
    found = user_behaviour_variables(child, base)
    if mentioned_in is not None:
        found = [(name, value) for name, value in found if _mentioned(name, mentioned_in)]
    if not found:
        return None
    names = [name for name, _ in found]
    said = ", ".join(f"{name}={cut(value, 60)}" for name, value in found)
    evidence = [f"{name}={cut(value, 120)} is set in this shell" for name, value in found]
    unset = f"`unset {' '.join(shell_word(name) for name in names)}`"
    if failure is None:
        explanation = (f"This shell sets {said}. Python, JAX or XLA read {'them' if len(names) > 1 else 'it'} at "
                       "every start of the environment's Python, so a check, a notebook or a script started from "
                       "here runs differently than the recipe was checked (a warning made an error, a stricter "
                       "JAX option, other XLA flags).")
        title = "Variables of this shell change how Python or JAX behave in the environment"
    else:
        explanation = (f"{what} ran under {said}, set in this shell, which change{'s' if len(names) == 1 else ''} how "
                       "Python, JAX or XLA behave (a warning made an error, a stricter JAX option, other XLA "
                       f"flags); it failed with {cut(failure, 300).rstrip('.')}. The same environment usually works without "
                       f"{'them' if len(names) > 1 else 'it'}.")
        title = f"{what} failed with {', '.join(names)} set in your environment"
    fix = (f"Run {unset} (or remove {'them' if len(names) > 1 else 'it'} where your shell's start-up file sets "
           f"{'them' if len(names) > 1 else 'it'}), then run `{again}` again.")
    if failure is not None:
        evidence.append(cut(failure, 300))
    return Finding(id=FINDING_ID, title=title, explanation=explanation, fix=fix, evidence=tuple(evidence),
                   priority=priority)


def with_behaviour_finding(findings: Sequence[Finding], child: Mapping[str, str], base: Mapping[str, str], *,
                           failure: str, text: str = "", what: str = "The check", again: str = "gc-wizard verify",
                           known: Sequence[str] = ()) -> list[Finding]:
    """A failed run's findings with the user's variables named: first, before a failure that matches no known cause
    (the ids in `known` are such fallbacks and notes: "verify_failed"), which stays as the way to the log; after the
    others, as a note, when the failure's text (`failure` and `text`, all it printed) names one of them."""
    if not [f for f in findings if f.id not in known]:
        finding = behaviour_finding(child, base, failure=failure, what=what, again=again, priority=80)
        return [finding, *findings] if finding is not None else list(findings)
    note = behaviour_finding(child, base, failure=failure, what=what, again=again, mentioned_in=f"{failure}\n{text}")
    return [*findings, note] if note is not None else list(findings)
