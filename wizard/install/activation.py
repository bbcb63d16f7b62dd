"""Activation: the environment variables under which an environment runs — the one decision.

The failure this prevents: a notebook died with "Loaded runtime CuDNN library: 8.2.1 but source
was compiled with: 8.6.0" because `LD_LIBRARY_PATH` pointed at an old cuDNN folder. Activating an
environment therefore puts `<env>/bin` first on `PATH`, sets the recipe's runtime variables (from
the env marker), and takes out of `LD_LIBRARY_PATH` and `PATH` exactly the folders that hold
CUDA/cuDNN libraries or toolkits (`wizard.detect.libpath` decides which) — every other folder stays,
in order, because users put other things there too. Another Python's packages on `PYTHONPATH` and
any `PYTHONHOME` go as well.

Why it lives in the install stage and not with `activate`: three consumers must see the very same
variables — the shell (`wizard.after.activate` renders `compute_activation` as shell code), the
Jupyter kernel (`wizard.after.kernel`) and the GraphCast check (`wizard.verify.check` runs the probe
under `Activation.apply` plus the probe's own additions). A check that ran under other variables
could pass where the user's shell fails.

A second activation in the same shell starts again from the values saved before the first
(`ORIGINAL_VAR`), so it never piles up.
"""

from __future__ import annotations

import os
import re
import sys
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wizard import bounded, venv_config
from wizard.children import LOADER_TOKEN_REASON, PYTHON_PREFIX_VARS, loader_token
from wizard.detect.libpath import (
    ld_library_path_entries,
    preload_entries,
    split_cuda_bin_dirs,
    split_cuda_dirs,
    split_preload,
)
from wizard.install.envs import MARKER, EnvMarker, marker_problem, read_marker
from wizard.paths import ephemeral_tool_env
from wizard.recipes.runtime_env import (
    FLAG_VARIABLES,
    OWN_RULE_VARIABLES,
    allowed,
    flag_file,
    library_pieces,
    loaded_from,
    name_problem,
    problem,
    xla_flag_places,
)
from wizard.security import expand_home, is_shell_name, known_home, shell_word
from wizard.source_trust import swap_risk

#: Exported by the script: the values from before the first activation (JSON), for `deactivate`.
ORIGINAL_VAR = "_GC_WIZARD_ORIGINAL"
#: The variables the activation decides that a kernel must never take from the Jupyter server's environment.
KERNEL_PINNED = ("LD_LIBRARY_PATH", "PYTHONPATH", *PYTHON_PREFIX_VARS)

#: Exported by the script: the environment that is active (the report shows it).
ACTIVE_VAR = "GC_WIZARD_ACTIVE_ENV"


@dataclass(frozen=True)
class Removal:
    """One folder taken out of a search path, and why."""

    variable: str
    folder: str
    reason: str


@dataclass
class Activation:
    """What activating `env` changes, relative to the environment it was computed from."""

    env: Path
    marker: EnvMarker | None
    set: dict[str, str] = field(default_factory=dict)
    """Variables to export, in order."""
    unset: list[str] = field(default_factory=list)
    removals: list[Removal] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    """The recipe's runtime variables the allowlist refused, each with why (also among `notes`): the kernel
    spec says these, not the activation's other notes."""
    original: dict[str, str | None] = field(default_factory=dict)
    """Each touched variable's value before the first activation (None: it was unset)."""

    def apply(self, environ: Mapping[str, str]) -> dict[str, str]:
        """`environ` as it is after activation: what a shell that evaluated the script has."""
        result = dict(environ)
        result.update(self.set)
        for name in self.unset:
            result.pop(name, None)
        return result

    def kernel_env(self) -> dict[str, str]:
        """The variables as a kernelspec `env`: an unset one becomes "" (the loader and Python ignore "").

        The search paths this activation decides (`KERNEL_PINNED`) are always written, "" when the shell that
        ran `kernel install` had none: Jupyter starts a kernel with the *server's* environment plus the spec's,
        and a server started later with an old cuDNN folder or a stray jax on its paths passed them to the
        kernel (eighth hostile pass E9). The spec must not depend on the shell it was written from."""
        env = {name: "" for name in KERNEL_PINNED}
        env.update(self.set)
        for name in self.unset:
            env[name] = ""
        return env


# --------------------------------------------------------------------------- the decision, in parts


def _inside(folder: str, env: Path) -> bool:
    if not folder:
        return False
    try:
        resolved = Path(os.path.abspath(folder))
    except (OSError, ValueError):
        return False
    return resolved == env or env in resolved.parents


def _cwd() -> str:
    """The current folder; "" when it was deleted under us (Python then finds nothing there either)."""
    try:
        return os.getcwd()
    except OSError:
        return ""


def _split_path_list(value: str | None) -> list[str]:
    return value.split(os.pathsep) if value else []


#: How an empty entry of a search path is named where it is left out: the loader, the shell and Python all read it
#: as the folder a program starts in.
EMPTY_ENTRY = "(an empty entry: the folder a program starts in)"
#: Why a relative entry of a search path is left out (said in `activate`'s comments and the kernel's `removed`).
RELATIVE_REASON = ("a relative entry, read against the folder a program starts in (a kernel's: the notebook's), "
                   "so whatever is there would be run or loaded")


