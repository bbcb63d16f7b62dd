"""Loads and validates recipes: the pinned JAX/CUDA/cuDNN stacks, kept as YAML data, one file each.

Why this is strict: a recipe decides what gets installed on a shared server, and every hand-made
install that goes wrong goes wrong on a pin. So a recipe file is checked field by field against one
schema, and anything off — bad YAML, an unknown or duplicated key, a wrong type, a requirement that is
not a plain PEP 508 requirement (shell metacharacters included) — is refused with ONE `UserError`
that names the file and the line. Line numbers come from PyYAML's composed node tree (its `Mark`s),
which is also how duplicate keys are caught (a plain `yaml.safe_load` silently keeps the last one).

Folders are read in `wizard.paths.recipe_dirs()` order (built-in, then the user's config folder,
then each `--recipes-dir`); a later folder's recipe with the same id replaces the earlier one. A
recipe's id must equal its file name without `.yaml`, so "which file defines this id" has one answer.

Format (schema 1), every key below and no other:

    schema: 1
    id: jax0.4.23-cpu                 # [a-z0-9][a-z0-9._-]*, equal to the file name
    title: str
    description: str
    backend: gpu | cpu
    preference: int                   # optional; higher wins the recommendation among compatible ones
    limit: str                        # optional; what this stack cannot do that another of its GraphCast can,
                                      # one clause said beside the recommendation (walk 26 #6)
    requirements: [PEP 508 str, ...]  # names and version specifiers (markers allowed); no URLs
    find_links: [https URL | file URL | path, ...]        # relative paths: relative to the recipe file
    extra_index_urls: [https URL | file URL, ...]
    graphcast: {source: str, revision: str, version: str} # source: "graphcast @ git+https://…" or a URL
    outside_index: [{name, source}]  # optional; pins no index has (GitHub only): a wheelhouse must hold them
    machine:
      os: [linux, ...]
      arch: [x86_64, ...]
      glibc_min: "2.17"               # optional
      python: ">=3.10,<3.12"          # a PEP 440 specifier set
      cuda_major: 12                  # gpu only
      driver_cuda_min: "12.0"         # the driver's maximum CUDA version must be at least this
      driver_min: "525.60.13"
      driver_warn_below: "535.54.03"  # optional
      compute_capability_min: "5.2"
      compute_capability_max: "9.0"   # optional
      gpu_driver_rules:               # optional: a stricter driver minimum for some GPUs
        - {compute_capability_min: "9.0", driver_min: "535.54.03", why: str}
      gpu_cautions:                   # optional: GPUs the stack runs on but should not be recommended for
        - {compute_capability_min: "10.0", compute_capability_below: "12.0", why: str}
    runtime_env: {NAME: "value", ...} # set in the activated environment
    prompts: [{pattern: regex, answer: str, why: str}, ...]
    notes: [str, ...]
    disk_gib: number                  # free space the install needs (environment plus cache)
    notebook: [PEP 508 str, ...]      # optional: what the demo notebook imports beyond the stack (its
                                      #   imports cell), with their closure; installed with --with-notebook
    alternatives:                     # optional: other sources for the same stack, offered when the
      - id: pypi-plugin               #   recipe's find_links cannot be reached; [a-z0-9-]+
        title: str
        why: str                      # what differs, and the risk (shown with the offer)
        requirements: [PEP 508 str]   # replace the same-named pins, add the others
        remove: [name, ...]           # optional: pins to drop
        find_links: [...]             # optional: replaces the recipe's (default: none)
        gpu_checked: false            # whether it has run on a GPU; false is shown as NEEDS A GPU CHECK

Version-like fields must be quoted strings: YAML reads an unquoted 8.10 as the number 8.1.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name

from wizard import bounded, paths
from wizard.errors import UserError
from wizard.patterns import decimal_number, plain_whole_number
from wizard.recipes import runtime_env as runtime_vars
from wizard.security import expand_home, one_line, show_characters, unshowable_characters
from wizard.source_trust import refuse_swappable_source
from wizard.yaml_data import YAMLError, compose_user_nodes

if TYPE_CHECKING:
    from collections.abc import Callable


def _refused(text: str) -> UserError:
    """A recipe refusal: one line, the names in it (a file, a --recipes-dir folder) with a newline or carriage
    return as its escape, so a folder named with one cannot start a line of stderr of its own (eighteenth hostile
    pass P21; a recipe's own values were escaped already)."""
    return UserError(one_line(text))


class UnknownRecipe(UserError):
    """A recipe id no recipe folder holds: the one refusal a caller may answer with where the recipe is (the recipe
    folder a `--bundle` carries). Any other refusal while loading — a folder another user could swap above all —
    comes through as it is (28th hostile pass (part B) P3: every UserError was read as "unknown recipe")."""


SCHEMA_VERSION = 1
BACKENDS = ("gpu", "cpu")

_ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{0,99}$")


def is_recipe_id(text: str) -> bool:
    """Whether `text` has the shape of a recipe id (lower-case letters, digits, '.', '_', '-'): what a recipe file
    may declare, so what an answers file or a command may name (tenth hostile pass T1: an answers file's recipe
    holding a newline and ESC was quoted into the refusal, where the newline printed a line of its own)."""
    return bool(_ID_RE.match(text))
_ENV_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_VERSION_RE = re.compile(r"^[0-9]+(\.[0-9]+)*$")
_REVISION_RE = re.compile(r"^[0-9a-f]{7,40}$")
#: Characters no requirement, URL or path in a recipe may hold. Steps are argv lists, so a shell never
#: sees them; they are refused anyway because a recipe that holds them was written to attack or is broken.
_HOSTILE = set("`$|&\\{}")
#: Variables a recipe may not set: the wizard keeps the loader and interpreter paths clean on purpose.
_FORBIDDEN_ENV = {"LD_LIBRARY_PATH", "LD_PRELOAD", "PATH", "PYTHONPATH", "PYTHONHOME"}


@dataclass(frozen=True)
class PromptRule:
    """A prompt the installer may meet and the answer to type (the runner adds the newline)."""

    pattern: str
    answer: str
    why: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"pattern": self.pattern, "answer": self.answer, "why": self.why}


