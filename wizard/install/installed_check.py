"""Whether an environment the installer says it built holds what the plan asked for, read from its own package list.

Why: an installer can end 0 having installed nothing — pip's `--dry-run` (as `PIP_DRY_RUN=1`) printed "Would
install pkg-a-1.0 … graphcast-0.1.1", and the environment, holding only pip, was recorded "installed" and made
current (35th hostile pass (part A) P5). The settings known to do that are refused before anything runs
(`installer_files.requirement_problem`); this is the check after, for any other way to the same end: the install is
recorded only when every package its steps named is in the environment's `uv pip freeze`.
"""

from __future__ import annotations

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name


def missing_packages(plan, packages: list[str]) -> list[str]:
    """The packages the plan's steps install that the frozen set `packages` (`name==version`, `name @ url` lines)
    lacks, by name, in the plan's order: the recipe's pins (not a lock's: its own hashes hold it) without a marker
    (one that may rightly leave a package out on this machine), and GraphCast where a step installs it; [] when
    none is missing."""
    have = set()
    for line in packages:
        try:
            have.add(canonicalize_name(Requirement(line).name))
        except InvalidRequirement:
            continue
    steps = {step.name for step in plan.steps}
    wanted: list[str] = []
    if "install-requirements" in steps and not plan.lock:
        for text in plan.recipe.requirements:
            try:
                requirement = Requirement(text)
            except InvalidRequirement:
                continue
            if requirement.marker is None:
                wanted.append(requirement.name)
    if "install-graphcast" in steps:
        wanted.append("graphcast")
    return [name for name in dict.fromkeys(wanted) if canonicalize_name(name) not in have]
