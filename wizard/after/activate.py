"""Provides activation: the environment variables that make a shell (or a kernel) run a verified env.

The seed user's notebook died with "Loaded runtime CuDNN library: 8.2.1 but source was compiled with:
8.6.0" because `LD_LIBRARY_PATH` pointed at an old cuDNN folder. Activating an environment therefore
does three things: puts `<env>/bin` first on `PATH`, sets the recipe's runtime variables (from the
env marker `<env>/gc-wizard-env.json`), and takes out of `LD_LIBRARY_PATH` and `PATH` exactly the
folders that hold CUDA/cuDNN libraries or toolkits (`wizard.detect.libpath` decides which) — every other
folder stays, in order, because users put other things there too.

`compute_activation()` is the one place this is decided; `activation_script()` renders it as shell
code for `eval "$(gc-wizard activate)"` (bash, zsh, sh), and `wizard.after.kernel` turns the same result
into a Jupyter kernelspec `env`. The script defines `deactivate`, which restores what it changed; a
second activation starts again from the values saved before the first, so it never piles up.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wizard.errors import UserError
from wizard.install.envs import MARKER as MARKER_NAME
from wizard.install.envs import read_marker  # noqa: F401  (kernel and report read markers through here)

#: Exported by the script: the values from before the first activation (JSON), for `deactivate`.
ORIGINAL_VAR = "_GC_WIZARD_ORIGINAL"
#: Exported by the script: the environment that is active (the report shows it).
ACTIVE_VAR = "GC_WIZARD_ACTIVE_ENV"
SHELLS = ("bash", "zsh", "sh")
_VAR_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


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
    marker: dict[str, Any]
    set: dict[str, str] = field(default_factory=dict)
    """Variables to export, in order."""
    unset: list[str] = field(default_factory=list)
    removals: list[Removal] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    original: dict[str, str | None] = field(default_factory=dict)
    """Each touched variable's value before the first activation (None: it was unset)."""

    def kernel_env(self) -> dict[str, str]:
        """The variables as a kernelspec `env`: an unset one becomes "" (the loader and Python ignore "")."""
        env = dict(self.set)
        for name in self.unset:
            env[name] = ""
        return env


# --------------------------------------------------------------------------- marker / env lookup


def env_python(env: Path) -> Path:
    return env / "bin" / "python"


def resolve_env(env: str | os.PathLike[str] | None) -> Path:
    """`--env DIR` as an absolute path, or the current environment from history; UserError if neither."""
    if env:
        from wizard.paths import unusable_env_path

        why = unusable_env_path(str(env))
        if why:
            raise UserError(f"--env: {why}.")
        path = Path(os.path.abspath(os.path.expanduser(str(env))))
        if not path.is_dir():
            raise UserError(f"environment {path} does not exist.")
    else:
        from wizard.history.store import load_history

        current = load_history().current()
        if current is None:
            raise UserError("there is no current environment yet; install one with `gc-wizard install`, "
                            "or name one with --env DIR.")
        value = current.get("env") if isinstance(current, Mapping) else getattr(current, "env", None)
        if not value:
            raise UserError("the current history entry has no environment path; name one with --env DIR.")
        path = Path(value)
        if not path.is_dir():
            raise UserError(f"the current environment {path} no longer exists; roll back with "
                            "`gc-wizard rollback` or name one with --env DIR.")
    if not env_python(path).exists():
        raise UserError(f"{path} is not a Python environment (it has no bin/python).")
    return path


# --------------------------------------------------------------------------- the decision


def _inside(folder: str, env: Path) -> bool:
    if not folder:
        return False
    try:
        resolved = Path(os.path.abspath(folder))
    except (OSError, ValueError):
        return False
    return resolved == env or env in resolved.parents


def _split_path_list(value: str | None) -> list[str]:
    return value.split(os.pathsep) if value else []


def _originals(environ: Mapping[str, str]) -> dict[str, str | None]:
    """The values saved by an earlier activation in this shell, so activating again starts from them."""
    raw = environ.get(ORIGINAL_VAR)
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): (v if isinstance(v, str) else None) for k, v in data.items()}