@dataclass(frozen=True)
class GraphcastSource:
    source: str
    """What the installer is given by default: a PEP 508 `name @ URL` or a bare URL."""
    revision: str
    version: str

    def to_dict(self) -> dict[str, str]:
        return {"source": self.source, "revision": self.revision, "version": self.version}


@dataclass(frozen=True)
class DriverRule:
    """A stricter driver minimum for GPUs at or above a compute capability (e.g. Hopper and PTX JIT)."""

    compute_capability_min: str
    driver_min: str
    why: str = ""


@dataclass(frozen=True)
class GpuCaution:
    """GPUs at or above a compute capability that the stack runs on but is not recommended for (JAX
    itself warns there, e.g. cuBLAS 12.8 on Blackwell): compatible, with a warning, never recommended."""

    compute_capability_min: str
    why: str
    compute_capability_below: str | None = None
    """Exclusive upper end (e.g. "12.0": Blackwell data-centre parts 10.x/11.x, not the RTX 50 series)."""


@dataclass(frozen=True)
class MachineConstraints:
    os: tuple[str, ...] = ("linux",)
    arch: tuple[str, ...] = ("x86_64",)
    glibc_min: str | None = None
    python: str = ""
    cuda_major: int | None = None
    driver_cuda_min: str | None = None
    driver_min: str | None = None
    driver_warn_below: str | None = None
    compute_capability_min: str | None = None
    compute_capability_max: str | None = None
    gpu_driver_rules: tuple[DriverRule, ...] = ()
    gpu_cautions: tuple[GpuCaution, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "os": list(self.os), "arch": list(self.arch), "glibc_min": self.glibc_min, "python": self.python,
            "cuda_major": self.cuda_major, "driver_cuda_min": self.driver_cuda_min,
            "driver_min": self.driver_min, "driver_warn_below": self.driver_warn_below,
            "compute_capability_min": self.compute_capability_min,
            "compute_capability_max": self.compute_capability_max,
            "gpu_driver_rules": [
                {"compute_capability_min": r.compute_capability_min, "driver_min": r.driver_min, "why": r.why}
                for r in self.gpu_driver_rules
            ],
            "gpu_cautions": [{"compute_capability_min": c.compute_capability_min,
                              "compute_capability_below": c.compute_capability_below, "why": c.why}
                             for c in self.gpu_cautions],
        }


@dataclass(frozen=True)
class Alternative:
    """Another source for the same stack (e.g. JAX's CUDA plugin from PyPI instead of JAX's wheel page)."""

    id: str
    title: str
    why: str
    requirements: tuple[str, ...]
    remove: tuple[str, ...] = ()
    find_links: tuple[str, ...] = ()
    gpu_checked: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "why": self.why, "requirements": list(self.requirements),
                "remove": list(self.remove), "find_links": list(self.find_links), "gpu_checked": self.gpu_checked}


@dataclass(frozen=True)
class OutsidePin:
    """A pin no package index has (e.g. `gdm-xarray-jax`, on GitHub only): it must come from a wheelhouse.

    Why data: the plan refuses, before anything installs, when no wheelhouse given holds it, and its
    sentence says where the wheel is built (`source`), so a server without GitHub is told up front.
    """

    name: str
    source: str
    """Where its wheel is built on a machine that reaches it: a pip URL (`git+https://…@tag`)."""

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "source": self.source}


@dataclass(frozen=True)
class Recipe:
    id: str
    title: str
    description: str
    requirements: tuple[str, ...]
    find_links: tuple[str, ...]
    extra_index_urls: tuple[str, ...]
    graphcast: GraphcastSource
    machine: MachineConstraints
    runtime_env: dict[str, str]
    prompts: tuple[PromptRule, ...]
    notes: tuple[str, ...]
    disk_gib: float
    backend: str
    path: Path
    schema: int = SCHEMA_VERSION
    preference: int = 0
    alternatives: tuple[Alternative, ...] = ()
    notebook: tuple[str, ...] = ()
    """The demo notebook's own imports (and their closure) beyond the stack: added by `with_notebook()`."""
    outside_index: tuple[OutsidePin, ...] = ()
    """Pins no package index has; each must come from a wheelhouse (`--find-links`)."""
    limit: str = ""
    """What this stack cannot do that another stack of its GraphCast can ("GenCast's forecast fails on JAX 0.10.2"),
    one clause; the recommendation says it where it chose the other stack, so a user asked for GenCast does not pick
    this one for its Python (walk 26 #6). Empty: no such limit."""

    def with_notebook(self) -> Recipe:
        """The recipe with its notebook packages in the pins: one closure, resolved and installed as one."""
        if not self.notebook:
            raise _refused(f"recipe {self.id} lists no notebook packages, so --with-notebook has nothing to add.")
        return dataclasses.replace(self, requirements=self.requirements + self.notebook, notebook=())

    @property
    def pins(self) -> dict[str, str]:
        """Canonical package name -> its exact `==` version, for requirements pinned that way."""
        out: dict[str, str] = {}
        for text in self.requirements:
            req = Requirement(text)
            specs = list(req.specifier)
            if len(specs) == 1 and specs[0].operator in ("==", "==="):
                out[canonicalize_name(req.name)] = specs[0].version
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "title": self.title, "description": self.description, "backend": self.backend,
            "requirements": list(self.requirements), "find_links": list(self.find_links),
            "extra_index_urls": list(self.extra_index_urls), "graphcast": self.graphcast.to_dict(),
            "machine": self.machine.to_dict(), "runtime_env": dict(self.runtime_env),
            "prompts": [p.to_dict() for p in self.prompts], "notes": list(self.notes),
            "disk_gib": self.disk_gib, "preference": self.preference, "limit": self.limit, "path": str(self.path),
            "schema": self.schema, "alternatives": [a.to_dict() for a in self.alternatives],
            "notebook": list(self.notebook), "outside_index": [o.to_dict() for o in self.outside_index],
        }