def _absolute_entries(act: Activation, variable: str, entries: list[str]) -> list[str]:
    """The entries of a search path (PATH, LD_LIBRARY_PATH, PYTHONPATH) that name a folder by its full path; each
    relative one (`.`, `bin`, `~/lib`) goes, said as a removal, and so does an empty one (a leading or trailing
    `:`, or `::`, left by `export LD_LIBRARY_PATH=/opt/cuda/lib64:$LD_LIBRARY_PATH` when it was unset): it means the
    same current folder.

    Why: `activate` and the kernel spec kept `.` and `relbin` (eleventh hostile pass #173), and a kernel started
    in a notebook's folder loaded a `libcudnn.so.8` or ran a `ptxas` that happened to be there; the empty entry
    (the same current folder) was dropped without a word (thirteenth pass #18). One rule for the three variables,
    here where activation decides them, so the shell script and kernel.json agree."""
    kept = []
    for entry in entries:
        if not entry:
            if not any(r.variable == variable and r.folder == EMPTY_ENTRY for r in act.removals):
                act.removals.append(Removal(variable, EMPTY_ENTRY, RELATIVE_REASON))
            continue
        if variable == "LD_LIBRARY_PATH" and loader_token(entry):
            # ld.so's `$PLATFORM`, `$LIB`, `$ORIGIN`: the folder read is not the one written (33rd hostile pass (part
            # B) P8); judged before the relative rule, so `$ORIGIN/lib` is named for what it is
            if not any(r.variable == variable and r.folder == entry for r in act.removals):
                act.removals.append(Removal(variable, entry, LOADER_TOKEN_REASON))
            continue
        if not os.path.isabs(entry):
            if not any(r.variable == variable and r.folder == entry for r in act.removals):
                act.removals.append(Removal(variable, entry, RELATIVE_REASON))
            continue
        # A missing entry by whoever may make it (27th hostile pass (part B) P3): kept now, read at every later start.
        swappable = swap_risk(Path(entry), inside=False, missing=True)
        if swappable is not None:
            # Another user could put a library, program or module there that this env would load or run (pass 26's
            # early look P2: `kernel install` copied a LD_LIBRARY_PATH folder tuser owned into kernel.json, and
            # every later start of the kernel as root loaded tuser's libz.so.1). The swap rule sources go through.
            if not any(r.variable == variable and r.folder == entry for r in act.removals):
                where, why, _fix = swappable
                act.removals.append(Removal(variable, entry, f"{where} {why}, so another user could put what is "
                                                             "loaded or run from it there"))
            continue
        kept.append(entry)
    return kept


#: The variables an activation sets or unsets by name: all that `ORIGINAL_VAR` may bring back, besides the recipe's
#: runtime variables and the `runtime_env.loaded_from` family (`_saved_name_ok`).
_OWN_VARIABLES = frozenset({"PATH", "LD_LIBRARY_PATH", "LD_PRELOAD", "LD_AUDIT", "PYTHONPATH", "VIRTUAL_ENV",
                            ACTIVE_VAR, *PYTHON_PREFIX_VARS, *FLAG_VARIABLES})


def _saved_name_ok(name: str, value: str | None) -> bool:
    """Whether `name` is one an activation itself sets or unsets, so a saved value of it may be started from and put
    back: its own variables, a recipe's runtime variable (the allowlist's names), or one of the `loaded_from` family
    (unset when it names a place another user could swap). Never BASH_ENV, PROMPT_COMMAND, PYTHONSTARTUP …"""
    if not is_shell_name(name):
        return False
    return name in _OWN_VARIABLES or name_problem(name) is None or loaded_from(name, value) is not None


def _originals(environ: Mapping[str, str]) -> tuple[dict[str, str | None], list[str]]:
    """The values saved by an earlier activation in this shell, so activating again starts from them, and one note
    per saved name left out.

    `ORIGINAL_VAR` is a variable of the environment like any other, inherited through `sudo -E`, `su` or a job
    launcher from whoever started it: only the names an activation touches are taken (`_saved_name_ok`), and their
    values are judged as live ones before anything starts from them (`_judged_original`). Before (38th hostile pass
    (part B) P2) any key and value were taken: `activate` exported BASH_ENV from it, and its keys were printed as
    code."""
    raw = environ.get(ORIGINAL_VAR)
    if not raw:
        return {}, []
    try:
        data = bounded.loads_json(raw)
    except ValueError:
        return {}, []
    if not isinstance(data, dict):
        return {}, []
    saved: dict[str, str | None] = {}
    left: list[str] = []
    for key, value in data.items():
        value = value if isinstance(value, str) else None
        if _saved_name_ok(str(key), value):
            saved[str(key)] = value
        else:
            left.append(shell_word(str(key)))
    notes = [f"left out of {ORIGINAL_VAR} (the values an earlier activation saved): {', '.join(left[:8])}"
             f"{f' and {len(left) - 8} more' if len(left) > 8 else ''} — not variables an activation sets, so "
             "nothing is set or put back from them"] if left else []
    return saved, notes


