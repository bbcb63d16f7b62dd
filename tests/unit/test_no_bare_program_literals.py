"""No new quoted "`gc-wizard <subcommand>" may enter a user-facing string of wizard/ unseen (walk 37 #6).

A printed command must name the program as a new login shell runs it (`paths.program_command` / `wizard_command`):
after README's Quick start only `.venv/bin/gc-wizard` exists, and a bare `gc-wizard` is "command not found". The
sentences are written with the bare name and rewritten on the way out by the one helper, `paths.runnable`: the CLI's
`commands.output.say`/`warn` and the error line `cli.main` ends with, the lines left after the app
(`tui.leaving._said`), the findings' fixes (`flows.describe_check`), the kernel notes, the log's "run it again" line.
A command for ANOTHER machine is `paths.elsewhere_command`'s and never quoted bare.

Allowed without a count, with the reason:
- docstrings and comments: never shown;
- argparse texts (`help=`, `description=`, `epilog=`, the example of `options.add_command`) and module constants
  named `*_HELP`: usage documentation, where the program's name is what `--help` itself is run as;
- `` `gc-wizard` `` alone (no subcommand): the program's name, not a command line.
Every other one is counted per file below, as they stood at walk 37: the TUI's are tooltips that name the CLI command
a key does (not a line to paste); the rest are sentences the CLI prints through those outputs. A count is a ratchet,
not a check of each: a new literal fails this test until it is built with `paths.program_command` (or goes through
one of those outputs) and the count here is raised by whoever checked that."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

WIZARD = Path(__file__).resolve().parents[2] / "wizard"
BARE = re.compile(r"`gc-wizard [a-z]")
_HELP_KEYWORDS = {"help", "description", "epilog", "usage"}

#: file -> how many counted literals it holds (see above: a ratchet as of walk 37).
COUNTED = {
    "after/activate.py": 1, "after/follow.py": 3, "after/kernel.py": 6, "after/module.py": 2, "after/report.py": 4,
    "after/target.py": 1, "commands/diagnose.py": 1, "commands/history.py": 1, "commands/install.py": 5,
    "commands/post_install.py": 2, "commands/recipes.py": 4, "commands/streams.py": 1, "commands/verify.py": 1,
    "error_sentences.py": 1, "flows/check.py": 1, "flows/describe_plan.py": 1, "flows/diagnosis.py": 3,
    "flows/history.py": 1, "flows/rollback.py": 5, "flows/session.py": 3, "flows/transaction.py": 3,
    "full_disk.py": 1, "history/store.py": 7, "install/bundle.py": 7, "install/envs.py": 6,
    "install/lockfile.py": 4, "install/options.py": 2, "install/plan.py": 1, "install/reach.py": 3,
    "install/resolution_settings.py": 1, "paths.py": 1, "recipes/loader.py": 1, "recipes/match.py": 1,
    "tui/screens/diagnose.py": 2, "tui/screens/history.py": 1, "tui/screens/machine.py": 1, "verify/causes.py": 6,
    "verify/check.py": 2, "verify/diagnose.py": 7, "verify/inspect_env.py": 16, "verify/noexec_place.py": 1,
    "verify/shadow.py": 3,
}


def _exempt(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings or argparse texts."""
    exempt: set[int] = set()

    def strings(node: ast.AST) -> list[int]:
        return [id(n) for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant):
            exempt.add(id(body[0].value))
        if isinstance(node, ast.Call):
            exempt.update(i for kw in node.keywords if kw.arg in _HELP_KEYWORDS for i in strings(kw.value))
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name == "add_command":
                exempt.update(i for arg in node.args[1:] for i in strings(arg))
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id.endswith("_HELP")
                                                for t in node.targets):
            exempt.update(strings(node.value))
    return exempt


def _counted() -> Counter[str]:
    found: Counter[str] = Counter()
    for path in sorted(WIZARD.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        exempt = _exempt(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in exempt \
                    and BARE.search(node.value):
                found[path.relative_to(WIZARD).as_posix()] += 1
    return found


def test_no_new_bare_program_command_in_a_user_facing_string():
    found = _counted()
    grown = {name: (count, COUNTED.get(name, 0)) for name, count in found.items() if count > COUNTED.get(name, 0)}
    assert not grown, ("a quoted `gc-wizard <subcommand>` was added (file: (now, allowed)); build it with "
                       f"paths.program_command or send it through paths.runnable: {grown}")


def test_the_exemptions_are_the_reasoned_ones():
    """A help text and a docstring are exempt; a sentence is not."""
    tree = ast.parse('"""Run `gc-wizard verify`."""\n'
                     'X_HELP = "see `gc-wizard history`"\n'
                     'p.add_argument("--x", help="`gc-wizard plan` first")\n'
                     'raise UserError("see `gc-wizard history`")\n')
    exempt = _exempt(tree)
    shown = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
             and id(n) not in exempt and BARE.search(n.value)]
    assert shown == ["see `gc-wizard history`"]


def test_the_json_line_names_the_program_as_the_printed_lines_do(monkeypatch):
    """Walk 38 #2: the reach of `paths.runnable` goes beyond say/warn: every finding's `fix` in a `--json` line names the
    program as the printed Fix: line does; a bare one stays only where the program is bare."""
    from wizard import paths
    from wizard.commands.output import json_line
    from wizard.security import json_text

    monkeypatch.setattr(paths, "wizard_command", lambda: "/v/bin/gc-wizard")
    value = {"fix": "run `gc-wizard history`", "findings": [{"fix": "`gc-wizard report` writes it"}], "n": 1}
    assert json_line(value) == json_text({"fix": "run `/v/bin/gc-wizard history`",
                                          "findings": [{"fix": "`/v/bin/gc-wizard report` writes it"}], "n": 1})
    assert json_line({"error": "see `gc-wizard history`"}) == json_text({"error": "see `gc-wizard history`"})
    monkeypatch.setattr(paths, "wizard_command", lambda: "gc-wizard")
    assert json_line(value) == json_text(value)
