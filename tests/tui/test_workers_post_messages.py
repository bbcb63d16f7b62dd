"""The app's thread workers reach the screen only by posting messages (wizard/tui/messages.py): none calls back into
the event loop with `call_from_thread` or touches a widget itself. Read from the source, so a new worker is held to
it too (the Done, Report and Plan screens' workers called `call_from_thread(self.notify …)` until this session)."""

from __future__ import annotations

import ast
from pathlib import Path

TUI = Path(__file__).resolve().parents[2] / "wizard" / "tui"
#: What a worker thread may not call on the screen or the app: the event loop's, and the widgets'.
TOUCHES = {"call_from_thread", "query_one", "query", "mount", "notify", "refresh", "update", "remove"}


def _thread_workers(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for deco in node.decorator_list:
                call = deco if isinstance(deco, ast.Call) else None
                name = getattr(call.func if call else deco, "id", None) or getattr(call.func if call else deco,
                                                                                    "attr", None)
                threaded = call is not None and any(k.arg == "thread" and getattr(k.value, "value", False)
                                                    for k in call.keywords)
                if name == "work" and threaded:
                    yield node


def test_thread_workers_post_messages_and_touch_no_widget():
    found = []
    for path in sorted(TUI.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for worker in _thread_workers(tree):
            found.append(worker.name)
            for node in ast.walk(worker):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    owner = node.func.value
                    on_self = isinstance(owner, ast.Name) and owner.id == "self" or (
                        isinstance(owner, ast.Attribute) and isinstance(owner.value, ast.Name)
                        and owner.value.id == "self" and owner.attr == "app")
                    assert not (on_self and node.func.attr in TOUCHES), (
                        f"{path.relative_to(TUI)}:{node.lineno} {worker.name} calls {node.func.attr}; post a message")
    assert len(found) >= 5, found  # the screens' workers were found at all
