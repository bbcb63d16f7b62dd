"""The install options: one frozen value from the flag, the answers file or the TUI key to the transaction.

Why one type: the same options used to exist in five shapes (argparse namespaces, the answers file's
own class with `no_verify` where the others had `verify`, the TUI's dicts, a `getattr`-defaulting
helper), and each shape grew its own defaults. Now the CLI turns its arguments into an
`InstallOptions`, the TUI holds one and changes it with `dataclasses.replace`, the answers file
stores `to_dict()` and reads it back with `from_dict()`, and `wizard.flows.session.plan_for` plans from it.

The choice lists are defined once, in `wizard.install.choices`; `installer` is one of `INSTALLERS`, `level` one of `LEVELS`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wizard.errors import UserError
from wizard.install.choices import DEFAULT_LEVEL, INSTALLERS, LEVELS

if TYPE_CHECKING:
    from datetime import datetime

#: The options an answers file stores (the run-specific ones — `--yes`, `--recipes-dir`, `--lock`,
#: `--bundle`, `--slurm`, `--force` — are not).
SAVED_KEYS = ("installer", "level", "verify", "graphcast_src", "find_links", "offline")


def _choices(values: tuple[str, ...]) -> str:
    return " or ".join(f'"{v}"' for v in values)


@dataclass(frozen=True)
class InstallOptions:
    """Everything that decides what an install builds and how it is checked."""

    recipe_id: str = ""
    env: str | None = None
    """None: a new managed environment; a folder: new there, or in place if it holds an environment."""
    installer: str | None = None
    """None: the plan picks it (`install.plan.default_installer`: uv, or pip where uv would fail on TLS and pip
    works, walk 27 #2); a name: the user chose it (`--installer`, the app's i), and it is kept."""
    find_links: tuple[str, ...] = ()
    offline: bool = False
    graphcast_src: str | None = None
    verify: bool = True
    level: str = DEFAULT_LEVEL
    assume_yes: bool = False
    recipes_dirs: tuple[str, ...] = ()
    lock: str | None = None
    """A hashed lock (`gc-wizard lock`) to install the packages from, hash-checked."""
    bundle: str | None = None
    """An offline bundle folder (`gc-wizard bundle`): everything comes from it, no network."""
    slurm: Any = None
    """A `wizard.detect.slurm.SlurmTarget`: the GraphCast check runs on a GPU node through srun."""
    force: bool = False
    """Install even a recipe that does not fit this machine, or a GraphCast source that is not the recipe's."""
    despite_unreachable: bool = False
    """The user was told the GraphCast source's host does not answer from here and chose to install anyway (the
    app's "Install anyway"; the CLI's --force): without it such an install is refused before any download."""
    alternative: str | None = None
    """The recipe's alternative source to use (e.g. "pypi-plugin"), or None for the recipe as written."""
    with_notebook: bool = False
    """Add the recipe's notebook packages (the demo notebook's imports cell) to its pins."""
    python: str | None = None
    """`--python X.Y|PATH`: the interpreter the new environment is built on; None lets the wizard pick."""
    allow_extra_packages: bool = False
    """`--allow-extra-packages`: install a lock's or bundle's packages that no requirement of the recipe reaches
    (without it such a lock or bundle is refused before anything is made; `install.lock_reach`)."""
    planned_at: datetime | None = None
    """When a new managed environment's folder is named (`envs/<recipe>-<YYYYmmdd-HHMMSS>`); None: at each plan. The
    app's Plan screen fixes it, so the folder shown keeps its name while g, a, p … plan again (walk 28 #19)."""

    def __post_init__(self) -> None:
        if self.installer is not None and self.installer not in INSTALLERS:
            raise UserError(f"installer '{self.installer}' is not one of: {', '.join(INSTALLERS)}")
        if self.level not in LEVELS:
            raise UserError(f"verify level '{self.level}' is not one of: {', '.join(LEVELS)}")
        # Lists given by a caller become tuples, so the value stays hashable and cannot change.
        object.__setattr__(self, "find_links", tuple(self.find_links))
        object.__setattr__(self, "recipes_dirs", tuple(self.recipes_dirs))
        object.__setattr__(self, "env", str(self.env) if self.env not in (None, "") else None)

    def to_dict(self) -> dict[str, Any]:
        """The options an answers file stores (`SAVED_KEYS`)."""
        chosen = {"installer": self.installer} if self.installer is not None else {}  # absent: picked at replay
        return {**chosen, "level": self.level, "verify": self.verify,
                "graphcast_src": self.graphcast_src, "find_links": list(self.find_links), "offline": self.offline}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, where: str = "the options", recipe_id: str = "",
                  env: str | None = None, prefix: str = "") -> InstallOptions:
        """Validated options from `to_dict()`'s shape; every problem is one UserError sentence naming `where`
        and the key (`prefix` is put before key names, e.g. "options.")."""
        for key in data:
            if key not in SAVED_KEYS:
                known = ", ".join(prefix + k for k in SAVED_KEYS)
                raise UserError(f"{where}: unknown key '{prefix}{key}' (known keys: {known}).")
        installer = data.get("installer")
        if installer is not None:
            installer = want_type(installer, str, where, prefix + "installer", _choices(INSTALLERS))
        if installer is not None and installer not in INSTALLERS:
            raise UserError(f"{where}: '{prefix}installer' must be {_choices(INSTALLERS)}, not \"{installer}\".")
        level = want_type(data.get("level", DEFAULT_LEVEL), str, where, prefix + "level", _choices(LEVELS))
        if level not in LEVELS:
            raise UserError(f"{where}: '{prefix}level' must be {_choices(LEVELS)}, not \"{level}\".")
        verify = want_type(data.get("verify", True), bool, where, prefix + "verify", "true or false")
        offline = want_type(data.get("offline", False), bool, where, prefix + "offline", "true or false")
        src = data.get("graphcast_src")
        if src is not None:
            want_type(src, str, where, prefix + "graphcast_src", "a path, URL or null")
        links = want_type(data.get("find_links", []), list, where, prefix + "find_links", "a list of folders")
        for i, item in enumerate(links):
            want_type(item, str, where, f"{prefix}find_links[{i}]", "a folder path (a string)")
        return cls(recipe_id=recipe_id, env=env, installer=installer, level=level, verify=verify,
                   graphcast_src=src, find_links=tuple(links), offline=offline)


def want_type(value: Any, kind: type | tuple[type, ...], where: str, key: str, described: str) -> Any:
    """`value` when it is of `kind`, else one UserError sentence (a JSON true is never a number here)."""
    if isinstance(value, bool) and kind is not bool:
        ok = False
    else:
        ok = isinstance(value, kind)
    if not ok:
        raise UserError(f"{where}: '{key}' must be {described}, not {json.dumps(value, default=str)}.")
    return value