# --------------------------------------------------------------------------------------------------
# Node-level validation: every check knows its node, so every error knows its line.


class _Checker:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._constructor = yaml.constructor.SafeConstructor()

    def fail(self, node: yaml.Node | None, message: str) -> UserError:
        """The one sentence for a problem of the recipe file, on one line: a key or value it quotes may hold a line
        break (`"JAX_A\\nLD_PRELOAD": x`), which the sentence shows as its escape, as the `--json` line does, so the
        file cannot start a line of the wizard's output (fourteenth hostile pass Q6)."""
        where = "" if node is None else f", line {node.start_mark.line + 1}"
        return _refused(f"recipe file {self.path}{where}: {message}")

    def mapping(self, node: yaml.Node, what: str, keys: dict[str, bool]) -> dict[str, yaml.Node]:
        """Key -> value node; `keys` maps every allowed key to whether it is required."""
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, f"{what} must be a mapping of keys to values, not {self.kind(node)}")
        out: dict[str, yaml.Node] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != "tag:yaml.org,2002:str":
                raise self.fail(key_node, f"{what} has a key that is not a plain name")
            key = key_node.value
            if key in out:
                raise self.fail(key_node, f"key '{key}' appears twice in {what}")
            if key not in keys:
                known = ", ".join(sorted(keys))
                raise self.fail(key_node, f"unknown key '{key}' in {what} (known keys: {known})")
            out[key] = value_node
        missing = [k for k, required in keys.items() if required and k not in out]
        if missing:
            raise self.fail(node, f"{what} lacks the required key '{missing[0]}'")
        return out

    @staticmethod
    def kind(node: yaml.Node) -> str:
        if isinstance(node, yaml.MappingNode):
            return "a mapping"
        if isinstance(node, yaml.SequenceNode):
            return "a list"
        tag = node.tag.rsplit(":", 1)[-1]
        return {"str": "a string", "int": "a number", "float": "a number", "bool": "true/false",
                "null": "empty"}.get(tag, f"a {tag}")

    def scalar(self, node: yaml.Node) -> Any:
        if not isinstance(node, yaml.ScalarNode):
            return None
        try:
            return self._constructor.construct_object(node, deep=True)
        except ValueError:  # Python's limit on a number's digits (sixteenth hostile pass P5: "a bug", exit 1)
            raise self.fail(node, "this number is far longer than any setting (more than 4300 digits)") from None

    def string(self, node: yaml.Node, what: str, *, allow_empty: bool = False) -> str:
        if not isinstance(node, yaml.ScalarNode) or node.tag != "tag:yaml.org,2002:str":
            raise self.fail(node, f"{what} must be a string, not {self.kind(node)}")
        value = str(self.scalar(node)).strip()
        if not value and not allow_empty:
            raise self.fail(node, f"{what} must not be empty")
        if "\0" in value:
            raise self.fail(node, f"{what} holds a NUL character")
        controls = unshowable_characters(value, allow="\t\n")
        if controls:
            # An escape sequence in a title or note would move the cursor or retitle the terminal of whoever
            # lists the recipes; a bidi override or a zero-width character would make it read as other text.
            raise self.fail(node, f"{what} holds control characters ({show_characters(controls)}), which could "
                                  "disturb the terminal it is shown on or make the text read as other text")
        return value

    def version(self, node: yaml.Node, what: str) -> str:
        if isinstance(node, yaml.ScalarNode) and node.tag in ("tag:yaml.org,2002:float", "tag:yaml.org,2002:int"):
            raise self.fail(node, f'{what} must be a quoted string such as "{node.value}" '
                                  f"(YAML reads an unquoted {node.value} as a number)")
        value = self.string(node, what)
        if not _VERSION_RE.match(value):
            raise self.fail(node, f"{what} '{value}' is not a dotted version such as 525.60.13")
        return value

    def integer(self, node: yaml.Node, what: str, *, signed: bool = False) -> int:
        """A whole number written in the digits 0-9 (`patterns.plain_whole_number`; a leading `-` where `signed`).

        Why not `int()` of what YAML 1.1 reads: it reads `0x1F`, `017` (octal 15), `0b11`, `1_000`, `+5` and
        `1:30` (sexagesimal, 90) as ints, so a recipe's `schema: 0x1` or `cuda_major: 014` was taken as a number
        its author never wrote (fixers' leftover: YAML 1.1 integers)."""
        plain = isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:int"
        text = node.value if plain and self.scalar(node) is not None else ""  # past 4300 digits: `scalar`'s sentence
        value = plain_whole_number(text, signed=signed)
        if value is None:
            raise self.fail(node, self._not_plain(node, what, "a whole number"))
        return value

    def number(self, node: yaml.Node, what: str) -> float:
        """A number written in the digits 0-9 with at most one `.` (`patterns.decimal_number`): not `0x10`, `1:30`,
        `1_0.5`, `.inf` or `+5`, which YAML 1.1 reads as numbers too (as for `integer`)."""
        plain = isinstance(node, yaml.ScalarNode) and node.tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
        value = decimal_number(node.value) if plain and self.scalar(node) is not None else None
        if value is None or (node.value[:1] == "0" and node.value[1:2].isalnum()):
            raise self.fail(node, self._not_plain(node, what, "a number"))
        return value

    def _not_plain(self, node: yaml.Node, what: str, noun: str) -> str:
        """The refusal of a value that is not `noun` in plain decimal digits, naming the value as written and what
        YAML reads it as (the number it would have been taken for, a string, true/false)."""
        if not isinstance(node, yaml.ScalarNode) or node.tag == "tag:yaml.org,2002:null":
            return f"{what} must be {noun}, not {self.kind(node)}"
        read = (f"the number {self.scalar(node)}" if node.tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
                else self.kind(node))
        return (f"{what} '{node.value}' must be {noun} written in the digits 0-9 only, such as 12 "
                f"(YAML reads it as {read})")

    def sequence(self, node: yaml.Node, what: str) -> list[yaml.Node]:
        if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null":
            return []
        if not isinstance(node, yaml.SequenceNode):
            raise self.fail(node, f"{what} must be a list, not {self.kind(node)}")
        return list(node.value)

    def strings(self, node: yaml.Node, what: str) -> list[str]:
        return [self.string(item, f"an entry of {what}") for item in self.sequence(node, what)]

    def clean(self, node: yaml.Node, value: str, what: str, *, reaches_installer: bool = True) -> str:
        """`value` checked for characters no recipe needs; one that `reaches_installer` (a requirement, an
        index) may not start with '-' either. Runtime variables never reach an installer: XLA_FLAGS
        values start with `--` by nature."""
        bad = sorted({c for c in value if c in _HOSTILE or (ord(c) < 32)})
        if bad:
            shown = " ".join(repr(c) for c in bad)
            raise self.fail(node, f"{what} '{value}' holds characters a recipe may not use ({shown})")
        unshowable = unshowable_characters(value)
        if unshowable:  # a bidi override or zero-width character: the value would read as another one
            raise self.fail(node, f"{what} holds characters a recipe may not use ({show_characters(unshowable)}), "
                                  "which make text read as other text")
        if reaches_installer and value.startswith("-"):
            raise self.fail(node, f"{what} '{value}' starts with '-', which an installer would read as an option")
        return value


