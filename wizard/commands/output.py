"""Provides the CLI's output conventions: one JSON value as the last stdout line, plain errors."""

from __future__ import annotations

import json
import sys
from typing import Any


def emit_json(value: Any) -> None:
    """Print `value` as one compact JSON line (docs/interface.md: the last line of stdout is one JSON value)."""
    sys.stdout.write(json.dumps(value, default=str, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def say(text: str = "") -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def warn(text: str) -> None:
    sys.stderr.write(f"gc-wizard: {text}\n")
    sys.stderr.flush()


def confirm(question: str, *, assume_yes: bool) -> bool:
    """Ask a yes/no question on the terminal; with `--yes` say yes; with no terminal say no."""
    if assume_yes:
        return True
    if not sys.stdin.isatty():
        warn(f"{question} — no terminal to ask on; pass --yes to proceed.")
        return False
    try:
        answer = input(f"{question} [y/N] ").strip().lower()
    except EOFError:
        return False
    return answer in ("y", "yes")