def _judged_original(env: Path, name: str, value: str | None) -> tuple[str | None, str | None]:
    """A saved value as it may be started from and put back by `deactivate`, and why it differs (None: as saved).

    The same rules as a live value: the search paths' entries by `_absolute_entries` (relative, empty, loader
    tokens, the swap rule), LD_PRELOAD/LD_AUDIT's libraries by `_swappable_libraries`, XLA's flags by
    `_flag_variable_part`, the `loaded_from` family and the places the PYTHON* prefix variables and VIRTUAL_ENV name
    by `_place_reason`, a recipe runtime variable's value by the allowlist. What the rules leave out never comes back
    (38th hostile pass (part B) P2: `deactivate` put back an LD_PRELOAD and a PATH folder of another user's that the
    activation had said it removed)."""
    if value is None:
        return None, None
    scratch = Activation(env=env, marker=None)
    kept: str | None
    if name in ("PATH", "PYTHONPATH", "LD_LIBRARY_PATH"):
        entries = ld_library_path_entries(value) if name == "LD_LIBRARY_PATH" else _split_path_list(value)
        kept = os.pathsep.join(_absolute_entries(scratch, name, entries)) or None
    elif name in ("LD_PRELOAD", "LD_AUDIT"):
        entries = preload_entries(value) if name == "LD_PRELOAD" else [e for e in value.split(":") if e]
        gone = set(_swappable_libraries(scratch, name, entries))
        kept = (" " if name == "LD_PRELOAD" else ":").join(e for e in entries if e not in gone) or None
    elif name in FLAG_VARIABLES:
        if value.strip(" \t\r\n"):
            _flag_variable_part(scratch, name, value)
        kept = None if name in scratch.unset else scratch.set.get(name, value)
    elif name in (*PYTHON_PREFIX_VARS, "VIRTUAL_ENV", ACTIVE_VAR):
        reason = _place_reason(value, "what Python or an installer takes from there")
        if reason is not None:
            scratch.removals.append(Removal(name, value, reason))
        kept = None if reason else value
    elif loaded_from(name, value) is not None:
        _loaded_variables_part(scratch, lambda _name: value, [name])
        kept = None if name in scratch.unset else value
    else:
        why = problem(name, value)
        if why is not None:
            scratch.removals.append(Removal(name, value, why))
        kept = None if why else value
    if kept == value:
        return value, None
    reasons = "; ".join(f"{r.folder}: {r.reason}" for r in scratch.removals) or "left out by the activation's rules"
    return kept, reasons


def _describe_marker(env: Path, marker: EnvMarker | None) -> str:
    problem = marker_problem(env) if marker is None else None
    if problem is not None:
        return f"{env} ({problem}, so the recipe's runtime variables are not set)"
    if marker is None:
        return f"{env} (no {MARKER}: not built by gc-wizard, so no recipe runtime variables are known)"
    parts = [str(env), f"recipe {marker.recipe or '?'}"]
    if marker.title:
        parts.append(marker.title)
    parts.append(f"verified {marker.verified[:10]}" if marker.verified else "not verified")
    return " · ".join(parts)


def _path_part(act: Activation, base: Callable[[str], str | None]) -> None:
    """PATH: this env's bin first; a previously active venv's bin and CUDA toolkit folders out."""
    env_path, env_bin = act.env, str(act.env / "bin")
    entries = [p for p in _absolute_entries(act, "PATH", _split_path_list(base("PATH")))
               if os.path.abspath(p) != env_bin]
    old_venv = base("VIRTUAL_ENV")
    if old_venv and os.path.abspath(old_venv) != str(env_path):
        old_bin = os.path.join(os.path.abspath(old_venv), "bin")
        if old_bin in [os.path.abspath(p) for p in entries if p]:
            entries = [p for p in entries if not p or os.path.abspath(p) != old_bin]
            act.removals.append(Removal("PATH", old_bin, f"bin folder of the previously active environment {old_venv}"))
    kept, removed = split_cuda_bin_dirs(os.pathsep.join(entries)) if entries else ([], [])
    keep = set(kept) | {folder for folder, _ in removed if _inside(folder, env_path)}
    for folder, reason in removed:
        if folder not in keep:
            act.removals.append(Removal("PATH", folder, f"{reason}; XLA would run these instead of the "
                                                        "environment's own CUDA tools"))
    act.set["PATH"] = os.pathsep.join([env_bin] + [p for p in entries if p in keep])


def _library_part(act: Activation, base: Callable[[str], str | None]) -> None:
    """LD_LIBRARY_PATH: only the folders with CUDA/cuDNN libraries go; the env's own folders stay."""
    value = base("LD_LIBRARY_PATH")
    if value is None:
        return
    # Split as ld.so does (`;` too), so the relative and empty rules see every piece (24th pass (part B) P1).
    value = os.pathsep.join(_absolute_entries(act, "LD_LIBRARY_PATH", ld_library_path_entries(value)))
    kept, removed = split_cuda_dirs(value) if value else ([], [])
    keep = set(kept) | {folder for folder, _ in removed if _inside(folder, act.env)}
    for folder, reason in removed:
        if folder not in keep:
            act.removals.append(Removal("LD_LIBRARY_PATH", folder, f"{reason}, which would shadow the "
                                                                   "environment's own CUDA/cuDNN libraries"))
    new = [p for p in value.split(os.pathsep) if p in keep] if value else []
    if any(new):
        act.set["LD_LIBRARY_PATH"] = os.pathsep.join(new)
    else:
        act.unset.append("LD_LIBRARY_PATH")


def _preload_part(act: Activation, base: Callable[[str], str | None]) -> None:
    """LD_PRELOAD: a CUDA, cuDNN, NCCL or driver library preloaded into every process goes, as a CUDA folder on
    LD_LIBRARY_PATH does (22nd hostile pass P8: kept with no word, while detect said "no libcuda.so.1"); so does one
    another user could swap (`_swappable_libraries`); the environment's own and every other library stay."""
    value = base("LD_PRELOAD")
    if not value:
        return
    removed = split_preload(value)[1]
    dropped = [(lib, reason) for lib, reason in removed if not _inside(lib, act.env)]
    for lib, reason in dropped:
        act.removals.append(Removal("LD_PRELOAD", lib, f"{reason}, loaded into every process before the "
                                                        "environment's own CUDA libraries and the driver"))
    gone = {lib for lib, _ in dropped} | set(_swappable_libraries(act, "LD_PRELOAD", preload_entries(value)))
    if not gone:
        return
    keep = list(dict.fromkeys(entry for entry in preload_entries(value) if entry not in gone))
    if keep:
        act.set["LD_PRELOAD"] = " ".join(keep)
    else:
        act.unset.append("LD_PRELOAD")


