"""Provides Jupyter kernel registration for a verified environment.

Most users run GraphCast in a notebook, not a shell, so an environment is only usable once
Jupyter can start its Python with the same clean variables `gc-wizard activate` gives a shell. A
kernelspec is a small JSON file; we write it directly (`jupyter kernelspec install` would need
Jupyter in the wizard's own environment, which it does not have to have):

- `argv` runs the environment's own `bin/python -m ipykernel_launcher -f {connection_file}`;
- `env` carries the recipe's runtime variables and the cleaned `LD_LIBRARY_PATH`/`PATH` from
  `wizard.install.activation.compute_activation` — the Jupyter server's stale CUDA folders never reach the kernel;
- `display_name` says what was verified: "GraphCast · JAX 0.4.23 · CUDA 12 (verified 2026-11-21)".

The spec goes to the user's data folder (`$JUPYTER_DATA_DIR`, else `$XDG_DATA_HOME/jupyter`, else
`~/.local/share/jupyter`, as jupyter_core resolves it), under `kernels/<name>/kernel.json`.

Every spec the wizard writes carries `metadata.gc_wizard` (the environment it runs). That mark is how
`kernel remove` tells the wizard's kernels from the user's own: it removes only marked ones, and
`kernel install` never overwrites an unmarked spec of the same name.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from wizard import bounded
from wizard.after.target import made_by_this_state
from wizard.children import python_child_env, run_capture, which
from wizard.errors import OperationFailed, UserError
from wizard.install.activation import compute_activation
from wizard.install.add_package import add_package_command
from wizard.install.envs import EnvMarker, env_python, read_marker
from wizard.outputs import SHARED_MODE, refuse_linked_folders, refuse_swappable, write_output_file
from wizard.paths import guard_env_python, home_folder, runnable
from wizard.security import expand_home, json_text, shell_word, strip_terminal_escapes
from wizard.verify.shadow import probe_shadow, shadow_caution

#: jupyter_client's rule for kernel names, and at most 100 of them: the name is a folder's (300 was "the path is
#: too long", exit 1, where a bad name is exit 2; tenth hostile pass K4).
_NAME_OK = re.compile(r"^[a-z0-9._-]{1,100}$", re.IGNORECASE)


def jupyter_data_dir(environ: Mapping[str, str] | None = None) -> Path:
    environ = os.environ if environ is None else environ
    explicit = environ.get("JUPYTER_DATA_DIR")
    if explicit:
        return Path(expand_home(explicit))
    xdg = environ.get("XDG_DATA_HOME") or str(
        home_folder("Jupyter's kernel folder", "JUPYTER_DATA_DIR=DIR", environ) / ".local" / "share")
    return Path(expand_home(xdg)) / "jupyter"


def default_kernel_name(env: Path, marker: EnvMarker | None) -> str:
    base = str((marker.recipe if marker else None) or env.name)
    name = re.sub(r"[^a-z0-9._-]+", "-", f"gc-wizard-{base}".lower()).strip("-.")
    return name or "gc-wizard"


#: The demo notebooks each GraphCast version ships: the ones a kernel of that version serves.
NOTEBOOKS = {"0.1.1": ("graphcast_demo.ipynb",), "0.2": ("graphcast_demo.ipynb", "gencast_mini_demo.ipynb")}


def _graphcast_version(marker: EnvMarker | None) -> str:
    """The GraphCast version the install recorded in the marker ("" when it did not)."""
    return str((marker.extra or {}).get("graphcast_version") or "") if marker else ""


def served_notebooks(marker: EnvMarker | None) -> tuple[str, ...]:
    return NOTEBOOKS.get(_graphcast_version(marker), ())


def notebook_cautions(marker: EnvMarker | None, unreachable: str | None | bool = False) -> list[str]:
    """What to skip in the demo notebook in this environment, and why (one wording for every face). `unreachable`:
    the notebook's bucket host when it does not answer here, None when it answers (`bucket_unreachable`), False
    when that was not asked. walk 23 #6: "where storage.googleapis.com cannot be reached" was a
    condition though the wizard can tell; asked, it is said as a fact."""
    version = _graphcast_version(marker)
    if not version:
        return []
    lines = [f"In the notebook, skip its first cell (`%pip install --upgrade …/graphcast/archive/master.zip`): it "
             f"would replace the verified GraphCast v{version} with GitHub's main branch (now WeatherNext) and "
             "break this stack.",
             "Skip the `!pip uninstall -y shapely` / `!pip install shapely --no-binary shapely` cells too: they "
             "rebuild shapely from source (GEOS headers needed); the pinned shapely wheel works."]
    if isinstance(unreachable, str):
        lines.append(runnable(f"{unreachable} does not answer from here, so the notebook's cells that read its "
                              "weights, example data and statistics from Google Cloud Storage (gcs_bucket) fail here; "
                              "`gc-wizard forecast --assets DIR` runs the same forecast from a local copy laid out "
                              "like the bucket."))
    elif unreachable is None:
        lines.append("The notebook reads its weights, example data and statistics from Google Cloud Storage "
                     "(gcs_bucket), which answers from here.")
    else:
        lines.append(runnable("The notebook reads its weights, example data and statistics from Google Cloud "
                              "Storage (gcs_bucket); where storage.googleapis.com cannot be reached, `gc-wizard "
                              "forecast --assets DIR` runs the same forecast from a local copy laid out like the "
                              "bucket."))
    if not (marker.extra or {}).get("notebook"):
        lines.append("This environment lacks the notebook's own imports (google-cloud-storage, ipywidgets): "
                     "install the recipe with --with-notebook (n on the Plan screen) for an environment the "
                     "imports cell runs in.")
    return lines


def display_name(env: Path, marker: EnvMarker | Mapping[str, Any] | None) -> str:
    """"GraphCast · JAX 0.4.23 · CUDA 12 (verified 2026-11-21)" from the env marker."""
    if isinstance(marker, Mapping):
        marker = EnvMarker.from_dict(dict(marker)) if marker else None
    # The marker is a file anyone with write access to the env could edit; Jupyter shows this name.
    title = strip_terminal_escapes(str((marker.title or marker.recipe if marker else None) or env.name)).strip()
    notebooks = served_notebooks(marker)
    version = _graphcast_version(marker)
    if notebooks and not title.lower().startswith("graphcast"):
        title = f"GraphCast v{version} ({', '.join(notebooks)}) · {title}"
    elif not title.lower().startswith("graphcast"):
        title = f"GraphCast · {title}"
    # A title's own trailing "(GPU)" joins the verified date: "… cuDNN 8.9 (GPU, verified 2026-11-21)".
    tail = re.search(r"\s*\(([^()]*)\)$", title)
    extra = []
    if tail:
        title, extra = title[: tail.start()], [tail.group(1).strip()]
    verified = marker.verified if marker else None
    if verified:
        extra.append(f"verified {str(verified)[:10]}")
    elif marker:
        extra.append("not verified")
    return f"{title} ({', '.join(extra)})" if extra else title


def has_ipykernel(env: Path, timeout: float = 60.0) -> bool:
    """Whether the environment's own Python can find ipykernel (asked of that Python, not ours)."""
    code = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('ipykernel') else 3)"
    guard_env_python(env)  # run here: the rule of every run of an env's python (24th hostile pass (part B) P7)
    try:
        proc = run_capture([str(env_python(env)), "-c", code], stoppable=False, timeout=timeout,
                           env=python_child_env())  # the probe's environment (28th hostile pass (part B) P2)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0


