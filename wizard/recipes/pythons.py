"""Finds a Python interpreter a recipe accepts, for the new environment.

Why: GraphCast and the jax 0.4.23 stacks want Python 3.10–3.11, while the wizard itself may run on
whatever the server has. So the environment's interpreter is chosen separately, in this order:

1. the wizard's own interpreter, if it fits (no extra process, and it is known to work);
2. another interpreter on `PATH` (`python3.11`, `python3.10`, `python3`, pyenv shims) or in
   `$PYENV_ROOT/versions/*/bin` — the newest that fits wins;
3. one `uv` knows about (`uv python find`, which includes uv-managed installs);
4. with `allow_download=True` only: a request that `uv venv --python` turns into a download;
5. otherwise a `UserError` that lists the versions found and the range the recipe needs.

Every candidate is asked for its version by running it (a pyenv shim for a version that is not
selected exits 127, and a name says nothing reliable), with a short timeout and no shell.
"""

from __future__ import annotations

import json
import os
import platform
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from wizard.bounded import ParseLimitError, read_regular_head
from wizard.children import (
    PROBE_FLAGS,
    SKIPPED_PROGRAMS,
    OutputLimitError,
    python_child_env,
    run_capture,
    stop_all,
)
from wizard.errors import OperationFailed, UserError
from wizard.installer_files import with_absolute_paths
from wizard.option_values import refuse_option_like
from wizard.paths import process_relative
from wizard.recipes.loader import Recipe
from wizard.security import expand_home, known_home
from wizard.source_trust import (
    StartFileNotRegular,
    python_home_risk,
    refuse_start_path,
    refuse_swappable_python,
    start_path_risk,
    swap_risk,
)
from wizard.uv_tool import uv_bin

_NAME_RE = re.compile(r"^python3(\.[0-9]+)?$")
_PROBE = (
    "import sys, importlib.util as u\n"
    "print(sys.version.split()[0])\n"
    "print(int(u.find_spec('venv') is not None and u.find_spec('ensurepip') is not None))\n"
    # where it starts from, before site (-S): held to the swap rule here (29th hostile pass (part B) P6)
    "import json\n"
    "print(json.dumps([sys.prefix, sys.exec_prefix, getattr(sys, '_stdlib_dir', None) or '', *sys.path]))\n"
    # the interpreter file that answered: a script (a wrapper, a shim) runs another (`PythonChoice.script_runs`)
    "print(sys.executable)\n"
)
#: The newest CPython minor a download request may name.
NEWEST_MINOR = 14
SOURCES = ("wizard", "path", "pyenv", "uv", "uv-download", "env", "given")


@dataclass(frozen=True)
class PythonChoice:
    executable: str
    """An absolute path — or, for source "uv-download", the request handed to `uv venv --python`."""
    version: str
    source: str
    """One of SOURCES: where the interpreter was found."""
    has_venv: bool = True
    """Whether `python -m venv` works with it (Debian splits venv/ensurepip into python3.X-venv)."""
    script_runs: str = ""
    """When `executable` is a script (a site's wrapper, a pyenv shim): the interpreter file it ran, by its own
    `sys.executable`, held to the same swap rule; else "". The step that makes the environment is handed this file
    (`creates_from`): the new environment is made from the real interpreter whichever is named, and a process the
    script left behind holding its output had uv's `venv --python SCRIPT` wait for that output to close, silently,
    until the 30-minute inactivity limit (37th hostile pass (part A) P3; the wizard's own probe does not wait)."""

    @property
    def creates_from(self) -> str:
        """The interpreter the environment is made from: the file a script runs, else the one named."""
        return self.script_runs or self.executable

    def to_dict(self) -> dict[str, object]:
        return {"executable": self.executable, "version": self.version, "source": self.source,
                "has_venv": self.has_venv}

    def describe(self) -> str:
        where = {"wizard": "the wizard's own", "path": "found on PATH", "pyenv": "a pyenv install",
                 "uv": "found by uv", "uv-download": "to be downloaded by uv",
                 "env": "the environment's own", "given": "given with --python"}.get(self.source, self.source)
        return f"Python {self.version} ({self.executable}; {where})"


def fits(spec: str, version: str) -> bool:
    try:
        return SpecifierSet(spec).contains(Version(version), prereleases=True)
    except InvalidVersion:
        return False