def _audit_part(act: Activation, base: Callable[[str], str | None]) -> None:
    """LD_AUDIT: an auditing library the loader runs in every process, before its program (split at `:`, as ld.so
    does), kept unless another user could swap it (`_swappable_libraries`)."""
    value = base("LD_AUDIT")
    if not value:
        return
    entries = [entry for entry in value.split(":") if entry]
    gone = set(_swappable_libraries(act, "LD_AUDIT", entries))
    if not gone:
        return
    keep = [entry for entry in entries if entry not in gone]
    if keep:
        act.set["LD_AUDIT"] = ":".join(keep)
    else:
        act.unset.append("LD_AUDIT")


def _swappable_libraries(act: Activation, variable: str, entries: list[str]) -> list[str]:
    """The entries of a loader variable naming a library by its path (a bare name is looked up along the library
    path, held to this rule in `_library_part`) that another user could put their own in place of — the swap rule
    `_absolute_entries` holds each LD_LIBRARY_PATH folder to, a missing file judged by whoever may make it — or a
    relative path (read against the folder a program starts in); each named as a removal.

    Why one rule for what the loader loads: 31st hostile pass (part B) P3 — `LD_PRELOAD` or `LD_AUDIT` naming
    another user's library was kept for verify's probe, which loaded it as root, and named nowhere, while the same
    folder on LD_LIBRARY_PATH was left out and named."""
    gone: list[str] = []
    for entry in dict.fromkeys(entries):
        if loader_token(entry):  # judged before "inside the env": `ENV/$LIB/../..` leaves it (33rd pass (B) P8)
            reason = LOADER_TOKEN_REASON
        elif "/" not in entry or _inside(entry, act.env):
            continue
        elif not os.path.isabs(entry):
            reason = RELATIVE_REASON
        else:
            swappable = swap_risk(Path(entry), inside=False, missing=True)
            if swappable is None:
                continue
            where, why, _fix = swappable
            reason = f"{where} {why}, so another user could put their own library there, which every process loads"
        act.removals.append(Removal(variable, entry, reason))
        gone.append(entry)
    return gone


def _xla_flags_part(act: Activation, base: Callable[[str], str | None]) -> None:
    """XLA_FLAGS (and every variable XLA reads flags from: `runtime_env.FLAG_VARIABLES`) from the user's shell: a
    flag naming a place (`xla_flag_places`: a dump folder, the CUDA data folder, autotune results, a cache) another
    user could swap, or a relative one, is left out and named, as `_swappable_libraries` leaves out a library; every
    other flag stays. A value XLA reads as a FILE of flags (`runtime_env.flag_file`: it does not start with `-`)
    goes whole, named with `unset`: its flags are not the variable's, so nothing here could judge them, and the file
    is one more place another user may write. A recipe's own XLA_FLAGS (set above) names no place at all
    (`runtime_env.xla_flags_problem`).

    Why: 32nd hostile pass (part B) P3 — `XLA_FLAGS=--xla_dump_to=<another user's folder>` reached verify's probe,
    which wrote its dumps there as root, through that user's links, and nothing named it; 33rd hostile pass (part
    B) P1 — `XLA_FLAGS=<their file>` holding that flag did the same, passed over as no flag."""
    for variable in FLAG_VARIABLES:
        if variable in act.set:
            continue
        value = base(variable)
        if value and value.strip(" \t\r\n"):
            _flag_variable_part(act, variable, value)


def _flag_variable_part(act: Activation, variable: str, value: str) -> None:
    """`_xla_flags_part` for one variable's value."""
    file = flag_file(value)
    if file is not None:
        swappable = swap_risk(Path(file), inside=False, missing=True) if os.path.isabs(file) else None
        why = (f"{swappable[0]} {swappable[1]}, so another user could change the flags read from it; and "
               if swappable else "")
        act.removals.append(Removal(variable, value, (
            f"XLA reads its flags from this file (the value does not start with `--`): {why}gc-wizard does not judge "
            f"flags it is not shown (one may name a folder XLA writes into); write the flags into {variable} itself "
            f"or `unset {variable}`")))
        act.unset.append(variable)
        return
    gone: list[str] = []
    for word, places in xla_flag_places(value):
        for place in places:
            reason = _place_reason(place, "what XLA reads or writes there")
            if reason is None:
                continue
            act.removals.append(Removal(variable, word, f"{reason}; drop the flag from {variable} (or "
                                                        f"`unset {variable}`)"))
            gone.append(word)
            break
    if not gone:
        return
    keep = [word for word in value.split() if word not in gone]
    # what is left must still read as flags: a piece of a quoted value (`b"`) would be taken for a file name
    if keep and flag_file(" ".join(keep)) is None:
        act.set[variable] = " ".join(keep)
    else:
        act.unset.append(variable)


def _place_reason(place: str, what: str) -> str | None:
    """Why a place a variable or flag names is left out — relative (read against whatever folder the program starts
    in), or one another user could swap (`swap_risk`, missing places judged by who could make them) — or None when
    it may stay. One rule for XLA_FLAGS' places and the place variables."""
    if not os.path.isabs(place):
        return RELATIVE_REASON.replace("run or loaded", "read or written there")
    swappable = swap_risk(Path(place), inside=False, missing=True)
    if swappable is None:
        return None
    where, why, _fix = swappable
    return f"{where} {why}, so another user could swap {what} (a link to your own files)"