def _requirement(ck: _Checker, node: yaml.Node, seen: dict[str, yaml.Node]) -> str:
    text = ck.clean(node, ck.string(node, "a requirement"), "requirement")
    try:
        req = Requirement(text)
    except InvalidRequirement as exc:
        detail = str(exc).splitlines()[0]
        raise ck.fail(node, f"requirement '{text}' is not a valid PEP 508 requirement ({detail})") from None
    if req.url:
        raise ck.fail(node, f"requirement '{text}' points at a URL; recipes take names and versions only "
                            "(put wheel locations in find_links)")
    name = canonicalize_name(req.name)
    if name in seen:
        raise ck.fail(node, f"requirement '{text}' names {req.name} a second time "
                            f"(first on line {seen[name].start_mark.line + 1})")
    seen[name] = node
    return text


def _outside_index(ck: _Checker, node: yaml.Node, pinned: dict[str, yaml.Node]) -> tuple[OutsidePin, ...]:
    out = []
    for item in ck.sequence(node, "outside_index"):
        m = ck.mapping(item, "an outside_index entry", {"name": True, "source": True})
        name = canonicalize_name(ck.string(m["name"], "outside_index name"))
        if name not in pinned:
            raise ck.fail(m["name"], f"outside_index names {name}, which the requirements do not pin")
        source = ck.clean(m["source"], ck.string(m["source"], "outside_index source"), "outside_index source")
        if not re.match(r"^(git\+https|https)://\S+$", source):
            raise ck.fail(m["source"], f"outside_index source '{source}' must use git+https:// or https://")
        out.append(OutsidePin(name=name, source=source))
    return tuple(out)


def _location(ck: _Checker, node: yaml.Node, what: str, *, allow_path: bool) -> str:
    text = ck.clean(node, ck.string(node, f"an entry of {what}"), f"{what} entry")
    if any(c.isspace() for c in text):
        raise ck.fail(node, f"{what} entry '{text}' holds whitespace")
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", text):
        scheme = text.split("://", 1)[0].lower()
        if scheme not in ("https", "file"):
            raise ck.fail(node, f"{what} entry '{text}' uses {scheme}://; only https:// and file:// are allowed")
        return text
    if not allow_path:
        raise ck.fail(node, f"{what} entry '{text}' must be an https:// or file:// URL")
    folder = Path(expand_home(text))
    if not folder.is_absolute():
        folder = ck.path.parent / folder
    return str(folder)