def _clean_env() -> dict[str, str]:
    # `uv python find` runs in the home folder: a relative UV_PYTHON_INSTALL_DIR or UV_CONFIG_FILE means the user's
    # folder there too (24th hostile pass (part A) P7; `with_absolute_paths`).
    # The one environment of an interpreter probe (`children.python_child_env`: no PYTHONUSERBASE either, 28th
    # hostile pass (part B) P2).
    return with_absolute_paths(python_child_env())


def probe_python(executable: str, source: str, *, timeout: float = 10.0,
                 proc_checked: bool = False) -> PythonChoice | None:
    """Run the interpreter to learn its version; None when it does not run or answer sensibly, or when its path
    means another file to each process that opens it (`paths.process_relative`: a PATH folder under /proc/self):
    the steps that are handed it would run another program than the one asked.
    `proc_checked`: the caller has already refused such a path (`refuse_process_relative`, a --python PATH), so the
    links on its way are not walked a second time for the same value."""
    if not proc_checked and "/" in executable and process_relative(executable):
        if source == "given":
            refuse_process_relative(f"--python {executable}", executable)
        return None
    try:
        proc = run_capture([executable, *PROBE_FLAGS, "-c", _PROBE], timeout=timeout, env=_clean_env(),
                           stdin=subprocess.DEVNULL)
    except OutputLimitError as error:  # stopped for printing without end: a --python is told why
        if source == "given":
            raise UserError(f"--python {executable}: {error}.") from None
        return None
    except (OSError, subprocess.SubprocessError):
        return None
    lines = proc.stdout.splitlines()
    if proc.returncode != 0 or len(lines) < 2 or not re.match(r"^[0-9]+\.[0-9]+", lines[0]):
        return None
    # Its own word on where it starts from (sys.prefix, sys.path before site), held to the one rule before anything
    # runs it with its site on (uv's query, the env made from it): a layout the file check (`python_home_risk`) did
    # not predict — a build tree's `Lib`, a `._pth` file — is covered too. A --python is refused in the rule's
    # sentence; a found one is passed over (29th hostile pass (part B) P6).
    # (A stand-in that prints only the two first lines — a wrapper script — says nothing more: the file check stands.)
    try:
        folders = [str(folder) for folder in json.loads(lines[2])] if len(lines) > 2 else []
    except (ValueError, TypeError, RecursionError):
        return None
    if source == "given":
        refuse_start_path(f"--python {executable}", executable, folders, "the interpreter",
                          way_out="give an interpreter only you can change")
    elif start_path_risk(folders) is not None:
        return None
    return PythonChoice(executable=executable, version=lines[0].strip(), source=source,
                        has_venv=lines[1].strip() == "1", script_runs=_script_runs(executable, lines[3:4]))


def _script_runs(executable: str, answer: list[str]) -> str:
    """The interpreter file a script `executable` ran (the probe's `sys.executable` line in `answer`), when it is an
    absolute, regular, executable file through no proc folder that no other user could swap; else "" (a binary, a
    stand-in that does not say, or a file the rules would not run: the script stays what is run)."""
    if not answer or "/" not in executable:
        return ""
    try:
        if read_regular_head(executable, 2) != b"#!":
            return ""
    except (OSError, ParseLimitError):
        return ""
    runs = answer[0].strip()
    if (not os.path.isabs(runs) or runs == executable or not os.path.isfile(runs) or not os.access(runs, os.X_OK)
            or process_relative(runs) is not None or _swap_risk(runs) is not None):
        return ""
    return runs


def own_python() -> PythonChoice:
    import importlib.util

    has_venv = importlib.util.find_spec("venv") is not None and importlib.util.find_spec("ensurepip") is not None
    # Inside a virtual environment (the usual way the wizard is installed) name the interpreter the
    # environment was made from: a new environment should not hang off the wizard's own.
    base = getattr(sys, "_base_executable", None)
    executable = base if base and os.path.isfile(base) else sys.executable
    return PythonChoice(executable=executable, version=platform.python_version(), source="wizard",
                        has_venv=has_venv)


