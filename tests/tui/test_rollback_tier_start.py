"""Walk 27 (rollback's check time) in the app: the rollback's live events pass a slow tier's start on (`LiveScreenEvents.verify_tier_start`),
and the rollback screen writes the core's words, with the usual time, into its log; the install's events leave it to
the check's own screen (its clock says the time)."""

from __future__ import annotations

from types import SimpleNamespace

from wizard.flows.describe_check import tier_start_words
from wizard.tui.events import InstallScreenEvents, LiveScreenEvents
from wizard.tui.messages import VerifyTierStarted
from wizard.tui.screens.rollback import RollbackScreen


def test_the_rollback_screen_shows_a_slow_tier_s_usual_time_in_its_log():
    posted: list = []
    target = SimpleNamespace(post_message=posted.append)
    words = tier_start_words("graphcast_jit_init", "cpu")
    assert words is not None
    LiveScreenEvents(target, None).verify_tier_start(words)  # type: ignore[arg-type]
    assert [type(m) for m in posted] == [VerifyTierStarted] and posted[0].words == words

    lines: list[str] = []
    screen = object.__new__(RollbackScreen)  # the handler alone: it reads only the log widget
    screen.__dict__.update(_live_log=SimpleNamespace(add_line=lines.append))
    RollbackScreen.on_verify_tier_started(screen, posted[0])
    assert lines == [f"[gc-wizard] {words}"]

    posted.clear()
    InstallScreenEvents(target, None, cancel=None).verify_tier_start(words)  # type: ignore[arg-type]
    assert posted == []