def _graphcast(ck: _Checker, node: yaml.Node) -> GraphcastSource:
    m = ck.mapping(node, "graphcast", {"source": True, "revision": True, "version": True})
    source = ck.clean(m["source"], ck.string(m["source"], "graphcast.source"), "graphcast.source")
    try:
        req = Requirement(source)
        url = req.url
    except InvalidRequirement:
        req, url = None, source
    if req is not None and not url:
        raise ck.fail(m["source"], f"graphcast.source '{source}' must be a URL or 'graphcast @ URL'")
    if not re.match(r"^(git\+https|https|file)://\S+$", url or ""):
        raise ck.fail(m["source"], f"graphcast.source '{source}' must use git+https://, https:// or file://")
    revision = ck.string(m["revision"], "graphcast.revision")
    if not _REVISION_RE.match(revision):
        raise ck.fail(m["revision"], f"graphcast.revision '{revision}' is not a git commit hash")
    version = ck.version(m["version"], "graphcast.version")
    return GraphcastSource(source=source, revision=revision, version=version)


_MACHINE_KEYS = {
    "os": True, "arch": True, "glibc_min": False, "python": True, "cuda_major": False,
    "driver_cuda_min": False, "driver_min": False, "driver_warn_below": False,
    "compute_capability_min": False, "compute_capability_max": False, "gpu_driver_rules": False,
    "gpu_cautions": False,
}
_GPU_ONLY = ("cuda_major", "driver_cuda_min", "driver_min", "driver_warn_below", "compute_capability_min",
             "compute_capability_max", "gpu_driver_rules", "gpu_cautions")


def _machine(ck: _Checker, node: yaml.Node, backend: str) -> MachineConstraints:
    m = ck.mapping(node, "machine", _MACHINE_KEYS)
    os_names = tuple(v.lower() for v in ck.strings(m["os"], "machine.os"))
    arches = tuple(v.lower() for v in ck.strings(m["arch"], "machine.arch"))
    if not os_names or not arches:
        raise ck.fail(node, "machine.os and machine.arch must each name at least one value")
    python = ck.string(m["python"], "machine.python")
    try:
        SpecifierSet(python)
    except InvalidSpecifier:
        raise ck.fail(m["python"], f"machine.python '{python}' is not a version specifier such as "
                                   "'>=3.10,<3.12'") from None
    values: dict[str, Any] = {}
    for key in ("glibc_min", "driver_cuda_min", "driver_min", "driver_warn_below",
                "compute_capability_min", "compute_capability_max"):
        if key in m:
            values[key] = ck.version(m[key], f"machine.{key}")
    if "cuda_major" in m:
        values["cuda_major"] = ck.integer(m["cuda_major"], "machine.cuda_major")
    rules = []
    for item in ck.sequence(m.get("gpu_driver_rules", yaml.ScalarNode("tag:yaml.org,2002:null", "")),
                            "machine.gpu_driver_rules"):
        r = ck.mapping(item, "a gpu_driver_rules entry",
                       {"compute_capability_min": True, "driver_min": True, "why": False})
        rules.append(DriverRule(
            compute_capability_min=ck.version(r["compute_capability_min"], "compute_capability_min"),
            driver_min=ck.version(r["driver_min"], "driver_min"),
            why=ck.string(r["why"], "why") if "why" in r else "",
        ))
    cautions = []
    for item in ck.sequence(m.get("gpu_cautions", yaml.ScalarNode("tag:yaml.org,2002:null", "")),
                            "machine.gpu_cautions"):
        c = ck.mapping(item, "a gpu_cautions entry",
                       {"compute_capability_min": True, "compute_capability_below": False, "why": True})
        cautions.append(GpuCaution(
            compute_capability_min=ck.version(c["compute_capability_min"], "compute_capability_min"),
            why=" ".join(ck.string(c["why"], "why").split()),
            compute_capability_below=(ck.version(c["compute_capability_below"], "compute_capability_below")
                                      if "compute_capability_below" in c else None),
        ))
    if backend == "cpu":
        stray = [k for k in _GPU_ONLY if k in m]
        if stray:
            raise ck.fail(m[stray[0]], f"machine.{stray[0]} only makes sense for a gpu recipe")
    else:
        for key in ("cuda_major", "driver_min", "compute_capability_min"):
            if key not in m:
                raise ck.fail(node, f"a gpu recipe's machine section needs '{key}'")
    return MachineConstraints(os=os_names, arch=arches, python=python, gpu_driver_rules=tuple(rules),
                              gpu_cautions=tuple(cautions), **values)


def _runtime_env(ck: _Checker, node: yaml.Node) -> dict[str, str]:
    if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null":
        return {}
    if not isinstance(node, yaml.MappingNode):
        raise ck.fail(node, f"runtime_env must be a mapping of NAME: value, not {ck.kind(node)}")
    out: dict[str, str] = {}
    for key_node, value_node in node.value:
        name = ck.string(key_node, "a runtime_env name")
        if not _ENV_NAME_RE.match(name):
            raise ck.fail(key_node, f"runtime_env name '{name}' is not a valid environment variable name")
        if name in out:
            raise ck.fail(key_node, f"key '{name}' appears twice in runtime_env")
        if name in _FORBIDDEN_ENV:
            raise ck.fail(key_node, f"runtime_env may not set {name}: the wizard keeps it clean on purpose")
        why = runtime_vars.name_problem(name)
        if why:
            raise ck.fail(key_node, f"runtime_env: {why}")
        if not isinstance(value_node, yaml.ScalarNode) or value_node.tag != "tag:yaml.org,2002:str":
            raise ck.fail(value_node, f"runtime_env {name} must be a quoted string such as "
                                      f"\"{value_node.value if isinstance(value_node, yaml.ScalarNode) else ''}\", "
                                      f"not {ck.kind(value_node)}")
        value = ck.clean(value_node, ck.string(value_node, f"runtime_env {name}", allow_empty=True),
                         f"runtime_env {name}", reaches_installer=False)
        why = runtime_vars.value_problem(name, value)
        if why:
            raise ck.fail(value_node, f"runtime_env: {why}")
        out[name] = value
    return out


