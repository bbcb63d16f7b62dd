"""Provides replay files: the answers of one install, saved, then replayed unattended elsewhere.

A lab admin runs the wizard once interactively with `--save-answers FILE`, then runs
`gc-wizard install --answers FILE --yes` on every other server. Saved configs that silently stop
replaying are a known pain (archinstall #772, #710), so the file carries a schema name and a
version, and loading validates everything up front: a wrong, old or newer file, an unknown key or
a value of the wrong type is one sentence naming the file and the key, never a traceback halfway
through an install. The recipe id is checked against the recipes loaded on *this* server by
`check_recipe`, because the two servers may have different recipe folders.

The format is JSON (YAML is accepted too, for hand-written files). A path under the home folder
is saved as `~/...` so the same file works for a different user on another server.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wizard.errors import UserError

SCHEMA = "gc-wizard-answers"
VERSION = 1

INSTALLERS = ("uv", "pip")
LEVELS = ("quick", "notebook")

_TOP_KEYS = ("schema", "version", "recipe", "options", "env")
_OPTION_KEYS = ("installer", "level", "no_verify", "graphcast_src", "find_links", "offline")


@dataclass(frozen=True)
class AnswerOptions:
    """The install options that change what gets built (the `gc-wizard install` flags)."""

    installer: str = "uv"
    level: str = "notebook"
    no_verify: bool = False
    graphcast_src: str | None = None
    find_links: tuple[str, ...] = ()
    offline: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "installer": self.installer,
            "level": self.level,
            "no_verify": self.no_verify,
            "graphcast_src": self.graphcast_src,
            "find_links": list(self.find_links),
            "offline": self.offline,
        }


@dataclass(frozen=True)
class Answers:
    """One install's answers. `env` None means "a new managed environment" on the replaying server."""

    recipe: str
    options: AnswerOptions = field(default_factory=AnswerOptions)
    env: str | None = None
    source: str | None = None
    """The file these were loaded from (for messages); not saved."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "version": VERSION,
            "recipe": self.recipe,
            "options": self.options.to_dict(),
            "env": self.env,
        }


# --------------------------------------------------------------------------- paths


def _portable(path: str | None) -> str | None:
    """`/home/me/x` -> `~/x`, so a file saved by one user replays for another."""
    if path is None or "://" in path:
        return path
    home = str(Path.home())
    expanded = os.path.abspath(os.path.expanduser(path))
    if expanded == home:
        return "~"
    if expanded.startswith(home.rstrip("/") + "/"):
        return "~/" + expanded[len(home.rstrip("/")) + 1:]
    return expanded


def _local(path: str | None) -> str | None:
    if path is None or "://" in path:
        return path
    return os.path.expanduser(path)


def _looks_like_local_path(value: str) -> bool:
    return value.startswith(("/", "~", "./", "../")) or os.path.exists(value)


# --------------------------------------------------------------------------- build from a run


def answers_from_args(args: argparse.Namespace, *, recipe: str | None = None) -> Answers:
    """The answers of an install run, from its parsed `gc-wizard install` arguments.

    `recipe` overrides `args.recipe` (the interactive flow may have picked the recommended one).
    """
    recipe_id = recipe or getattr(args, "recipe", None)
    if not recipe_id:
        raise UserError("cannot save answers without a recipe; name one: gc-wizard install RECIPE --save-answers FILE")
    src = getattr(args, "graphcast_src", None)
    if src and _looks_like_local_path(src):
        src = _portable(src)
    options = AnswerOptions(
        installer=getattr(args, "installer", None) or "uv",
        level=getattr(args, "level", None) or "notebook",
        no_verify=bool(getattr(args, "no_verify", False)),
        graphcast_src=src,
        find_links=tuple(_portable(d) or d for d in (getattr(args, "find_links", None) or [])),
        offline=bool(getattr(args, "offline", False)),
    )
    env = getattr(args, "env", None)
    return Answers(recipe=recipe_id, options=options, env=_portable(env) if env else None)


def apply_answers(args: argparse.Namespace, answers: Answers) -> argparse.Namespace:
    """Fill a `gc-wizard install` Namespace from replayed answers (a new Namespace; `args` untouched).

    The answers decide the recipe, installer, verify level, GraphCast source and environment; a
    recipe given on the command line must agree with the file's. Flags that only add (`--no-verify`,
    `--offline`, `--find-links`) are combined with the command line's.
    """
    given = getattr(args, "recipe", None)
    if given and given != answers.recipe:
        raise UserError(
            f"the recipe on the command line ({given}) differs from the one in {answers.source or 'the answers file'} "
            f"({answers.recipe}); give one or the other."
        )
    merged = argparse.Namespace(**vars(args))
    merged.recipe = answers.recipe
    opts = answers.options
    merged.installer = opts.installer
    merged.level = opts.level
    merged.no_verify = bool(getattr(args, "no_verify", False)) or opts.no_verify
    merged.offline = bool(getattr(args, "offline", False)) or opts.offline
    if not getattr(args, "graphcast_src", None):
        merged.graphcast_src = _local(opts.graphcast_src)
    links = [_local(d) for d in opts.find_links]
    merged.find_links = links + [d for d in (getattr(args, "find_links", None) or []) if d not in links]
    if not getattr(args, "env", None):
        merged.env = _local(answers.env)
    return merged


# --------------------------------------------------------------------------- save / load


def save_answers(path: str | os.PathLike[str], answers: Answers) -> Path:
    """Write `answers` to `path` (YAML for .yaml/.yml, JSON otherwise); returns the path written."""
    target = Path(path).expanduser()
    data = answers.to_dict()
    if target.suffix.lower() in (".yaml", ".yml"):
        import yaml

        text = "# gc-wizard answers: replay with  gc-wizard install --answers FILE --yes\n"
        text += yaml.safe_dump(data, sort_keys=False)
    else:
        text = json.dumps(data, indent=2) + "\n"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(target)
    except OSError as exc:
        raise UserError(f"cannot write the answers file {target}: {exc.strerror or exc}.") from None
    return target


def _parse(text: str, where: str) -> Any:
    from wizard import bounded

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
    import yaml

    try:
        bounded.check_yaml(text)
        return yaml.safe_load(text)
    except bounded.ParseLimitError as exc:
        raise UserError(f"{where}: {exc}.") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "unreadable"
        raise UserError(f"{where}{line}: neither JSON nor YAML ({problem}).") from None


def _check_keys(data: Mapping[str, Any], known: Iterable[str], where: str, prefix: str = "") -> None:
    known = tuple(known)
    for key in data:
        if key not in known:
            raise UserError(
                f"{where}: unknown key '{prefix}{key}' (known keys: {', '.join(prefix + k for k in known)})."
            )


def _want(value: Any, kind: type | tuple[type, ...], where: str, key: str, described: str) -> Any:
    # bool is an int in Python; a JSON true is never a valid string/number here and vice versa.
    if isinstance(value, bool) and kind is not bool:
        ok = False
    else:
        ok = isinstance(value, kind)
    if not ok:
        raise UserError(f"{where}: '{key}' must be {described}, not {json.dumps(value, default=str)}.")
    return value


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
    if version < VERSION:
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
    _want(recipe, str, where, "recipe", "a recipe id (a string)")
    if not recipe.strip():
        raise UserError(f"{where}: 'recipe' is empty; it names the recipe to install.")
    env = data.get("env")
    if env is not None:
        _want(env, str, where, "env", "a folder path or null")
    raw = data.get("options")
    if raw is None:
        raw = {}
    _want(raw, dict, where, "options", "a mapping")
    _check_keys(raw, _OPTION_KEYS, where, prefix="options.")
    installer = _want(raw.get("installer", "uv"), str, where, "options.installer", "\"uv\" or \"pip\"")
    if installer not in INSTALLERS:
        raise UserError(f"{where}: 'options.installer' must be \"uv\" or \"pip\", not \"{installer}\".")
    level = _want(raw.get("level", "notebook"), str, where, "options.level", "\"quick\" or \"notebook\"")
    if level not in LEVELS:
        raise UserError(f"{where}: 'options.level' must be \"quick\" or \"notebook\", not \"{level}\".")
    no_verify = _want(raw.get("no_verify", False), bool, where, "options.no_verify", "true or false")
    offline = _want(raw.get("offline", False), bool, where, "options.offline", "true or false")
    src = raw.get("graphcast_src")
    if src is not None:
        _want(src, str, where, "options.graphcast_src", "a path, URL or null")
    links = _want(raw.get("find_links", []), list, where, "options.find_links", "a list of folders")
    for i, item in enumerate(links):
        _want(item, str, where, f"options.find_links[{i}]", "a folder path (a string)")
    return Answers(
        recipe=recipe.strip(),
        options=AnswerOptions(installer=installer, level=level, no_verify=no_verify, graphcast_src=src,
                              find_links=tuple(links), offline=offline),
        env=env,
        source=where,
    )


def load_answers(path: str | os.PathLike[str]) -> Answers:
    """Read and validate an answers file; UserError (exit 2) names the file and what is wrong."""
    from wizard import bounded

    source = Path(path).expanduser()
    try:
        text = bounded.read_text(source, bounded.ANSWERS_BYTES)
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


def replay_args(args: argparse.Namespace, recipes: Mapping[str, Any]) -> argparse.Namespace:
    """For `gc-wizard install`: with `--answers FILE`, the arguments the file says (validated against
    `recipes`, the ones loaded on this server); without it, `args` unchanged."""
    path = getattr(args, "answers", None)
    if not path:
        return args
    return apply_answers(args, check_recipe(load_answers(path), recipes))


def save_args(path: str | os.PathLike[str], args: argparse.Namespace, *, recipe: str | None = None) -> Path:
    """For `gc-wizard install --save-answers FILE`: write the answers of this run."""
    return save_answers(path, answers_from_args(args, recipe=recipe))


__all__ = [
    "SCHEMA", "VERSION", "AnswerOptions", "Answers", "answers_from_args", "answers_from_dict", "apply_answers",
    "check_recipe", "load_answers", "replay_args", "save_answers", "save_args",
]
