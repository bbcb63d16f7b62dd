"""The user's installer settings that change how uv or pip picks or checks the recipe's packages — hashes
required or not checked, pre-releases, the lowest versions, a date cut-off, wheels or builds refused — each named
on the plan and again when a step fails, with the way to take it away.

Why: 32nd hostile pass (part B) P2 — `UV_REQUIRE_HASHES=1` made every install fail at its first package step
("In `--require-hashes` mode, all requirements must have a hash"; a lock's GraphCast step too, a local file has no
hash), while the plan said nothing and the failure named no variable. These are the user's to choose (a site may
want hashes everywhere), so they are passed on, not set back (`uv_overrides`) nor refused (`installer_files.
requirement_problem` refuses the ones that replace or add packages: UV_OVERRIDE, UV_CONSTRAINT, PIP_CONSTRAINT …);
but each is said. One table for both installers, read from `uv pip install --help` (uv 0.13: `UV_NO_BINARY`,
`UV_NO_BUILD` and `UV_ONLY_BINARY` are not read by `uv pip`, checked; a uv.toml's keys are) and from pip's
`install` options (every option is `PIP_<NAME>` and a pip.conf key). Standard library only: the plan, the runner and
the failure message read it.
"""

from __future__ import annotations

import os
import ssl
from collections.abc import Mapping
from typing import NamedTuple

from wizard.installer_settings import pip_files, pip_settings, uv_files, uv_settings


class Setting(NamedTuple):
    """One row of `SETTINGS`: a variable, its settings-file key, and what it does to the recipe's install."""

    installer: str
    variable: str
    #: the key in a uv settings file (its top level, and its `[pip]` table) or in a pip.conf's `[global]`/`[install]`
    key: str
    #: "switch" (on unless an off word), "value" (any value but `default`), "negated" (a uv key set to false),
    #: "trust" (which TLS certificates the installer trusts: a path, or a switch; `_system_store` is not named)
    kind: str
    what: str
    #: the value that changes nothing (uv's default, pip's `:none:`), never named
    default: str = ""
    #: words of the installer's own failure this setting causes: the failure names it as the cause
    marker: str | None = None


_HASHES = ("would have {installer} require a sha256 for every requirement, which the recipe's pins and the "
           "GraphCast source do not carry (a lock's GraphCast step neither), so every install fails at its first "
           "package step")
_NO_ISOLATION = ("would have {installer} build GraphCast (from a checkout or git source) in the environment itself, "
                 "without its build requirements (setuptools), so that build fails on \"No module named\"")
_BUILD_MARKER = "No module named"
_INSECURE = ("would have {installer} skip the TLS certificate checks for that host, so whoever sits between you and "
             "it could serve the packages installed as you")
_TRUST_FILE = ("has {installer} trust the certificate authorities in that file for its indexes and downloads, in "
               "place of the ones it trusts on its own (passed on as set)")
_TRUST_DIR = ("has {installer} trust the certificate authorities in that folder for its indexes and downloads, in "
              "place of the ones it trusts on its own (passed on as set)")
_TRUST_SYSTEM = ("has uv trust the system's certificate store for its indexes and downloads, in place of its "
                 "built-in roots (passed on as set)")

_ANY_INDEX = ("would have uv take each package from whichever index or find-links page offers the version it "
              "wants, not the first that has the package, so a package name another index also holds can be "
              "served from there")