def _prompts(ck: _Checker, node: yaml.Node) -> tuple[PromptRule, ...]:
    rules = []
    for item in ck.sequence(node, "prompts"):
        m = ck.mapping(item, "a prompts entry", {"pattern": True, "answer": True, "why": False})
        pattern = ck.string(m["pattern"], "prompts pattern")
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ck.fail(m["pattern"], f"prompts pattern '{pattern}' is not a valid regular expression ({exc})") from None
        answer = ck.string(m["answer"], "prompts answer", allow_empty=True)
        if any(c in answer for c in "\r\n\0"):
            raise ck.fail(m["answer"], "prompts answer must be one line")
        rules.append(PromptRule(pattern=pattern, answer=answer, why=ck.string(m["why"], "why") if "why" in m else ""))
    return tuple(rules)


def _alternatives(ck: _Checker, node: yaml.Node) -> tuple[Alternative, ...]:
    out: list[Alternative] = []
    seen_ids: set[str] = set()
    for item in ck.sequence(node, "alternatives"):
        m = ck.mapping(item, "an alternatives entry", {"id": True, "title": True, "why": True, "requirements": True,
                                                        "remove": False, "find_links": False, "gpu_checked": False})
        alt_id = ck.string(m["id"], "alternatives id")
        if not re.match(r"^[a-z0-9][a-z0-9-]{0,39}$", alt_id):
            raise ck.fail(m["id"], f"alternatives id '{alt_id}' must be lower-case letters, digits and '-'")
        if alt_id in seen_ids:
            raise ck.fail(m["id"], f"alternatives id '{alt_id}' appears twice")
        seen_ids.add(alt_id)
        seen: dict[str, yaml.Node] = {}
        requirements = tuple(_requirement(ck, n, seen) for n in ck.sequence(m["requirements"], "requirements"))
        null = yaml.ScalarNode("tag:yaml.org,2002:null", "")
        remove = tuple(canonicalize_name(ck.clean(n, ck.string(n, "a remove entry"), "remove entry"))
                       for n in ck.sequence(m.get("remove", null), "remove"))
        links = tuple(_location(ck, n, "find_links", allow_path=True)
                      for n in ck.sequence(m.get("find_links", null), "find_links"))
        checked = False
        if "gpu_checked" in m:
            value = m["gpu_checked"]
            if not isinstance(value, yaml.ScalarNode) or value.tag != "tag:yaml.org,2002:bool":
                raise ck.fail(value, "gpu_checked must be true or false")
            checked = bool(ck.scalar(value))
        out.append(Alternative(id=alt_id, title=ck.string(m["title"], "alternatives title"),
                               why=" ".join(ck.string(m["why"], "alternatives why").split()),
                               requirements=requirements, remove=remove, find_links=links, gpu_checked=checked))
    return tuple(out)


_TOP_KEYS = {
    "schema": True, "id": True, "title": True, "description": True, "backend": True, "preference": False,
    "requirements": True, "find_links": False, "extra_index_urls": False, "graphcast": True, "machine": True,
    "runtime_env": False, "prompts": False, "notes": False, "disk_gib": True, "alternatives": False,
    "notebook": False, "outside_index": False, "limit": False,
}


def recipes_dir_for(recipe: Any) -> str | None:
    """The `--recipes-dir` a printed command needs to find `recipe` (its file's folder, absolute), or None for a
    recipe gc-wizard finds on its own (the shipped ones, and those in the user's recipe folder).

    Why one rule: 27th hostile pass (part B) P2 — bundle's "On the offline machine:", lock's "Install from it:" and the
    no-index advice dropped the folder of a `--recipes-dir` recipe, so each printed line failed with "unknown
    recipe" (the class of pass 24's P2, fixed then for rollback only)."""
    path = getattr(recipe, "path", None)
    if not isinstance(path, Path):
        return None
    folder = os.path.realpath(path.parent)
    if folder in {os.path.realpath(place) for place in (paths.builtin_recipes_dir(), paths.user_recipes_dir()) if place}:
        return None
    return str(path.parent.absolute())