def build_kernelspec(env: str | os.PathLike[str], *, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The kernel.json contents for `env` (no files written)."""
    env_path = Path(os.path.abspath(expand_home(str(env))))
    marker = read_marker(env_path)
    act = compute_activation(env_path, environ, marker)
    return {
        "argv": [str(env_python(env_path)), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": display_name(env_path, marker),
        "language": "python",
        "env": act.kernel_env(),
        "metadata": {
            "debugger": True,
            "gc_wizard": {
                "env": str(env_path),
                "recipe": marker.recipe if marker else None,
                "verified": marker.verified if marker else None,
                "removed": [{"variable": r.variable, "folder": r.folder, "reason": r.reason} for r in act.removals],
                # What activation left out and why (a runtime variable the allowlist refused): said, not dropped
                # in silence, so a user who set it in the recipe learns the kernel runs without it.
                "notes": list(act.left_out),
            },
        },
    }


def kernel_install(env: str | os.PathLike[str], name: str | None = None, *,
                   environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Register `env` as a user-level Jupyter kernel; returns what was written.

    Returns `{"ok", "name", "display_name", "path", "env", "replaced", "removed", "notes", "notebooks",
    "cautions"}`. UserError when
    the name is not a valid kernel name or the env has no ipykernel; OperationFailed when the spec
    cannot be written.
    """
    env_path = Path(os.path.abspath(expand_home(str(env))))
    if not env_python(env_path).exists():
        raise UserError(f"{env_path} is not a Python environment (it has no bin/python).")
    marker = read_marker(env_path)
    kernel_name, said = _kernel_name(env_path, marker, name, environ)
    if not _NAME_OK.match(kernel_name) or set(kernel_name) <= {"."}:  # `..` would name the folder above kernels/
        raise UserError(f"kernel name {kernel_name!r} is not allowed; use only letters, digits, '.', '_' and '-' (not dots alone), at most 100.")
    folder = jupyter_data_dir(environ) / "kernels" / kernel_name.lower()
    refuse_linked_folders(jupyter_data_dir(environ), folder, "the Jupyter kernel folder")
    if folder.is_symlink():
        # gc-wizard lists and removes only plain kernel folders (`gc_wizard_kernels`): a spec written through a
        # link would land in the folder it points at, and `kernel remove` could never take it back.
        raise UserError(f"the Jupyter kernel folder {folder} is a symbolic link (to {os.readlink(folder)}); gc-wizard "
                        "writes its kernels only into plain folders. Remove the link or choose another name with --name.")
    refuse_swappable("the Jupyter kernel spec", folder / "kernel.json", "Jupyter would start for a notebook",
                     "set JUPYTER_DATA_DIR to a folder only you can write (the default is under your home)")
    if not has_ipykernel(env_path):
        raise UserError(
            f"{env_path} has no ipykernel, so Jupyter cannot start it; install it there with "
            f"`{add_package_command(env_path, 'ipykernel')}` (the built-in recipes include it), then run "
            + runnable("`gc-wizard kernel install` again.")
        )
    spec = build_kernelspec(env_path, environ=environ)
    target = folder / "kernel.json"
    replaced = target.exists()
    if replaced and _written_by_us(target) is None:
        raise UserError(f"a Jupyter kernel named {kernel_name.lower()!r} exists already ({target}) and gc-wizard did "
                        "not write it; choose another name with --name.")
    # The one rule for a file the user will use (wizard.outputs): atomic, no temp file left on a full disk,
    # a link refused (never written through), a failure one sentence and exit 1.
    # A path's byte that is not UTF-8 as JSON's `\udcff` (security.json_text): jupyter_client reads kernel.json
    # as UTF-8, and gives the kernel that byte back.
    write_output_file(target, json_text(spec, indent=1) + "\n", what="the kernel spec",
                      mode=SHARED_MODE)
    return {
        "ok": True,
        "name": kernel_name.lower(),
        "display_name": spec["display_name"],
        "path": str(target),
        "env": str(env_path),
        "replaced": replaced,
        "removed": spec["metadata"]["gc_wizard"]["removed"],
        "notes": spec["metadata"]["gc_wizard"]["notes"],
        "notebooks": list(served_notebooks(marker)),
        "notebook_paths": [str(p) for p in notebook_paths(env_path, marker)],
        "jupyter_server": jupyter_server_here(env_path, environ),
        "frozen": frozen_words(spec["env"]),
        "cautions": [*said, *shadow_cautions(env_path, spec["env"], environ), *jupyter_cautions(env_path, marker, environ),
                     *notebook_cautions(marker, bucket_unreachable() if served_notebooks(marker) else False)],
    }


def frozen_words(kernel_env: Mapping[str, str]) -> str:
    """What kernel.json keeps as it is now, and how to refresh it: both faces say it after registering (walk 25 #8:
    the spec stored the walker's PATH and PYTHONPATH, and nothing said a later `.bashrc` change would not reach the
    kernel)."""
    kept = [name for name in ("PATH", "PYTHONPATH", "LD_LIBRARY_PATH") if name in kernel_env]
    names = ", ".join(kept[:-1]) + (" and " if len(kept) > 1 else "") + kept[-1] if kept else "the search paths"
    return runnable(f"kernel.json keeps {names} as they are now: a later change in your shell's start-up files does "
                    "not reach the kernel; run `gc-wizard kernel install` again to refresh it.")


def kernel_list(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """`kernel list`: the kernels gc-wizard wrote, with whether the environment each runs is still there (walk 25
    #8: `kernel list` was "not one of install, remove", so a lab member could not see what was registered).
    Returns `{"ok", "dir", "kernels": [{"name", "path", "env", "recipe", "env_exists"}]}`; anyone else's kernels are
    not listed (`jupyter kernelspec list` lists every one)."""
    kernels = [{**k, "env_exists": bool(k.get("env")) and Path(str(k["env"])).is_dir()}
               for k in gc_wizard_kernels(environ)]
    return {"ok": True, "dir": str(jupyter_data_dir(environ) / "kernels"), "kernels": kernels}


def shadow_cautions(env_path: Path, kernel_env: Mapping[str, str], environ: Mapping[str, str] | None = None) -> list[str]:
    """What puts a copy of jax or GraphCast first in every notebook of this kernel, in verify's words: the kernel's
    variables leave PYTHONPATH's folders out, but a .pth file, a sitecustomize.py or the user site act at every start
    of the environment's Python (22nd hostile pass P6: `kernel install` said nothing)."""
    base = dict(os.environ if environ is None else environ)
    caution = shadow_caution(probe_shadow([], env_path, {**base, **kernel_env}))
    return [caution] if caution else []


def jupyter_cautions(env_path: Path, marker: EnvMarker | None,
                     environ: Mapping[str, str] | None = None) -> list[str]:
    """Where the kernel can be used from, when this machine has no Jupyter: the kernel is written for a Jupyter
    server that reads this home folder (a JupyterHub, one started on another node), and the notebook file is in
    GraphCast's own repository. Why: "restart Jupyter if it is not listed" read as if Jupyter were here, on a server
    with no `jupyter` anywhere (walk 22 #3)."""
    if jupyter_server_here(env_path, environ):
        return []
    found = notebook_paths(env_path, marker)
    notebooks = " or ".join(str(f) for f in found) or " or ".join(served_notebooks(marker)) or "the demo notebook"
    where = ("" if found else " (at the top of GraphCast's repository: your local copy, or "
             "github.com/google-deepmind/graphcast)")
    # Walk 27 #10: the demo notebook in a lab admin's read-only checkout cannot be saved where it is: copy it first.
    fixed = [f for f in found if not os.access(f.parent, os.W_OK)]
    copy = (f" Its folder is read-only to you, so copy it into your home first (`cp {shell_word(str(fixed[0]))} ~/`) "
            "and open the copy." if fixed else "")
    return [f"No Jupyter server was found on this machine (no {', '.join(JUPYTER_SERVERS[:2])} or "
            f"{JUPYTER_SERVERS[2]} on PATH or in the environment; its `jupyter` command alone serves no notebook): "
            f"open {notebooks}{where} from a Jupyter server that reads this home folder, such as the cluster's "
            f"JupyterHub, and pick the kernel there.{copy}"]


#: The programs that serve notebooks. Not `jupyter` alone: jupyter_core, which every environment with ipykernel
#: has, installs it, and it silenced the words above in exactly such an environment (walk 23 #6).
JUPYTER_SERVERS = ("jupyter-lab", "jupyter-notebook", "jupyter-server", "jupyterhub-singleuser", "jupyter-nbclassic")


def jupyter_server_here(env_path: Path, environ: Mapping[str, str] | None = None) -> bool:
    """Whether a program that serves notebooks is on PATH or in the environment."""
    path = (os.environ if environ is None else environ).get("PATH", "")
    return any(which(name, path) or (env_path / "bin" / name).exists() for name in JUPYTER_SERVERS)


def notebook_paths(env_path: Path, marker: EnvMarker | None) -> list[Path]:
    """The demo notebooks in the local GraphCast checkout the environment was installed from (history's
    `graphcast_given`), the files that exist; [] when it came from GitHub or the checkout is gone. Walk 23
    #6: `"notebooks": ["graphcast_demo.ipynb"]` gave no path, and the checkout was right there."""
    entry_id = (marker.extra or {}).get("entry_id") if marker is not None else None
    try:
        from wizard.history.store import load_history  # deferred: only where the kernel's words are made

        history = load_history()
        entry = history.get(str(entry_id)) if entry_id else None
        entry = entry or next((e for e in reversed(history.entries) if e.env == str(env_path)), None)
    except Exception:  # the words are a help; a history that cannot be read names no path
        return []
    given = getattr(entry, "graphcast_given", None) if entry is not None else None
    if not given or "://" in str(given):
        return []
    folder = Path(str(given))
    return [folder / name for name in served_notebooks(marker) if (folder / name).is_file()]


def bucket_unreachable() -> str | None:
    """The notebook's bucket host (storage.googleapis.com) when it does not answer here, else None: one HEAD
    request of a few seconds at most (`assets_reach`). Asked of the public bucket itself, whatever GC_WIZARD_ASSETS
    says: the notebook reads only that."""
    from wizard.after.assets import BUCKET_URL  # deferred: only where the kernel's words are made
    from wizard.after.assets_reach import unreachable_host

    return unreachable_host(BUCKET_URL)


def _kernel_name(env_path: Path, marker: EnvMarker | None, name: str | None,
                 environ: Mapping[str, str] | None) -> tuple[str, list[str]]:
    """The kernel's name, and what to say about the kernel that had it.

    The default name is per recipe, so two state folders (home and scratch) share it: a default-named kernel the
    wizard wrote for a live environment of another state folder is left as it is, and this one gets the next free
    `NAME-2`… (walk 18: `k` overwrote it in silence, right after the install had said it was left alone). A name
    given with --name replaces such a kernel, as asked, and says which environment it ran."""
    chosen = name or default_kernel_name(env_path, marker)
    kernels = jupyter_data_dir(environ) / "kernels"

    def runs(candidate: str) -> str | None:
        """The environment the kernel the wizard wrote under `candidate` runs (None: no such kernel of ours)."""
        mark = _written_by_us(kernels / candidate.lower() / "kernel.json")
        found = mark.get("env") if mark is not None else None
        return found if isinstance(found, str) else None

    other = runs(chosen)
    if other is None or other == str(env_path):
        return chosen, []
    replacing = [f"The Jupyter kernel {chosen.lower()} ran {other} before; it now runs {env_path}."]
    if name is not None or not env_python(other).exists() or made_by_this_state(other):
        return chosen, replacing
    for number in range(2, 100):
        candidate = f"{chosen}-{number}"
        taken = runs(candidate)
        if taken == str(env_path) or (taken is None and not (kernels / candidate.lower()).exists()):
            return candidate, [f"The Jupyter kernel {chosen.lower()} runs {other}, an environment another state "
                               f"folder made; it was left as it is, and this one is registered as "
                               f"{candidate.lower()}."]
    return chosen, replacing


def _written_by_us(spec_file: Path) -> dict[str, Any] | None:
    """The spec's `metadata.gc_wizard` when gc-wizard wrote it; None for anyone else's (or an unreadable one)."""
    try:
        data = bounded.read_json(spec_file, 1024 * 1024, lenient=True)
    except (OSError, ValueError, bounded.ParseLimitError):
        return None
    mark = (data.get("metadata") or {}).get("gc_wizard") if isinstance(data, dict) else None
    return mark if isinstance(mark, dict) else None


def gc_wizard_kernels(environ: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """The user-level kernels gc-wizard wrote: [{"name", "path", "env", "recipe"}], by name."""
    kernels = jupyter_data_dir(environ) / "kernels"
    out = []
    try:
        folders = sorted(p for p in kernels.iterdir() if p.is_dir() and not p.is_symlink())
    except OSError:
        return []
    for folder in folders:
        mark = _written_by_us(folder / "kernel.json")
        if mark is not None:
            out.append({"name": folder.name, "path": str(folder / "kernel.json"), "env": mark.get("env"),
                        "recipe": mark.get("recipe")})
    return out


def kernel_question() -> str:
    """What the app asks before k writes a kernel: where it goes, outside the state folder, and how it is taken away
    (walk 22 #10: k wrote into Jupyter's folder without a word, where a GC_WIZARD_HOME was meant to keep it all)."""
    return runnable(f"Register this environment as a Jupyter kernel? Its kernel.json goes into "
                    f"{jupyter_data_dir() / 'kernels'}/, Jupyter's own folder, outside gc-wizard's state folder; "
                    "`gc-wizard kernel remove` takes it away.")


def kernel_lines(env: str | os.PathLike[str] | None) -> list[str]:
    """The kernels gc-wizard wrote that run `env`, one sentence each, for the lines left after quitting and the
    support report: they live outside the state folder, so they are named where the rest is summed up."""
    if not env:
        return []
    wanted = os.path.abspath(str(env))
    return [runnable(f"Jupyter kernel {k['name']} runs it: {k['path']} (outside the state folder; `gc-wizard kernel "
                     "remove` takes it away).") for k in gc_wizard_kernels() if k.get("env") and os.path.abspath(k["env"]) == wanted]


def kernel_remove(env: str | os.PathLike[str] | None = None, name: str | None = None, *,
                  environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Remove the kernels gc-wizard wrote: the one called `name`, or every one that runs `env`.

    Returns `{"ok", "removed": [{"name", "path", "env", "recipe"}], "dir"}` (an empty list when `env` has
    none). UserError for a `name` that is not there or that gc-wizard did not write (it is never
    touched). Only the `kernel.json` the wizard wrote is deleted, and its folder once empty: a file the
    user put beside it (a logo) stays.
    """
    kernels = jupyter_data_dir(environ) / "kernels"
    ours = gc_wizard_kernels(environ)
    if name is not None:
        if not _NAME_OK.match(name):
            raise UserError(f"kernel name {name!r} is not allowed; use only letters, digits, '.', '_' and '-'.")
        spec_file = kernels / name.lower() / "kernel.json"
        chosen = [k for k in ours if k["name"] == name.lower()]
        if not chosen:
            if spec_file.exists():
                raise UserError(f"the Jupyter kernel {name.lower()!r} ({spec_file}) was not written by gc-wizard, "
                                "so it is left alone (`jupyter kernelspec remove` removes any kernel).")
            raise UserError(f"there is no Jupyter kernel named {name.lower()!r} in {kernels}"
                            + (f"; gc-wizard's are: {', '.join(k['name'] for k in ours)}." if ours else "."))
        if env is not None and chosen[0]["env"] != str(env):
            raise UserError(f"the Jupyter kernel {name.lower()!r} runs {chosen[0]['env']}, not {env}.")
    else:
        chosen = [k for k in ours if k["env"] == str(env)]
    removed = []
    for kernel in chosen:
        spec_file = Path(kernel["path"])
        try:
            spec_file.unlink(missing_ok=True)
            try:
                spec_file.parent.rmdir()
            except OSError:  # not empty: the user keeps what they put there
                pass
        except OSError as exc:
            raise OperationFailed(f"cannot remove the kernel spec {spec_file}: {exc.strerror or exc}.") from None
        removed.append(kernel)
    return {"ok": True, "removed": removed, "dir": str(kernels)}
