"""Every `gc-wizard …` command the product prints in backquotes (a retry, a next step, a fix) parses with the real
parser: none lacks an argument its command requires.

Why: 37th hostile pass (part B) P3 — `remove` that could not delete an immutable file said "`gc-wizard remove`
finishes the job once that is fixed"; pasted, it printed only "the following arguments are required: ENTRY_ID".
The same held for "make the bundle again with `gc-wizard bundle`" (RECIPE and --out left off) and the full disk's
"old environments: `gc-wizard remove`". A placeholder (ENTRY_ID, RECIPE, DIR) is an argument; a left-off one is not.
Docstrings, comments and `help=` texts (which name a command rather than give one to run) are not printed commands.
"""
from __future__ import annotations

import ast
import contextlib
import io
import re
from pathlib import Path

import pytest

from wizard.cli import build_parser
from wizard.install import envs

WIZARD = Path(__file__).resolve().parents[2] / "wizard"
#: A printed command in backquotes; a formatted value inside one is a word the test cannot know (`VALUE`).
COMMAND = re.compile(r"`gc-wizard ([^`]*)`")
VALUE = "\0"


def _printed_strings(tree: ast.AST) -> list[tuple[int, str]]:
    """The string literals of a module that may be printed: not docstrings and not `help=` texts; an f-string whole,
    with each formatted value as `VALUE`."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skipped.add(id(node.value))  # a docstring (a module's, a function's, an attribute's)
        elif isinstance(node, ast.keyword) and node.arg == "help":
            skipped.update(id(sub) for sub in ast.walk(node.value))
        elif isinstance(node, ast.JoinedStr):
            skipped.update(id(sub) for sub in node.values)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and id(node) not in skipped:
            found.append((node.lineno, "".join(part.value if isinstance(part, ast.Constant) else VALUE
                                               for part in node.values)))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
            found.append((node.lineno, node.value))
    return found


def _words(command: str) -> list[str] | None:
    """The arguments of one printed command up to a shell redirection or pipe; None where a formatted value makes
    them unknowable here, or where the command word itself is a placeholder (`gc-wizard COMMAND --help`)."""
    words = []
    for word in command.replace("…", " ").split():
        if word in {"<", ">", "|", "&&", ";"}:
            break
        words.append(word)
    if not words or VALUE in command or words[0].isupper():
        return None
    return words


def _refused(parser, words: list[str]) -> bool:
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            parser.parse_args(words)
        except SystemExit as exc:
            return bool(exc.code)
    return False


def test_every_printed_command_has_its_required_arguments():
    parser = build_parser()
    bad = []
    for path in sorted(WIZARD.rglob("*.py")):
        for line, text in _printed_strings(ast.parse(path.read_text(encoding="utf-8"))):
            for match in COMMAND.finditer(text):
                words = _words(match.group(1))
                if words is not None and _refused(parser, words):
                    bad.append(f"{path.relative_to(WIZARD.parent)}:{line}: {match.group(0)}")
    assert not bad, "printed commands the parser refuses (an argument left off):\n" + "\n".join(bad)


def test_remove_env_names_the_entry_in_its_retry_command(isolated_state, monkeypatch):
    """The sentence for files `remove` could not delete gives the entry id it was given (shell-quoted), so the
    printed command finishes the job when pasted; without an id, the ENTRY_ID placeholder, never nothing."""
    env = isolated_state / "envs" / "tiny-a-2"
    (env / "lib").mkdir(parents=True)
    (env / envs.MARKER).write_text('{"recipe": "tiny-a"}\n')
    monkeypatch.setattr(envs, "check_removable", lambda _env: None)
    monkeypatch.setattr(envs, "_remove_env_tree", lambda _env: [(env / "lib" / "imm", "Operation not permitted")])
    with pytest.raises(envs.OperationFailed) as info:
        envs.remove_env(env, entry_id="20261129-104324-b85b")
    assert "`gc-wizard remove 20261129-104324-b85b` finishes the job" in str(info.value), info.value
    with pytest.raises(envs.OperationFailed) as info:
        envs.remove_env(env, entry_id="a b")
    assert "`gc-wizard remove 'a b'` finishes" in str(info.value), info.value
    with pytest.raises(envs.OperationFailed) as info:
        envs.remove_env(env)
    assert "`gc-wizard remove ENTRY_ID` finishes" in str(info.value), info.value