def parse_recipe(text: str, path: Path) -> Recipe:
    """Validate one recipe file's text; `path` names it in errors and anchors relative find_links."""
    ck = _Checker(path)
    text = bounded.strip_bom(text)
    try:
        root = compose_user_nodes(text)
    except bounded.ParseLimitError as exc:
        raise _refused(f"recipe file {path}: {exc}.") from None
    except YAMLError as exc:
        problem = one_line(exc.problem or "unreadable")
        if exc.line is not None:
            raise _refused(f"recipe file {path}, line {exc.line}: not valid YAML ({problem})") from None
        raise _refused(f"recipe file {path}: not valid YAML ({problem})") from None
    if root is None:
        raise _refused(f"recipe file {path}: the file is empty")
    top = ck.mapping(root, "the recipe", _TOP_KEYS)

    schema = ck.integer(top["schema"], "schema")
    if schema != SCHEMA_VERSION:
        raise ck.fail(top["schema"], f"schema {schema} is not one this gc-wizard reads (it reads {SCHEMA_VERSION})")
    recipe_id = ck.string(top["id"], "id")
    if not _ID_RE.match(recipe_id):
        if len(recipe_id) > 100:  # the length, when it is the length that is wrong (eighteenth hostile pass P11)
            raise ck.fail(top["id"], f"id '{recipe_id[:40]}…' is {len(recipe_id)} characters long; at most 100")
        raise ck.fail(top["id"], f"id '{recipe_id}' must be lower-case letters, digits, '.', '_' or '-'")
    if path.suffix in (".yaml", ".yml") and path.stem != recipe_id:
        raise ck.fail(top["id"], f"id '{recipe_id}' does not match the file name '{path.name}' "
                                 f"(name the file {recipe_id}{path.suffix})")
    backend = ck.string(top["backend"], "backend")
    if backend not in BACKENDS:
        raise ck.fail(top["backend"], f"backend '{backend}' must be one of: {', '.join(BACKENDS)}")

    seen: dict[str, yaml.Node] = {}
    requirement_nodes = ck.sequence(top["requirements"], "requirements")
    if not requirement_nodes:
        raise ck.fail(top["requirements"], "requirements must list at least one package")
    requirements = tuple(_requirement(ck, n, seen) for n in requirement_nodes)
    null = yaml.ScalarNode("tag:yaml.org,2002:null", "")
    # The same `seen`: a notebook package is never also one of the stack's pins.
    notebook = tuple(_requirement(ck, n, seen) for n in ck.sequence(top.get("notebook", null), "notebook"))

    find_links = tuple(_location(ck, n, "find_links", allow_path=True)
                       for n in ck.sequence(top.get("find_links", null), "find_links"))
    extra_index_urls = tuple(_location(ck, n, "extra_index_urls", allow_path=False)
                             for n in ck.sequence(top.get("extra_index_urls", null), "extra_index_urls"))
    disk_gib = ck.number(top["disk_gib"], "disk_gib")
    if not 0 < disk_gib < 10_000:
        raise ck.fail(top["disk_gib"], f"disk_gib {disk_gib:g} must be a positive size in GiB")
    preference = ck.integer(top["preference"], "preference", signed=True) if "preference" in top else 0

    return Recipe(
        id=recipe_id,
        title=ck.string(top["title"], "title"),
        description=ck.string(top["description"], "description"),
        requirements=requirements,
        find_links=find_links,
        extra_index_urls=extra_index_urls,
        graphcast=_graphcast(ck, top["graphcast"]),
        machine=_machine(ck, top["machine"], backend),
        runtime_env=_runtime_env(ck, top.get("runtime_env", null)),
        prompts=_prompts(ck, top.get("prompts", null)),
        notes=tuple(ck.strings(top.get("notes", null), "notes")),
        disk_gib=disk_gib,
        backend=backend,
        path=path,
        schema=schema,
        preference=preference,
        alternatives=_alternatives(ck, top.get("alternatives", null)),
        notebook=notebook,
        outside_index=_outside_index(ck, top.get("outside_index", null), seen),
        limit=ck.string(top["limit"], "limit") if "limit" in top else "",
    )


#: Recipes parsed in this process, by file and its state on disk: the app and `diagnose` ask for every recipe
#: again and again (each finding's fix names the recipe that fits), and parsing the twelve built-in files took
#: 0.1 s each time — most of a small log's diagnosis. A file that changes (size, mtime, inode) is parsed anew.
_PARSED: dict[tuple[str, int, int, int], Recipe] = {}


def load_recipe_file(path: Path) -> Recipe:
    try:
        info = os.stat(path)
        key = (str(path), info.st_ino, info.st_size, info.st_mtime_ns)
    except OSError:
        key = None
    if key is not None and key in _PARSED:
        return _PARSED[key]
    recipe = _read_recipe_file(path)
    if key is not None:
        _PARSED[key] = recipe
    return recipe


def _read_recipe_file(path: Path) -> Recipe:
    try:
        text = bounded.read_text(path, bounded.RECIPE_BYTES)
    except bounded.ParseLimitError as exc:
        raise _refused(f"recipe file {path}: {exc}.") from None
    except OSError as exc:
        raise _refused(f"recipe file {path}: cannot be read ({exc.strerror})") from None
    return parse_recipe(text, path)


def load_recipes(extra_dirs: list[str] | None = None) -> dict[str, Recipe]:
    """Every recipe by id, in folder override order (built-in, user config, each `--recipes-dir`)."""
    for extra in extra_dirs or []:
        folder = Path(expand_home(extra))
        if not folder.is_dir():
            raise _refused(f"recipe folder {folder} (from --recipes-dir) does not exist or is not a folder")
    recipes: dict[str, Recipe] = {}
    for folder in paths.recipe_dirs(extra_dirs):
        if not folder.is_dir():
            continue
        builtin = folder == paths.builtin_recipes_dir()
        if builtin:
            # The shipped ones sit beside the wizard's own code, held to its rule (`paths.own_data_risk`): a 0777
            # folder or an o+w file there was read as is (28th hostile pass (part B) P8).
            paths.refuse_changeable_own_data(folder)
        else:
            # A recipe chooses the packages, indexes and wheelhouses: another user's recipes are their install.
            named = "the recipe folder" if folder == paths.user_recipes_dir() else "--recipes-dir"
            # Read where its links lead, as checked: a link flipped after the check changes nothing read.
            folder = refuse_swappable_source(f"{named} {folder}", folder, "its recipes")
        files = sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml") and not p.name.startswith("."))
        here: dict[str, Path] = {}
        for file in files:
            _refuse_odd_file(file)
            if builtin:
                paths.refuse_changeable_own_data(file)
            recipe = load_recipe_file(file)
            if recipe.id in here:
                raise _refused(f"recipe id '{recipe.id}' is defined twice in {folder}: in {here[recipe.id].name} "
                                f"and in {file.name}; keep one of the two files.")
            here[recipe.id] = file
            recipes[recipe.id] = recipe
    if not recipes:
        raise _refused("no recipes were found; the built-in recipe folder "
                        f"{paths.builtin_recipes_dir()} is missing or empty")
    return recipes