def _describe_marker(env: Path, marker: Mapping[str, Any]) -> str:
    if not marker:
        return f"{env} (no {MARKER_NAME}: not built by gc-wizard, so no recipe runtime variables are known)"
    parts = [str(env), f"recipe {marker.get('recipe', '?')}"]
    if marker.get("title"):
        parts.append(str(marker["title"]))
    verified = marker.get("verified")
    parts.append(f"verified {str(verified)[:10]}" if verified else "not verified")
    return " · ".join(parts)


def compute_activation(env: str | os.PathLike[str], environ: Mapping[str, str] | None = None,
                       marker: Mapping[str, Any] | None = None) -> Activation:
    """Decide what activating `env` changes in `environ` (default: this process's environment)."""
    from wizard.detect.libpath import split_cuda_bin_dirs, split_cuda_dirs

    env_path = Path(os.path.abspath(os.path.expanduser(str(env))))
    environ = dict(os.environ if environ is None else environ)
    marker = dict(read_marker(env_path) if marker is None else marker)
    saved = _originals(environ)

    def base(name: str) -> str | None:
        # Start from the value before the first activation in this shell, if there was one.
        return saved[name] if name in saved else environ.get(name)

    act = Activation(env=env_path, marker=marker)
    act.notes.append(f"activates {_describe_marker(env_path, marker)}")
    env_bin = str(env_path / "bin")

    # PATH: this env's bin first; drop a previously active venv's bin; drop CUDA toolkit folders.
    path_entries = [p for p in _split_path_list(base("PATH")) if os.path.abspath(p or ".") != env_bin]
    old_venv = base("VIRTUAL_ENV")
    if old_venv and os.path.abspath(old_venv) != str(env_path):
        old_bin = os.path.join(os.path.abspath(old_venv), "bin")
        if old_bin in [os.path.abspath(p) for p in path_entries if p]:
            path_entries = [p for p in path_entries if not p or os.path.abspath(p) != old_bin]
            act.removals.append(Removal("PATH", old_bin, f"bin folder of the previously active environment {old_venv}"))
    kept_bins, removed_bins = split_cuda_bin_dirs(os.pathsep.join(path_entries)) if path_entries else ([], [])
    kept_set = set(kept_bins)
    keep_anyway = {folder for folder, _ in removed_bins if _inside(folder, env_path)}
    new_path = [env_bin] + [p for p in path_entries if p in kept_set or p in keep_anyway]
    for folder, reason in removed_bins:
        if folder not in keep_anyway:
            act.removals.append(Removal("PATH", folder, f"{reason}; XLA would run these instead of the "
                                                        "environment's own CUDA tools"))
    act.set["PATH"] = os.pathsep.join(new_path)

    # LD_LIBRARY_PATH: only the folders with CUDA/cuDNN libraries go; the env's own folders stay.
    ld_value = base("LD_LIBRARY_PATH")
    if ld_value:
        kept_libs, removed_libs = split_cuda_dirs(ld_value)
        keep_anyway = {folder for folder, _ in removed_libs if _inside(folder, env_path)}
        kept_set = set(kept_libs) | keep_anyway
        new_ld = [p for p in _split_path_list(ld_value) if p in kept_set]
        for folder, reason in removed_libs:
            if folder not in keep_anyway:
                act.removals.append(Removal("LD_LIBRARY_PATH", folder, f"{reason}, which would shadow the "
                                                                       "environment's own CUDA/cuDNN libraries"))
        if any(new_ld):
            act.set["LD_LIBRARY_PATH"] = os.pathsep.join(new_ld)
        else:
            act.unset.append("LD_LIBRARY_PATH")
    elif ld_value is not None:
        act.unset.append("LD_LIBRARY_PATH")

    # Python's own search: PYTHONHOME breaks any venv; another Python's site-packages on PYTHONPATH shadow ours.
    if base("PYTHONHOME") is not None:
        act.unset.append("PYTHONHOME")
        act.notes.append(f"unsets PYTHONHOME (was {base('PYTHONHOME')!r}): it would make {env_bin}/python "
                         "load another Python's standard library")
    py_path = base("PYTHONPATH")
    if py_path is not None:
        entries = _split_path_list(py_path)
        keep = [p for p in entries
                if not (("site-packages" in p or "dist-packages" in p) and not _inside(p, env_path))]
        for folder in entries:
            if folder not in keep:
                act.removals.append(Removal("PYTHONPATH", folder,
                                            "another Python's packages folder; it would shadow the environment's "
                                            "own jax/jaxlib"))
        if any(keep):
            act.set["PYTHONPATH"] = os.pathsep.join(keep)
        else:
            act.unset.append("PYTHONPATH")

    act.set["VIRTUAL_ENV"] = str(env_path)
    act.set[ACTIVE_VAR] = str(env_path)

    conda = environ.get("CONDA_PREFIX")
    if conda and os.path.abspath(conda) != str(env_path):
        act.notes.append(f"the conda environment {conda} stays active underneath (conda cannot be deactivated "
                         f"from here); {env_bin} now comes first on PATH and its CUDA folders were taken out above")

    # The marker is a file in the environment: whoever can write there could add PROMPT_COMMAND or
    # BASH_ENV. Only the recipe allowlist's variables are ever set (wizard.recipes.runtime_env).
    from wizard.recipes.runtime_env import allowed

    runtime, dropped = allowed(marker.get("runtime_env") or {})
    act.notes += [f"{note} (from {MARKER_NAME})" for note in dropped]
    for name, value in runtime.items():
        act.set[name] = value

    # Remember each touched variable's pre-activation value; restore the ones only a previous
    # activation touched (e.g. another recipe's runtime variables).
    touched = list(act.set) + act.unset
    for name in saved:
        if name not in touched:
            if saved[name] is None:
                if name in environ:
                    act.unset.append(name)
            else:
                act.set[name] = saved[name]  # type: ignore[assignment]
    act.original = {name: base(name) for name in dict.fromkeys(list(saved) + touched)}
    return act