def _loaded_variables_part(act: Activation, base: Callable[[str], str | None], names: list[str]) -> None:
    """Every variable of the user's shell that names a place or a library a library loads code from, reads or writes
    (`runtime_env.loaded_from`, the one rule the recipe side refuses by: `PLACE_VARIABLES`, `LIBRARY_VARIABLES` and
    their families by pattern — `JAX_DUMP_IR_TO`, `CUDA_CACHE_PATH`, `NCCL_DEBUG_FILE`, `TPU_LIBRARY_PATH`,
    `PJRT_NAMES_AND_LIBRARY_PATHS`, `NCCL_NET_PLUGIN`, any `…_PLUGIN…`, a `…_PATH` naming a `.so` …), held to the rule
    `_xla_flags_part` holds XLA_FLAGS' places to: a place another user could swap (or a relative one, read against
    whatever folder the program starts in) is left out and named with `unset NAME`; a safe place stays. A "place"
    value is one file or folder (a URL, a `gs://` cache, is no local place and stays); a "paths" value is judged
    piece by piece (`runtime_env.library_pieces`), each piece with a `/` as a library's path, a bare name being looked
    up along the library path (held to its own rule in `_library_part`).

    Why: 34th hostile pass (part A) P5 — `JAX_DUMP_IR_TO=<another user's folder>` reached verify's probe, which
    wrote its IR files there as root, through that user's link over a root file; only XLA_FLAGS was held. 36th hostile
    pass (part B) P1 — `TPU_LIBRARY_PATH` / `PJRT_NAMES_AND_LIBRARY_PATHS` naming another user's library reached the
    probe, and jax loaded it as root: this part read a fixed table, the recipe side a pattern."""
    for variable in names:
        if variable in act.set or variable in act.unset or variable in OWN_RULE_VARIABLES:
            continue
        if not is_shell_name(variable):
            # `NCCL_NET_PLUGIN;touch x;X`: no library reads it (getenv asks for the exact name), and no shell could
            # unset it — written into `unset …` it was code (38th hostile pass (part B) P7); left alone
            continue
        value = base(variable)
        found = loaded_from(variable, value) if value else None
        if found is None:
            continue
        kind, effect = found
        if kind == "place":
            if "://" in value:
                continue
            bad, reason = value, _place_reason(value, "what is there")
        else:
            bad, reason = value, None
            for piece in library_pieces(value):
                if "/" not in piece:
                    continue
                reason = _place_reason(piece, "the library loaded from there") if os.path.isabs(piece) else (
                    RELATIVE_REASON)
                if reason is not None:
                    bad = piece
                    break
        if reason is None:
            continue
        act.removals.append(Removal(variable, bad, f"{effect}: {reason}; `unset {variable}` (or name a place "
                                                   "only you can write)"))
        act.unset.append(variable)


#: What each of `PYTHON_PREFIX_VARS` would do to the environment's python, for activation's note.
_PREFIX_EFFECT = {
    "PYTHONHOME": "load another Python's standard library",
    "PYTHONPLATLIBDIR": "load its standard library from another folder",
    "PYTHONEXECUTABLE": "take another program's folder for its own (and that folder's pyvenv.cfg)",
    "PYTHONPYCACHEPREFIX": "load compiled modules from another folder",
}


def _python_part(act: Activation, base: Callable[[str], str | None], environ: Mapping[str, str]) -> None:
    """Python's own search: PYTHONHOME breaks any venv; another Python's site-packages shadow ours."""
    env_bin = act.env / "bin"
    # Every variable that moves where the env's python takes its standard library from (the one table,
    # `children.PYTHON_PREFIX_VARS`; PYTHONPLATLIBDIR was kept: 29th hostile pass (part B) P2).
    for name in PYTHON_PREFIX_VARS:
        if base(name) is not None:
            act.unset.append(name)
            act.notes.append(f"unsets {name} (was {base(name)!r}): it would make {env_bin}/python "
                             f"{_PREFIX_EFFECT.get(name, _PREFIX_EFFECT['PYTHONHOME'])}")
    py_path = base("PYTHONPATH")
    if py_path is not None:
        keep, removals = stray_pythonpath(act.env, py_path)  # what shadows the env, said with what it holds
        act.removals += removals
        keep = _absolute_entries(act, "PYTHONPATH", keep)
        if any(keep):
            act.set["PYTHONPATH"] = os.pathsep.join(keep)
        else:
            act.unset.append("PYTHONPATH")
    act.set["VIRTUAL_ENV"] = str(act.env)
    act.set[ACTIVE_VAR] = str(act.env)
    conda = environ.get("CONDA_PREFIX")
    if conda and os.path.abspath(conda) != str(act.env):
        act.notes.append(f"the conda environment {conda} stays active underneath (conda cannot be deactivated "
                         f"from here); {env_bin} now comes first on PATH and its CUDA folders were taken out above")


def _runtime_part(act: Activation) -> None:
    """The recipe's runtime variables, from the recipe allowlist only (`wizard.recipes.runtime_env`).

    The marker is a file in the environment: whoever can write there could add PROMPT_COMMAND or
    BASH_ENV, so nothing outside the allowlist is ever set (and never the search paths decided above).
    """
    runtime, dropped = allowed(dict(act.marker.runtime_env) if act.marker else {})
    act.left_out = [f"{note} (from {MARKER})" for note in dropped]
    act.notes += act.left_out
    for name, value in runtime.items():
        act.set[name] = value


#: The modules GraphCast's check and forecast import first: a copy of one of these on PYTHONPATH is imported
#: instead of the environment's, whether or not the environment has its own (a stray `jax/` beside an env that
#: lacks jax still decides what `import jax` gets; fifth hostile pass 9d/9e/9f).
STACK_MODULES = frozenset({"jax", "jaxlib", "numpy", "graphcast", "haiku", "xarray", "weathernext", "chex",
                           "jraph", "optax", "scipy", "pandas", "ml_dtypes", "opt_einsum", "jax_plugins",
                           "jax_cuda12_plugin", "jax_cuda13_plugin", "ipykernel"})