def _refuse_odd_file(file: Path) -> None:
    """A recipe file that is no regular file — a FIFO, a device, a folder, a link that leads nowhere — is named, as a
    broken recipe file is: it was passed over without a word, and `plan x` then said only "unknown recipe 'x'" with
    the user's own x.yaml right there (fourteenth hostile pass Q7). Nothing is opened, so a FIFO never blocks."""
    try:
        why = bounded.not_regular(file)
    except FileNotFoundError:
        why = f"it is a link to {os.readlink(file)}, which does not exist" if file.is_symlink() else "it is gone"
    except OSError as exc:
        why = f"it cannot be looked at ({exc.strerror or exc})"
    if why is not None:
        raise _refused(f"recipe file {file}: {why}; a recipe is a YAML file (move it out of {file.parent}, "
                                 "or replace it with the file).")


def get_recipe(recipe_id: str, extra_dirs: list[str] | None = None,
               recommended: Callable[[], str | None] | None = None) -> Recipe:
    """The recipe `recipe_id`; an unknown one is refused in `unknown_recipe_words`, asking `recommended` (the
    recipe recommended on the machine the plan is for, None when not known) only then."""
    recipes = load_recipes(extra_dirs)
    try:
        return recipes[recipe_id]
    except KeyError:
        best = recommended() if recommended is not None else None
        raise UnknownRecipe(one_line(unknown_recipe_words(str(recipe_id), list(recipes), best))) from None


def unknown_recipe_words(wanted: str, ids: list[str], recommended: str | None = None) -> str:
    """One sentence: the ids `wanted` was probably meant to be, the recommended one first and marked, and where the
    full list is. Walk 21 #7: a 400-character line listed every recipe, with the recommended one last and unmarked."""
    close = close_recipe_ids(wanted, ids, prefer=recommended)
    if recommended in close:
        close = [recommended, *(i for i in close if i != recommended)]
    shown = [f"{i} (recommended here)" if i == recommended else i for i in close]
    listed = f"`gc-wizard recipes` lists all {len(ids)}"
    if not shown:
        best = f"; {recommended} is recommended here" if recommended in ids else ""
        return f"unknown recipe '{wanted}'; {listed}{best}."
    said = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"
    return f"unknown recipe '{wanted}'; did you mean {said}? {listed}."


_VERSIONED_ID = re.compile(r"([a-z]+)([0-9]+(?:\.[0-9]+)*)(.*)")


def _same_version_family(wanted: str, ids: list[str]) -> list[str]:
    """The ids whose version begins with `wanted`'s, component by component, with the same rest of the name
    (`jax0.12-cpu` → `jax0.12.0.1-cpu`). walk 23 #10: a near spelling of another JAX generation
    won (`jax0.12-cpu` → "did you mean jax0.10.2-cpu?"), because difflib counts characters, not versions: a version
    the user shortened names its family, so the family is what is meant."""
    asked = _VERSIONED_ID.fullmatch(wanted.lower().strip())
    if asked is None:
        return []
    name, version, rest = asked.group(1), asked.group(2).split("."), asked.group(3)
    found = []
    for recipe_id in ids:
        have = _VERSIONED_ID.fullmatch(recipe_id.lower())
        if (have is not None and have.group(1) == name and have.group(3).startswith(rest)
                and have.group(2).split(".")[:len(version)] == version and recipe_id.lower() != wanted.lower()):
            found.append(recipe_id)
    return found


def close_recipe_ids(wanted: str, ids: list[str], prefer: str | None = None) -> list[str]:
    """The recipe ids `wanted` was probably meant to be, at most three: the ids it begins (`jax0.4.23-cuda12` →
    `jax0.4.23-cuda12-cudnn89`; walk 22 #8: a near spelling of another version won), a near spelling
    (`jax0.4.23_cpu`), else those holding each of its words (`jax-cpu` → the CPU recipes, `cuda12` → the CUDA 12
    ones; walk 19 #11: a short name got no suggestion at all). `prefer` (the recommended recipe) comes first among
    several, so a cut to three keeps it (walk 22 #8: `plan jax` did not name it)."""
    def first(recipe_id: str) -> tuple[bool, str]:
        return recipe_id != prefer, recipe_id

    begun = sorted((i for i in ids if i.lower().startswith(wanted.lower()) and i != wanted), key=first)
    if 0 < len(begun) <= 3:
        return begun
    family = _same_version_family(wanted, ids)
    if family:
        return sorted(family, key=first)[:3]
    close = difflib.get_close_matches(wanted, ids, n=1, cutoff=0.75)
    if close:
        return close
    words = re.findall(r"[a-z0-9]+", wanted.lower())
    holding = sorted((i for i in ids if words and all(word in i.lower() for word in words)), key=first)
    return holding[:3] if holding else difflib.get_close_matches(wanted, ids, n=1, cutoff=0.6)
