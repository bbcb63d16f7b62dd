"""How this gc-wizard was installed, and the command that repairs that install.

gc-wizard is not on the package index: advice to reinstall it must name the source it was installed from
(its dist-info's `direct_url.json`, PEP 610: a folder, an editable checkout, a wheel, a VCS URL), never
the bare name `gc-wizard`, which an index would answer with whatever someone registered under it. The
install's manager is read from what it leaves behind: `uv-receipt.toml` in a `uv tool` environment,
`pipx_metadata.json` in a pipx one, else the dist-info's INSTALLER (pip or uv) in a plain environment.
Only read when a command finds pip or uv missing, so it costs nothing at start-up.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wizard import bounded
from wizard.security import local_url, redact_credentials, shell_word

DIST = "gc-wizard"


@dataclass(frozen=True)
class SelfInstall:
    manager: str  # "uv tool", "pipx", "uv", "pip" or "" (unknown)
    source: str  # a local folder or file, or a URL ("" when it came from an index or is unknown)
    editable: bool
    python: str  # the interpreter gc-wizard runs on
    source_risk: str = ""
    """Why another user could change the local `source` ("the folder /home/tuser above it is a folder that user tuser
    … owns, and gc-wizard runs as root"), or "": then no advice reinstalls from it (`repair_advice`, `carry_words`)."""


def _dist_info() -> Any:
    """The gc-wizard distribution this interpreter finds first on sys.path, or None."""
    try:
        from importlib.metadata import distribution  # deferred: only the repair advice reads it

        return distribution(DIST)
    except Exception:  # noqa: BLE001 - not installed at all (run from a checkout on PYTHONPATH), or unreadable
        return None


def _read(info: Any, name: str) -> str:
    if info is None:
        return ""
    try:
        return info.read_text(name) or ""
    except (OSError, UnicodeError):
        return ""


def _source(info: Any) -> tuple[str, bool]:
    try:
        data = bounded.loads_json(_read(info, "direct_url.json") or "null")
    except ValueError:
        return "", False
    if not isinstance(data, dict) or not isinstance(data.get("url"), str):
        return "", False
    url: str = data["url"]
    dir_info = data.get("dir_info") if isinstance(data.get("dir_info"), dict) else {}
    editable = bool(dir_info.get("editable"))
    if url[:5].lower() == "file:":  # any file: form (`file:/x`, `file:///x`): a local path, read by the one parser
        try:
            found = local_url(url)
        except ValueError:  # another host's `file:` URL: no place here
            found = None
        return (found[1] if found is not None else ""), editable
    vcs = data.get("vcs_info") if isinstance(data.get("vcs_info"), dict) else None
    if vcs and isinstance(vcs.get("vcs"), str):
        commit = vcs.get("requested_revision") or vcs.get("commit_id")
        url = f"{vcs['vcs']}+{url}" + (f"@{commit}" if isinstance(commit, str) and commit else "")
    return redact_credentials(url, keep_user=False), editable


def _manager(info: Any) -> str:
    prefix = Path(sys.prefix)
    if (prefix / "uv-receipt.toml").is_file():
        return "uv tool"
    if (prefix / "pipx_metadata.json").is_file():
        return "pipx"
    said = _read(info, "INSTALLER").strip().lower()
    return said if said in ("pip", "uv") else ""


def self_install() -> SelfInstall:
    """How this gc-wizard was installed; a local source is held to the rule every install source is
    (`source_trust.swap_risk`), so that no advice built from it tells the user to build another user's folder.

    Why: 28th hostile pass (part B) P5 — root's gc-wizard, installed from a folder tuser owned, advised
    `pip install /home/tuser/…` when uv or pip was missing: following it as root builds (runs) whatever tuser has
    put there by then, a folder every other command refuses."""
    info = _dist_info()
    source, editable = _source(info)
    return SelfInstall(manager=_manager(info), source=source, editable=editable, python=sys.executable,
                       source_risk=source_risk(source))


def installed_source(env: Path) -> str | None:
    """The source the gc-wizard installed in environment `env` came from, read as `self_install` reads its own ("" for
    an index); None when `env` holds no gc-wizard. For `paths._lasting_install` (walk 37 #1)."""
    from importlib.metadata import distributions  # deferred: only the printed lines of a cached run ask

    for site in sorted(env.glob("lib/python*/site-packages")):
        for info in distributions(name=DIST, path=[str(site)]):
            return _source(info)[0]
    return None


def source_risk(source: str) -> str:
    """Why another user could change `source` (a local folder or file gc-wizard was installed from), in words that
    follow its path; "" for a URL, an unknown source, or one only the reader and root can change."""
    if not source or "://" in source or not source.startswith("/"):
        return ""
    from wizard.source_trust import swap_risk  # deferred: only the repair advice reads it

    found = swap_risk(Path(source))
    if found is None:
        return ""
    place, why, _fix = found
    return f"{'it' if str(place) == source else place} {why}"


def _q(text: str) -> str:
    return shell_word(text)


#: uv's own installer, for a machine where neither uv nor pip can be had from gc-wizard's environment.
UV_INSTALLER = "curl -LsSf https://astral.sh/uv/install.sh | sh"


def has_module(name: str) -> bool:
    """Whether `python -m NAME` can run on this interpreter (gc-wizard's own, which the advice names): a module
    blocked in `sys.modules` or absent cannot."""
    if name in sys.modules:
        return sys.modules[name] is not None
    from importlib.util import find_spec  # deferred: only the repair advice asks

    try:
        return find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def repair_advice(missing: str, *, uv: str | None = None, found: SelfInstall | None = None) -> str:
    """The end of a sentence saying how to get `missing` ("pip" or "uv") back into gc-wizard's environment,
    e.g. "reinstall gc-wizard from /src (`/opt/uv tool install --reinstall /src`), or add pip there (`…`)".
    `uv` is a uv binary that can add pip (None when uv is missing too). Never names gc-wizard bare.

    Every command named can run as it stands (twenty-first hostile pass P5: with uv on neither path, the advice
    led with `uv tool install --reinstall …` and then `python -m pip install uv` in an env without pip): a uv
    command names the uv binary found, by its path, and only when there is one; `pipx` only when it is on PATH;
    `python -m pip` only when pip is there, else after `python -m ensurepip` where that exists, else uv's own
    installer leads."""
    found = found or self_install()
    if found.source_risk:  # no reinstall from it, by any manager: each would build that folder again
        found = SelfInstall(manager="", source="", editable=False, python=found.python,
                            source_risk=f"{found.source}: {found.source_risk}")
    python = _q(found.python)
    src = _q(found.source) if found.source else ""
    spec = ("--editable " if found.editable else "") + src if src else ""
    managed = externally_managed()
    # A Python its distribution manages (PEP 668) refuses `pip install` into itself (and `ensurepip`): such a command
    # is never advised (22nd hostile pass P12: both choices stopped with `externally-managed-environment`).
    pip = has_module("pip") and not managed
    get_pip = "" if pip else f"{python} -m ensurepip && " if has_module("ensurepip") and not managed else None
    reinstall = ""
    if found.manager == "uv tool":
        # the receipt keeps the source, so an upgrade with --reinstall goes back to it, not to the index
        if uv:
            reinstall = (f"`{_q(uv)} tool install --reinstall {spec}`" if spec
                         else f"`{_q(uv)} tool upgrade --reinstall gc-wizard`")
    elif found.manager == "pipx":
        if _on_path("pipx"):
            reinstall = "`pipx reinstall gc-wizard`"  # pipx reinstalls from the spec it recorded
    elif spec:
        if found.manager == "uv" and uv:
            reinstall = f"`{_q(uv)} pip install --python {python} {spec}`"
        elif missing != "pip" and pip:
            reinstall = f"`{python} -m pip install {('-e ' if found.editable else '') + src}`"
    if missing == "pip":
        add = (f"`{_q(uv)} pip install --python {python} pip`" if uv else f"`{python} -m ensurepip`"
               if get_pip is not None else None)
    else:
        add = f"`{get_pip}{python} -m pip install uv`" if get_pip is not None else None
    standalone = f"install uv on its own (`{UV_INSTALLER}`, then open a new shell so it is on PATH)"
    if add is None:  # neither uv nor a way to pip here: uv's own installer is the one command that runs
        add_words = (f"{standalone}, then add pip there (`uv pip install --python {python} pip`)"
                     if missing == "pip" else standalone)
    else:
        add_words = f"add {missing} there ({add})" + (f", or {standalone}" if missing == "uv" else "")
    if found.source_risk:  # the folder it came from is not offered: another user could change what it builds
        return (f"{add_words} (not a reinstall from the folder gc-wizard was installed from, {found.source_risk}, so "
                "building it would run their code as you; install gc-wizard from a copy of your own instead)")
    where = f" from {found.source}" if found.source else " the way it was installed"
    if reinstall:
        return f"reinstall gc-wizard{where} ({reinstall}), or {add_words}"
    return f"{add_words}, or reinstall gc-wizard{where}"


def externally_managed() -> bool:
    """Whether this Python is one its distribution manages (PEP 668: an `EXTERNALLY-MANAGED` file beside its
    standard library) and gc-wizard runs on it directly, not in a virtual environment: pip refuses to install
    into it then."""
    if sys.prefix != sys.base_prefix:
        return False
    import os
    import sysconfig  # deferred: only the repair advice asks

    try:
        return os.path.isfile(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED"))
    except (KeyError, OSError):
        return False


def _on_path(program: str) -> bool:
    from wizard.children import which  # the PATH trust rule (25th hostile pass (part B) P5)

    return which(program) is not None


def find_uv_quietly() -> str | None:
    """A uv binary to advise with, or None: the `uv` package's, else one on PATH (no settings checks)."""
    try:
        from uv import find_uv_bin

        return find_uv_bin()
    except (ImportError, FileNotFoundError):
        from wizard.children import which  # the PATH trust rule (25th hostile pass (part B) P5)

        return which("uv")


def carry_words() -> str:
    """How gc-wizard gets onto the machine that gathers the forecast's files: it is not on PyPI, so from the source
    this one was installed from (its folder, file or URL, as pip recorded it), never from an index by name. Here, not in
    `after.next_steps`: the forecast's asset words need it too, and next_steps reads theirs (a circle, review)."""
    found = self_install()  # reads the dist-info: only where the words are shown
    source = found.source
    if found.source_risk:  # 28th hostile pass (part B) P5: never advise installing from a folder another user controls
        return (f"gc-wizard is not on PyPI, and the folder it was installed from, {shell_word(source)}: "
                f"{found.source_risk}, so it is not offered; install it there from a copy of your own, as its "
                "README's Quick start does")
    if source and "://" not in source:
        name = shell_word(f"./{Path(source).name}")
        # Walk 27 (vague "here"): "install it the same way" left a newcomer to guess how it was installed here; the steps are said.
        return (f"gc-wizard is not on PyPI: copy {shell_word(source)} to that machine and, in the folder that holds "
                f"the copy, install it into a venv of its own, `python3 -m venv .venv && .venv/bin/pip install {name}`")
    if source:  # the venv `paths.elsewhere_command` names (walk 37 #4)
        return (f"gc-wizard is not on PyPI: install it there into a venv of its own, "
                f"`python3 -m venv .venv && .venv/bin/pip install {shell_word(source)}`")
    return ("gc-wizard is not on PyPI: copy the folder it was installed from there and install it as its README's "
            "Quick start does")