#: The module Python itself runs at every start, found on PYTHONPATH like any other: one there runs before
#: anything and can put its own `jax` in `sys.modules`. Not usercustomize: an environment's Python has no user
#: site, so it never runs one.
STARTUP_MODULES = frozenset({"sitecustomize"})
#: Python's own standard library by name: a `json/` or `typing.py` on PYTHONPATH is found before it, so every
#: program in the environment imports that copy (seventh hostile pass 9e/9f: a `json/` folder ran its code in the
#: env's `import json`, kept by activate and baked into kernel.json). Names a project folder often has for
#: itself (`test`, the demos) are not counted.
STDLIB_MODULES = frozenset(sys.stdlib_module_names) - {"test", "this", "antigravity", "idlelib", "turtledemo",
                                                       "__phello__", "lib2to3"}


def stray_pythonpath(env: Path, value: str, *, relative_to: str | None = None) -> tuple[list[str], list[Removal]]:
    """The one PYTHONPATH decision `activate`, the kernel spec, the check and `diagnose --env` share: which
    entries of `value` stay, and which go with their reason.

    An entry goes when it is another Python's site-packages, or when it holds a module the environment has,
    one of GraphCast's stack (`STACK_MODULES`) or a `sitecustomize` — each would be imported instead of the
    environment's own. Entries inside the environment stay. A relative entry is read from `relative_to`
    (the folder the Python will run in; the current one by default).
    """
    env = Path(env)
    own = _env_modules(env) | STACK_MODULES | STARTUP_MODULES | STDLIB_MODULES
    keep: list[str] = []
    removals: list[Removal] = []
    for entry in _split_path_list(value):
        if not entry:
            # An empty entry (`PYTHONPATH=$PYTHONPATH:/x` with PYTHONPATH unset) is the folder Python starts in:
            # judged as that folder, like a relative entry (eighth hostile pass E6: a jax/ there was imported).
            folder = relative_to or _cwd()
        else:
            folder = os.path.join(relative_to, entry) if relative_to else entry
        if entry and _inside(folder, env):
            keep.append(entry)
            continue
        shown = entry or f"{folder} (an empty entry: the folder Python starts in)"
        if "site-packages" in folder or "dist-packages" in folder:
            removals.append(Removal("PYTHONPATH", shown, "another Python's packages folder; it would "
                                                         "shadow the environment's own jax/jaxlib"))
            continue
        shadowed = sorted(own & folder_modules(folder))
        if shadowed:
            names = ", ".join(shadowed[:4]) + (f" and {len(shadowed) - 4} more" if len(shadowed) > 4 else "")
            whose = "Python's own standard library" if set(shadowed) <= STDLIB_MODULES else "the environment's own"
            removals.append(Removal("PYTHONPATH", shown, f"it holds {names}, which would be imported instead of "
                                                         f"{whose}"))
            continue
        keep.append(entry)
    return keep, removals


def folder_modules(folder: str) -> set[str]:
    """The top-level module names a sys.path entry offers (`jax/`, `numpy.py`, `foo.cpython-311.so`), read
    the way Python reads the entry: `..` resolved as text (Python normalises PYTHONPATH so, even through a
    folder that does not exist), and a zip archive's own top level (zipimport)."""
    folder = os.path.normpath(os.path.abspath(folder)) if folder else folder
    if folder and os.path.isfile(folder):
        return _zip_modules(folder)
    names = set()
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                name = entry.name
                if entry.is_dir() and name.isidentifier() and "." not in name:
                    names.add(name)
                elif name.endswith((".py", ".so", ".pyc")) and not name.startswith("."):
                    names.add(name.split(".", 1)[0])
    except OSError:
        pass
    return names


def _zip_modules(archive: str) -> set[str]:
    """The top-level modules a zip archive on sys.path offers (`jax/__init__.py`, `numpy.py`); none for a
    file that is not a readable zip."""
    try:
        with zipfile.ZipFile(archive) as handle:
            members = handle.namelist()[:100_000]
    except (OSError, zipfile.BadZipFile, ValueError):
        return set()
    names = set()
    for member in members:
        top, slash, _ = member.partition("/")
        if slash and top.isidentifier():
            names.add(top)
        elif not slash and member.endswith((".py", ".pyc")) and member.split(".", 1)[0].isidentifier():
            names.add(member.split(".", 1)[0])
    return names


def _env_modules(env: Path) -> set[str]:
    """The top-level modules the environment's site-packages provides: what a PYTHONPATH entry holding the
    same names would shadow (a stray `jax` checkout, an old numpy). Why by name and not a fixed list: any
    of GraphCast's dependencies shadowed gives a failure that names something else."""
    names: set[str] = set()
    for site in sorted(env.glob("lib/python3*/site-packages")):
        names |= {n for n in folder_modules(str(site)) if not n.startswith("_") and n not in _NOT_SHADOWING}
    return names


#: The most a `.pth` file is read for folders (a real one holds a line or two; an endless one is not read on).
_PTH_BYTES = 64 * 1024


#: An absolute path quoted in a line of code (`sys.path.insert(0, '/home/me/shadow')`).
_QUOTED_PATH = re.compile(r"""['"](/[^'"\n]+)['"]""")