# --------------------------------------------------------------------------- shell code


def _comment(text: str) -> str:
    """One `#` line; control characters (a newline in a folder name) are escaped so they cannot end it."""
    safe = "".join(ch if ch >= " " and ch != "\x7f" else f"\\x{ord(ch):02x}" for ch in text)
    return f"# {safe}"


def _assign(name: str, value: str | None) -> str:
    return f"unset {name}" if value is None else f"export {name}={shlex.quote(value)}"


def default_shell(environ: Mapping[str, str] | None = None) -> str:
    name = os.path.basename((environ if environ is not None else os.environ).get("SHELL", ""))
    return name if name in SHELLS else "bash"


def activation_script(act: Activation, shell: str = "bash") -> str:
    """Shell code (bash, zsh or POSIX sh) for `eval "$(gc-wizard activate)"`."""
    if shell not in SHELLS:
        raise UserError(f"unknown shell {shell!r}; choose one of: {', '.join(SHELLS)}.")
    lines = [_comment(f"gc-wizard: {note}") for note in act.notes]
    for removal in act.removals:
        lines.append(_comment(f"removed from {removal.variable}: {removal.folder} — {removal.reason}"))
    for name, value in act.set.items():
        lines.append(_assign(name, value))
    for name in act.unset:
        lines.append(f"unset {name}")
    lines.append(_assign(ORIGINAL_VAR, json.dumps(act.original, sort_keys=True)))

    prompt = shlex.quote(f"(gc:{act.marker.get('recipe') or act.env.name}) ")
    lines += [
        'if [ -z "${VIRTUAL_ENV_DISABLE_PROMPT-}" ]; then',
        '  if [ -z "${_GC_WIZARD_OLD_PS1+x}" ]; then _GC_WIZARD_OLD_PS1="${PS1-}"; fi',
        f'  PS1={prompt}"${{_GC_WIZARD_OLD_PS1}}"',
        "fi",
    ]
    body = [f"  {_assign(name, value)}" for name, value in act.original.items()]
    body += [
        f"  unset {ORIGINAL_VAR}",
        '  if [ -n "${_GC_WIZARD_OLD_PS1+x}" ]; then PS1="${_GC_WIZARD_OLD_PS1}"; unset _GC_WIZARD_OLD_PS1; fi',
        "  hash -r 2>/dev/null",
        "  unset -f deactivate",
    ]
    lines.append(_comment("deactivate: restores the variables above to their values before activation"))
    lines.append("deactivate () {")
    lines += body
    lines.append("}")
    lines.append("hash -r 2>/dev/null")
    lines.append("true")
    return "\n".join(lines) + "\n"
