"""Messages the worker threads post to the app: the only way background work reaches the UI."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from wizard.flows.results import InstallResult, RollbackResult
    from wizard.flows.review import PlanReview
    from wizard.flows.types import Tier


@dataclass
class FactsReady(Message):
    """Detection finished (facts, the recipe matches) or failed (error)."""

    facts: Any
    matches: list
    error: str | None = None
    pythons: tuple = ()
    """The interpreters the survey looked at, for re-matching the recipes with the same Python verdicts."""
    stopped: bool = False
    """The user stopped it (through srun: its job was cancelled)."""
    token: Any = None
    """Which detection run this answers (its stop event): a stopped run's late answer is not the new one's."""


@dataclass
class StepStarted(Message):
    """The runner started a plan step."""

    name: str
    title: str


@dataclass
class StepFinished(Message):
    """A plan step ended."""

    name: str
    ok: bool
    seconds: float
    cancelled: bool


@dataclass
class PromptAsked(Message):
    """The installer stalled on a question no rule answers; the worker waits for `reply`."""

    text: str
    reply: Any
    """A `queue.Queue` the dialog's answer (or None) is put into."""


@dataclass
class VerifyStarted(Message):
    """The GraphCast check began."""


@dataclass
class VerifyTier(Message):
    """One verify tier finished."""

    tier: Tier


@dataclass
class VerifyTierStarted(Message):
    """A slow tier of the check began: the core's words with its usual time (`describe_check.tier_start_words`)."""

    words: str


@dataclass
class InstallDone(Message):
    """`run_install` returned, or refused before its first step (`InstallResult.not_started`)."""

    result: InstallResult


@dataclass
class RollbackDone(Message):
    """A rollback returned (result) or did not start (error)."""

    result: RollbackResult | None
    error: str | None = None


@dataclass
class RecipesRematched(Message):
    """The recipe screen's worker matched the recipes again for another GraphCast version (`v`): matching may ask a
    host whether it answers (uv's Python download, walk 25 #2), up to seconds, so it runs off the screen's thread."""

    version: str | None
    """The GraphCast version the matches are for (None: any)."""
    matches: list
    error: str | None = None
    """Why matching failed (a recipe file that broke meanwhile); the list stays as it was."""


@dataclass
class HistorySized(Message):
    """The History screen's worker measured what each environment takes on disk (a walk of every env's
    files, too slow for the screen's first frame)."""

    sizes: dict
    """entry id -> its disk cell (`flows.history.disk_words`: a size, "removed", "-", "gone" or "")."""
    total: str
    """The line saying what all environments take together."""


@dataclass
class RollbackRequested(Message):
    """The user confirmed a rollback to `entry_id` on the History screen."""

    entry_id: str


@dataclass
class ForecastStage(Message):
    """The forecast reached a stage (fetch, import, load checkpoint, …, rollout, check)."""

    stage: str


@dataclass
class ForecastDownload(Message):
    """Bytes of one file downloaded so far (and its size, when the server says it)."""

    name: str
    done: int
    total: int | None


@dataclass
class ForecastDone(Message):
    """The forecast ended: its result, or the one sentence that stopped it before it ran."""

    result: Any
    """A `wizard.after.forecast.ForecastResult`, or None when `error` says why nothing ran."""
    error: str | None = None


@dataclass
class PlanComputed(Message):
    """The Plan screen's worker worked out a plan for `options` (or why there is none: `error`).

    Why a message: planning asks every interpreter on the machine for its version, and one on a hung NFS
    mount never answers; off the event loop the screen keeps taking keys (Escape leaves) meanwhile.
    """

    options: Any
    review: PlanReview | None = None
    """The plan and its checks (`flows.review.PlanReview`); None with `error`."""
    error: str | None = None
    revert: Any = None
    """The options to go back to when this plan fails (a GraphCast source that cannot be used)."""
    announce_source: bool = False
    """Say the GraphCast source's verdict once the plan is there (it was just chosen with g)."""



@dataclass
class JobStateChanged(Message):
    """A Slurm job the app waits on changed (queued with its reason and time waited, running on a node)."""

    state: Any
    """A `wizard.detect.srun_job.JobState`."""


@dataclass
class DownloadMeasured(Message):
    """The Plan screen's worker summed the download for `plan` (`text` to show, `total` bytes or None)."""

    plan: Any
    text: str
    total: int | None = None
    index_down: str | None = None
    """The index that did not answer the measurement (`DownloadSize.index_down`): the plan marks it ✗ (walk 26 #7)."""


@dataclass
class ReportBuilt(Message):
    """The Report screen's worker gathered the support report (or the sentence saying what stopped it)."""

    text: str


@dataclass
class AssetsHostUnreachable(Message):
    """The Done screen's worker found the forecast's files cannot be fetched from here: the host that did not answer
    (the summary then says so where it offers the forecast)."""

    host: str


@dataclass
class AssetsChecked(Message):
    """The assets dialog's worker checked a folder (or URL) as `forecast --assets` does: `error` None when a forecast
    can take its files from `location`, else the refusal in words."""

    location: str
    error: str | None = None


@dataclass
class AfterInstallDone(Message):
    """A Done-screen worker finished registering a kernel or writing a module file: the toast to show, its
    severity, and the longer note for the pane (None: none)."""

    toast: str
    severity: str = "information"
    note: str | None = None
    seconds: float = 12
    """How long the toast stays."""


@dataclass
class KeptChecked(Message):
    """The check of a kept, unchecked environment (the Not-done screen's c) ended: its result, or the sentence that
    stopped it before it ran (`error`), and why it is not in the history (`not_recorded`, None: it is)."""

    result: Any
    error: str | None = None
    not_recorded: str | None = None


@dataclass
class LogDiagnosed(Message):
    """The Diagnose screen's worker read a log (`flows.diagnosis`): the lines to show (the words `gc-wizard diagnose`
    prints), or the one sentence saying why it could not (`error`)."""

    lines: list
    error: str | None = None
