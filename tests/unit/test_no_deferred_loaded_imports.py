"""No function defers `import re` in a module whose own top-level imports load it already (directly, or through
`wizard.patterns`, which every command imports): deferring it saves no start-up time and hides an import from the
top (review: `paths.runnable` imported `re` on each call)."""

from __future__ import annotations

import ast
from pathlib import Path

WIZARD = Path(__file__).resolve().parents[2] / "wizard"


def _top_imports(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_re_is_not_imported_again_inside_a_function_of_a_module_that_loads_it():
    found = []
    for path in sorted(WIZARD.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = _top_imports(tree)
        if "re" not in top and "wizard.patterns" not in top:
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Import) and any(alias.name == "re" for alias in inner.names):
                        found.append(f"{path.relative_to(WIZARD.parent)}:{inner.lineno} ({node.name})")
    assert not found, f"`import re` inside a function of a module that loads it at its top: {found}"
