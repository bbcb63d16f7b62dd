"""The GraphCast check: tiers as they pass or fail, then findings with their fixes."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

TIER_TITLES = {
    "jax_import": "import jax, jaxlib, haiku, xarray, graphcast",
    "backend": "JAX backend and devices",
    "cudnn_op": "a convolution on the GPU (cuDNN)",
    "graphcast_jit_init": "GraphCast jit init (the notebook's cell)",
}


def tier_line(tier: dict) -> str:
    mark = "–" if tier.get("skipped") or tier.get("status") == "skipped" else ("✓" if tier.get("ok") else "✗")
    line = f"{mark} {TIER_TITLES.get(tier['name'], tier['name'])}  {tier.get('seconds', 0):.1f}s"
    if tier.get("param_count"):
        line += f"  ({tier['param_count']:,} parameters, peak {tier.get('peak_rss_mib', 0):.0f} MiB)"
    return line


def findings_text(findings: list[dict]) -> str:
    parts = []
    for finding in findings:
        parts.append(f"▶ {finding['title']}\n  Why: {finding['explanation']}\n  Fix: {finding['fix']}")
    return "\n\n".join(parts)


class VerifyScreen(Screen[str]):
    """Fed by the app as tiers arrive; Enter continues once the check is over."""

    BINDINGS = [Binding("enter", "next", "Next", id="next", priority=True)]

    def __init__(self) -> None:
        super().__init__()
        self.tiers: list[dict] = []
        self.done = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Step 5 of 5 · Checking GraphCast really runs", classes="title")
        with VerticalScroll():
            yield Static("Starting the check (a real GraphCast jit init)…", id="tiers", markup=False)
            yield Static("", id="findings", markup=False)
        yield Footer()

    def on_screen_resume(self) -> None:
        self.app.sub_title = "verify"

    def add_tier(self, tier: dict) -> None:
        self.tiers.append(tier)
        self.query_one("#tiers", Static).update("\n".join(tier_line(t) for t in self.tiers))

    def show_result(self, verify: dict | None) -> None:
        self.done = True
        if verify:
            if not self.tiers:
                for tier in verify.get("tiers", []):
                    self.add_tier(tier)
            findings = verify.get("findings") or []
            text = findings_text(findings) if findings else ("GraphCast runs here." if verify.get("ok") else "")
            self.query_one("#findings", Static).update(text + "\n\nPress Enter to continue.")

    def action_next(self) -> None:
        if self.done:
            self.dismiss("next")