def other_path_entries(env: Path, environ: Mapping[str, str]) -> list[tuple[str, str]]:
    """The folders besides PYTHONPATH that the environment's Python puts on sys.path from outside itself, each
    with where it comes from: a `.pth` file in its site-packages naming a folder elsewhere (a leftover
    `pip install -e`, a hand-made `zz-dev.pth`), and the user's site-packages (`PYTHONUSERBASE`, else
    `~/.local`) when its pyvenv.cfg has `include-system-site-packages = true` — which Python searches *before*
    the environment's own packages. Run through `stray_pythonpath` like PYTHONPATH's entries (sixth hostile
    pass 9b/9c: a stray jax reached that way was imported, and neither the check nor `diagnose --env` said
    from where). `.pth` lines that run code (`import …`) are never run: the folders they name as quoted absolute
    paths are read from their text."""
    found: list[tuple[str, str]] = []
    for site in sorted(env.glob("lib/python3*/site-packages")):
        for pth in sorted(site.glob("*.pth")):
            try:
                text = bounded.read_head(pth, _PTH_BYTES).decode("utf-8", "replace")
            except OSError:
                continue
            for line in text.splitlines():
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                if line.startswith(("import ", "import\t")):
                    # Code, never run here; a folder it names as a quoted absolute path (`sys.path.insert(0,
                    # '/x')`) is read from its text (sixteenth hostile pass P9: verify named it, diagnose --env not).
                    folders = [os.path.normpath(quoted) for quoted in _QUOTED_PATH.findall(line)]
                    source = f"{pth} (an import line of a .pth file)"
                    found += _import_hook_entries(site, line, source, env)
                else:
                    # Judged where it really leads: a link inside the env to a folder outside is outside (23rd
                    # hostile pass P5: `../zz_rel`, a link in lib/python3.11/ to a stray jax, went unnoticed).
                    folders, source = [os.path.realpath(os.path.join(site, line))], f"{pth} (a .pth file)"
                # a zip archive is a sys.path entry as a folder is (zipimport), so both count (seventeenth hostile
                # pass P11: `sys.path.insert(0, '/x/shadow.zip')` was named by verify, not by diagnose --env)
                found += [(source, folder) for folder in folders
                          if not _inside(folder, env) and not _inside(folder, Path(os.path.realpath(env)))
                          and (os.path.isdir(folder) or os.path.isfile(folder))]
    user_sites = _user_sites(env, environ)
    for site in user_sites:
        found.append(("the user site-packages (its pyvenv.cfg has include-system-site-packages = true, and "
                      "Python searches the user's packages first)", str(site)))
    for startup in startup_files(env, environ):
        # Code Python runs at every start (22nd hostile pass P6: `sys.path.insert(0, '/x/stray')` in the env's
        # sitecustomize.py put a stray jax first, and the check named only where jax came from). Never run here:
        # the folders it names as quoted absolute paths are read from its text, as a .pth file's import lines are.
        try:
            text = bounded.read_head(startup, _PTH_BYTES).decode("utf-8", "replace")
        except OSError:
            continue
        folders = dict.fromkeys(os.path.normpath(quoted) for quoted in _QUOTED_PATH.findall(text))
        found += [(f"{startup} {STARTUP_WORDS}", folder) for folder in folders
                  if not _inside(folder, env) and (os.path.isdir(folder) or os.path.isfile(folder))]
    return found


#: The modules a `.pth` import line imports (`import a, b.c; import d`).
_IMPORTED = re.compile(r"(?:^|;)\s*import\s+([\w.]+(?:\s*,\s*[\w.]+)*)")


def _import_hook_entries(site: Path, line: str, source: str, env: Path) -> list[tuple[str, str]]:
    """The folders outside the env that a module a `.pth` import line imports from `site` names as quoted absolute
    paths, where one holds (or is) jax, GraphCast or a start-up module: an import hook, as editable installs install
    (a `sys.meta_path` finder mapping `jax` to a folder elsewhere). Read from its text, never run.

    Why: `import zz_finder` in `__editable__.zz_jax.pth`, a finder mapping jax to a stray copy, went unnoticed by
    forecast and kernel install, and verify named only where jax came from (23rd hostile pass P5)."""
    found: list[tuple[str, str]] = []
    wanted = STACK_MODULES | STARTUP_MODULES
    for group in _IMPORTED.findall(line):
        for name in (part.strip().split(".")[0] for part in group.split(",")):
            for module in (site / f"{name}.py", site / name / "__init__.py"):
                if not module.is_file():
                    continue
                try:
                    text = bounded.read_head(module, _PTH_BYTES).decode("utf-8", "replace")
                except OSError:
                    continue
                for quoted in dict.fromkeys(os.path.realpath(q) for q in _QUOTED_PATH.findall(text)):
                    folder = os.path.dirname(quoted) if os.path.isfile(quoted) else quoted
                    if os.path.basename(folder) in wanted:  # the package itself: the folder that holds it
                        folder = os.path.dirname(folder)
                    if (os.path.isdir(folder) and not _inside(folder, env)
                            and not _inside(folder, Path(os.path.realpath(env))) and wanted & folder_modules(folder)
                            and (f"{source}, through the import hook in {module},", folder) not in found):
                        found.append((f"{source}, through the import hook in {module},", folder))
    return found


#: How a start-up file is named in evidence, after its path (one wording for verify, forecast and the kernel).
STARTUP_WORDS = "(code Python runs at every start of the environment)"


def _user_sites(env: Path, environ: Mapping[str, str]) -> list[Path]:
    """The user's site-packages the environment's Python searches: only with `include-system-site-packages = true`
    and without PYTHONNOUSERSITE."""
    if not _includes_system_site(env) or environ.get("PYTHONNOUSERSITE"):
        return []
    home = known_home(environ)
    base = environ.get("PYTHONUSERBASE") or (os.path.join(home, ".local") if home is not None else "")
    if not base:
        return []  # no HOME and no passwd entry: no user site folder
    return sorted(Path(base).glob("lib/python3*/site-packages"))


def startup_files(env: Path, environ: Mapping[str, str]) -> list[Path]:
    """The `sitecustomize` and `usercustomize` modules the environment's Python runs at every start, before any
    program: in its own site-packages, and (`usercustomize` too) in a user site it searches."""
    sites = sorted(env.glob("lib/python3*/site-packages"))
    user_sites = _user_sites(env, environ)
    names = ("sitecustomize", "usercustomize") if user_sites else ("sitecustomize",)
    found = []
    for site in [*sites, *user_sites]:
        for name in names:
            for candidate in (site / f"{name}.py", site / name / "__init__.py"):
                if candidate.is_file():
                    found.append(candidate)
    return found


