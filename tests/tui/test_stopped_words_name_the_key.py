"""Walk 39 #6: diagnose said "p on the Not-done screen goes again with the same settings" while that screen's key reads
"p Change the plan": the same action in two wordings. Diagnose now names the key by its label, as the footer shows it."""

from __future__ import annotations

from wizard.tui.screens.done import DoneScreen
from wizard.verify.diagnose import Stopped


def test_diagnose_names_the_not_done_key_by_its_label():
    label = next(binding.description for binding in DoneScreen.BINDINGS if getattr(binding, "id", None) == "plan")
    said = Stopped(step=None, why="cancelled", recipe="jax0.4.23-cpu").next_step
    assert f"p, {label}," in said and "same settings" not in said, said
