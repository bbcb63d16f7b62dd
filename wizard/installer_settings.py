"""Where each installer (and the git it runs) finds its settings files, and what one says, read as data.

Why a module of its own: the settings-file rules (`installer_files`: the swap rule, sources, placement) and the
`keyring` rule (`installer_keyring`) both read these files, and the keyring rule is one of the rules
`installer_files.trust_problem` asks — with the readers inside `installer_files`, the two modules imported each
other (a deferred import hid the circle). The readers sit below both now; neither judges anything here.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from wizard import bounded
from wizard.security import remember_settings_text

#: How a boolean setting reads "off" to uv, pip and git.
_OFF = ("", "0", "false", "no", "off")


#: Each installer's system-wide settings files, read last.
SYSTEM_FILES = {"uv": ("/etc/uv/uv.toml",), "pip": ("/etc/pip.conf",)}


#: A settings file is far smaller than this; a larger one is passed over (never read whole).
CONFIG_BYTES = 256 * 1024


#: What a settings file larger than this is: no installer's settings come near it, and uv reads it whole.
GIANT_BYTES = 16 * 1024 * 1024


def uv_files(environ: Mapping[str, str], cwd: str | os.PathLike[str] | None) -> list[Path]:
    """The settings files uv reads, nearest first: `UV_CONFIG_FILE` alone when set; else the project's (`uv.toml`, or
    a `pyproject.toml` with `[tool.uv]`, in the folder it runs in or above), the user's, the system's. None with
    `UV_NO_CONFIG`. Regular files only: see `settings_problem` for the others."""
    return [f for f in uv_candidates(environ, cwd) if f.is_file()]


def pip_files(environ: Mapping[str, str]) -> list[Path]:
    """pip's settings files, the one that wins first: `PIP_CONFIG_FILE`, the user's (new and old place), the
    system's. (`os.devnull` as PIP_CONFIG_FILE turns them all off.)"""
    return [f for f in pip_candidates(environ) if f.is_file()]


#: The XDG base folders uv reads: (variable, the folder under HOME it falls back to).
_XDG_BASES = {"data": ("XDG_DATA_HOME", ".local/share"), "config": ("XDG_CONFIG_HOME", ".config")}


def uv_base_folder(environ: Mapping[str, str], kind: str) -> tuple[Path, str]:
    """(uv's XDG base folder of `kind`, "data" or "config", where that came from in words: "XDG_DATA_HOME=/x",
    "HOME=/home/u", "your account's home folder") as uv finds it (its `etcetera` base strategy): the XDG variable
    when it is an absolute path (a relative one is ignored, as the XDG spec says), else under HOME — the password
    database's home when HOME is unset. The folder may be relative (an empty or relative HOME, which uv takes as it
    is): it is then read against the folder uv runs in.

    Why uv's own reading, not the wizard's: with `XDG_CONFIG_HOME=rel` uv read `~/.config/uv/uv.toml` while the
    checks read `rel/uv/uv.toml`; the default folders of `TRUSTED_VARIABLES` are found here too."""
    variable, under = _XDG_BASES[kind]
    value = environ.get(variable) or ""
    if os.path.isabs(value):
        return Path(value), f"{variable}={value}"
    home = environ.get("HOME")
    if home is None:
        import pwd  # deferred: only an environment without HOME asks

        try:
            home = pwd.getpwuid(os.geteuid()).pw_dir
        except KeyError:
            home = "/"
        return Path(home) / under, "your account's home folder"
    return Path(home) / under, f"HOME={home}"


def uv_data_folder(environ: Mapping[str, str]) -> tuple[Path, str]:
    """(uv's own data folder — `$XDG_DATA_HOME/uv`, else `~/.local/share/uv` —, where its base came from): where uv
    keeps its managed Pythons (`python/`) and tools (`tools/`) when no variable moves them (uv's `StateStore`)."""
    base, origin = uv_base_folder(environ, "data")
    return base / "uv", origin


