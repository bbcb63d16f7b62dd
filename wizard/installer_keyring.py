"""The `keyring` program an installer would run on its own to ask for an index's password, held to the rule every
program found on PATH passes (`children.program_risk`).

Why: uv with `UV_KEYRING_PROVIDER=subprocess` (or `keyring-provider = "subprocess"` in a uv.toml), and pip with
`keyring-provider` `subprocess` — or its default `auto` whenever it may ask for input — run the first `keyring` on
their PATH when an index answers 401 or names a user. The wizard finds its own programs on PATH only past that rule
(`children.which`), but the installers' child was not looked at: another user's `keyring`, in a folder that passed
the PATH check, ran as root inside `uv pip install` (leftovers of the 30th hostile pass, item 1). Every start of an
installer asks `installer_files.trust_problem`, which asks this, so the plan marks it "!" and nothing starts.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from wizard.children import program_risk
from wizard.installer_settings import pip_files, pip_settings, uv_files, uv_settings

#: The variable each installer reads its keyring provider from; it wins over every settings file.
PROVIDER_VARIABLES = {"uv": "UV_KEYRING_PROVIDER", "pip": "PIP_KEYRING_PROVIDER"}
#: Each installer's provider when nothing sets one: uv asks no keyring, pip tries one (`auto`).
DEFAULT_PROVIDERS = {"uv": "disabled", "pip": "auto"}
_OFF = ("", "0", "false", "no", "off")


def keyring_provider(installer: str, environ: Mapping[str, str],
                     cwd: str | os.PathLike[str] | None) -> tuple[str, str | None]:
    """(the provider `installer` would use, where it is set: the variable, `` `keyring-provider = …` in FILE ``, or
    None for the installer's default), read as the installer reads it: the variable, then its settings files, the
    one that wins first (for uv a `[pip]` table's over the file's top level)."""
    variable = PROVIDER_VARIABLES[installer]
    value = (environ.get(variable) or "").strip().lower()
    if value:
        return value, f"{variable}={value}"
    if installer == "uv":
        for path in uv_files(environ, cwd):
            data = uv_settings(path)
            for table, where in ((data.get("pip") if isinstance(data.get("pip"), dict) else {}, "[pip] "),
                                 (data, "")):
                found = table.get("keyring-provider")
                if isinstance(found, str) and found:
                    return found.strip().lower(), f'`{where}keyring-provider = "{found}"` in {path}'
    else:
        for path in pip_files(environ):
            settings = {k.replace("_", "-").lower(): v for k, v in pip_settings(path, ("global", "install")).items()}
            found = settings.get("keyring-provider", "").strip()
            if found:
                return found.lower(), f"`keyring-provider = {found}` in {path}"
    return DEFAULT_PROVIDERS[installer], None


def _may_prompt(environ: Mapping[str, str]) -> bool:
    """Whether pip may ask for input (no `PIP_NO_INPUT`, no `no-input` in its settings): its `auto` provider runs a
    keyring only then."""
    if (environ.get("PIP_NO_INPUT") or "").strip().lower() not in _OFF:
        return False
    for path in pip_files(environ):
        settings = {k.replace("_", "-").lower(): v for k, v in pip_settings(path, ("global", "install")).items()}
        if settings.get("no-input", "").strip().lower() not in _OFF:
            return False
    return True


def runs_keyring(installer: str, environ: Mapping[str, str], cwd: str | os.PathLike[str] | None) -> str | None:
    """Where `installer` is set to run the `keyring` program PATH finds (the variable or settings file, or pip's
    default in words), or None when it runs none."""
    provider, where = keyring_provider(installer, environ, cwd)
    if provider == "subprocess":
        return where or f"{installer}'s default keyring-provider"
    if installer == "pip" and provider == "auto" and _may_prompt(environ):
        return where or "pip's default keyring-provider (`auto`, which runs the `keyring` on PATH when it may ask)"
    return None


def first_on_path(program: str, path: str) -> str | None:
    """The first executable file named `program` in the folders of `path`, as the installer's own look-up finds it
    (an empty entry is the folder it runs in): unjudged, since the installer does not skip one."""
    for folder in path.split(os.pathsep):
        candidate = os.path.join(folder or ".", program)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    return None


def keyring_problem(installer: str, environ: Mapping[str, str], cwd: str | os.PathLike[str] | None) -> str | None:
    """Why `installer` may not start here: it is set to run the `keyring` PATH finds (`runs_keyring`), and another
    user could have put that program there or change it (`children.program_risk`) — one sentence naming the program,
    the place, the variable or file, and the fix; None when it runs none or the one it would run passes."""
    where = runs_keyring(installer, environ, cwd)
    if where is None:
        return None
    program = first_on_path("keyring", environ.get("PATH", os.defpath))
    found = program_risk(program) if program else None
    if found is None:
        return None
    why = found[1]
    variable = PROVIDER_VARIABLES[installer]
    return (f"{where} makes {installer} run the `keyring` program PATH finds first, {program}, to ask for an index's "
            f"password, and {why}, so another user could have put their own program there and {installer} would run "
            f"it as you; set {variable}=disabled for gc-wizard (`{variable}=disabled gc-wizard …`), or put a `keyring` only "
            "you (and root) can change first on PATH. Nothing was started.")

