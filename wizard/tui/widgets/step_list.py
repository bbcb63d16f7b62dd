"""The install's steps, one row each: pending, running (spinner + elapsed), done or failed."""

from __future__ import annotations

import re
import time

from textual.widgets import Static

from wizard.security import cut

_SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
#: The installers' own counters: uv's summary lines and pip's `--progress-bar raw` lines.
_COUNTER_RE = re.compile(r"^(?:(Resolved|Prepared|Installed|Uninstalled|Downloaded) ([0-9]+) packages?"
                         r"|Progress ([0-9]+) of ([0-9]+))")


class StepList(Static):
    """Rows for (name, title) steps; `start`, `finish` and `progress_from` update them."""

    def __init__(self, steps: list[tuple[str, str]], **kwargs) -> None:
        super().__init__("", markup=False, **kwargs)
        self.steps = steps
        self.state: dict[str, str] = {name: "pending" for name, _ in steps}
        self.started: dict[str, float] = {}
        self.seconds: dict[str, float] = {}
        self.notes: dict[str, str] = {}
        self.progress = ""
        self._tick = 0

    def on_mount(self) -> None:
        self.set_interval(0.2, self._spin)
        self._render_rows()

    def start(self, name: str, title: str) -> None:
        if name not in self.state:  # the plan's steps are all listed up front; this is a safety net
            self.steps.append((name, title))
        self.state[name] = "running"
        self.started[name] = time.monotonic()
        self.progress = ""
        self._render_rows()

    def finish(self, name: str, ok: bool, seconds: float, cancelled: bool = False, note: str | None = None) -> None:
        """`note`: a step whose failure is expected and handled (an offline try before the online one)
        shows the note instead of "failed"."""
        self.state[name] = "done" if ok else ("cancelled" if cancelled else ("noted" if note else "failed"))
        self.seconds[name] = seconds
        self.notes[name] = note or ""
        self._render_rows()

    def progress_from(self, line: str, downloading: str | None = None) -> None:
        """`downloading`: the file the installer is fetching now, as the core's `InstallProgress.current` names it."""
        match = _COUNTER_RE.match(line)
        if not match:
            return
        if match.group(1):
            count = int(match.group(2))
            self.progress = f"{match.group(1).lower()} {count} package{'' if count == 1 else 's'}"
        else:
            done, total = int(match.group(3)), int(match.group(4))
            # one file's share, shown while it downloads: a finished file's "100%" beside a step with most of its
            # work still to come read as the step being done (walk 19 #4). The share is the file's, so it falls when
            # the next file starts: it names the file, or the step read as going backwards, 81% then 44% (walk 28 #6)
            share = f"{100 * done // max(total, 1)}%"
            self.progress = (f"{downloading} {share}" if downloading else f"this file {share}") if done < total else ""

    def _spin(self) -> None:
        if "running" in self.state.values():
            self._tick += 1
            self._render_rows()

    def _render_rows(self) -> None:
        width = min(max((len(title) for _, title in self.steps), default=0), 52)
        rows = []
        for name, title in self.steps:
            state = self.state[name]
            label = title.ljust(width)
            if state == "running":
                elapsed = time.monotonic() - self.started.get(name, time.monotonic())
                extra = f"  {self.progress}" if self.progress else ""
                row = f"{_SPINNER[self._tick % len(_SPINNER)]} {label} {elapsed:5.0f}s{extra}"
                # One row per step, always: a wrapped row would push the log down mid-install.
                room = max((self.size.width or 78), 20)
                rows.append(cut(row, room))
            elif state == "done":
                rows.append(f"✓ {label} {self.seconds.get(name, 0):5.1f}s")
            elif state in ("failed", "cancelled"):
                rows.append(f"✗ {label} {state}")
            elif state == "noted":
                rows.append(f"– {label} {self.notes.get(name, '')}")
            else:
                rows.append(f"· {title}")
        self.update("\n".join(rows))
