"""Describes the target Python environment, the platform and the state folder's free disk.

The target environment is where GraphCast is meant to run: the one passed in, else the active conda
environment (`CONDA_PREFIX`), else the active venv (`VIRTUAL_ENV`), else the `python3` on `PATH`
("system"). What matters about it: its kind, its Python, whether jax/jaxlib (and which CUDA build,
from jaxlib's local version `+cuda12.cudnn89`, a conda build string, or an installed
`jax-cuda12-plugin`) and `nvidia-*` wheels are already there.

Packages are read from `*.dist-info` folder names, not by importing anything. A venv's or conda env's
Python version is read from its files (`pyvenv.cfg`, `conda-meta`); only where they cannot say (a
`python3` on PATH, which may be a shim) is the interpreter asked for its version and site folders (one
short subprocess, under a timeout), and never when it is the interpreter running the wizard.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from wizard import venv_config
from wizard.children import PROBE_FLAGS, SKIPPED_PROGRAMS, untrusted_program, which
from wizard.detect import deadline
from wizard.detect.facts import DiskInfo, EnvironmentInfo, HostMemory, Platform, PythonInfo
from wizard.errors import UserError
from wizard.patterns import ascii_digits
from wizard.security import expand_home, known_home

#: The distributions `detect` reports (PEP 503 names), besides the families `reported` knows by their shape
#: (`jax-cuda12-plugin`, `cupy-cuda12x`, `nvidia-cudnn-cu12`); everything else in the env is noise here.
REPORTED = frozenset({
    "jax", "jaxlib", "numpy", "scipy", "ml-dtypes", "dm-haiku", "flax", "chex", "optax", "jraph", "dm-tree",
    "xarray", "pandas", "graphcast", "gencast", "torch", "tensorflow", "tensorflow-gpu",
})
#: A distribution's metadata folder (`jax-0.4.23.dist-info`): its name, a `-`, a version without `-`.
_METADATA_SUFFIXES = (".dist-info", ".egg-info")


def reported(name: str) -> bool:
    """Whether `detect` reports the distribution with this normalized name. Plain string tests where a pattern
    was compiled on every `detect` for the look-up of a few hundred folder names (issue 23)."""
    if name in REPORTED:
        return True
    if name.startswith("jax-cuda"):  # jax-cuda12-plugin, jax-cuda12-pjrt
        digits, _, kind = name[len("jax-cuda"):].partition("-")
        return ascii_digits(digits) and kind in ("plugin", "pjrt")
    if name.startswith("cupy-cuda"):  # cupy-cuda12x
        return name[len("cupy-cuda"):].isalnum()
    if name.startswith("nvidia-"):  # nvidia-cudnn-cu12
        rest = name[len("nvidia-"):].replace("-", "").replace("_", "")  # `nvidia-[\w-]+`
        return name != "nvidia-" and (not rest or rest.isalnum())
    return False


def distribution_folder(entry: str) -> tuple[str, str] | None:
    """(name, version) of a metadata folder's name (`jax-0.4.23.dist-info`), else None."""
    for suffix in _METADATA_SUFFIXES:
        if entry.endswith(suffix):
            name, dash, version = entry[:-len(suffix)].rpartition("-")
            if dash and name and ascii_digits(version[:1]) and "\n" not in name:
                return name, version
    return None

#: What the target's interpreter is asked: its executable, prefix, version and site folders, each as the hex of its
#: bytes, comma-separated on one line. Why not JSON: `import json` brings `re` with it, a third of the child's
#: start (about 5 ms of `detect --json`'s own); hex needs only modules every start has loaded (`os`) or builtin
#: (`binascii`), and keeps a path's every byte (a newline, one that is not UTF-8) as JSON did. `os.fsencode` is
#: missing on Python 2, whose paths are bytes already.
_INTERPRETER_QUERY = (
    "import binascii, os, sys\n"
    "raw = getattr(os, 'fsencode', lambda s: s)\n"
    "facts = [sys.executable or '', sys.prefix, '%d.%d.%d' % sys.version_info[:3]]\n"
    "import site\n"
    "facts += site.getsitepackages()\n"
    "print(','.join(binascii.hexlify(raw(f)).decode('ascii') for f in facts))\n"
)


def interpreter_answer(stdout: str) -> dict | None:
    """The facts `_INTERPRETER_QUERY` printed, from the last line of `stdout` (a `sitecustomize` may print before
    it): {"executable", "prefix", "version", "site"}; None for anything else."""
    lines = stdout.strip().splitlines()
    try:
        fields = [os.fsdecode(bytes.fromhex(field)) for field in lines[-1].split(",")]
    except (IndexError, ValueError):
        return None
    if len(fields) < 3:
        return None
    return {"executable": fields[0], "prefix": fields[1], "version": fields[2], "site": fields[3:]}