_BACKEND = "would hand those options to the build backend of every package built, GraphCast's included"
SETTINGS: tuple[Setting, ...] = (
    Setting("uv", "UV_REQUIRE_HASHES", "require-hashes", "switch", _HASHES, marker="require-hashes"),
    Setting("uv", "UV_NO_VERIFY_HASHES", "verify-hashes", "negated",
            "would have uv install a lock's files without checking them against its hashes"),
    Setting("uv", "UV_RESOLUTION", "resolution", "value",
            "would have uv pick the lowest versions the pins allow for the packages they do not fix", "highest"),
    Setting("uv", "UV_PRERELEASE", "prerelease", "value",
            "would have uv take pre-releases the recipe was not tested with", "if-necessary-or-explicit"),
    Setting("uv", "UV_EXCLUDE_NEWER", "exclude-newer", "value",
            "would hide from uv every package an index got after that date, which can leave a pin without a file"),
    Setting("uv", "", "no-binary", "value", "would have uv build every package from source instead of its wheel"),
    Setting("uv", "", "no-build", "value", "would have uv build nothing, GraphCast from a checkout included"),
    Setting("uv", "", "only-binary", "value", "would have uv build nothing, GraphCast from a checkout included"),
    # 34th hostile pass (part B) P5: these passed through the `UV_`/`PIP_` prefix unnamed — without isolation a
    # source build (GraphCast from a checkout or git) finds no setuptools and the failure advised installing it;
    # an insecure/trusted host turns TLS checks off for that index.
    Setting("uv", "UV_NO_BUILD_ISOLATION", "no-build-isolation", "switch", _NO_ISOLATION, marker=_BUILD_MARKER),
    Setting("uv", "UV_INSECURE_HOST", "allow-insecure-host", "value", _INSECURE),
    Setting("uv", "UV_SKIP_WHEEL_FILENAME_CHECK", "", "switch",
            "would have uv install wheels whose file name does not match their own metadata"),
    Setting("pip", "PIP_NO_BUILD_ISOLATION", "no-build-isolation", "value", _NO_ISOLATION, marker=_BUILD_MARKER),
    Setting("pip", "PIP_TRUSTED_HOST", "trusted-host", "value", _INSECURE),
    Setting("pip", "PIP_REQUIRE_HASHES", "require-hashes", "switch", _HASHES, marker="require-hashes"),
    Setting("pip", "PIP_PRE", "pre", "switch", "would have pip take pre-releases the recipe was not tested with"),
    Setting("pip", "PIP_NO_BINARY", "no-binary", "value",
            "would have pip build those packages from source instead of their wheels", ":none:"),
    Setting("pip", "PIP_ONLY_BINARY", "only-binary", "value",
            "would have pip build nothing, GraphCast from a checkout included", ":none:"),
    # Fixers' leftover (TLS trust variables): these were passed on to every step (`runner.PASSED`) but named nowhere,
    # so a plan trusting a site's CA, or the system's store in place of uv's own roots, read as any other. Named with
    # the path they give, never more; no way to undo is given: they are the user's, and passed on as set.
    Setting("uv", "SSL_CERT_FILE", "", "trust", _TRUST_FILE),
    Setting("uv", "SSL_CERT_DIR", "", "trust", _TRUST_DIR),
    Setting("uv", "UV_SYSTEM_CERTS", "system-certs", "trust", _TRUST_SYSTEM),
    Setting("uv", "UV_NATIVE_TLS", "native-tls", "trust", _TRUST_SYSTEM),
    Setting("pip", "PIP_CERT", "cert", "trust", _TRUST_FILE),
    Setting("pip", "REQUESTS_CA_BUNDLE", "", "trust", _TRUST_FILE),
    Setting("pip", "CURL_CA_BUNDLE", "", "trust", _TRUST_FILE),
    Setting("pip", "SSL_CERT_FILE", "", "trust", _TRUST_FILE),
    Setting("pip", "SSL_CERT_DIR", "", "trust", _TRUST_DIR),

    # 35th hostile pass (part B) P8: a second set past the prefix unnamed; `test_installer_variables_classified`
    # now holds every UV_/PIP_ setting the installed uv and pip know to a table or a reasoned list.
    Setting("uv", "UV_INDEX_STRATEGY", "index-strategy", "value", _ANY_INDEX, "first-index"),
    Setting("uv", "UV_NO_SOURCES", "no-sources", "switch",
            "would have uv ignore the `tool.uv.sources` of the packages it builds, so it takes their dependencies "
            "from the index instead of the places they name"),
    Setting("uv", "UV_NO_SOURCES_PACKAGE", "no-sources-package", "value",
            "would have uv ignore the `tool.uv.sources` of those packages"),
    Setting("uv", "UV_TORCH_BACKEND", "torch-backend", "value",
            "would have uv take the PyTorch-ecosystem packages from the PyTorch index it picks for that backend"),
    Setting("uv", "UV_FORK_STRATEGY", "fork-strategy", "value",
            "would have uv pick other versions for the packages the pins do not fix", "requires-python"),
    Setting("uv", "", "config-settings", "value", _BACKEND),
    Setting("pip", "PIP_CONFIG_SETTINGS", "config-settings", "value", _BACKEND),
    Setting("pip", "PIP_IGNORE_REQUIRES_PYTHON", "ignore-requires-python", "switch",
            "would have pip install packages that say they do not run on this Python"),
    Setting("pip", "PIP_UPLOADED_PRIOR_TO", "uploaded-prior-to", "value",
            "would hide from pip every package an index got after that date, which can leave a pin without a file"),
    Setting("pip", "PIP_ONLY_DEPS", "only-deps", "switch",
            "would have pip install only the dependencies of what it is given, not the packages themselves"),
    Setting("pip", "PIP_ALL_RELEASES", "all-releases", "value",
            "would have pip take pre-releases the recipe was not tested with", ":none:"),
)
#: The values both installers read as "off" for a switch.
_OFF = ("", "0", "false", "no", "off")


