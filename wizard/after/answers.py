"""Provides replay files: the answers of one install, saved, then replayed unattended elsewhere.

A lab admin runs the wizard once interactively with `--save-answers FILE`, then runs
`gc-wizard install --answers FILE --yes` on every other server. Saved configs that silently stop
replaying are a known pain (archinstall #772, #710), so the file carries a schema name and a
version, and loading validates everything up front: a wrong, old or newer file, an unknown key or
a value of the wrong type is one sentence naming the file and the key, never a traceback halfway
through an install. The recipe id is checked against the recipes loaded on *this* server by
`check_recipe`, because the two servers may have different recipe folders.

The file stores the recipe, the environment and `InstallOptions.to_dict()` (version 2; a version-1
file, which said `no_verify` where the options say `verify`, is still read). The format is JSON (YAML
is accepted too, for hand-written files). A path under the home folder is saved as `~/...` so the
same file works for a different user on another server.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from wizard import bounded
from wizard.errors import UserError
from wizard.install.options import InstallOptions, want_type
from wizard.install.source_env import link_place
from wizard.outputs import write_output_file
from wizard.paths import not_utf8, uncreatable_env_path, unusable_env_path
from wizard.recipes.loader import is_recipe_id
from wizard.security import expand_home, holds_mask, known_home, redact_value
from wizard.source_trust import refuse_swappable_source
from wizard.yaml_data import NumberNotWritten, YAMLError, dump_data, load_user_data

SCHEMA = "gc-wizard-answers"
VERSION = 2
#: Version 1 stored `no_verify` where `InstallOptions` says `verify`; it is read and translated.
_OLDEST_READ = 1

_TOP_KEYS = ("schema", "version", "recipe", "options", "env")


@dataclass(frozen=True)
class Answers:
    """One install's answers: the options (recipe and environment included) and where they came from.

    `options.env` None means "a new managed environment" on the replaying server.
    """

    options: InstallOptions = field(default_factory=InstallOptions)
    source: str | None = None
    """The file these were loaded from (for messages); not saved."""

    @property
    def recipe(self) -> str:
        return self.options.recipe_id

    @property
    def env(self) -> str | None:
        return self.options.env

    def to_dict(self) -> dict[str, Any]:
        return {"schema": SCHEMA, "version": VERSION, "recipe": self.recipe, "options": self.options.to_dict(),
                "env": self.env}


# --------------------------------------------------------------------------- paths


def _portable(path: str | None) -> str | None:
    """`/home/me/x` -> `~/x`, so a file saved by one user replays for another."""
    if path is None or "://" in path:
        return path
    expanded = os.path.abspath(expand_home(path))
    if known_home() is None:
        return expanded
    home = str(known_home())
    if expanded == home:
        return "~"
    if expanded.startswith(home.rstrip("/") + "/"):
        return "~/" + expanded[len(home.rstrip("/")) + 1:]
    return expanded


def _local(path: str | None) -> str | None:
    if path is None or "://" in path:
        return path
    return expand_home(path)


def _looks_like_local_path(value: str) -> bool:
    return value.startswith(("/", "~", "./", "../")) or os.path.exists(value)


# --------------------------------------------------------------------------- build from a run


def answers_for(options: InstallOptions) -> Answers:
    """The answers of an install run: its options with home-relative paths, run-only options dropped."""
    if not options.recipe_id:
        raise UserError("cannot save answers without a recipe; name one: gc-wizard install RECIPE --save-answers FILE")
    src = options.graphcast_src
    if src and _looks_like_local_path(src):
        src = _portable(src)
    portable = InstallOptions(
        recipe_id=options.recipe_id, env=_portable(options.env) if options.env else None,
        installer=options.installer, level=options.level, verify=options.verify, graphcast_src=src,
        find_links=tuple(_portable(d) or d for d in options.find_links), offline=options.offline)
    return Answers(options=portable)


def apply_answers(given: InstallOptions, answers: Answers) -> InstallOptions:
    """The options of a replayed install: the command line's `given` options filled from `answers`.

    The answers decide the recipe, installer, verify level, GraphCast source and environment; a
    recipe given on the command line must agree with the file's. Flags that only add (`--no-verify`,
    `--offline`, `--find-links`) are combined with the command line's.
    """
    if given.recipe_id and given.recipe_id != answers.recipe:
        raise UserError(
            f"the recipe on the command line ({given.recipe_id}) differs from the one in "
            f"{answers.source or 'the answers file'} ({answers.recipe}); give one or the other."
        )
    saved = answers.options
    _refuse_masked(given, answers)
    given_places = {link_place(d) for d in given.find_links}
    links = [_local(d) or d for d in saved.find_links if not (holds_mask(d) and link_place(d) in given_places)]
    return replace(
        given, recipe_id=answers.recipe, installer=saved.installer, level=saved.level,
        verify=given.verify and saved.verify, offline=given.offline or saved.offline,
        graphcast_src=given.graphcast_src or _local(saved.graphcast_src),
        find_links=tuple(links + [d for d in given.find_links if d not in links]),
        env=given.env or _local(saved.env))


def _refuse_masked(given: InstallOptions, answers: Answers) -> None:
    """Refuse (UserError, exit 2, before anything runs) a value the file holds with its secret masked, unless
    the command line or the environment gives it again: `save_answers` masks a URL's password or signed query
    (`https://alice:***@host/`, `?token=<redacted>`) since the file is made to be copied around, and replayed as
    it is the placeholder was sent to the server, failing only at the download, with a message that never named
    it (eleventh hostile pass #161). A masked find-links URL is replaced by one the user gives for the same place
    (host and path); a masked GraphCast source or folder by the one given."""
    saved, where = answers.options, answers.source or "the answers file"
    given_places = {link_place(d) for d in given.find_links}
    masked: list[tuple[str, str]] = []
    if saved.graphcast_src and holds_mask(saved.graphcast_src) and not given.graphcast_src:
        masked.append(("options.graphcast_src", "--graphcast-src or GC_WIZARD_GRAPHCAST_SRC"))
    for i, link in enumerate(saved.find_links):
        if holds_mask(link) and link_place(link) not in given_places:
            masked.append((f"options.find_links[{i}]", "--find-links or GC_WIZARD_FIND_LINKS"))
    if saved.env and holds_mask(saved.env) and not given.env:
        masked.append(("env", "--env"))
    if masked:
        key, how = masked[0]
        raise UserError(f"answers file {where}: '{key}' holds a secret that was masked (<redacted>, ***) when the "
                        f"answers were saved, so it cannot be used as it is; give it again, credential included, "
                        f"with {how} (or put the full value back in the file).")


# --------------------------------------------------------------------------- save / load


def save_answers(path: str | os.PathLike[str], answers: Answers) -> Path:
    """Write `answers` to `path` (YAML for .yaml/.yml, JSON otherwise); returns the path written."""
    target = Path(expand_home(path))
    # Masked whole, the user name kept: the file is made to be copied to other servers, and a URL with a password
    # or a signed query was written in clear (fifth hostile pass 1e).
    data = redact_value(answers.to_dict())
    if target.suffix.lower() in (".yaml", ".yml"):
        text = "# gc-wizard answers: replay with  gc-wizard install --answers FILE --yes\n"
        text += dump_data(data)
    else:
        text = json.dumps(data, indent=2) + "\n"
    # atomic, 0600, written into (not replaced) when it is a device or through the user's link; exit 1 if not
    return write_output_file(target, text, what="the answers file")


def masked_keys(options: InstallOptions) -> list[str]:
    """The keys of the answers file for `options` whose value lost a secret to the mask (`options.graphcast_src`,
    `options.find_links[0]`), in the file's order."""
    data = answers_for(options).to_dict()
    found = []
    for key, value in data.items():
        if isinstance(value, dict):
            for sub, inner in value.items():
                items = inner if isinstance(inner, list) else [inner]
                for i, item in enumerate(items):
                    if isinstance(item, str) and redact_value(item) != item:
                        found.append(f"{key}.{sub}" + (f"[{i}]" if isinstance(inner, list) else ""))
        elif isinstance(value, str) and redact_value(value) != value:
            found.append(key)
    return found


def _parse(text: str, where: str) -> Any:
    text = bounded.strip_bom(text)
    stripped = text.lstrip()
    if not stripped:
        raise UserError(f"{where} is empty; expected a gc-wizard answers file (JSON).")
    if stripped.startswith(("{", "[")):
        try:
            return bounded.loads_json(text, duplicates=True)
        except bounded.ParseLimitError as exc:
            raise UserError(f"{where}: {exc}.") from None
        except json.JSONDecodeError as exc:
            raise UserError(f"{where} line {exc.lineno}: not valid JSON ({exc.msg}).") from None
    try:
        return load_user_data(text)
    except bounded.ParseLimitError as exc:
        raise UserError(f"{where}: {exc}.") from None
    except NumberNotWritten as exc:  # YAML, read as a number its author never wrote (`version: 0x1`)
        raise UserError(f"{where} line {exc.line}: {exc.problem}.") from None
    except YAMLError as exc:
        line = f" line {exc.line}" if exc.line is not None else ""
        problem = exc.problem or "unreadable"
        raise UserError(f"{where}{line}: neither JSON nor YAML ({problem}).") from None


def _check_keys(data: Mapping[str, Any], known: Iterable[str], where: str, prefix: str = "") -> None:
    known = tuple(known)
    for key in data:
        if key not in known:
            raise UserError(
                f"{where}: unknown key '{prefix}{key}' (known keys: {', '.join(prefix + k for k in known)})."
            )


def answers_from_dict(data: Any, where: str = "the answers file") -> Answers:
    """Validate parsed data against the schema; every problem is one UserError sentence."""
    if not isinstance(data, dict):
        raise UserError(f"{where} is not a gc-wizard answers file: expected a mapping with \"schema\": \"{SCHEMA}\".")
    schema = data.get("schema")
    if schema != SCHEMA:
        shown = "missing" if schema is None else json.dumps(schema, default=str)
        raise UserError(f"{where} is not a gc-wizard answers file: its \"schema\" is {shown}, expected \"{SCHEMA}\".")
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise UserError(f"{where}: \"version\" must be a whole number (this gc-wizard reads version {VERSION}).")
    if version < _OLDEST_READ:
        raise UserError(
            f"{where} is an old answers file (version {version}); this gc-wizard reads version {VERSION}. "
            "Save it again with: gc-wizard install RECIPE --save-answers FILE."
        )
    if version > VERSION:
        raise UserError(
            f"{where} was written by a newer gc-wizard (answers version {version}); this one reads version "
            f"{VERSION}. Upgrade gc-wizard on this server."
        )
    _check_keys(data, _TOP_KEYS, where)
    recipe = data.get("recipe")
    if recipe is None:
        raise UserError(f"{where}: 'recipe' is missing; it names the recipe to install.")
    want_type(recipe, str, where, "recipe", "a recipe id (a string)")
    if not recipe.strip():
        raise UserError(f"{where}: 'recipe' is empty; it names the recipe to install.")
    if not is_recipe_id(recipe.strip()):
        raise UserError(f"{where}: 'recipe' must be a recipe id (lower-case letters, digits, '.', '_' and '-'), not "
                        f"{json.dumps(recipe)}.")
    env = data.get("env")
    if env is not None:
        want_type(env, str, where, "env", "a folder path or null")
        # as the command line's --env: a folder to create must be UTF-8, any must fit PATH
        _path_value(env, where, "env", unusable_env_path(env) or (
            None if os.path.lexists(expand_home(env)) else uncreatable_env_path(env)))
    raw = data.get("options")
    if raw is None:
        raw = {}
    want_type(raw, dict, where, "options", "a mapping")
    if version == 1 and "no_verify" in raw:
        raw = dict(raw)
        no_verify = want_type(raw.pop("no_verify"), bool, where, "options.no_verify", "true or false")
        raw.setdefault("verify", not no_verify)
    options = InstallOptions.from_dict(raw, where=where, recipe_id=recipe.strip(), env=env, prefix="options.")
    if options.graphcast_src is not None:
        _path_value(options.graphcast_src, where, "options.graphcast_src")
    for i, link in enumerate(options.find_links):
        _path_value(link, where, f"options.find_links[{i}]")
    return Answers(options=options, source=where)


def _path_value(value: str, where: str, key: str, why: str | None = None) -> None:
    """A path or URL from the answers file refused here, naming the file and the key: checked later, it was
    reported as if typed on the command line ("--env: …", fifth hostile pass 5g), though no option was given."""
    if why is None:
        for char, name in (("\0", "a NUL character"), ("\n", "a newline"), ("\r", "a carriage return")):
            if char in value:
                why = f"it holds {name}, which no path or URL has"
                break
        else:
            shown = not_utf8(value)
            why = f"{shown} holds a character that is not UTF-8 text" if shown is not None else None
    if why is not None:
        raise UserError(f"answers file {where}: '{key}': {why}.")


def load_answers(path: str | os.PathLike[str]) -> Answers:
    """Read and validate an answers file; UserError (exit 2) names the file and what is wrong."""
    source = Path(expand_home(path))
    # It chooses the sources as a recipe does (find_links, graphcast_src, offline): the same rule, before it is
    # read, and it is read where its links lead, as checked (twenty-second hostile pass P3).
    checked = refuse_swappable_source(
        f"--answers {source}", source, "the answers file",
        swap="change where the packages come from (wheelhouses, GraphCast source, index)")
    try:
        text = bounded.read_text(checked if checked.is_file() else source, bounded.ANSWERS_BYTES, streams_ok=True)
    except bounded.ParseLimitError as exc:
        raise UserError(f"answers file {source}: {exc}.") from None
    except FileNotFoundError:
        raise UserError(f"answers file {source} does not exist.") from None
    except IsADirectoryError:
        raise UserError(f"answers file {source} is a folder, not a file.") from None
    except OSError as exc:
        raise UserError(f"cannot read answers file {source}: {exc.strerror or exc}.") from None
    return answers_from_dict(_parse(text, str(source)), str(source))


def check_recipe(answers: Answers, recipes: Mapping[str, Any]) -> Answers:
    """UserError unless the answers' recipe is among `recipes` (the ones loaded on this server)."""
    if answers.recipe not in recipes:
        known = ", ".join(sorted(recipes)) or "none"
        raise UserError(
            f"{answers.source or 'the answers file'} names recipe '{answers.recipe}', which this server does not "
            f"have (known recipes: {known}); add its recipe file with --recipes-dir DIR."
        )
    return answers


def replay(given: InstallOptions, path: str | os.PathLike[str], recipes: Mapping[str, Any]) -> InstallOptions:
    """For `gc-wizard install --answers FILE`: the options the file says, validated against `recipes`
    (the ones loaded on this server) and merged with the command line's (`apply_answers`)."""
    return apply_answers(given, check_recipe(load_answers(path), recipes))


def save_options(path: str | os.PathLike[str], options: InstallOptions) -> Path:
    """For `gc-wizard install --save-answers FILE`: write the answers of this run."""
    return save_answers(path, answers_for(options))


__all__ = [
    "SCHEMA", "VERSION", "Answers", "answers_for", "answers_from_dict", "apply_answers", "check_recipe",
    "load_answers", "masked_keys", "replay", "save_answers", "save_options",
]