class Target:
    """The environment detection reads, filled in as it learns more (its Python's version, its site folders).

    `chosen_by`: "argument", "CONDA_PREFIX", "VIRTUAL_ENV" or "PATH". A plain class, not a dataclass: detection is on
    every command's start-up path (issue 23, `wizard.detect.record`)."""

    __slots__ = ("kind", "prefix", "executable", "chosen_by", "python_version", "site_dirs", "problem")

    def __init__(self, kind: str, prefix: Path, executable: str | None, chosen_by: str, python_version: str | None = None,
                 site_dirs: list[Path] | None = None, problem: str | None = None) -> None:
        self.kind = kind
        self.prefix = prefix
        self.executable = executable
        self.chosen_by = chosen_by
        self.python_version = python_version
        self.site_dirs = [] if site_dirs is None else site_dirs
        self.problem = problem

    def __repr__(self) -> str:
        return f"Target({', '.join(f'{name}={getattr(self, name)!r}' for name in self.__slots__)})"


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def kind_of(prefix: Path) -> str:
    if (prefix / "conda-meta").is_dir():
        return "conda"
    if (prefix / "pyvenv.cfg").is_file():
        return "venv"
    return "system"


def _python_in(prefix: Path) -> str | None:
    for name in ("python3", "python"):
        candidate = prefix / "bin" / name
        if os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def choose_target(target_env: Path | None, environ: dict[str, str]) -> Target:
    """Which environment to describe (see the module docstring)."""
    if target_env is not None:
        prefix = Path(expand_home(target_env))
        if not prefix.is_dir():
            raise UserError(f"The environment {prefix} does not exist.")
        return Target(kind_of(prefix), prefix.absolute(), _python_in(prefix), "argument")
    for var in ("CONDA_PREFIX", "VIRTUAL_ENV"):
        value = environ.get(var)
        if value and Path(value).is_dir():
            prefix = Path(value)
            python = _python_in(prefix)
            why = untrusted_program(python) if python else None
            if why is None:
                return Target(kind_of(prefix), prefix, python, var)
            # The same rule as a python3 on PATH (pass 26's early look P5: $VIRTUAL_ENV or $CONDA_PREFIX naming
            # another user's environment had its bin/python3 run as root by detect, plan, install and report).
            note = (f"${var}: {python} was not run, because {why}, so another user could have put their own "
                    f"program there and gc-wizard would run it as you; it described the next Python instead.")
            if note not in SKIPPED_PROGRAMS:
                SKIPPED_PROGRAMS.append(note)
    exe = which("python3", environ.get("PATH", "")) or sys.executable
    prefix = Path(exe).parent.parent
    return Target(kind_of(prefix), prefix, exe, "PATH")


#: What each way of choosing the target calls its Python, in the words the report and the plan use.
_CHOSEN_WORDS = {"PATH": "python3 on PATH", "VIRTUAL_ENV": "the active venv's Python ($VIRTUAL_ENV)",
                 "CONDA_PREFIX": "the active conda environment's Python ($CONDA_PREFIX)",
                 "argument": "the given environment's Python"}


def described_python(environ: dict[str, str]) -> tuple[str | None, str]:
    """The Python `detect` describes with these variables (what `recipes`' "This machine" line and the report's
    Machine table show), and what to call it. walk 23 #12: the report labelled pyenv's python3 on
    PATH "the running interpreter" while gc-wizard ran on its .venv's, and the plan built on the wizard's own
    without saying why that was not the one `recipes` showed; both faces ask here, which is `choose_target`'s
    own choice, so the words cannot drift from what detection read. No process is started."""
    try:
        target = choose_target(None, environ)
    except (UserError, OSError):
        return None, "the Python detection described"
    return target.executable, _CHOSEN_WORDS.get(target.chosen_by, "the Python detection described")


def same_file(one: str | None, other: str | None) -> bool:
    """Whether two interpreter paths are one file (a symlink and its target are); False when either is unknown."""
    if not one or not other:
        return False
    try:
        return Path(one).resolve() == Path(other).resolve()
    except (OSError, RuntimeError):
        return one == other


def _is_own_interpreter(target: Target) -> bool:
    try:
        return target.prefix.resolve() == Path(sys.prefix).resolve()
    except OSError:
        return False


def _glob_site_dirs(prefix: Path) -> list[Path]:
    found = []
    for pattern in ("lib/python3*/site-packages", "lib/python3*/dist-packages", "lib/python3/dist-packages",
                    "lib64/python3*/site-packages"):
        found.extend(sorted(prefix.glob(pattern)))
    return found


