"""What a screen shows when the core could not give it what it loads: one sentence, the CLI's own.

Why one place: each screen loaded its data its own way, and one that caught nothing (History, reading the
history with GC_WIZARD_HOME a file) died with Textual's traceback, while the Report screen and `gc-wizard history`
named the file (fourteenth hostile pass Q1). Every screen's loading path says an OSError or WizardError through
`problem_text`; what still escapes ends the app with the same sentence (`WizardApp._handle_exception`).
"""

from __future__ import annotations

from wizard.error_sentences import describe_error
from wizard.errors import WizardError


def error_text(exc: BaseException) -> str:
    """The product's sentence for `exc`: a WizardError's text, an OSError's path and fix (as the CLI says them);
    another error's own text (the screen that caught it goes on, so it is no crash to report)."""
    if isinstance(exc, (WizardError, OSError)):
        return describe_error(exc)
    return str(exc) or type(exc).__name__


def problem_text(what: str, exc: BaseException) -> str:
    """"Could not WHAT:" and the sentence, for a screen to show where its data would be."""
    return f"Could not {what}:\n\n{error_text(exc)}"