def _candidates(search_path: str | None) -> list[tuple[str, str]]:
    """(executable, source) for every python3 / python3.N on the search path and in pyenv, deduplicated."""
    found: list[tuple[str, str]] = []
    seen: set[str] = set()

    def add(path: Path, source: str) -> None:
        key = str(path)
        if key in seen or not os.access(path, os.X_OK) or path.is_dir():
            return
        seen.add(key)
        found.append((key, source))

    path_value = os.environ.get("PATH", "") if search_path is None else search_path
    home = known_home()
    pyenv_root = os.environ.get("PYENV_ROOT") or (home / ".pyenv" if home is not None else None)
    pyenv_versions = Path(pyenv_root or "/nonexistent") / "versions"
    scan_pyenv = search_path is None and pyenv_root is not None and pyenv_versions.is_dir()
    for folder in path_value.split(os.pathsep):
        if not folder:
            continue
        if scan_pyenv and folder.rstrip("/").endswith("/shims") and "pyenv" in folder:
            continue  # a shim is a slow bash script standing for an install listed under versions/ below
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            if _NAME_RE.match(name):
                add(Path(folder) / name, "pyenv" if "/.pyenv/" in f"{folder}/" else "path")
    if scan_pyenv:
        try:
            versions = sorted(pyenv_versions.iterdir())
        except OSError:  # a PYENV_ROOT this user cannot read (another user's, through su): no Pythons there, as a
            versions = []  # PATH folder that cannot be listed (eighteenth hostile pass P16 stopped `recipes` on it)
        for entry in versions:
            add(entry / "bin" / "python3", "pyenv")
    return found


def find_pythons(*, search_path: str | None = None,
                 skipped: list[tuple[str, tuple[Path, str, str]]] | None = None) -> list[PythonChoice]:
    """Every working interpreter on the search path (default `$PATH`) and in pyenv, by real file. `skipped`: a
    list to put (executable, its swap risk) in for each one another user could swap, never run
    (`source_trust.swap_risk`, the `--python PATH` rule). Without `skipped` such an interpreter is still never
    run, and is named once at the end of the run (`children.SKIPPED_PROGRAMS`): 25th hostile pass (part B) P5 —
    `plan` and `install` without `--python` ran another user's `python3` first on root's PATH to read its
    version; the rule held only behind `--python X.Y`."""
    candidates = _candidates(search_path)
    risks = [(c, _swap_risk(c[0])) for c in candidates]
    for (exe, _), risk in risks:
        if risk is None:
            continue
        if skipped is not None:
            skipped.append((exe, risk))
            continue
        place, why, _fix = risk
        note = (f"{Path(exe).name}: {exe} was not run, because {place} {why}, so another user could have put their "
                "own program there and gc-wizard would run it as you; it looked further along PATH.")
        if note not in SKIPPED_PROGRAMS:
            SKIPPED_PROGRAMS.append(note)
    candidates = [c for c, risk in risks if risk is None]
    if not candidates:
        return []
    pool = ThreadPoolExecutor(max_workers=min(8, len(candidates)))
    try:
        probed = list(pool.map(lambda c: probe_python(*c), candidates))
    except BaseException:  # Ctrl-C or a stop signal: do not wait for a hung interpreter's timeout
        stop_all()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    out: list[PythonChoice] = []
    real_seen: set[str] = set()
    for choice in probed:
        if choice is None:
            continue
        real = os.path.realpath(choice.executable)
        # pyenv shims are scripts: the same script stands for many versions, so key them by version too.
        key = f"{real}|{choice.version}"
        if key in real_seen:
            continue
        real_seen.add(key)
        out.append(choice)
    return out


def uv_find_python(spec: str) -> PythonChoice | None:
    """An interpreter uv knows (system or uv-managed) that satisfies `spec`, ignoring virtual envs."""
    try:
        found = uv_bin()
    except OperationFailed:
        return None
    try:
        proc = run_capture(
            [found, "python", "find", "--system", "--no-project", "--no-python-downloads", spec], timeout=30,
            stdin=subprocess.DEVNULL, env={**_clean_env(), "UV_NO_PROGRESS": "1"},
            cwd=str(home) if (home := known_home()) is not None and home.is_dir() else "/",
        )
    except (OSError, subprocess.SubprocessError):
        return None
    path = proc.stdout.strip().splitlines()[-1] if proc.returncode == 0 and proc.stdout.strip() else ""
    if not path or "\ufffd" in path:  # uv printed a byte it could not show: no real file's name
        return None
    return probe_python(path, "uv")


