"""Which of Textual's own environment variables may reach it: an allow-list, judged against what Textual reads.

Textual reads its variables once, when `textual.constants` loads (and a few where a driver starts). Some only change
the look of the app; others load code (`TEXTUAL_DRIVER` imports and runs the module it names), act for the user
(`TEXTUAL_PRESS` presses keys: an install ran with nobody at the keyboard, 33rd hostile pass (part A) P2), or write
the app's messages somewhere the wizard never vetted (TEXTUAL_LOG & co: 32nd hostile pass (part A) P7, P8). A deny-list
missed the first two, so the rule is the other way round: only the names in `TEXTUAL_HARMLESS` pass, and every other
`TEXTUAL`/`TEXTUAL_*` variable is dropped before Textual is imported and named in tui.log. `TEXTUAL_REFUSED` holds the
reads already judged and refused, with the reason tui.log gives; a test lists Textual's own reads, so a variable a newer
Textual starts to read fails it until someone judges it here.
"""

from __future__ import annotations

import os

#: Textual's variables that only change how the app looks or feels, never what it loads, writes or does.
TEXTUAL_HARMLESS = frozenset({
    "TEXTUAL_COLOR_SYSTEM",       # the colour depth (the wizard's own --color sets it)
    "TEXTUAL_ANIMATIONS",         # none / basic / full; any other value means full
    "TEXTUAL_FPS",                # frames per second (an int, at least 1)
    "TEXTUAL_THEME",              # the default theme's name; an unknown one is passed over
    "TEXTUAL_SMOOTH_SCROLL",      # 0 turns smooth scrolling off
    "TEXTUAL_DIM_FACTOR",         # how dim "dim" text is drawn (0-100)
    "TEXTUAL_FILTERS",            # colour filters (monochrome, dim, ...); an unknown name is passed over
    "TEXTUAL_DISABLE_KITTY_KEY",  # 1: do not ask the terminal for the kitty key protocol
    "TEXTUAL_SPEEDUPS",           # 0: do not use the optional `textual_speedups` package (a fixed name, never chosen)
    "TEXTUAL_SNAPSHOT_TEMPDIR",   # not read by Textual: pytest-textual-snapshot's report folder, read by that plugin
})

#: Textual's variables judged and refused, with the reason tui.log gives for each.
TEXTUAL_REFUSED = {
    "TEXTUAL": "its feature flags (devtools sends every message to a server, debug)",
    "TEXTUAL_LOG": "Textual would write the app's messages there unmasked",
    "TEXTUAL_SCREENSHOT": "Textual would write a screenshot of the app's screen",
    "TEXTUAL_SCREENSHOT_LOCATION": "Textual would write a screenshot of the app's screen there",
    "TEXTUAL_SCREENSHOT_FILENAME": "Textual would write a screenshot of the app's screen there",
    "TEXTUAL_DRIVER": "Textual would import and run the module it names",
    "TEXTUAL_PRESS": "Textual would press keys for the user",
    "TEXTUAL_DEBUG": "Textual's debug mode logs the keys read and changes how errors are shown",
    "TEXTUAL_SHOW_RETURN": "Textual would print the app's return value on exit",
    "TEXTUAL_DEVTOOLS_HOST": "the devtools server Textual would send every message to",
    "TEXTUAL_DEVTOOLS_PORT": "the devtools server Textual would send every message to",
    "TEXTUAL_SLOW_THRESHOLD": "only Textual's own log uses it",
    "TEXTUAL_ALLOW_SIGNALS": "Ctrl+C would end the app with a signal, even in the middle of an install",
}

_UNKNOWN = "not one the wizard knows to be harmless"


def is_textual_variable(name: str) -> bool:
    """A variable in Textual's name space: `TEXTUAL` itself (the feature flags) or `TEXTUAL_*`."""
    return name == "TEXTUAL" or name.startswith("TEXTUAL_")


def drop_textual_variables(environ: dict | None = None) -> list[str]:
    """Remove every Textual variable outside `TEXTUAL_HARMLESS` from the environment (`os.environ` by default); the
    names removed, in order, which the app notes in its own `tui.log` so a user who set one learns it was ignored."""
    environ = os.environ if environ is None else environ
    names = sorted(name for name in environ if is_textual_variable(name) and name not in TEXTUAL_HARMLESS)
    for name in names:
        environ.pop(name, None)
    return names


def ignored_reason(name: str) -> str:
    """Why `name` was dropped, for tui.log."""
    return TEXTUAL_REFUSED.get(name, _UNKNOWN)