def settings_text(path: Path) -> str:
    """A settings file's text, bounded; "" for one that cannot be read (the installer's to complain about).

    Each text read is handed to `security.remember_settings_text`: an installer that cannot parse the file quotes
    its lines in its error, and a line of an entry holding a credential is masked there whatever it holds itself
    (known limit after pass 24: installer parse-error quotes)."""
    try:
        text = bounded.read_regular_text(path, CONFIG_BYTES)
    except (OSError, ValueError):
        return ""
    remember_settings_text(text)
    return text


def uv_candidates(environ: Mapping[str, str], cwd: str | os.PathLike[str] | None) -> list[Path]:
    """Every path uv would open for its settings, whatever is there now (a FIFO included)."""
    if environ.get("UV_NO_CONFIG"):
        return []
    if environ.get("UV_CONFIG_FILE"):
        return [Path(environ["UV_CONFIG_FILE"])]
    files: list[Path] = []
    cwd = _project_folder(environ, cwd)
    if cwd is not None:
        for folder in (Path(cwd), *Path(cwd).parents):
            project = next((f for f in (folder / "uv.toml", folder / "pyproject.toml") if _project_file(f)), None)
            if project is not None:
                files.append(project)
                break
    files += uv_default_files(environ)
    return list(dict.fromkeys(files))


#: The variables that move the folder uv finds its project settings from (`--directory`, then `--project` within it).
_PROJECT_VARIABLES = ("UV_WORKING_DIRECTORY", "UV_WORKING_DIR", "UV_PROJECT")


def _project_folder(environ: Mapping[str, str], cwd: str | os.PathLike[str] | None) -> str | None:
    """The folder uv looks for a `uv.toml` or `pyproject.toml` in (and above): the one it runs in, moved by
    `UV_WORKING_DIRECTORY` and then `UV_PROJECT` (each relative to the one before, as uv takes them).

    Why: with either set, uv read the `uv.toml` of that folder — its index, its find-links, a settings file another
    user owned — while every check here read the folder uv ran in (found when the installer variables were read whole
    for the 30th hostile pass (part B))."""
    folder = None if cwd is None else os.fspath(cwd)
    for name in _PROJECT_VARIABLES:
        value = environ.get(name)
        if value:
            folder = os.path.join(folder or os.getcwd(), os.path.expanduser(value))
    return folder


def _project_file(path: Path) -> bool:
    """Whether uv takes `path` as the project's settings: a `uv.toml`, or a `pyproject.toml` with `[tool.uv]` — and
    any such name that is not a regular file or is a giant, which uv opens and reads to find out (so it is what
    stops it)."""
    if not os.path.lexists(path):
        return False
    try:
        if bounded.not_regular(path) is not None or os.stat(path).st_size > GIANT_BYTES:
            return True
    except OSError:
        return False
    return path.name == "uv.toml" or "[tool.uv" in settings_text(path)


def uv_default_files(environ: Mapping[str, str]) -> list[Path]:
    """The settings files uv reads wherever it runs, unless `UV_CONFIG_FILE` or `UV_NO_CONFIG` is set: the user's
    (`uv_base_folder`'s config folder, as uv finds it), the site's (`$XDG_CONFIG_DIRS`), the system's."""
    return [uv_base_folder(environ, "config")[0] / "uv" / "uv.toml", *_site_files(environ, "uv", "uv.toml"),
            *(Path(f) for f in SYSTEM_FILES["uv"])]


def pip_candidates(environ: Mapping[str, str]) -> list[Path]:
    given = environ.get("PIP_CONFIG_FILE")
    if given == os.devnull:
        return []
    files = [Path(given)] if given else []
    files += _user_files(environ, "pip", "pip.conf")
    files += [Path(environ["HOME"]) / ".pip" / "pip.conf"] if environ.get("HOME") else []
    files += _site_files(environ, "pip", "pip.conf")
    files += [Path(f) for f in SYSTEM_FILES["pip"]]
    return list(dict.fromkeys(files))


