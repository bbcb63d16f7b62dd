"""The value types a face holds, annotates or builds, named in one place above the stages.

Why: the faces import only `wizard.flows` (and the base modules), so the dataclasses the core hands them —
facts, a plan, a recipe's verdict, an environment, the check's result — are named here rather than imported
from the stage that makes them. Types only, no behaviour. It imports most stages, so a module on the app's
first-frame path imports it under `TYPE_CHECKING` only (`flows.options` and `flows.describe_check` hold the few
light values that path needs at run time).
"""

from __future__ import annotations

from wizard.after.assets import ProgressText
from wizard.after.forecast import ForecastEvents, ForecastRequest
from wizard.detect.facts import Facts, PythonInfo
from wizard.detect.slurm import SlurmTarget
from wizard.detect.srun_job import JobState
from wizard.history.store import Entry as HistoryEntry
from wizard.history.store import History
from wizard.install.cost import DownloadSize
from wizard.install.envs import Env
from wizard.install.options import InstallOptions
from wizard.install.plan import Plan
from wizard.install.sources import SourceVerdict
from wizard.recipes.loader import Recipe
from wizard.recipes.match import RecipeMatch
from wizard.verify.check import VerifyResult
from wizard.verify.diagnose import Finding
from wizard.verify.protocol import Tier

__all__ = ["DownloadSize", "Env", "Facts", "Finding", "ForecastEvents", "ForecastRequest", "History", "HistoryEntry",
           "InstallOptions", "JobState", "Plan", "ProgressText", "PythonInfo", "Recipe", "RecipeMatch",
           "SlurmTarget", "SourceVerdict", "Tier", "VerifyResult"]
