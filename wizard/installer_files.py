"""The settings files uv and pip read on their own, found as each installer finds them — and whether one of them
would stop the installer before it starts.

Why a module of its own, below every layer: the plan reads these files for the indexes they name
(`wizard.install.indexes`), and every start of uv (`wizard.uv_tool.uv_bin`, which each uv child of every layer goes
through) first checks that none is a FIFO, a device or a giant: uv read a `uv.toml` in the folder it ran in that
was a FIFO until a 20 s limit, one linked to /dev/zero until it held 10 GB, and an install hung on it for good
(seventeenth hostile pass P3). The files are only looked at here (stat, and a bounded read of a `pyproject.toml`
for its `[tool.uv]` table), never parsed as settings.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from wizard import bounded
from wizard.errors import UserError
from wizard.installer_keyring import keyring_problem
from wizard.installer_settings import (
    GIANT_BYTES,
    git_base_files,
    git_chain_problem,
    git_files,
    pip_candidates,
    pip_files,
    pip_settings,
    settings_text,
    uv_candidates,
    uv_data_folder,
    uv_default_files,
    uv_files,
    uv_settings,
)
from wizard.security import source_place

#: The installer variables (and the ones both installers share) that name a file or folder, each with the
#: characters between several entries (None: one path). Relative values are made absolute by `with_absolute_paths`.
PATH_VARIABLES: dict[str, str | None] = {
    **dict.fromkeys(("UV_CONFIG_FILE", "UV_CACHE_DIR", "UV_PYTHON_INSTALL_DIR", "UV_PYTHON_BIN_DIR", "UV_TOOL_DIR",
                     "UV_TOOL_BIN_DIR", "UV_PYTHON_CACHE_DIR", "UV_PROJECT_ENVIRONMENT", "UV_INSTALL_DIR",
                     "UV_CREDENTIALS_DIR", "UV_WORKING_DIRECTORY", "UV_WORKING_DIR", "UV_PROJECT", "PIP_CONFIG_FILE",
                     "PIP_CACHE_DIR", "PIP_CERT", "PIP_CLIENT_CERT", "PIP_LOG", "PIP_LOG_FILE", "PIP_LOCAL_LOG",
                     "PIP_REPORT", "PIP_SRC", "PIP_SOURCE", "PIP_SOURCE_DIR", "PIP_SOURCE_DIRECTORY", "PIP_DEST",
                     "PIP_DESTINATION_DIR", "PIP_DESTINATION_DIRECTORY", "PIP_TARGET", "PIP_PREFIX", "PIP_ROOT",
                     "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "NETRC")),
    "UV_FIND_LINKS": ", ", "UV_CONSTRAINT": " ", "UV_OVERRIDE": " ", "UV_BUILD_CONSTRAINT": " ", "UV_EXCLUDE": " ",
    "PIP_FIND_LINKS": " \t\n", "PIP_CONSTRAINT": " \t\n", "PIP_REQUIREMENT": " \t\n",
    "PIP_BUILD_CONSTRAINT": " \t\n", "PIP_REQUIREMENTS_FROM_SCRIPT": " \t\n",
    # an index given as a path: uv and pip read it from the folder they run in, as the find-links above (28th
    # hostile pass (part B) P9); a `NAME=` before it is kept (`_absolute`)
    "UV_DEFAULT_INDEX": None, "UV_INDEX_URL": None, "UV_INDEX": " ", "UV_EXTRA_INDEX_URL": " ",
    "PIP_INDEX_URL": None, "PIP_EXTRA_INDEX_URL": " \t\n",
}


def with_absolute_paths(environ: Mapping[str, str], cwd: str | None = None) -> dict[str, str]:
    """`environ` with every relative path in `PATH_VARIABLES` made absolute against `cwd` (None: this process's
    folder, the one the user ran the wizard from); URLs, absolute paths, `~` paths and empty values as they are.

    Why: the install steps run in `<state>/envs`, so uv read `UV_CONFIG_FILE=cfg/uv.toml` from there ("failed to
    open file"), took `UV_FIND_LINKS=../fx/wheelhouse` as a folder under the state that the user never wrote, and
    made `UV_CACHE_DIR=relcache`'s cache inside the managed envs folder — while the plan read the same values from
    the user's folder (24th hostile pass (part A) P7). Resolved once, where the user's environment is handed on,
    every child reads what the user meant, and the plan and the install agree."""
    if cwd is None:
        try:
            cwd = os.getcwd()
        except OSError:  # the folder was removed under us: nothing to resolve against
            return dict(environ)
    out = dict(environ)
    for name, separators in PATH_VARIABLES.items():
        value = out.get(name)
        if not isinstance(value, str) or not value:
            continue
        named = name in _NAMED_VARIABLES
        if separators is None:
            out[name] = _absolute(value, cwd, named)
        else:
            parts = re.split("([" + re.escape(separators) + "]+)", value)
            out[name] = "".join(part if i % 2 else _absolute(part, cwd, named) for i, part in enumerate(parts))
    return out


def _absolute(value: str, cwd: str, named: bool = False) -> str:
    """`value` made absolute against `cwd` where it is a relative path as the one parser reads it
    (`security.source_place`): a URL in any spelling (`file:/DIR`, `https:/host`), an absolute or `~` path, and a
    value that names neither are kept as they are; a uv index's `NAME=` (`named`) stays in front."""
    name = INDEX_NAME.match(value) if named else None
    head, rest = (value[:name.end()], value[name.end():]) if name else ("", value)
    if not rest or rest.startswith(("/", "~")):
        return value
    try:
        place = source_place(rest)
    except ValueError:
        return value
    if place is None or place.is_absolute():
        return value
    return head + os.path.join(cwd, rest)


def settings_problem(installer: str, environ: Mapping[str, str], cwd: str | os.PathLike[str] | None) -> str | None:
    """Why `installer` ("uv" or "pip") cannot be started here because of a settings file it would read — a FIFO, a
    device, a folder, a file far larger than any settings file — as one sentence with the fix; None when none."""
    candidates = uv_candidates(environ, cwd) if installer == "uv" else pip_candidates(environ)
    for path in candidates:
        try:
            why = bounded.not_regular(path)
            size = os.stat(path).st_size
        except OSError:  # not there (the usual case) or not reachable: the installer passes it over too
            continue
        if why is None and size <= GIANT_BYTES:
            continue
        why = why or f"it is {size / 2**20:.0f} MiB, far more than a settings file ever holds"
        off = "UV_NO_CONFIG=1" if installer == "uv" else "PIP_CONFIG_FILE=/dev/null"
        return (f"{installer} reads its settings from {path}, and {why}: {installer} would wait on it or read it "
                f"without end, so nothing was started. Move it away, or set {off} to have {installer} read no "
                "settings file.")
    return trust_problem(installer, environ, cwd)


#: The settings that name where packages come from, in a uv settings file (its top level and `[pip]`) and in a
#: pip.conf; a uv `[[index]]` table names its place under `url`.
_SOURCE_KEYS = ("find-links", "index-url", "extra-index-url")
_PIP_SECTIONS = ("global", "install", "download", "wheel")


def trust_problem(installer: str, environ: Mapping[str, str], cwd: str | os.PathLike[str] | None) -> str | None:
    """Why `installer` may not start here because a settings file it reads on its own, or a local place such a file
    (or `UV_FIND_LINKS` / `PIP_FIND_LINKS`) sends it to for packages, could be swapped by another local user — the
    rule `--find-links` is held to (`source_trust.refuse_swappable_source`) — as the refusal's sentences, naming the
    file (and the line of the place); None when none.

    Why this, not `--no-config`: a user's own uv.toml or pip.conf (a lab mirror, a wheelhouse of their own) is
    theirs to set and the plan names it; turning every file off would drop what they legitimately chose, and
    translating it into flags would be a second reader of uv's settings that can drift from uv's. But root ran uv
    under a `uv.toml` one folder above the state that another user owned (or, with `HOME` left at theirs, their
    `~/.config/uv/uv.toml`), and installed the wheel with a `.pth` it named (24th hostile pass (part B) P5). So
    every file the installer would read, and every local place it names, goes through the swap rule; every start
    of uv (`uv_tool.uv_bin`), every installer step (`runner.check_step`) and the check before an install
    (`check_before_install`) ask this through `settings_problem`, and the plan marks it "!"."""
    # deferred: the check runs only where an installer is about to start
    from wizard.errors import UserError
    from wizard.source_trust import refuse_swappable_destination, refuse_swappable_source

    def refused(named: str, place: Path, what: str, way_out: str | None = None,
                harm: str = "install (and run) their code", missing: bool = False, later: bool = False) -> str | None:
        try:
            if not missing or os.path.lexists(place):
                refuse_swappable_source(named, place, what, harm=f"have {installer} {harm}", way_out=way_out,
                                        untouched="nothing was started", passed_over=_UV_LOCK_FILES, later=later)
            else:  # not made yet: judged by whoever may make it, as a place to write is (`cache_trust` alike)
                refuse_swappable_destination(named, place, what=what, harm=f"have {installer} {harm}",
                                             way_out=way_out or "choose a place in a folder only you can write",
                                             untouched="nothing was started")
        except UserError as exc:
            return str(exc)
        return None

    files = uv_files(environ, cwd) if installer == "uv" else pip_files(environ)
    for path in _missing_defaults(installer, environ):
        off = "UV_NO_CONFIG=1" if installer == "uv" else "PIP_CONFIG_FILE=/dev/null"
        why = refused(f"{installer}'s settings file {path} (which {installer} reads on its own once it is there)",
                      path, "the settings file", f"set {off} to have {installer} read no settings file, or run "
                      "gc-wizard with your own HOME and XDG_CONFIG_HOME", later=True)
        if why:
            return why
    for path in files:
        off = "UV_NO_CONFIG=1" if installer == "uv" else "PIP_CONFIG_FILE=/dev/null"
        unplaced = _unplaced_in(installer, path)
        if unplaced:
            return unplaced
        why = refused(f"{installer}'s settings file {path} (which {installer} reads on its own)", path,
                      "the settings file", f"move it away, or set {off} to have {installer} read no settings file")
        if why:
            return why
        for place, line in _local_sources(installer, path, cwd):
            where = f"line {line} of {path}" if line else str(path)
            why = refused(f"the package source {place} ({where}, which {installer} reads on its own)", place,
                          "the wheelhouse", f"take it out of {path}, or copy the wheelhouse to a folder only you "
                          "can write and name that instead")
            if why:
                return why
    for variable, text in variable_sources(installer, environ):
        try:
            place = _local_place(text)
        except ValueError as exc:  # `file://HOST/…`, `s3://…`: never handed on unchecked (28th pass (part B) P4)
            return unplaced_words(f"the package source {text} (from {variable})", str(exc))
        if place is not None and not place.is_absolute():
            # the children get it made absolute against the user's folder (`with_absolute_paths`), so it is judged
            # there, up front: a relative one was refused only inside the first step, after an environment was made,
            # exit 1 as "The installer said" (28th hostile pass (part B) P9)
            try:
                place = Path(os.getcwd()) / place
            except OSError:  # the folder was removed under us: the installer cannot read it either
                continue
        if place is not None:
            why = refused(f"the package source {place} (from {variable})", place, "the wheelhouse")
            if why:
                return why
    for trusted in trusted_places(installer, environ, cwd):
        try:
            named = _local_place(trusted.value)
        except ValueError as exc:
            return unplaced_words(f"{trusted.what} {trusted.value} (from {trusted.where})", str(exc))
        if named is None:  # an https:// address: the installer checks the server (and the plan names it)
            continue
        for place in _against(named, trusted.bases):
            passed = _passed_key(place)
            if passed is not None and passed in _PASSED:
                continue
            why = refused(f"{trusted.what} {place} (from {trusted.where}, which {installer} reads on its own)", place,
                          trusted.what, trusted.way_out, trusted.harm, missing=True)
            if why:
                return why
            if passed is not None:
                _PASSED.add(passed)
    for variable in WRITTEN_VARIABLES.get(installer, ()):
        value = environ.get(variable) or ""
        if value and value != "-":  # `-`: pip's report on its output
            for place in _against(Path(os.path.expanduser(value)), ()):
                why = refused(f"the file {place} (from {variable}, which {installer} writes)", place, "the file",
                              f"unset {variable} for gc-wizard (`env -u {variable} gc-wizard …`), or point it at "
                              f"{_OWN_PLACE}", harm="overwrite a file of their choosing", missing=True)
                if why:
                    return why
    # git's own settings files last: the installer's own files and places are named first where both fail; a chain
    # of includes that cannot be judged is refused as such (35th hostile pass (part A) P2)
    unjudged = git_chain_problem(environ)
    if unjudged:
        return (f"{unjudged}; move it away, or run gc-wizard with your own HOME and XDG_CONFIG_HOME. Nothing was "
                "started.")
    own = git_base_files(environ)
    for path in git_files(environ):
        reads = "reads on its own" if path in own else "includes from its settings files"
        why = refused(f"git's settings file {path} (which git {reads} when {installer} fetches a git source)",
                      path, "the settings file", ("move it away" if path in own else "take out the include that "
                      "names it") + ", or run gc-wizard with your own HOME and XDG_CONFIG_HOME",
                      harm="run their programs through git (core.fsmonitor, hooks) and install what they choose",
                      missing=True, later=True)
        if why:
            return why
    # the `keyring` the installer would run on its own for an index's password, by the PATH rule (leftovers of the
    # 30th hostile pass, item 1)
    return keyring_problem(installer, environ, cwd)


def _against(place: Path, bases: tuple[Path, ...]) -> list[Path]:
    """`place` made absolute as the installer reads it: against each of `bases` (a settings file's folder and the
    folder the installer runs in), or the folder gc-wizard runs in — the children get a relative variable made
    absolute there (`with_absolute_paths`); [] when that folder is gone (the installer cannot read it either)."""
    if place.is_absolute():
        return [place]
    if bases:
        return list(dict.fromkeys(base / place for base in bases))
    try:
        return [Path(os.getcwd()) / place]
    except OSError:
        return []


def _missing_defaults(installer: str, environ: Mapping[str, str]) -> list[Path]:
    """The settings files `installer` reads by default (not one a variable names) that are not there now: one another
    user could make there is as much theirs as one they wrote already (31st hostile pass (part B) P1: the places an
    installer falls back to are held as the ones its variables name)."""
    if installer == "uv":
        if environ.get("UV_NO_CONFIG") or environ.get("UV_CONFIG_FILE"):
            return []
        defaults = uv_default_files(environ)
    else:
        given = environ.get("PIP_CONFIG_FILE")
        defaults = [] if given == os.devnull else [f for f in pip_candidates(environ) if str(f) != given]
    return [path for path in defaults if not os.path.lexists(path)]


#: The places of `TRUSTED_VARIABLES` that passed the swap rule in this process, each as it was then
#: (`_passed_key`). Why: every start of uv asks `trust_problem`, and the certificate folder most machines name
#: (`SSL_CERT_DIR=/etc/ssl/certs`: hundreds of links, each followed from /) cost a plan a second over its five uv
#: starts. A place that passed holds only what root and you can change, so only you could make it fail; one made,
#: replaced, moved or changed in its own entries since is judged again.
_PASSED: set[tuple] = set()


def _passed_key(place: Path) -> tuple | None:
    """`place` as it is now (its path, who asks, its file's identity and last change), or None when it is not there."""
    try:
        info = os.stat(place)
    except OSError:
        return None
    return (str(place), os.geteuid(), info.st_dev, info.st_ino, info.st_mtime_ns, info.st_ctime_ns)


#: The installer variables that name a place (a folder, a file, an address that may be a local one) whose content
#: the installer runs or trusts, other than the package sources (`SOURCE_VARIABLES`) and settings files: (variable,
#: the characters between several entries — None: one —, what it names, what another user who could change it would
#: have the installer do). Every one set is held to the swap rule `--find-links` is held to (`trust_problem`), so
#: the plan and every start of the installer refuse it by name before anything runs.
#:
#: Why: 30th hostile pass (part B) P5 — `UV_PYTHON_INSTALL_DIR` naming another user's folder made `plan` (which
#: runs nothing) have `uv python find` query the "managed Python" they put there, as root; the variable was only
#: made absolute (`PATH_VARIABLES`). Read from uv's list of variables (uv 0.13: `UV_PYTHON_SEARCH_PATH` runs every
#: Python it names, as PATH does) and pip's options. A variable naming only where the installer writes
#: (`UV_TOOL_BIN_DIR`, `PIP_LOG`) or a credential (`NETRC`, `UV_CREDENTIALS_DIR`) is not here.
#: What a CA file or folder is, and what whoever can change it could have the installer do: trust their server as
#: any index's (a proxy they run, or a network position), and install what it serves. 30th hostile pass (part B) P8:
#: another user's `SSL_CERT_FILE` was used silently, while their wheelhouse or index was refused.
_CERTIFICATE = ("the certificate file", "trust a server of their choosing and install (and run) what it serves")


class Trusted(NamedTuple):
    """One entry of `TRUSTED_VARIABLES`: a place the installer runs or trusts the content of, with every way it is
    chosen — the variable, the uv settings-file key that sets the same, and the folder uv falls back to."""

    variable: str
    #: the characters between several entries (None: one)
    separators: str | None
    what: str
    #: what another user who could change it would have the installer do
    harm: str
    #: the key of a uv settings file's top level (`[tool.uv]` in a pyproject.toml) that sets it, or None
    key: str | None = None
    #: where uv puts it when neither is set, under its own data folder (`uv_data_folder`), or None for no default
    default: str | None = None


#: The CA variables uv (rustls, and the system's store) and pip (through Python's ssl) both read; a folder's are
#: several, split at `:` as OpenSSL splits them.
_CERTIFICATE_VARIABLES = (Trusted("SSL_CERT_FILE", None, *_CERTIFICATE),
                          Trusted("SSL_CERT_DIR", os.pathsep, "the certificate folder", _CERTIFICATE[1]))


def certificate_problem(environ: Mapping[str, str], who: str, harm: str, untouched: str) -> str | None:
    """The refusal's sentence when a CA variable OpenSSL reads on its own in gc-wizard's own process
    (`_CERTIFICATE_VARIABLES`: SSL_CERT_FILE, SSL_CERT_DIR, each entry of a folder list) names a place another user
    could swap, by the rule the installers' are held to (`trust_problem`); None when none. `who` reads it ("the
    forecast's downloads"), `harm` is what gc-wizard would then do, `untouched` what was not done.

    Why: 35th hostile pass (part B) P4 — plan, install and lock refused another user's SSL_CERT_FILE, while
    `forecast` fetched the checkpoint, the datasets and their SHA256SUMS (from the same host) trusting it silently."""
    from wizard.source_trust import refuse_swappable_destination, refuse_swappable_source

    for entry in _CERTIFICATE_VARIABLES:
        for value in listed("uv", environ.get(entry.variable) or "", entry.separators):
            for place in _against(Path(value), ()):
                named = f"{entry.what} {place} (from {entry.variable}, which {who} read on their own)"
                way_out = (f"unset {entry.variable} for gc-wizard (`env -u {entry.variable} gc-wizard …`), or point it "
                           f"at {_OWN_PLACE}")
                try:
                    if os.path.lexists(place):
                        refuse_swappable_source(named, place, entry.what, harm=harm, way_out=way_out,
                                                untouched=untouched)
                    else:  # not there yet: judged by whoever may make it
                        refuse_swappable_destination(named, place, what=entry.what, harm=harm, way_out=way_out,
                                                     untouched=untouched)
                except UserError as exc:
                    return str(exc)
    return None


def tls_context(who: str, harm: str, untouched: str, environ: Mapping[str, str] | None = None):
    """The TLS context of every connection gc-wizard opens itself (the plan's size queries, the forecast's downloads,
    the reach checks' HEAD requests, the look at a remote wheelhouse page), made only once the CA variables OpenSSL
    reads on its own have passed the installers' rule (`certificate_problem`; `who`, `harm` and `untouched` word its
    sentence); else `CertificatesRefused` with that sentence, and no connection is opened.

    Why one opener: 35th hostile pass (part B) P4 put the rule before plan's, lock's and forecast's connections, while
    the reach checks (`recipes.alternatives.reachable`) and the wheelhouse look (`install.remote_wheelhouse`, which
    even named SSL_CERT_FILE as its CA file) built their own contexts and trusted another user's CA file silently."""
    problem = certificate_problem(os.environ if environ is None else environ, who, harm, untouched)
    if problem:
        raise CertificatesRefused(problem)
    import ssl  # deferred: only a connection asks

    return ssl.create_default_context()


class CertificatesRefused(UserError):
    """A CA variable names a place another user could swap (`tls_context`): nothing was sent."""


_THEIR_PYTHON = "install (and run) their Python"
TRUSTED_VARIABLES: dict[str, tuple[Trusted, ...]] = {
    "uv": (
        # uv's own default when the variable is unset is held as the variable is (31st hostile pass (part B) P1):
        # `XDG_DATA_HOME` (or a sudo -E `HOME`) at another user's folder had `plan` run their "managed Python"
        Trusted("UV_PYTHON_INSTALL_DIR", None, "the folder of uv's managed Pythons", "run their Python",
                default="python"),
        Trusted("UV_PYTHON_SEARCH_PATH", os.pathsep, "the folder uv looks for Pythons in", "run their Python"),
        # no default: without it uv unpacks a download in the managed Pythons' folder, held above
        Trusted("UV_PYTHON_CACHE_DIR", None, "uv's cache of Python downloads", _THEIR_PYTHON),
        Trusted("UV_TOOL_DIR", None, "the folder of uv's tools", "run their code", default="tools"),
        # where uv takes a Python build from: the list of builds (each one's address and sha256) and the mirrors;
        # a local list names any tarball with its own sha256, so whoever writes the list chooses the Python
        # (30th hostile pass (part B) P6) — set by the variable or by the settings file's key alike (31st hostile
        # pass (part B) P2: root's own uv.toml naming another user's list was used); an https:// one is named on
        # the plan (`python_download_source`)
        Trusted("UV_PYTHON_DOWNLOADS_JSON_URL", None, "the list of Python builds", _THEIR_PYTHON,
                key="python-downloads-json-url"),
        Trusted("UV_PYTHON_INSTALL_MIRROR", None, "the Python download mirror", _THEIR_PYTHON,
                key="python-install-mirror"),
        Trusted("UV_PYPY_INSTALL_MIRROR", None, "the PyPy download mirror", _THEIR_PYTHON, key="pypy-install-mirror"),
        Trusted("UV_GRAALPY_INSTALL_MIRROR", None, "the GraalPy download mirror", _THEIR_PYTHON,
                key="graalpy-install-mirror"),
        Trusted("UV_PYODIDE_INSTALL_MIRROR", None, "the Pyodide download mirror", _THEIR_PYTHON,
                key="pyodide-install-mirror"),
        Trusted("UV_ASTRAL_MIRROR_URL", None, "the mirror of Astral's downloads", _THEIR_PYTHON),
        *_CERTIFICATE_VARIABLES,
    ),
    # pip's `PIP_CERT`, and the ones Python's ssl and requests (pip's) read; a pip.conf's `cert` too (`pip_cert`)
    "pip": (Trusted("PIP_CERT", None, *_CERTIFICATE), Trusted("REQUESTS_CA_BUNDLE", None, *_CERTIFICATE),
            Trusted("CURL_CA_BUNDLE", None, *_CERTIFICATE), *_CERTIFICATE_VARIABLES),
}
#: The installer variables that name a file or folder the installer writes to (pip's `--log`, `--report`, `--src`,
#: under every long name pip gives them), each held to the swap rule a place to write is: root's pip followed another
#: user's link at `PIP_REPORT` and overwrote root's file with its report (35th hostile pass (part A) P4).
#: `tests/unit/test_installer_option_tables.py` reads every path option from pip's parser and uv's `--help`.
WRITTEN_VARIABLES: dict[str, tuple[str, ...]] = {
    "pip": ("PIP_LOG", "PIP_LOG_FILE", "PIP_LOCAL_LOG", "PIP_REPORT", "PIP_SRC", "PIP_SOURCE", "PIP_SOURCE_DIR",
            "PIP_SOURCE_DIRECTORY"),
}
#: The empty lock file uv makes 0666 in each folder it keeps, whatever the umask: nothing in it is read.
_UV_LOCK_FILES = (".lock",)


class TrustedPlace(NamedTuple):
    """One value a `TRUSTED_VARIABLES` entry has here, and where it was set."""

    #: where it is set, for the sentence: "UV_PYTHON_INSTALL_DIR", "`python-install-mirror` in /x/uv.toml", …
    where: str
    value: str
    what: str
    harm: str
    #: how to take it away, for the refusal
    way_out: str
    #: the folders a relative value is read against (none: the folder gc-wizard runs in)
    bases: tuple[Path, ...] = ()


def trusted_places(installer: str, environ: Mapping[str, str],
                   cwd: str | os.PathLike[str] | None = None) -> list[TrustedPlace]:
    """Every value `installer`'s `TRUSTED_VARIABLES` have here, each split as the installer splits it (`listed`):
    the variable's; the key's in each uv settings file uv reads (`uv_files`); where neither is set, uv's default
    folder (`uv_data_folder`) — and for pip the `cert` its settings file names (`pip_cert`). Every one is judged,
    not only the one that wins: a file's key the variable overrides today is uv's as soon as the variable is unset.

    Why one list, read from one table: the swap rule read the variables only, so the same list of Python builds
    named by a uv.toml's `python-downloads-json-url`, and the managed Pythons' folder uv falls back to under
    another user's `XDG_DATA_HOME` (or a sudo -E `HOME`), were used as root without a word (31st hostile pass
    (part B) P1, P2). `cwd`: the folder the installer runs in (its project settings file)."""
    found: list[TrustedPlace] = []
    files = uv_files(environ, cwd) if installer == "uv" else []
    for entry in TRUSTED_VARIABLES.get(installer, ()):
        given = listed(installer, environ.get(entry.variable) or "", entry.separators)
        found += [TrustedPlace(entry.variable, value, entry.what, entry.harm,
                               f"unset {entry.variable} for gc-wizard (`env -u {entry.variable} gc-wizard …`), or "
                               f"point it at {_OWN_PLACE}") for value in given]
        keyed = False
        for path in files if entry.key else ():
            value = _key_value(path, entry.key)
            if value:
                keyed = True
                bases = (path.parent, *([Path(cwd)] if cwd is not None else []))
                found.append(TrustedPlace(f"`{entry.key}` in {path}", value, entry.what, entry.harm,
                                          f"take it out of {path}, or point it at {_OWN_PLACE}", bases))
        if entry.default and not given and not keyed:
            base, origin = uv_data_folder(environ)
            found.append(TrustedPlace(
                f"{origin}, uv's default while {entry.variable} is not set", str(base / entry.default), entry.what,
                entry.harm, f"{_OWN_BASE[origin.split('=', 1)[0]]}, or set {entry.variable} to {_OWN_PLACE}"))
    cert = pip_cert(environ) if installer == "pip" else None
    if cert is not None and cert[1] != "PIP_CERT":
        found.append(TrustedPlace(f"`cert` in {cert[1]}", cert[0], *_CERTIFICATE,
                                  f"take it out of {cert[1]}, or point it at {_OWN_PLACE}"))
    return found


def uv_setting(variable: str, environ: Mapping[str, str], cwd: str | os.PathLike[str] | None = None
               ) -> tuple[str, str] | None:
    """(value, where it is set) of the `TRUSTED_VARIABLES` entry `variable` as uv takes it — the variable, else the
    nearest settings file that sets its key (`uv_files`, nearest first) — or None when neither sets it. What the plan
    names (`recipes.alternatives.python_download_source`) is then what uv uses: root's uv.toml naming a list of
    Python builds had the plan say "from github.com" (31st hostile pass (part B) P2)."""
    value = as_read(environ.get(variable) or "")
    if value:
        return value, variable
    key = next((e.key for e in TRUSTED_VARIABLES["uv"] if e.variable == variable), None)
    for path in uv_files(environ, cwd) if key else ():
        value = _key_value(path, key)
        if value:
            return value, f"`{key}` in {path}"
    return None


def _key_value(path: Path, key: str) -> str:
    """The text a uv settings file's top-level `key` holds, as uv reads it (`as_read`); "" when it holds none."""
    value = uv_settings(path).get(key)
    return as_read(value) if isinstance(value, str) else ""


_OWN_PLACE = "a place only you can write"
#: How to give uv a base folder of one's own, by the variable it came from (`uv_base_folder`'s origin).
_OWN_BASE = {"XDG_DATA_HOME": "unset XDG_DATA_HOME for gc-wizard (`env -u XDG_DATA_HOME gc-wizard …`)",
             "XDG_CONFIG_HOME": "unset XDG_CONFIG_HOME for gc-wizard (`env -u XDG_CONFIG_HOME gc-wizard …`)",
             "HOME": "run gc-wizard with your own HOME (`sudo -H`, or export HOME=…)",
             "your account's home folder": "set HOME to a folder of your own"}


def unplaced_words(named: str, why: str, untouched: str = "Nothing was started.") -> str:
    """The one refusal for a package source that names neither a place here nor an http(s) address: a variable's or
    settings file's entry here, an option's or recipe field's in `install.source_places` (`untouched` says what was
    left undone)."""
    from wizard.security import cut, redact_secrets  # deferred: only a refusal names a value

    return (f"{cut(redact_secrets(named), 300)}: {why}, so gc-wizard cannot tell who could change what the installer "
            f"would read there; give a folder on this machine (a path or file:///DIR) or an https:// address. "
            f"{untouched}")


#: Every variable through which each installer learns of a package source, in its order: (the variable, the
#: characters between several entries — None: one entry; `PATH_VARIABLES`' own, the one table of them —, "index"
#: for one that replaces PyPI, "extra" for one asked besides it, "find-links" for a page or folder of files). uv
#: reads no PIP_* variable and pip no UV_* one.
SOURCE_VARIABLES: dict[str, tuple[tuple[str, str | None, str], ...]] = {
    installer: tuple((name, PATH_VARIABLES[name], kind) for name, kind in kinds) for installer, kinds in {
        "uv": (("UV_DEFAULT_INDEX", "index"), ("UV_INDEX_URL", "index"), ("UV_INDEX", "extra"),
               ("UV_EXTRA_INDEX_URL", "extra"), ("UV_FIND_LINKS", "find-links")),
        "pip": (("PIP_INDEX_URL", "index"), ("PIP_EXTRA_INDEX_URL", "extra"), ("PIP_FIND_LINKS", "find-links")),
    }.items()}
#: uv's `UV_INDEX` / `UV_DEFAULT_INDEX` entries may be named, `NAME=URL` (uv takes the part before the first `=` as
#: the name when it holds no `:`), whatever the URL is: `evil=file:///…` and `evil=/DIR` alike.
INDEX_NAME = re.compile(r"^[A-Za-z0-9_.-]+=")
_NAMED_VARIABLES = ("UV_INDEX", "UV_DEFAULT_INDEX")


def variable_sources(installer: str, environ: Mapping[str, str]) -> list[tuple[str, str]]:
    """(variable, value) for every package source `installer`'s variables name (`SOURCE_VARIABLES`), split as the
    installer splits them (`listed`), a `UV_INDEX` entry's `NAME=` dropped.

    Why one list: the swap check read only `UV_FIND_LINKS` / `PIP_FIND_LINKS`, so the same folder of another user's
    given as `UV_INDEX`, `UV_DEFAULT_INDEX`, `UV_INDEX_URL`, `UV_EXTRA_INDEX_URL` or `PIP_EXTRA_INDEX_URL`
    (a `file://` index, or its plain path) was installed from, and its `.pth` ran as root, while the find-links
    spelling was refused (28th hostile pass (part B) P1). The plan's look-up (`install.indexes`) reads this table
    too, so what the plan names and what the check holds are one list."""
    out: list[tuple[str, str]] = []
    for variable, separators, _kind in SOURCE_VARIABLES.get(installer, ()):
        for value in listed(installer, environ.get(variable) or "", separators):
            out.append((variable, INDEX_NAME.sub("", value) if variable in _NAMED_VARIABLES else value))
    return out


def _local_place(text: str) -> Path | None:
    """The path a source setting names on this machine (a path, a `file:` URL in any form uv and pip read), or None
    for a remote one; ValueError for one that is neither (`security.source_place`, the one parser)."""
    return source_place(text)


def _unplaced_in(installer: str, path: Path) -> str | None:
    """The refusal for the first package source the settings file `path` names that is neither a place here nor an
    http(s) address (`unplaced_words`), naming its line; None when none."""
    values = [value for table in source_tables(installer, path) for items in table.values() for value in items]
    lines = settings_text(path).splitlines()
    for value in values:
        try:
            _local_place(value)
        except ValueError as exc:
            line = next((n for n, text in enumerate(lines, 1) if value in text), None)
            where = f"line {line} of {path}" if line else str(path)
            return unplaced_words(f"the package source {value} ({where})", str(exc))
    return None


def _local_sources(installer: str, path: Path, cwd: str | os.PathLike[str] | None) -> list[tuple[Path, int | None]]:
    """(place, line) for each local place the settings file `path` names as a package source (every table's, as
    `source_tables` reads them); a relative one once against the file's folder and once against the folder the
    installer runs in (where each installer reads it), each line the first that holds the value (None where none
    does)."""
    values = [value for table in source_tables(installer, path) for items in table.values() for value in items]
    lines = settings_text(path).splitlines()
    out: list[tuple[Path, int | None]] = []
    for value in values:
        place = _local_place(value)
        if place is None:
            continue
        line = next((n for n, text in enumerate(lines, 1) if value in text), None)
        bases = [path.parent] + ([Path(cwd)] if cwd is not None else [])
        out += [(place, line)] if place.is_absolute() else [(base / place, line) for base in bases]
    return list(dict.fromkeys(out))


def source_tables(installer: str, path: Path) -> list[dict[str, list[str]]]:
    """The package-source settings of the settings file `path` for `installer` ("uv" or "pip"), read as data, one
    dict a table in the order a later one overrides an earlier one key by key (uv: the top level, then `[pip]`,
    which `uv pip` reads first; pip: its sections already merged). Keys: `index-url`, `extra-index-url`,
    `find-links`, and for a uv `[[index]]` list `index` (its URLs) with `index.default` (those marked
    `default = true`), each set only where the file sets it; values as the installer reads them (a uv string whole,
    a pip value split at blanks), empty ones dropped.

    Why one reader: the plan's index look-up (`install.indexes`) and the swap check on local sources
    (`trust_problem`) each read these keys their own way, and a value one of them split differently from the
    other was shown as one place and checked as another."""
    if installer == "uv":
        data = uv_settings(path)  # {} for a syntax error, or a file nested or numbered past any real one
        pip_table = data.get("pip")
        return [_uv_sources(data), _uv_sources(pip_table if isinstance(pip_table, dict) else {})]
    settings = pip_settings(path, _PIP_SECTIONS)
    return [{key: settings[key].split() for key in _SOURCE_KEYS if key in settings}]


def _uv_sources(table: Mapping[str, object]) -> dict[str, list[str]]:
    """One uv settings table's source keys (see `source_tables`)."""
    out: dict[str, list[str]] = {}
    for key in _SOURCE_KEYS:
        value = table.get(key)
        if key in table:
            out[key] = [value] if isinstance(value, str) and value else \
                [v for v in value if isinstance(v, str) and v] if isinstance(value, list) else []
    if "index" in table:
        indexes = table["index"]
        entries = [i for i in indexes if isinstance(i, dict) and isinstance(i.get("url"), str) and i["url"]] \
            if isinstance(indexes, list) else []
        out["index"] = [i["url"] for i in entries if i.get("default") is not True]
        out["index.default"] = [i["url"] for i in entries if i.get("default") is True]
    return out


#: What a URL parser drops wherever it stands (the WHATWG URL standard, which uv follows, and Python's
#: `urllib.parse`, which pip uses): a tab, a line feed, a carriage return.
_DROPPED = str.maketrans("", "", "\t\n\r")


def as_read(url: str) -> str:
    """`url` as the installers read it: tabs and line ends dropped, blanks at its ends gone."""
    return url.translate(_DROPPED).strip()


def listed(installer: str, value: str, separators: str | None) -> list[str]:
    """The URLs or places one variable's value gives `installer`, as it reads them: uv drops tabs and line ends
    from a URL and splits a list at `separators` only; pip splits a list at any blank, and takes a single URL whole.
    A password read from a file with Windows line ends (`user:pw\r@host`) is used by the installer with its `\r`
    dropped; split at it, the plan printed `https://user:pw` — the password, with nothing to tell it was one
    (twenty-second hostile pass P2). `separators` None: the variable names one URL.

    Why here: the plan's index look-up and the swap check on `UV_FIND_LINKS` / `PIP_FIND_LINKS` both read these
    values, and must split them as the installer does, the same way."""
    if installer == "pip" and separators is not None:
        return value.split()
    value = as_read(value)
    if separators is None:
        return [value] if value else []
    return [part for part in re.split("[" + re.escape(separators) + "]+", value) if part]


#: pip's settings that install somewhere other than the environment whose Python runs pip: `--target`, `--prefix`,
#: `--root`, `--user`, and `--python` (pip ≥ 22.3 runs itself again under the program it names and installs into
#: that program's environment: 35th hostile pass (part A) P3), as variables and as settings-file keys. Read from
#: pip's own option list (`tests/unit/test_installer_option_tables.py` holds every pip option to a table).
_PIP_PLACEMENT = ("target", "prefix", "root", "user", "python")
#: Of those, the ones every pip command reads (pip's general options), `pip download` in a bundle too.
_PIP_EVERY_COMMAND = ("python",)
#: uv's `[pip]` settings that do the same.
_UV_PLACEMENT = ("target", "prefix")
#: pip's settings that pick packages for another platform or Python than the environment's (`--platform`, `--abi`,
#: `--implementation`, `--python-version`), and uv's `[pip]` keys that do the same (uv 0.13 gives them no variable).
#: Why refused: `pip install` takes them only with `--target`, so every pip step failed on pip's option error and
#: named no variable; uv would resolve for that platform and install its wheels in the env (38th hostile pass
#: (part B) P1). `bundle`'s `pip download` passes its own (`bundle._fill`), so they change nothing there.
PIP_TARGET_PLATFORM = ("platform", "abi", "implementation", "python-version")
_UV_TARGET_PLATFORM = ("python-platform", "python-version")


def placement_problem(installer: str, environ: Mapping[str, str], cwd: str | os.PathLike[str] | None) -> str | None:
    """Why `installer` would put packages outside the environment it is told to install into — a `PIP_TARGET`,
    `PIP_PREFIX`, `PIP_ROOT` or `PIP_USER` in the environment, or their keys in a pip.conf (uv's `[pip] target` and
    `prefix` in a uv.toml) — as one sentence naming the variable or file and the fix; None when none.

    Why refused, not passed over: pip took the user's `PIP_TARGET` and wrote the recipe's packages into that
    folder, outside the new environment, where a failed install left them; with `--no-verify` the empty
    environment was recorded "installed" and made current (nineteenth hostile pass P1)."""
    found: list[str] = []
    other: list[str] = []  # set for another platform or Python (PIP_TARGET_PLATFORM)
    if installer == "pip":
        found = _pip_placement(environ, _PIP_PLACEMENT)
        other = _pip_placement(environ, PIP_TARGET_PLATFORM)
    else:
        for path in uv_files(environ, cwd):
            found += [f"`[pip] {key} = …` in {path}" for key in _uv_pip_keys(path) if key in _UV_PLACEMENT]
            other += [f"`[pip] {key} = …` in {path}" for key in _uv_pip_keys(path) if key in _UV_TARGET_PLATFORM]
    if found:
        return _placement_words(installer, found[0])
    if other:
        return _placement_words(installer, other[0], other_platform=True)
    return None


def pip_program_problem(environ: Mapping[str, str]) -> str | None:
    """Why no pip command may start here — a `PIP_PYTHON` (or a pip.conf's `python = …`), which has pip run itself
    again under the program it names, as whoever runs gc-wizard — as `placement_problem`'s sentence; None when none.
    `bundle`'s `pip download` asks this (it reads pip's general options, not `install`'s)."""
    found = _pip_placement(environ, _PIP_EVERY_COMMAND)
    return _placement_words("pip", found[0]) if found else None


def pip_target_file_problem(environ: Mapping[str, str]) -> str | None:
    """Why `bundle`'s `pip download` may not start: a pip.conf's `platform` or `abi`, which pip adds to the target the
    bundle gives (its `--platform`/`--abi` are lists), so it would download another platform's wheels; None when
    none. The variables are left out of that step instead (`bundle.TARGET_VARIABLES`)."""
    found = [f"`{key} = …` in {path}" for path in pip_files(environ) for key in _pip_file_keys(path)
             if key in ("platform", "abi")]
    return _placement_words("pip", found[0], other_platform=True) if found else None


def _pip_placement(environ: Mapping[str, str], keys: tuple[str, ...]) -> list[str]:
    """Where each of pip's settings `keys` is set here: `PIP_<KEY>=value in the environment`, "`key = …` in FILE"."""
    found: list[str] = []
    for key in keys:
        name = "PIP_" + key.upper().replace("-", "_")
        value = environ.get(name, "")
        if value and not (key in _PIP_SWITCHES and value.strip().lower() in _OFF):
            found.append(f"{name}={value} in the environment")
    for path in pip_files(environ):
        found += [f"`{key} = …` in {path}" for key in _pip_file_keys(path) if key in keys]
    return found


def _placement_words(installer: str, found: str, *, other_platform: bool = False) -> str:
    """The refusal of one placement setting (`found`: where it is set); `other_platform`: one of
    `PIP_TARGET_PLATFORM`."""
    undo = (f"unset it for gc-wizard (`env -u {found.split('=', 1)[0]} gc-wizard …`)" if found.startswith("PIP_")
            else "take it out of that file (or set PIP_CONFIG_FILE=/dev/null / UV_NO_CONFIG=1 for gc-wizard)")
    if other_platform:
        then = ("pip takes it only with --target, so every pip step would fail" if installer == "pip"
                else "their wheels may not run there")
        return (f"{found} would make {installer} pick the recipe's packages for another platform or Python than the "
                f"new environment's ({then}); {undo}. Nothing was started.")
    if found.startswith(("PIP_PYTHON=", "`python =")):
        return (f"{found} would make pip run itself again under that program, as you, and install the recipe's "
                f"packages into that program's environment instead of the new one; {undo}. Nothing was started.")
    return (f"{found} would make {installer} install the recipe's packages outside the new environment, where a "
            f"failed or stopped install would leave them; {undo}. Nothing was started.")


#: The installer variables that change WHICH packages are installed rather than where: requirements added
#: (`PIP_REQUIREMENT`, `PIP_EDITABLE`, `PIP_GROUP`), pins replaced or narrowed (`UV_OVERRIDE`, `UV_CONSTRAINT`,
#: `PIP_CONSTRAINT`, and the build-time ones), packages dropped (`UV_EXCLUDE`, `PIP_NO_DEPS`). Read from
#: `uv pip install|sync|compile --help` (uv 0.13) and pip's `install` options (every option is `PIP_<NAME>`).
_UV_REQUIREMENT_VARS = ("UV_OVERRIDE", "UV_CONSTRAINT", "UV_BUILD_CONSTRAINT", "UV_EXCLUDE")
_PIP_REQUIREMENT_KEYS = ("requirement", "constraint", "editable", "build-constraint", "group", "no-deps",
                         "requirements-from-script")
#: Of those, the ones a pip.conf may set: pip takes no link in a constraint, so a settings file's `constraint` can
#: only narrow the versions (the install is then the recipe's or fails) — and a site's pip.conf caps versions so
#: (this project's own build machine has `constraint = …` in /etc/xdg/pip/pip.conf). uv does take a link in a
#: constraint (`pkg-a @ file:///…` swapped the file), so a uv.toml's `constraint-dependencies` is refused.
_PIP_FILE_REQUIREMENT_KEYS = ("requirement", "editable", "group", "no-deps", "requirements-from-script")
#: The same in a uv settings file: its top level (which `uv pip` reads too) and its `[pip]` table.
_UV_REQUIREMENT_KEYS = ("override-dependencies", "constraint-dependencies", "build-constraint-dependencies",
                        "exclude-dependencies", "dependency-metadata")
_UV_PIP_REQUIREMENT_KEYS = ("dependency-metadata", "no-deps")
_OFF = ("", "0", "false", "no", "off")
#: pip's `install` settings that make it install nothing at all: `--dry-run` (35th hostile pass (part A) P5: the
#: install ended 0, "installed" and current, with only pip in the environment). uv's `--dry-run` has no variable
#: and no settings key (uv 0.13's `uv pip install --help`).
_PIP_NOTHING_KEYS = ("dry-run",)


def requirement_problem(installer: str, environ: Mapping[str, str], cwd: str | os.PathLike[str] | None) -> str | None:
    """Why `installer` would install other packages than the recipe's (or the lock's) pins — a `UV_OVERRIDE`,
    `UV_CONSTRAINT`, `PIP_REQUIREMENT`, `PIP_CONSTRAINT`, `PIP_EDITABLE` … in the environment, or their keys in a
    pip.conf or uv.toml — as one sentence naming the variable (or file) and the fix; None when none.

    Why refused before anything runs, like `placement_problem`'s PIP_TARGET: uv took the user's `UV_OVERRIDE` and
    installed pkg-a 1.1 from a file outside every wheelhouse in place of the recipe's pin, pip took
    `PIP_REQUIREMENT` and added a package no recipe asked for, both with "Installed" and no word of the variable,
    and `lock` wrote the override into a lock made to be shared; the ones that made the install fail were never
    named (25th hostile pass (part B) P4). The install, every installer step (`runner.check_step`, rollbacks
    too), `lock` and `bundle` ask this, and the plan marks it "!"."""
    nothing = _pip_placement(environ, _PIP_NOTHING_KEYS) if installer == "pip" else []
    if nothing:
        return (f"{nothing[0]} would make pip install nothing (a dry run) while the environment would be recorded as "
                f"the recipe's; "
                + (f"unset it for gc-wizard (`env -u {nothing[0].split('=', 1)[0]} gc-wizard …`)"
                   if nothing[0].startswith("PIP_") else
                   "take it out of that file (or set PIP_CONFIG_FILE=/dev/null for gc-wizard)")
                + ". Nothing was started.")
    found: list[str] = []
    if installer == "pip":
        for key in _PIP_REQUIREMENT_KEYS:
            name = "PIP_" + key.upper().replace("-", "_")
            value = environ.get(name, "")
            if value.strip() and not (key == "no-deps" and value.strip().lower() in _OFF):
                found.append(_variable(name, value))
        for path in pip_files(environ):
            settings = {key.replace("_", "-").lower(): value
                        for key, value in pip_settings(path, ("global", "install")).items()}
            found += [f"`{key} = …` in {path}" for key in _PIP_FILE_REQUIREMENT_KEYS
                      if key in settings and not (key == "no-deps" and settings[key].strip().lower() in _OFF)]
    else:
        found += [_variable(name, environ[name]) for name in _UV_REQUIREMENT_VARS if environ.get(name, "").strip()]
        for path in uv_files(environ, cwd):
            data = uv_settings(path)
            table = data.get("pip") if isinstance(data.get("pip"), dict) else {}
            found += [f"`{key} = …` in {path}" for key in _UV_REQUIREMENT_KEYS if key in data]
            found += [f"`[pip] {key} = …` in {path}" for key in _UV_PIP_REQUIREMENT_KEYS
                      if table.get(key) not in (None, False, [], "")]
    if not found:
        return None
    undo = (f"unset it for gc-wizard (`env -u {found[0].split('=', 1)[0]} gc-wizard …`)"
            if not found[0].startswith("`") else
            "take it out of that file (or set PIP_CONFIG_FILE=/dev/null / UV_NO_CONFIG=1 for gc-wizard)")
    return (f"{found[0]} would make {installer} install other packages than the recipe's pins (it adds, replaces, "
            f"constrains or drops requirements), and the environment would be recorded as the recipe's; {undo}. "
            "Nothing was started.")


def _variable(name: str, value: str) -> str:
    """`NAME=value in the environment`, the value shown without a credential and cut to a line."""
    from wizard.security import cut, redact_secrets  # deferred: only a refusal names a value

    return f"{name}={cut(redact_secrets(value.strip()), 120)} in the environment"


#: pip's on/off settings among those: one set off (`PIP_USER=0`, `dry-run = no`) does not count.
_PIP_SWITCHES = ("user", "dry-run")


def _pip_file_keys(path: Path) -> list[str]:
    """The keys a pip.conf sets in the sections `pip install` reads, `_` spelt `-` as pip takes them (a switch set
    off does not count)."""
    keys = [(key.replace("_", "-").lower(), value) for key, value in pip_settings(path, ("global", "install")).items()]
    return [key for key, value in keys if not (key in _PIP_SWITCHES and value.strip().lower() in _OFF)]


def _uv_pip_keys(path: Path) -> list[str]:
    """The keys of a uv settings file's `[pip]` table."""
    table = uv_settings(path).get("pip")
    return list(table) if isinstance(table, dict) else []


#: How to make the uv the wizard ships (0.13) trust the system's certificates: its `--system-certs` switch, as a
#: variable the wizard's uv steps inherit (`runner.PASSED_PREFIXES`). uv 0.13 calls `UV_NATIVE_TLS` deprecated
#: and its own hint says `--system-certs`: walk 25 #1/#3 met three spellings in one failure (the install screen's
#: `UV_NATIVE_TLS=1`, uv's `--system-certs`, diagnose's `--native-tls`). Every sentence names this one.
UV_SYSTEM_CERTS = "UV_SYSTEM_CERTS=1"
#: The variables and uv settings keys that give uv a CA other than its built-in roots.
_UV_TRUST_VARIABLES = ("SSL_CERT_FILE", "SSL_CERT_DIR", "UV_SYSTEM_CERTS", "UV_NATIVE_TLS")
_UV_TRUST_KEYS = ("system-certs", "native-tls")


def pip_cert(environ: Mapping[str, str]) -> tuple[str, str] | None:
    """(the CA file pip is told to trust, where that is said: `PIP_CERT` or the settings file) or None.

    Why: behind an HTTPS-inspecting proxy the admin often names the site's CA in /etc/pip.conf (`cert = …`), so
    pip works while uv, which reads no pip.conf, fails on TLS (walk 25 #1). Read as pip reads it: the variable
    first, then its files, the first that sets `cert` (`[global]`, `[install]`, `[download]`) winning."""
    if environ.get("PIP_CERT"):
        return environ["PIP_CERT"], "PIP_CERT"
    for path in pip_files(environ):
        value = pip_settings(path, _PIP_SECTIONS).get("cert", "").strip()
        if value:
            return value, str(path)
    return None


def uv_trust_setting(environ: Mapping[str, str], cwd: str | os.PathLike[str] | None = None) -> str | None:
    """The variable or uv settings file that gives uv a CA of its own choice (`SSL_CERT_FILE`, `UV_SYSTEM_CERTS`, a
    uv.toml's `system-certs = true`), or None: then uv trusts only its built-in roots."""
    for name in _UV_TRUST_VARIABLES:
        value = environ.get(name, "")
        if value and (name.startswith("SSL_") or value.strip().lower() not in _OFF):
            return name
    for path in uv_files(environ, cwd):
        data = uv_settings(path)
        tables = [data, data.get("pip") if isinstance(data.get("pip"), dict) else {}]
        if any(table.get(key) is True for table in tables for key in _UV_TRUST_KEYS):
            return str(path)
    return None


def pip_trust_gap(environ: Mapping[str, str], cwd: str | os.PathLike[str] | None = None) -> tuple[str, str] | None:
    """(the CA file pip trusts, where that is said in words) when pip has a `cert` and uv has nothing matching, else None.

    The one trust rule (walk 33 #2): the plan's caution (`uv_trust_gap`), the installer a plan or a bundle takes by
    itself (`install.plan.default_installer`) and the CA a bundle's resolver is given (`uv_trust_env`) all read it,
    so `bundle` no longer fails on TLS where the plan on the same machine chose pip for exactly that reason."""
    found = pip_cert(environ)
    if found is None or uv_trust_setting(environ, cwd) is not None:
        return None
    cert, where = found
    return cert, "PIP_CERT" if where == "PIP_CERT" else f"`cert` in {where}"


def uv_trust_env(environ: Mapping[str, str], cwd: str | os.PathLike[str] | None = None) -> dict[str, str]:
    """The variable that gives uv pip's CA (`SSL_CERT_FILE`, or `SSL_CERT_DIR` for a folder) where the trust rule
    finds a gap (`pip_trust_gap`), else nothing: uv resolves a bundle's lock (pip has no hashed resolver), and with
    the installer pip it trusts what pip trusts, as the plan's sentence says it can."""
    gap = pip_trust_gap(environ, cwd)
    if gap is None:
        return {}
    return {"SSL_CERT_DIR" if os.path.isdir(gap[0]) else "SSL_CERT_FILE": gap[0]}


def uv_trust_gap(environ: Mapping[str, str], cwd: str | os.PathLike[str] | None = None,
                 keys: str | None = "i on the Plan screen") -> str | None:
    """One sentence when pip has a `cert` configured and uv has nothing matching (`pip_trust_gap`): uv would then
    fail on TLS where pip works, so the way that works is named first (pip), then the uv setting.
    None when pip names no cert or uv has its own (walk 25 #1: the plan chose uv without a word). `keys`: the app's
    keys that switch it from where the sentence is read (the Plan screen's i; p, then i after a failure); None for
    a command the app does not run (`bundle`)."""
    gap = pip_trust_gap(environ, cwd)
    if gap is None:
        return None
    cert, said = gap
    app = f"; in the app: {keys}" if keys else ""
    return (f"pip here trusts the certificates in {cert} ({said}), and uv reads no pip settings: behind an "
            f"HTTPS-inspecting proxy uv fails on TLS where pip works. Switch the installer to pip (`--installer pip`"
            f"{app}), or give uv the same file with SSL_CERT_FILE={cert} "
            f"(or {UV_SYSTEM_CERTS} to use the system's certificates).")