def git_files(environ: Mapping[str, str]) -> list[Path]:
    """The settings files git reads on its own, as the installer's children get this environment: the global ones
    (`GIT_CONFIG_GLOBAL`, else `$XDG_CONFIG_HOME/git/config` — `~/.config/git/config` — and `~/.gitconfig`) and the
    system's (`GIT_CONFIG_SYSTEM`, else /etc/gitconfig; none with `GIT_CONFIG_NOSYSTEM`), there or not.

    Why: 34th hostile pass (part B) P1 — with HOME at another user's folder, the git uv ran for a git GraphCast
    source read their `~/.gitconfig`, and its `core.fsmonitor` and `uploadpack.packObjectsHook` ran as root. Held to
    the swap rule uv.toml and pip.conf are (`trust_problem`) rather than turned off (`GIT_CONFIG_GLOBAL=/dev/null`):
    a user's own gitconfig (a proxy, credentials, `url.insteadOf` for a mirror) keeps working, as their uv.toml does.
    Every file they include comes with them (`_git_chain`)."""
    return _git_chain(git_base_files(environ), environ)[0]


def git_base_files(environ: Mapping[str, str]) -> list[Path]:
    """git's global and system settings files (`git_files`), without what they include."""
    given = environ.get("GIT_CONFIG_GLOBAL")
    if given:
        files = [] if given == os.devnull else [Path(given)]
    else:
        files = _user_files(environ, "git", "config")
        files += [Path(environ["HOME"]) / ".gitconfig"] if environ.get("HOME") else []
    if environ.get("GIT_CONFIG_NOSYSTEM", "").lower() in _OFF:
        system = environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"
        files += [] if system == os.devnull else [Path(system)]
    return list(dict.fromkeys(files))


#: How deep git follows `[include]` within `[include]` (git's own MAX_INCLUDE_DEPTH), and how many files in all the
#: check follows before it refuses the chain as one it cannot judge.
_GIT_INCLUDE_DEPTH = 10
_GIT_INCLUDE_FILES = 64
#: A gitconfig line that starts a section (`[include]`, `[includeIf "gitdir:~/w/"]`, the old `[include.x]`), and one
#: that sets `path` (git's names are case-insensitive; the value may be quoted, and end in a comment).
_GIT_SECTION = re.compile(r'^\s*\[\s*([A-Za-z0-9.-]+)')
_GIT_PATH = re.compile(r'^\s*path\s*=\s*(.*)$', re.IGNORECASE)


def _git_chain(files: list[Path], environ: Mapping[str, str]) -> tuple[list[Path], str | None]:
    """`files` and every file git would include from them (`include.path`, and `includeIf.*.path` whatever its
    condition), each as git finds it — `~/` under HOME, a relative path against the including file's folder —, up to
    git's depth; with the sentence why the chain cannot be judged (a file included that cannot be read as a
    settings file within bounds, or more files than any real chain), else None.

    Why followed, not turned off: git has no switch that turns includes off and keeps the user's own files (only
    `GIT_CONFIG_GLOBAL=/dev/null`, which drops their proxy and credentials too), and a file it includes is read as
    the including one is: root's own `~/.gitconfig` with `[include] path = <another user's file>` ran that file's
    `core.fsmonitor` and `uploadpack.packObjectsHook` as root (35th hostile pass (part A) P2). So each file it would
    include is judged by the same swap rule (`trust_problem`), read as data, bounded."""
    found = list(files)
    queue = [(path, 0) for path in files]
    while queue:
        path, depth = queue.pop(0)
        if depth >= _GIT_INCLUDE_DEPTH or not os.path.lexists(path):
            continue
        try:
            text = bounded.read_regular_text(path, CONFIG_BYTES)
        except (OSError, ValueError) as exc:
            return found, (f"git's settings file {path} cannot be read to learn which files it includes ({exc}), "
                           "so gc-wizard cannot tell who could change what git would read")
        for include in _git_includes(text, path, environ):
            if include in found:
                continue
            if len(found) >= _GIT_INCLUDE_FILES:
                return found, (f"git's settings files include more than {_GIT_INCLUDE_FILES} files (from {path}), "
                               "more than gc-wizard judges")
            found.append(include)
            queue.append((include, depth + 1))
    return found, None


