"""Every folder gc-wizard makes goes through the one maker (`security.make_folders`), or is followed at once by
`strip_acls` where a bare `mkdir` is needed for its FileExistsError (claiming a new env folder, the state itself).

Why: 27th hostile pass (part B) P1 — folders made under a parent with a default ACL inherited another user's write;
the fix is one maker, and this keeps it one: a later change that adds a plain `mkdir` (as the bundle's `recipes/`
folder first did, in the same session) fails here instead of handing another user a folder root writes into."""

from __future__ import annotations

import ast
from pathlib import Path

WIZARD = Path(__file__).resolve().parents[2] / "wizard"
MAKERS = {"mkdir", "makedirs"}


def _plain_mkdirs(tree: ast.AST) -> list[int]:
    """Line numbers of `X.mkdir(...)`/`os.mkdir(...)`/`os.makedirs(...)` calls with no `strip_acls(...)` call after
    them, within the next eight lines of the same function (a `try`'s `else:` block included)."""
    found = []
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        calls = [node for node in ast.walk(function) if isinstance(node, ast.Call)]
        strips = [c.lineno for c in calls if getattr(c.func, "id", getattr(c.func, "attr", None)) == "strip_acls"]
        for call in calls:
            if isinstance(call.func, ast.Attribute) and call.func.attr in MAKERS:
                if not any(call.lineno < line <= call.lineno + 8 for line in strips):
                    found.append(call.lineno)
    return sorted(set(found))


def test_every_folder_is_made_by_the_one_maker():
    offenders = []
    for path in sorted(WIZARD.rglob("*.py")):
        if path.name == "security.py":
            continue  # the maker itself
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        offenders += [f"{path.relative_to(WIZARD.parent)}:{line}" for line in _plain_mkdirs(tree)]
    assert not offenders, ("a folder made without security.make_folders (or strip_acls right after): "
                           + ", ".join(offenders))


def test_the_rule_sees_a_plain_mkdir():
    tree = ast.parse("def f(out):\n    (out / 'x').mkdir(exist_ok=True)\n    write(out)\n")
    assert _plain_mkdirs(tree) == [2]
    tree = ast.parse("def f(c):\n    try:\n        os.mkdir(c)\n        strip_acls(c)\n    except OSError:\n        pass\n")
    assert _plain_mkdirs(tree) == []
