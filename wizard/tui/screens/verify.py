"""The GraphCast check: tiers as they pass or fail, then findings with their fixes."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from wizard.flows.describe_check import (
    GENCAST_TIER,
    TIER_TITLES,  # the core's wording, shared with the CLI and history
    check_ran_words,
    finding_lines,
    running_estimate,
    tier_detail,
)
from wizard.tui.widgets.shown import Shown

if TYPE_CHECKING:
    from wizard.flows.types import Finding, Tier, VerifyResult



def tier_line(tier: Tier) -> str:
    """One tier as a row: a mark, its title, its seconds, and the core's detail (`flows.describe_check`)."""
    title = TIER_TITLES.get(tier.name, tier.name)
    if tier.status in ("cancelled", "not_run"):
        return f"{'■' if tier.status == 'cancelled' else '·'} {title}  {tier_detail(tier)}"
    took = f"{tier.seconds:.1f}s" if tier.seconds is not None else "-"
    mark = {"skipped": "–", "passed": "✓"}.get(tier.status, "✗")
    detail = tier_detail(tier)
    return f"{mark} {title}  {took}" + (f"  {detail}" if detail else "")


def _gencast_follows(done: list[Tier]) -> bool:
    """Whether the probe runs a GenCast tier after GraphCast's: only GraphCast 0.2 and later have
    GenCast (the version the import tier found); a 0.1 check ends with the GraphCast jit init."""
    imported = next((t for t in done if t.name == "jax_import"), None)
    version = str(((imported.details.get("versions") or {}) if imported else {}).get("graphcast") or "")
    return not version.startswith("0.1")


def running_line(done: list[Tier], seconds: float | None = None) -> str | None:
    """The tier the probe is on now: the first of the fixed order not reported yet, and for how long.

    The jit init can take a minute or more with nothing to print: a clock that moves says it is
    working, where a still line invites Ctrl-C.
    """
    seen = {t.name for t in done}
    if any(not t.ok for t in done):
        return None  # the probe stops at the first failure
    upcoming = next((name for name in TIER_TITLES if name not in seen and (name != GENCAST_TIER
                                                                            or _gencast_follows(done))), None)
    if not upcoming:
        return None
    # Beside the clock, what the tier usually takes on this backend (walk 25 #7): "110 s of about 2 min".
    clock = f", {seconds:.0f} s{running_estimate(upcoming, done)}" if seconds is not None else ""
    return f"… {TIER_TITLES[upcoming]} (running{clock})"


def findings_text(findings: list[Finding]) -> str:
    """The findings in the core's words (the same as `gc-wizard verify` prints), wrapped for 80 columns."""
    return "\n".join(finding_lines(findings, width=76))


class VerifyScreen(Screen[str]):
    """Fed by the app as tiers arrive; Enter continues once the check is over."""

    BINDINGS = [
        Binding("enter", "next", "Next", id="next", priority=True, tooltip="What to do now"),
        Binding("escape", "back", "Back: log", id="back", tooltip="The install screen and its full log"),
        Binding("ctrl+c", "stop", "Stop check", id="stop", priority=True,
                tooltip="Ask, then stop the check; the new environment does not become current"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.tiers: list[Tier] = []
        self.done = False
        self._tier_started = time.monotonic()
        self.job = None
        """The Slurm job the check runs in (a `JobState`), while it has not reported a tier: queued or started."""
        self._job_seen = time.monotonic()
        self.stopping: str | None = None
        """The stopping line once a stop was answered yes: it replaces the running tier's clock until the end."""

    def show_job(self, state) -> None:
        """The check's Slurm job changed: queued (say so, with the wait) or running on a node (the tier's
        clock starts only now: time in the queue is not time spent checking)."""
        if state.phase == "running" and (self.job is None or self.job.phase != "running"):
            self._tier_started = time.monotonic()
        self.job, self._job_seen = state, time.monotonic()
        if self.is_mounted and not self.done:
            self._render_tiers()

    def compose(self) -> ComposeResult:
        yield Shown("gc-wizard · Step 5 of 5 · Checking GraphCast really runs", classes="title")
        with VerticalScroll(id="verify-pane"):
            yield Shown("Starting the check (a real GraphCast jit init)…", id="tiers", markup=False)
            yield Shown("", id="findings", markup=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self._render_tiers()
        self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        if not self.done:
            self._render_tiers()

    def refresh_stopping(self) -> None:
        """Draw the stopping line now, in place of the running tier's clock."""
        if self.is_mounted and not self.done:
            self._render_tiers()

    def add_tier(self, tier: Tier) -> None:
        self.tiers.append(tier)
        self._tier_started = time.monotonic()
        if self.is_mounted:
            self._render_tiers()

    def _render_tiers(self) -> None:
        lines = [tier_line(t) for t in self.tiers]
        running = None if self.done else running_line(self.tiers, time.monotonic() - self._tier_started)
        job = self.job
        if not self.done and not self.tiers and job is not None and job.phase in ("starting", "queued"):
            waited = job.waited + time.monotonic() - self._job_seen
            running = f"… {replace(job, waited=waited).describe()} · Ctrl-C cancels the job"
        elif not self.done and job is not None and job.phase == "running" and job.node:
            lines.insert(0, f"On node {job.node} (job {job.job_id}), through srun:")
        if self.stopping and not self.done:
            running = self.stopping
        if running:
            lines.append(running)
        self.query_one("#tiers", Static).update("\n".join(lines))

    def show_result(self, verify: VerifyResult | None, stopped: str | None = None) -> None:
        """The check is over: the final tiers (they win over the live ones), then findings and fixes.
        `stopped`: what a stop did to the new environment, said when the check was stopped."""
        self.done = True
        self.refresh_bindings()
        if verify is not None and verify.tiers:
            self.tiers = list(verify.tiers)
        self._render_tiers()
        if verify is not None and verify.cancelled:
            text = stopped or "The check was stopped. The new environment did not become current."
        elif verify is not None and verify.findings:
            ran = check_ran_words(verify)  # which node and job, as the fix speaks of "the job" (walk 28 #7)
            text = (f"{ran}\n" if ran else "") + findings_text(verify.findings)
        elif verify is not None and verify.ok:
            node = verify.node
            gencast = verify.tier(GENCAST_TIER)
            what = "GraphCast and GenCast run" if gencast is not None and gencast.status == "passed" else "GraphCast runs"
            text = f"{what} on node {node} (checked through srun)." if node else f"{what} here."
        else:
            text = "The check did not finish."
        self.query_one("#findings", Static).update(text + self.closing(verify))

    def closing(self, verify: VerifyResult | None) -> str:
        """What follows the result on the screen: the keys that lead on."""
        return "\n\nEnter: what to do now · Escape: the install log"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("next", "back"):
            return self.done
        if action == "stop":
            return not self.done
        return True

    def action_next(self) -> None:
        self.dismiss("next")

    def action_back(self) -> None:
        self.dismiss("log")

    def action_stop(self) -> None:
        self.app.action_stop_install()