def version_from_files(target: Target) -> str | None:
    """The target's Python version as its own files record it, so no second Python starts for it.

    A venv's `pyvenv.cfg` (`version` from venv and virtualenv, `version_info` from uv) and a conda env's
    `conda-meta/python-X.Y.Z-*.json` say which interpreter the env runs. None — ask the interpreter — when
    the files cannot answer for it: no record, an interpreter link that leads nowhere (the query then
    reports it broken), or a venv that also sees the system's site-packages (only the interpreter knows
    which those are).
    """
    if target.executable is None or not os.path.exists(target.executable):
        return None
    if target.kind == "venv":
        config = venv_config.read(target.prefix / "pyvenv.cfg")
        if config.get("include-system-site-packages", "false").lower() == "true":
            return None
        return venv_config.python_version(target.prefix)  # the one reader of it (32nd hostile pass (part B) P4)
    if target.kind == "conda":
        records = sorted((target.prefix / "conda-meta").glob("python-[0-9]*.json"))
        version = records[0].name.split("-")[1] if len(records) == 1 else ""
    else:
        return None
    match = re.match(r"^(3\.[0-9]+\.[0-9]+)", version.strip())
    return match.group(1) if match else None


def start_interpreter_query(target: Target, timeout: float) -> deadline.Running | None:
    """Start asking the target's interpreter about itself; None when it is ours, when its files already
    say (`version_from_files`), or when there is none."""
    if target.executable is None or _is_own_interpreter(target):
        return None
    target.python_version = version_from_files(target)
    if target.python_version is not None:
        return None
    # `PROBE_FLAGS` (`-I -S`): no user site (28th hostile pass (part B) P2: PYTHONUSERBASE is read by `site` whatever
    # -E says) and no system site either (29th hostile pass (part B) P5: a `.pth` in a site-packages another user
    # could swap ran as root here) — the query computes the site folders (`site.getsitepackages`), importing nothing
    # from them, and the user site the interpreter would read is added from this side (`_user_site`).
    return deadline.start([target.executable, *PROBE_FLAGS, "-c", _INTERPRETER_QUERY], timeout=timeout)


def _user_site(target: Target, version: str) -> list[Path]:
    """The user site folder the interpreter reads when the user runs it (off with PYTHONNOUSERSITE, and in a venv
    that does not see the system's packages), which the query, run with `-s`, no longer lists itself: listed, never
    run."""
    if os.environ.get("PYTHONNOUSERSITE"):
        return []
    if kind_of(target.prefix) == "venv" and venv_config.read(target.prefix / "pyvenv.cfg").get(
            "include-system-site-packages", "false").lower() != "true":
        return []
    home = known_home()
    base = os.environ.get("PYTHONUSERBASE") or (os.path.join(home, ".local") if home is not None else "")
    if not base:
        return []  # no HOME and no passwd entry: Python has no user site folder either
    major_minor = ".".join(version.split(".")[:2])
    return [Path(base) / "lib" / f"python{major_minor}" / "site-packages"]


