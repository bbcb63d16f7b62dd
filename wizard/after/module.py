"""Writes an Lmod (Lua) module file for an environment: `module use DIR; module load graphcast/<recipe>`.

Why: cluster users load software with Lmod, not `eval`, and HPC centres publish module files beside
Jupyter kernels. The module gives the same environment `gc-wizard activate` does, because it is
computed by the same function (`wizard.install.activation.compute_activation`): the environment's `bin`
first on PATH, `VIRTUAL_ENV`, the recipe's runtime variables from the env marker, PYTHONHOME unset, and
the CUDA/cuDNN folders that would shadow the environment's own libraries taken off `LD_LIBRARY_PATH`
and `PATH` (`remove_path`, each with the reason as a comment). The folders are decided when the file
is written, from the writer's environment; the file also drops, at load time, any `LD_LIBRARY_PATH`
folder holding a cuDNN/CUDA runtime soname (a `module load cuda` after writing it), checked with
Lmod's own `isFile`. `family("graphcast")` keeps one GraphCast environment loaded at a time; unloading
restores what `prepend_path`/`setenv` changed (Lmod does that itself).

A `;` in `LD_LIBRARY_PATH`: ld.so splits there as at `:` (`libpath.ld_library_path_entries`), Lmod's `remove_path`
only at `:`, so a cuDNN folder after a `;` stayed loaded (known limit after pass 24: Lmod `remove_path` with `;`).
With a `;` in it at load, the file sets the loader's entries, less the same folders (those named when it was
written, a relative one, one holding a CUDA/cuDNN soname), whole with `pushenv`, which Lmod undoes on unload (a
marker variable, `GC_WIZARD_LD_SPLIT`, says at unload that it did). Every value is a Lua string literal
(`lua_string`): a `;` in one ends no statement.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from wizard import __version__, bounded
from wizard.after.next_steps import module_name_for, modules_dir, use_problem
from wizard.after.target import made_by_this_state, resolve_env
from wizard.children import PYTHON_PREFIX_VARS
from wizard.errors import UserError
from wizard.install.activation import ACTIVE_VAR, compute_activation
from wizard.install.envs import env_python, marker_problem, read_marker
from wizard.outputs import SHARED_MODE, refuse_linked_folders, refuse_swappable, write_output_file
from wizard.recipes.runtime_env import OWN_RULE_VARIABLES, loaded_from
from wizard.security import expand_home, shell_word

FAMILY = "graphcast"
#: Sonames whose presence in a folder marks it as a CUDA/cuDNN library folder at load time.
LOAD_TIME_SONAMES = ("libcudnn.so.8", "libcudnn.so.9", "libcudart.so.11.0", "libcudart.so.12", "libcudart.so.13",
                     "libcublas.so.11", "libcublas.so.12", "libcublas.so.13")
_NAME_OK = re.compile(r"^[A-Za-z0-9._+-]+$")


def default_dir() -> Path:
    return modules_dir()


def lua_string(value: str) -> str:
    """A Lua string literal; every byte that could end it or the line is escaped."""
    out = []
    for ch in value:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch < " " or ch == "\x7f":
            out.append(f"\\{ord(ch):03d}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _comment(text: str) -> str:
    return "-- " + "".join(ch if ch >= " " and ch != "\x7f" else "?" for ch in text)


def module_name(env: Path, marker: Mapping[str, Any]) -> str:
    return module_name_for(str(marker.get("recipe") or env.name))


def module_text(env: str | os.PathLike[str], *, environ: Mapping[str, str] | None = None) -> str:
    """The Lua module file for `env` (nothing written)."""
    env_path = Path(os.path.abspath(expand_home(str(env))))
    found = read_marker(env_path)
    act = compute_activation(env_path, environ, found)
    marker = found.to_dict() if found else {}
    recipe = str(marker.get("recipe") or env_path.name)
    title = str(marker.get("title") or recipe)
    verified = marker.get("verified")
    state = f"verified {str(verified)[:10]}" if verified else "NOT verified"
    lines = [
        _comment(f"{module_name(env_path, marker)}: GraphCast environment {env_path}"),
        _comment(f"written by gc-wizard {__version__} (`gc-wizard module install`); recipe {recipe}, {state}"),
        *([_comment(f"{problem}, so the recipe's runtime variables are not set")]
          if (problem := marker_problem(env_path)) else []),
        f"whatis({lua_string(f'Name: GraphCast ({recipe})')})",
        f"whatis({lua_string(f'Description: {title} ({state})')})",
        "help(" + lua_string(
            f"GraphCast environment {env_path}\nrecipe {recipe}: {title} ({state}).\n"
            "Loading puts its Python first on PATH, sets the recipe's runtime variables and takes folders "
            "with other CUDA/cuDNN libraries off LD_LIBRARY_PATH and PATH, as `gc-wizard activate` does.") + ")",
        f"family({lua_string(FAMILY)})",
        f"local env = {lua_string(str(env_path))}",
        'if mode() == "load" and not isDir(pathJoin(env, "bin")) then',
        '  LmodError("the GraphCast environment " .. env .. " no longer exists; run gc-wizard rollback or '
        'gc-wizard install, then gc-wizard module install again")',
        "end",
        "",
        _comment("CUDA/cuDNN folders that would shadow the environment's own libraries (as gc-wizard activate):"),
    ]
    for removal in act.removals:
        if removal.variable in ("LD_LIBRARY_PATH", "PATH") and removal.folder != str(env_path / "bin"):
            lines.append(_comment(f"{removal.folder}: {removal.reason}"))
            lines.append(f"remove_path({lua_string(removal.variable)}, {lua_string(removal.folder)})")
    sonames = ", ".join(lua_string(s) for s in LOAD_TIME_SONAMES)
    drop = ", ".join(f"[{lua_string(r.folder)}] = true" for r in act.removals
                     if r.variable == "LD_LIBRARY_PATH" and os.path.isabs(r.folder))
    lines += [
        _comment("and any such folder that is on LD_LIBRARY_PATH now (e.g. a CUDA module loaded later):"),
        f"local sonames = {{{sonames}}}",
        'if mode() == "load" then',
        '  for dir in string.gmatch(os.getenv("LD_LIBRARY_PATH") or "", "[^:;]+") do',
        "    for _, so in ipairs(sonames) do",
        "      if isFile(pathJoin(dir, so)) then",
        '        remove_path("LD_LIBRARY_PATH", dir)',
        "        break",
        "      end",
        "    end",
        "  end",
        "end",
        _comment("ld.so splits LD_LIBRARY_PATH at ';' as at ':', Lmod's remove_path at ':' only: with a ';' in it,"),
        _comment("the loader's entries less the folders above are set whole, and unloading puts the value back:"),
        'local ld = os.getenv("LD_LIBRARY_PATH") or ""',
        'if (mode() == "load" and string.find(ld, ";", 1, true)) or '
        '(mode() == "unload" and os.getenv("GC_WIZARD_LD_SPLIT")) then',
        f"  local drop = {{{drop}}}",
        "  local kept = {}",
        '  for dir in string.gmatch(ld, "[^:;]+") do',
        '    local gone = drop[dir] or string.sub(dir, 1, 1) ~= "/"',
        "    for _, so in ipairs(sonames) do",
        "      gone = gone or isFile(pathJoin(dir, so))",
        "    end",
        "    if not gone then kept[#kept + 1] = dir end",
        "  end",
        '  pushenv("LD_LIBRARY_PATH", #kept > 0 and table.concat(kept, ":") or false)',
        '  setenv("GC_WIZARD_LD_SPLIT", ld)',
        "end",
        "",
        'prepend_path("PATH", pathJoin(env, "bin"))',
        'setenv("VIRTUAL_ENV", env)',
        f'setenv({lua_string(ACTIVE_VAR)}, env)',
    ]
    for name in PYTHON_PREFIX_VARS:  # the one table (29th hostile pass (part B) P2: PYTHONPLATLIBDIR was kept)
        if name in act.unset:
            lines.append(f"unsetenv({lua_string(name)})")
    # A library, plugin or place another user could swap, named by a variable of the writer's shell (the one rule,
    # `runtime_env.loaded_from`; 36th hostile pass (part B) P1): unset as `activate` unsets it, with its reason.
    for removal in act.removals:
        if removal.variable in act.unset and removal.variable not in OWN_RULE_VARIABLES \
                and loaded_from(removal.variable, removal.folder) is not None:
            lines.append(_comment(f"{removal.variable}: {removal.folder}: {removal.reason}"))
            lines.append(f"unsetenv({lua_string(removal.variable)})")
    runtime = marker.get("runtime_env") or {}
    if isinstance(runtime, Mapping) and runtime:
        lines.append(_comment("the recipe's runtime variables"))
        for name in runtime:
            name = str(name)
            if name in act.set and name not in ("PATH", "LD_LIBRARY_PATH", "VIRTUAL_ENV", ACTIVE_VAR):
                lines.append(f"setenv({lua_string(name)}, {lua_string(act.set[name])})")
    return "\n".join(lines) + "\n"


#: The module file's own first lines, as `module_text` writes them.
_MODULE_ENV = re.compile(r'^local env = "((?:[^"\\]|\\.)*)"$', re.MULTILINE)
_MODULE_OURS = "-- written by gc-wizard "


def module_env(target: Path) -> str | None:
    """The env a module file the wizard wrote loads; None when there is none or someone else wrote it."""
    try:
        text = bounded.read_text(target, 1024 * 1024)
    except (OSError, ValueError, bounded.ParseLimitError):
        return None
    found = _MODULE_ENV.search(text)
    if _MODULE_OURS not in text or found is None:
        return None
    return re.sub(r"\\(.)", r"\1", found.group(1))


def _refuse_others_module(target: Path, env_path: Path) -> None:
    """The module file's name is what users type (`module load graphcast/RECIPE`), so it cannot step aside as a
    kernel does: one written by hand, or by another state folder for an environment that is still there, is left
    as it is, and the way round is another --dir (walk 18's class: `k` overwrote another state folder's kernel)."""
    if target.is_symlink() or not target.exists():
        return  # a link is refused by name where the file is written (`write_output_file`)
    old = module_env(target)
    if old is None:
        raise UserError(f"{target} exists already and gc-wizard did not write it; it was left as it is. Write this "
                        "one to another folder with --dir DIR (then `module use DIR`).")
    if old != str(env_path) and env_python(old).exists() and not made_by_this_state(old):
        raise UserError(f"{target} loads {old}, an environment another state folder made; it was left as it is. "
                        "Write this one to another folder with --dir DIR (then `module use DIR`).")


def module_install(env: str | os.PathLike[str] | None = None, folder: str | os.PathLike[str] | None = None, *,
                   environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Write `<folder>/graphcast/<recipe>.lua` for `env` (default: the current environment)."""
    env_path = resolve_env(env).path
    found = read_marker(env_path)
    marker = found.to_dict() if found else {}
    name = module_name(env_path, marker)
    root = Path(os.path.abspath(expand_home(str(folder)))) if folder else default_dir()
    listed = use_problem(root)  # `module use DIR` puts it on MODULEPATH, a ':'-separated list (35th pass A P1)
    if listed:
        raise UserError(f"{'--dir' if folder else 'The module folder'} {listed}"
                        f"{'' if folder else ' (write the module elsewhere with --dir DIR)'}. Nothing was written.")
    if root.exists() and not root.is_dir():
        raise UserError(f"--dir {root} is a file, not a folder.")
    target = root / f"{name}.lua"
    refuse_linked_folders(root, target, "the module file")
    refuse_swappable("--dir" if folder else "the module file", target, "`module load` would run",
                     "choose a --dir only you can write (e.g. under your home)")
    _refuse_others_module(target, env_path)
    text = module_text(env_path, environ=environ)
    replaced = target.exists() or target.is_symlink()
    # The one rule for a file the user will use (wizard.outputs): a device is written into, a link is refused
    # (never written through: its target may be anyone's), a failure is one sentence and exit 1. An env path with a byte
    # that is not UTF-8 is written as that byte, which is what Lmod must be given to find the folder.
    write_output_file(target, text, what="the module file", mode=SHARED_MODE)
    return {"ok": True, "module": name, "path": str(target), "dir": str(root), "env": str(env_path),
            "replaced": replaced, "verified": marker.get("verified"),
            "use": f"module use {shell_word(str(root))}; module load {name}"}