def _minor_fits(spec: str, minor: str) -> bool:
    """Whether some release of Python `minor` ("3.12") is in the range `spec`."""
    return fits(spec, f"{minor}.0") or fits(spec, f"{minor}.99")


def _newest(choices: list[PythonChoice]) -> PythonChoice:
    """Of interpreters that all fit: the newest, one on PATH first among equals."""
    return max(choices, key=lambda c: (Version(c.version), c.source == "path"))


def _download_request(spec: str) -> str | None:
    """The newest 3.N the specifier allows, as a request for `uv venv --python`."""
    for minor in range(NEWEST_MINOR, 5, -1):
        if _minor_fits(spec, f"3.{minor}"):
            return f"3.{minor}"
    return None


def download_request(spec: str) -> str | None:
    """The Python `uv venv --python` would be asked to download for `spec` ("3.13"), or None."""
    return _download_request(spec)


def choose_python(recipe: Recipe, *, search_path: str | None = None, include_self: bool = True,
                  use_uv: bool = True, allow_download: bool = False, need_venv: bool = False) -> PythonChoice:
    """The interpreter the new environment for `recipe` should be built from (see the module docstring).

    `need_venv`: only interpreters with a working `venv` module count (the pip installer needs one).
    """
    spec = recipe.machine.python

    def ok(choice: PythonChoice) -> bool:
        return fits(spec, choice.version) and (choice.has_venv or not need_venv)

    seen: list[PythonChoice] = []
    if include_self:
        own = own_python()
        seen.append(own)
        if ok(own):
            return own
    others = find_pythons(search_path=search_path)
    seen.extend(others)
    fitting = [c for c in others if ok(c)]
    if fitting:
        return _newest(fitting)
    if use_uv:
        found = uv_find_python(spec)
        if found is not None:
            seen.append(found)
            if ok(found):
                return found
    if allow_download and not need_venv:
        request = _download_request(spec)
        if request:
            return PythonChoice(executable=request, version=request, source="uv-download")

    versions = sorted({(Version(c.version), c.version) for c in seen if _parses(c.version)})
    listed = ", ".join(v for _, v in versions) or "none"
    no_venv = [c for c in seen if fits(spec, c.version) and not c.has_venv]
    extra = ""
    if need_venv and no_venv:
        extra = (f" {no_venv[0].executable} fits but lacks the venv module (on Debian/Ubuntu an admin "
                 f"installs python{'.'.join(no_venv[0].version.split('.')[:2])}-venv); the uv installer does not need it.")
    request = _download_request(spec) or f"'{spec}'"
    raise UserError(
        f"recipe {recipe.id} needs Python {spec}, and no such interpreter was found (found: {listed}).{extra} "
        f"Put one on PATH, or let uv fetch one: `uv python install {request}`."
    )


_MINOR_RE = re.compile(r"^3\.[0-9]+$")