def _git_includes(text: str, path: Path, environ: Mapping[str, str]) -> list[Path]:
    """The files a gitconfig's text includes (`[include]` and `[includeIf …]` sections' `path`), as git places them."""
    out: list[Path] = []
    section = ""
    for line in text.splitlines():
        start = _GIT_SECTION.match(line)
        if start:
            section = start.group(1).split(".", 1)[0].lower()
            line = line[line.index("]") + 1:] if "]" in line else ""
        found = _GIT_PATH.match(line)
        if not found or section not in ("include", "includeif"):
            continue
        value = _git_value(found.group(1))
        if not value:
            continue
        if value.startswith("~/") and environ.get("HOME"):
            value = os.path.join(environ["HOME"], value[2:])
        out.append(Path(value) if os.path.isabs(value) else path.parent / value)
    return out


def _git_value(raw: str) -> str:
    """A gitconfig value as git reads it: quotes taken off, a `#` or `;` comment outside them dropped, `\\` escapes
    undone."""
    out, quoted, at = [], False, 0
    while at < len(raw):
        char = raw[at]
        if char == '"':
            quoted = not quoted
        elif char in "#;" and not quoted:
            break
        elif char == "\\" and at + 1 < len(raw):
            at += 1
            out.append({"n": "\n", "t": "\t", "b": "\b"}.get(raw[at], raw[at]))
        else:
            out.append(char)
        at += 1
    return "".join(out).strip()


def git_chain_problem(environ: Mapping[str, str]) -> str | None:
    """Why the files git would include from its settings files cannot be judged (`_git_chain`), or None."""
    return _git_chain(git_base_files(environ), environ)[1]


def _user_files(environ: Mapping[str, str], tool: str, name: str) -> list[Path]:
    """`$XDG_CONFIG_HOME/<tool>/<name>` (`~/.config/…`): the user's file as the child, which gets this environment's
    HOME and XDG_CONFIG_HOME (`runner.PASSED_VARS`), finds it (pip's platformdirs takes a relative XDG_CONFIG_HOME as
    it is; uv's is `uv_default_files`'); none when the environment has neither."""
    base = environ.get("XDG_CONFIG_HOME") or (os.path.join(environ["HOME"], ".config") if environ.get("HOME") else "")
    return [Path(base) / tool / name] if base else []


def _site_files(environ: Mapping[str, str], tool: str, name: str) -> list[Path]:
    """`<dir>/<tool>/<name>` for each folder of `$XDG_CONFIG_DIRS` (default `/etc/xdg`): the site-wide files both
    installers read before their system file."""
    return [Path(d) / tool / name for d in (environ.get("XDG_CONFIG_DIRS") or "/etc/xdg").split(":") if d]


def pip_settings(path: Path, sections: tuple[str, ...]) -> dict[str, str]:
    """What a pip.conf sets in `sections`, later sections over earlier ones, read as data (configparser, no
    interpolation); {} for a file that is not one. The index look-up and the placement check both read it here."""
    import configparser  # deferred: only a plan or an install with pip settings reads a pip.conf

    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(settings_text(path))
    except configparser.Error:
        return {}
    values: dict[str, str] = {}
    for section in sections:
        if parser.has_section(section):
            values.update(dict(parser.items(section)))
    return values


def uv_settings(path: Path) -> dict:
    """A uv settings file's table, read as data: a uv.toml's whole, a pyproject.toml's `[tool.uv]`; {} for a file
    that is not TOML (or nested or numbered past any real one)."""
    try:
        data = bounded.loads_toml(settings_text(path))
    except ValueError:
        return {}
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("uv", {}) if isinstance(data.get("tool"), dict) else {}
    return data if isinstance(data, dict) else {}
