"""The pre-install review, once for `gc-wizard plan`, the plain flow and the app's Plan screen: the plan and
every check made on it before anything runs.

Why: the CLI's `plan_checks` and the Plan screen's worker each assembled the same checks (the GraphCast
source's verdict, the wheelhouses, the free disk) from four stage modules, and the copies had begun to
differ. `review` returns them as one typed value; the download size is measured apart (`download_size`),
because it asks the package index and a face shows the plan without waiting for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from wizard.detect.facts import Facts
from wizard.errors import UserError
from wizard.flows.session import plan_for
from wizard.flows.transaction import unfit_reasons
from wizard.install.cost import DownloadSize, plan_download
from wizard.install.cost import human as human_size  # a byte count in words, for the app's live download line
from wizard.install.envs import free_gib
from wizard.install.linkmode import same_filesystem
from wizard.install.options import InstallOptions
from wizard.install.plan import Plan
from wizard.install.recorded_set import link_path
from wizard.install.sources import SourceVerdict, Wheelhouse, look_at_wheelhouse, verdict_for

__all__ = ["PlanReview", "download_size", "human_size", "look_at_wheelhouse", "review"]


@dataclass(frozen=True)
class PlanReview:
    """A plan and what was checked on it: does the recipe fit the machine (`reasons`, empty when it does, or
    when fit was not asked), is the GraphCast source the recipe's (`verdict`), what each wheelhouse given
    holds, and the free disk where the environment goes (None: unknown)."""

    plan: Plan
    verdict: SourceVerdict
    reasons: list[str] = field(default_factory=list)
    wheelhouses: list[Wheelhouse] = field(default_factory=list)
    free_gib: float | None = None
    cache_free_gib: float | None = None
    """Free space where uv's download cache is, when that is another filesystem than the environment's (None:
    the same one, no cache, or unknown)."""
    machine: str = "THIS MACHINE"
    """Which machine the recipe must fit, in the refusal's words: "THIS MACHINE" or "NODE gpu07"."""


def review(options: InstallOptions, *, facts: Facts | None = None, check_fit: bool = True) -> PlanReview:
    """Plan `options` and check it: the same checks `install` makes before anything runs (it refuses
    without --force). `facts`: the machine the recipe must fit when it is not this one (a GPU node read
    through srun). `check_fit` False: the recipe was chosen from a list that judged it already (the app)."""
    plan = plan_for(options)
    refused = plan.source_refusal()  # the install's refusal, said by the plan for pip as for uv (exit 2; review)
    if refused:
        raise UserError(refused)
    # A folder in any spelling, `file:///DIR` too (`link_path`, the one `file:` reader; review): `"://" not in link`
    # left a `file://` wheelhouse out of the plan's Sources.
    houses = [look_at_wheelhouse(link, plan.recipe) for link in options.find_links if link_path(link) is not None]
    try:
        free = free_gib(plan.env_dir)
    except OSError:
        free = None
    cache_free = None
    if plan.download_cache and same_filesystem(Path(plan.download_cache), plan.env_dir) is False:
        try:
            cache_free = free_gib(plan.download_cache)
        except OSError:
            cache_free = None
    marker = getattr(facts, "slurm", None) or {}
    return PlanReview(plan=plan, verdict=verdict_for(plan), reasons=unfit_reasons(plan.recipe, facts) if check_fit
                      else [], wheelhouses=houses, free_gib=free, cache_free_gib=cache_free,
                      machine=f"NODE {marker.get('node') or '?'}" if marker.get("srun") else "THIS MACHINE")


def download_size(plan: Plan, *, timeout: float = 4.0, budget: float | None = None) -> DownloadSize:
    """What the plan downloads, asked of the index within `budget` seconds (what is known by then, and how
    much is not; sizes once read are cached for the next plan)."""
    return plan_download(plan, timeout=timeout, budget=budget)