def requested_python(recipe: Recipe, request: str, *, allow_download: bool = False,
                     need_venv: bool = False) -> PythonChoice:
    """The interpreter `--python X.Y|PATH` names, checked against the recipe; UserError naming what is wrong.

    Why its own path through the search: the user chose, so nothing else is tried in its place. A version
    is looked up as `choose_python` does (the wizard's own, PATH, pyenv, uv), then offered as a uv download
    (online, uv installer); a path must run and fit the recipe's range.
    """
    spec = recipe.machine.python
    text = request.strip()
    refuse_option_like("--python", text)
    if _MINOR_RE.match(text):
        # The `--python PATH` rule on each interpreter the lookup finds, before it is run to tell its version
        # (twenty-third hostile pass, part B, P3: a python3.11 first on PATH in a folder another user owns ran
        # as root): one that fails it is skipped, and named if nothing else is found.
        skipped: list[tuple[str, tuple[Path, str, str]]] = []
        seen = [own_python(), *find_pythons(skipped=skipped)]
        if not _minor_fits(spec, text):
            here = sorted({".".join(c.version.split(".")[:2]) for c in seen if fits(spec, c.version)}, key=Version)
            hint = f" This machine has {' and '.join(here)}: --python {here[-1]}." if here else ""
            raise UserError(f"--python {text}: recipe {recipe.id} needs Python {spec}, and {text} is outside it.{hint}")
        same = [c for c in seen if c.version.startswith(text + ".") and fits(spec, c.version)
                and (c.has_venv or not need_venv)]
        if same:
            return _newest(same)
        named = [(exe, risk) for exe, risk in skipped if Path(exe).name in (f"python{text}", "python3")]
        if named:
            exe, (place, why, fix) = named[0]
            raise UserError(f"--python {text}: skipped {exe}, a Python found on PATH or in "
                            f"pyenv: {place} {why}, so another user could swap it for their own and gc-wizard would "
                            f"run their code. {fix}, or give an interpreter only you can change with --python PATH; "
                            "it was not run.")
        found = uv_find_python(f"=={text}.*")
        if found is not None and (found.has_venv or not need_venv):
            return found
        if allow_download and not need_venv:
            return PythonChoice(executable=text, version=text, source="uv-download")
        listed = ", ".join(sorted({c.version for c in seen if _parses(c.version)}, key=Version)) or "none"
        raise UserError(f"--python {text}: no Python {text} was found on PATH, in pyenv or through uv (found: "
                        f"{listed}), and uv may not download one here (offline, or the pip installer). Fetch one "
                        f"where there is internet: `uv python install {text}`, or give its path: --python PATH.")
    if "/" in text or text.startswith("~"):
        # Run only once the rule every source goes through has passed it: another user's interpreter, or one they
        # can swap, ran as root to tell its version (twenty-second hostile pass P4). Run as given, not where its
        # links lead: a venv's `bin/python` is a link to its base, and only through the link is it the venv's; once
        # passed, no link or folder on its way is another user's to change.
        # Absolute, and through no folder of proc (`process_relative`): the path the check runs is the file every
        # step is handed, whoever opens it, in whatever folder (37th hostile pass (part B) P4: /proc/self/exe was the
        # wizard's Python to the check and uv to the step; `./python` was looked up on PATH, as `python` was).
        path = Path(expand_home(text)).absolute()
        refuse_process_relative(f"--python {text}", str(path))
        refuse_swappable_python(f"--python {text}", path, "the interpreter",
                                way_out="give an interpreter only you can change", untouched="it was not run")
        choice = probe_python(str(path), "given", proc_checked=True)  # the check just above, not a second walk
        if choice is None:
            raise UserError(f"--python {text}: not a Python interpreter that runs.")
        if not fits(spec, choice.version):
            raise UserError(f"--python {text} is Python {choice.version}, but recipe {recipe.id} needs Python {spec}.")
        if need_venv and not choice.has_venv:
            raise UserError(f"--python {text} lacks the venv module the pip installer needs; use the uv installer, "
                            "or another Python.")
        return choice
    raise UserError(f"--python {text!r}: give a version such as 3.12 or the path of an interpreter.")


def refuse_process_relative(label: str, executable: str) -> None:
    """UserError when `executable` leads through the kernel's proc file system (`paths.process_relative`), where a
    name means whatever the process that opens it has; said before it is run."""
    folder = process_relative(executable)
    if folder is not None:
        raise UserError(f"{label}: {executable} leads into {folder}, the kernel's view of the process that opens it "
                        "(/proc/self/exe is the wizard's Python when the wizard runs it, and uv itself when uv does; "
                        "/dev/fd/N is each one's own descriptor), so the interpreter checked would not be the one "
                        "the environment is made from; it was not run. Give the path of the interpreter's own file, "
                        "such as /usr/bin/python3.11.")


def _swap_risk(executable: str) -> tuple[Path, str, str] | None:
    """`source_trust.swap_risk` for an interpreter found by a lookup (a path with a `/`), else None."""
    if "/" not in executable:
        return None
    # and what it loads at start: pyvenv.cfg's home, the standard library (27th hostile pass (part B) P5)
    found = swap_risk(Path(executable), inside=False)
    if found is None:
        try:
            loads = python_home_risk(Path(executable))
        except StartFileNotRegular as exc:  # it would wait on a FIFO at start: never run (36th pass (A) P5)
            return exc.path, exc.why.removeprefix("it ") + ", which it reads at every start", "remove it"
        found = None if loads is None else loads[:3]
    return found


def _parses(version: str) -> bool:
    try:
        Version(version)
    except InvalidVersion:
        return False
    return True