def _includes_system_site(env: Path) -> bool:
    """Whether `pyvenv.cfg` says `include-system-site-packages = true` (the user site is searched then too)."""
    return venv_config.read(env / "pyvenv.cfg").get("include-system-site-packages", "").lower() == "true"


def stray_other_entries(env: Path, environ: Mapping[str, str]) -> list[str]:
    """Evidence lines for `other_path_entries` that `stray_pythonpath`'s rule would leave out: where each comes
    from, the folder, and what it holds."""
    evidence = []
    for source, folder in other_path_entries(env, environ):
        _keep, removals = stray_pythonpath(env, folder)
        verb = "puts {} first" if source.endswith(STARTUP_WORDS) else "adds {}"
        evidence += [f"{source} {verb.format(folder)}: {r.reason}" for r in removals]
    return evidence


#: Top-level names in a site-packages that are not packages a folder could shadow in a harmful way.
_NOT_SHADOWING = frozenset({"setup", "test", "tests", "docs", "examples", "site", "conftest"})


def _without_own_tool_env(path: str | None) -> str | None:
    """PATH without the bin folder of this run's own environment when uvx or `pipx run` keeps it in a cache
    (`paths.ephemeral_tool_env`): the runner put it on this process's PATH only, the user's shell never had it, and
    exported (or restored by `deactivate`) it outlived `uv cache clean` (walk 37 #2). Left out without a word, as it
    was never the user's."""
    own = ephemeral_tool_env()
    if own is None or not path:
        return path
    return os.pathsep.join(entry for entry in path.split(os.pathsep) if not _inside(entry, own))


def _remember_part(act: Activation, saved: Mapping[str, str | None], environ: Mapping[str, str],
                   base: Callable[[str], str | None]) -> None:
    """Each touched variable's pre-activation value; the ones only an earlier activation touched
    (another recipe's runtime variables) go back to it — only where the shell has the variable now: a saved one the
    live environment lacks is never exported (38th hostile pass (part B) P2). `saved` holds judged values only."""
    touched = list(act.set) + act.unset
    for name, value in saved.items():
        if name not in touched and name in environ:
            if value is None:
                act.unset.append(name)
            else:
                act.set[name] = value
    act.original = {name: saved[name] if name in saved else base(name)
                    for name in dict.fromkeys(list(saved) + touched)}


def compute_activation(env: str | os.PathLike[str], environ: Mapping[str, str] | None = None,
                       marker: EnvMarker | Mapping[str, Any] | None = None, *, originals: bool = False) -> Activation:
    """Decide what activating `env` changes in `environ` (default: this process's environment).

    `marker` defaults to the environment's own (`<env>/gc-wizard-env.json`). `originals`: start from the values an
    earlier activation in this shell saved (`ORIGINAL_VAR`) — only for `activate`'s script, whose `deactivate` puts
    them back; the kernel spec, the module file and verify's probe never take them (38th hostile pass (part B) P2:
    kernel.json carried a saved PYTHONSTARTUP, verify's probe a saved PYTHONHASHSEED).
    """
    env_path = Path(os.path.abspath(expand_home(str(env))))
    environ = dict(os.environ if environ is None else environ)
    if marker is None:
        marker = read_marker(env_path)
    elif not isinstance(marker, EnvMarker):
        marker = EnvMarker.from_dict(dict(marker)) if marker else None
    saved, saved_notes = _originals(environ) if originals else ({}, [])
    for name, value in list(saved.items()):
        if name not in environ and name not in _OWN_VARIABLES:
            # a runtime or `loaded_from` variable the shell no longer has: no activation unset it (one left out by
            # the rules is judged so below), so neither exported now nor put back by `deactivate`
            del saved[name]
            continue
        if name == "PATH":
            value = _without_own_tool_env(value)
        saved[name], why = _judged_original(env_path, name, value)
        if why is not None:
            saved_notes.append(f"{name} as an earlier activation saved it ({ORIGINAL_VAR}) is not started from, and "
                               f"deactivate does not put it back as saved: {why}")

    def base(name: str) -> str | None:
        # Start from the value before the first activation in this shell, if there was one — judged as a live one
        # (`_judged_original`), and only for a variable the shell has now (a saved one it lacks is never exported).
        if name not in environ:
            return None
        value = saved[name] if name in saved else environ.get(name)
        return _without_own_tool_env(value) if name == "PATH" else value

    act = Activation(env=env_path, marker=marker)
    act.notes.append(f"activates {_describe_marker(env_path, marker)}")
    act.notes += saved_notes
    _path_part(act, base)
    _library_part(act, base)
    _preload_part(act, base)
    _audit_part(act, base)
    _python_part(act, base, environ)
    _runtime_part(act)
    _xla_flags_part(act, base)
    _loaded_variables_part(act, base, list(dict.fromkeys([*environ, *saved])))
    _remember_part(act, saved, environ, base)
    _shell_names_only(act)
    return act


def _shell_names_only(act: Activation) -> None:
    """Every name the activation sets, unsets or restores is a shell variable's (`security.is_shell_name`); any other
    is dropped and said in a note. The one place for every consumer — `activate`'s script and its `deactivate`, the
    module file, the kernel's env — so no name from the environment or a saved value is ever written as code
    (38th hostile pass (part B) P7: `unset NCCL_NET_PLUGIN;touch x;X` ran under `eval`)."""
    bad = [name for name in dict.fromkeys([*act.set, *act.unset, *act.original]) if not is_shell_name(name)]
    for name in bad:
        act.set.pop(name, None)
        act.original.pop(name, None)
        act.unset = [other for other in act.unset if other != name]
        act.notes.append(f"left out {shell_word(name)}: not a shell variable name, so no shell has it")