class Found(NamedTuple):
    """One `SETTINGS` row set here: where (`UV_REQUIRE_HASHES=1`, "`require-hashes = true` in /x/uv.toml"), and
    the sentence that names it with its fix."""

    setting: Setting
    where: str
    words: str


def _counts(setting: Setting, value: object) -> bool:
    """Whether `value`, as the variable or key gives it, changes anything."""
    if value is None or value == [] or value == "":
        return False
    if setting.kind == "negated":  # the key says "verify-hashes = false"; the variable "UV_NO_VERIFY_HASHES=1"
        return value is False
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if setting.kind == "switch":
        return text not in _OFF
    return text != setting.default


def found_settings(installer: str, environ: Mapping[str, str],
                   cwd: str | os.PathLike[str] | None = None) -> list[Found]:
    """Every `SETTINGS` row of `installer` set here: by its variable, else by a settings file the installer reads
    (`uv_files`: top level and `[pip]`; `pip_files`: `[global]` and `[install]`)."""
    rows = [s for s in SETTINGS if s.installer == installer]
    if installer == "uv":
        tables = []
        for path in uv_files(environ, cwd):
            data = uv_settings(path)
            tables += [(path, "", data), (path, "[pip] ", data.get("pip") if isinstance(data.get("pip"), dict) else {})]
    else:
        tables = [(path, "", {k.replace("_", "-").lower(): v for k, v in pip_settings(path, ("global", "install")).items()})
                  for path in pip_files(environ)]
    found: list[Found] = []
    for setting in rows:
        given = (environ.get(setting.variable) or "").strip() if setting.variable else ""
        if given:  # the variable wins over every file, an "off" one too
            on = given.lower() not in _OFF if setting.kind != "value" else given.lower() != setting.default
            if on and not (setting.kind == "trust" and _system_store(given)):
                found.append(_found(setting, f"{setting.variable}={given}", installer, by_variable=True))
            continue
        for path, table_name, table in tables:
            value = table.get(setting.key)
            if _counts(setting, value) and not (setting.kind == "trust" and _system_store(str(value))):
                # a pip.conf's words are strings: a switch's "off" ones do not count
                shown = str(value).lower() if isinstance(value, bool) else value
                found.append(_found(setting, f"`{table_name}{setting.key} = {shown}` in {path}", installer))
                break
    return found


def _system_store(value: str) -> bool:
    """Whether `value` names the system's own certificate file or folder (the ones OpenSSL was built to read, links
    followed: `SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt`, set in many images): trusting it changes nothing
    worth a line on every plan."""
    defaults = ssl.get_default_verify_paths()  # its `cafile`/`capath` are SSL_CERT_FILE/DIR when set: not read
    own = {os.path.realpath(place) for place in (defaults.openssl_cafile, defaults.openssl_capath) if place}
    return bool(os.path.isabs(value)) and os.path.realpath(value) in own


def _found(setting: Setting, where: str, installer: str, by_variable: bool = False) -> Found:
    """The row with its sentence: what it does and the way to take it away (a "trust" row: only what it does)."""
    if setting.kind == "trust":
        return Found(setting, where, f"{where} {setting.what.format(installer=installer)}.")
    undo = (f"unset it for gc-wizard (`env -u {setting.variable} gc-wizard …`)" if by_variable
            else "take it out of that file (or set PIP_CONFIG_FILE=/dev/null / UV_NO_CONFIG=1 for gc-wizard)")
    if setting.marker == "require-hashes":
        undo += " (to have every package's hash checked, install from a hashed lock, `gc-wizard lock RECIPE`, with it unset)"
    what = setting.what.format(installer=installer)
    return Found(setting, where, f"{where} {what}: {undo}.")


def resolution_notes(installer: str, environ: Mapping[str, str],
                     cwd: str | os.PathLike[str] | None = None) -> list[str]:
    """The plan's note for each setting found (`found_settings`), in the table's order."""
    return [found.words for found in found_settings(installer, environ, cwd)]


def resolution_advice(installer: str | None, said: str, environ: Mapping[str, str],
                      cwd: str | os.PathLike[str] | None = None) -> str | None:
    """The failed step's fix when a setting found here is its cause (its `marker` is in what the installer `said`),
    else the settings found named as what may be: one sentence, or None when none is set."""
    found = found_settings(installer, environ, cwd) if installer in ("uv", "pip") else []
    found = [f for f in found if f.setting.kind != "trust"]  # which CAs are trusted changes no pick: the plan's note
    if not found:
        return None
    cause = next((f for f in found if f.setting.marker and f.setting.marker in said), None)
    if cause is not None:
        return f"The cause is your setting: {cause.words}"
    return "Your settings change what the installer picks, which may be why: " + " ".join(f.words for f in found)