def finish_interpreter_query(target: Target, running: deadline.Running | None) -> None:
    """Fill in the target's Python version and site folders (from the query, or from this process)."""
    site_dirs: list[Path] = []
    if running is None and target.python_version is not None:
        # Read from the env's files; its own site folders are found below, as for every env. A conda
        # Python (unlike a venv's) also reads the user's site folder, ahead of its own.
        if target.kind == "conda":
            major_minor = ".".join(target.python_version.split(".")[:2])
            home = known_home()
            site_dirs = [home / ".local" / "lib" / f"python{major_minor}" / "site-packages"] if home else []
    elif running is None and _is_own_interpreter(target):
        target.executable = target.executable or sys.executable
        target.python_version = "%d.%d.%d" % sys.version_info[:3]
        site_dirs = [Path(p) for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
    elif running is not None:
        done = running.finish()
        data = interpreter_answer(done.stdout) if done.ok else None
        if data is None:
            why = "gave no answer in time" if done.timed_out else (done.output.splitlines() or ["failed"])[-1]
            target.problem = f"the environment's Python {target.executable} could not be run: {why}"
        else:
            target.python_version = data["version"]
            if target.chosen_by == "PATH":  # a shim or a symlink: the interpreter knows its real self
                target.executable = data["executable"] or target.executable
                # Under -S a venv's sys.prefix is still its base's (`site.venv` moves it): the venv is the folder
                # above the program's when a pyvenv.cfg is there, as `site` looks.
                program_dir = Path(os.path.abspath(target.executable)).parent
                in_venv = any((folder / "pyvenv.cfg").is_file() for folder in (program_dir, program_dir.parent))
                target.prefix = program_dir.parent if in_venv else Path(data["prefix"])
                target.kind = kind_of(target.prefix)
            # The base's site folders (`site.getsitepackages` of its prefix under -S) count for a venv only when
            # it sees the system's packages; its own are found below (`_glob_site_dirs`).
            system = target.kind != "venv" or venv_config.read(target.prefix / "pyvenv.cfg").get(
                "include-system-site-packages", "false").lower() == "true"
            site_dirs = [*_user_site(target, data["version"]), *(Path(p) for p in data["site"] if system)]
    for extra in _glob_site_dirs(target.prefix):
        if extra not in site_dirs:
            site_dirs.append(extra)
    target.site_dirs = [d for d in site_dirs if d.is_dir()]


def installed_packages(site_dirs: list[Path]) -> dict[str, str]:
    """{normalized name: version} for the REPORTED distributions in these folders (first one wins)."""
    packages: dict[str, str] = {}
    for site_dir in site_dirs:
        try:
            entries = os.listdir(site_dir)
        except OSError:
            continue
        for entry in entries:
            found = distribution_folder(entry)
            if not found:
                continue
            name = normalize(found[0])
            if reported(name) and name not in packages:
                packages[name] = found[1]
    return dict(sorted(packages.items()))


def jaxlib_cuda_tag(packages: dict[str, str], prefix: Path) -> str | None:
    """"cuda12.cudnn89" (pip local version), "cuda120" (conda build) or "cuda12-plugin"; None for CPU."""
    version = packages.get("jaxlib", "")
    if "+" in version:
        return version.split("+", 1)[1]
    try:
        for entry in os.listdir(prefix / "conda-meta"):
            match = re.match(r"^jaxlib-[0-9.]+-(cuda[0-9]+)", entry)
            if match:
                return match.group(1)
    except OSError:
        pass
    for name in packages:
        match = re.match(r"^jax-(cuda[0-9]+)-plugin$", name)
        if match:
            return f"{match.group(1)}-plugin"
    return None


def describe(target: Target) -> tuple[PythonInfo, EnvironmentInfo]:
    packages = installed_packages(target.site_dirs)
    python = PythonInfo(version=target.python_version or "unknown", executable=target.executable or "")
    env = EnvironmentInfo(kind=target.kind, path=str(target.prefix), packages=packages,
                          jaxlib_cuda_tag=jaxlib_cuda_tag(packages, target.prefix))
    return python, env


def glibc_version() -> str | None:
    try:
        value = os.confstr("CS_GNU_LIBC_VERSION") or ""
    except (ValueError, OSError, AttributeError):
        return None
    match = re.search(r"([0-9]+\.[0-9]+)", value)
    return match.group(1) if match else None


def platform_info() -> Platform:
    uname = os.uname()
    return Platform(os=sys.platform, arch=uname.machine, glibc=glibc_version())


def _meminfo_mib(text: str, key: str) -> int | None:
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        if name.strip() == key:
            parts = rest.split()
            if parts and ascii_digits(parts[0]):
                return int(parts[0]) // 1024  # /proc/meminfo counts kB (KiB)
    return None


def _cgroup_limit_mib(root: Path) -> int | None:
    """The memory limit of this process's cgroup (v2 `memory.max`, v1 `memory.limit_in_bytes`), or None."""
    rel = ""
    try:
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            parts = line.split(":", 2)
            if len(parts) == 3 and (parts[1] == "" or "memory" in parts[1].split(",")):
                rel = parts[2].lstrip("/")
                candidates = [root / rel / "memory.max", root / "memory" / rel / "memory.limit_in_bytes",
                              root / "memory.max", root / "memory" / "memory.limit_in_bytes"]
                for file in candidates:
                    try:
                        value = file.read_text().strip()
                    except OSError:
                        continue
                    if ascii_digits(value) and int(value) < 2**60:  # v1 writes a huge number for "no limit"
                        return int(value) // 2**20
    except OSError:
        return None
    return None


def memory_info(meminfo: Path = Path("/proc/meminfo"), cgroup_root: Path = Path("/sys/fs/cgroup")) -> HostMemory | None:
    """Host RAM from /proc/meminfo, with a cgroup limit when one is lower (a Slurm job's --mem)."""
    try:
        text = meminfo.read_text()
    except OSError:
        return None
    total = _meminfo_mib(text, "MemTotal")
    if total is None:
        return None
    limit = _cgroup_limit_mib(cgroup_root)
    return HostMemory(total_mib=total, available_mib=_meminfo_mib(text, "MemAvailable"),
                      limit_mib=limit if limit is not None and limit < total else None, source="procfs")


def disk_info(state: Path) -> DiskInfo:
    """Free space where the state folder is (or would be: its nearest existing parent)."""
    probe = state
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:
        found = os.statvfs(probe)  # what `shutil.disk_usage` reads, without importing shutil (issue 23)
        free = found.f_bavail * found.f_frsize
    except OSError:
        return DiskInfo(state_free_gib=None, path=str(state))
    return DiskInfo(state_free_gib=round(free / 2**30, 1), path=str(state))
