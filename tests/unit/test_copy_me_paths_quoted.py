"""Every path or file name put into a command meant to be pasted (a backquoted copy-me line) goes through the one
quoting function, `security.shell_word` (or `shell_line`).

Why: 34th hostile pass (part A) P2, P3, P6 — sites the 33rd pass's one function did not reach printed a path bare or
in single quotes without escaping `'`: bundle's `rm -r DIR ~` (pasted, it removes the home folder), module's
`~/.bashrc` line, the plan's `verify --env` hint, the jaxlib fix's `uv pip install --python`, and the assets fix's
`sha256sum '…'`, which ran a file name's `$(…)`. The AST test below fails on a new such f-string; the others run the
five sites with a path that a shell would misread."""

from __future__ import annotations

import ast
import re
import shlex
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from wizard.flows.history import unchecked_words
from wizard.flows.results import kept_unchecked
from wizard.install import bundle
from wizard.verify import inspect_env

WIZARD = Path(__file__).resolve().parents[2] / "wizard"
QUOTERS = {"shell_word", "shell_line", "_q"}
#: The last name of an expression that holds a path or a file name.
PATHY = re.compile(r"(^|_)(env|env_dir|env_path|folder|folders|path|paths|dir|out|where|place|relpath|root|target|"
                   r"location|log|src|source|home|file|filename|bundle|lock|wheelhouse|state|venv|python|"
                   r"executable|exe|interpreter|given|shown)$")
HOSTILE = "/tmp/x ~/q'$(touch PWNED)'"


def _last_name(value: ast.expr) -> str:
    if isinstance(value, ast.Name):
        return value.id
    if isinstance(value, ast.Attribute):
        return value.attr
    if isinstance(value, ast.Subscript):
        key = value.slice
        return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else _last_name(value.value)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in {"str", "one_line"}:
        return _last_name(value.args[0]) if value.args else ""
    return ""


def _quotes(value: ast.expr, quoted: set[str]) -> bool:
    if isinstance(value, ast.Name) and value.id in quoted:
        return True
    return isinstance(value, ast.Call) and getattr(value.func, "id", getattr(value.func, "attr", "")) in QUOTERS


def _quoted_names(function: ast.AST) -> set[str]:
    """Names the function binds to a value made by a quoting call (`quoted = shell_word(...)`)."""
    names = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and any(isinstance(n, ast.Call) and getattr(n.func, "id", "") in QUOTERS
                                                for n in ast.walk(node.value)):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _unquoted_paths_in_commands(tree: ast.AST):
    """(line, expression) of each path-named value inside a backquoted command of an f-string, not quoted. A span is
    a command when it starts with a word and a space (`rm -r `, `gc-wizard verify --env `) or with the command's own
    value (`{command} verify`); a span that starts with the value names a thing (`environment `{env}``), and is
    not pasted."""
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    quoted_in = {}
    for function in functions:  # outer first: an inner function's own names are added to its outer's
        names = _quoted_names(function)
        for node in ast.walk(function):
            quoted_in[id(node)] = quoted_in.get(id(node), set()) | names
    for node in ast.walk(tree):
        if not isinstance(node, ast.JoinedStr):
            continue
        quoted = quoted_in.get(id(node), set())
        span: list[ast.expr | str] | None = None
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                pieces = part.value.split("`")
                if span is not None:
                    span.append(pieces[0])
                for _ in pieces[1:]:
                    span = [] if span is None else None
                if span is not None and len(pieces) > 1 and pieces[-1]:
                    span.append(pieces[-1])
                continue
            if span is None:
                continue
            value = part.value
            span.append(value)
            head = span[0]
            command = (isinstance(head, str) and re.match(r"[a-z][\w.-]* ", head) is not None) or (
                not isinstance(head, str) and ("command" in ast.unparse(head) or _quotes(head, quoted)))
            if command and PATHY.search(_last_name(value)) and not _quotes(value, quoted):
                yield node.lineno, ast.unparse(value)


def test_the_scan_finds_an_unquoted_path_in_a_command():
    tree = ast.parse('f"remove it (`rm -r {folder}`)"; f"`{command} verify --env {env}`"; f"environment `{env}`"\n'
                     'def g():\n    q = shell_word(env)\n    return f"`uv pip install --python {q}` `rm {shell_word(path)}`"')
    assert [text for _, text in _unquoted_paths_in_commands(tree)] == ["folder", "env"]


def test_no_copy_me_command_in_the_wizard_holds_an_unquoted_path():
    found = []
    for path in sorted(WIZARD.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(WIZARD.parent)}:{line}: {text}" for line, text in _unquoted_paths_in_commands(tree)]
    assert not found, "quote these with security.shell_word:\n" + "\n".join(found)


def _backquoted(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def _words(command: str) -> list[str]:
    return shlex.split(command)


def test_bundles_unfinished_folder_advice_removes_only_that_folder(tmp_path):
    folder = tmp_path / "bun ~"
    (folder / bundle.WHEELS).mkdir(parents=True)
    advice = [c for c in _backquoted(bundle._unfinished(folder)) if c.startswith("rm ")]
    assert advice and _words(advice[0]) == ["rm", "-r", str(folder)]


def test_the_verify_env_hints_name_the_env_as_one_word():
    said = unchecked_words("tiny-a", (HOSTILE, "7", 0), command="gc-wizard")
    assert _words(_backquoted(said)[0]) == ["gc-wizard", "verify", "--env", HOSTILE]
    said = kept_unchecked(HOSTILE, None)
    assert _words(_backquoted(said)[0]) == ["gc-wizard", "verify", "--env", HOSTILE]


def test_the_jaxlib_mismatch_fix_names_the_env_as_one_word():
    report = SimpleNamespace(path=HOSTILE, packages={"jax": "0.4.20", "jaxlib": "0.4.23"}, graphcast=None,
                             jaxlib_build=None, driver=None, nvidia_wheels={}, ptxas=None)
    found = [f for f in inspect_env._findings(report, {}, "tiny-a") if f.id == "jaxlib_mismatch"]
    fix = [c for c in _backquoted(found[0].fix) if c.startswith("uv ")]
    assert _words(fix[0]) == ["uv", "pip", "install", "--python", HOSTILE, "--no-deps", "jax==0.4.23"]


def test_a_pasted_sha256sum_fix_runs_no_code_from_the_file_name(tmp_path):
    from wizard.after import assets
    name = "params/GraphCast_small - q'$(touch PWNED)'.npz"
    (tmp_path / "params").mkdir()
    (tmp_path / name).write_bytes(b"x")
    source = SimpleNamespace(location=str(tmp_path), is_local=True, sums_file=str(tmp_path / "SHA256SUMS"))
    with pytest.raises(assets.AssetError) as caught:
        assets._unlisted(source, SimpleNamespace(relpath=name))
    command = [c for c in _backquoted(str(caught.value)) if c.startswith("sha256sum ")][0]
    subprocess.run(["bash", "-c", command], cwd=tmp_path, check=True, timeout=30)
    assert not (tmp_path / "PWNED").exists()
    assert (tmp_path / "SHA256SUMS").read_text().split("  ", 1)[1] == name + "\n"


def test_the_wheelhouse_command_keeps_each_pin_and_link_one_word():
    from wizard.install.reach import wheelhouse_command
    recipe = SimpleNamespace(requirements=["jax[cuda12]==0.4.23", "a'b; touch PWNED", "numpy<2"],
                             find_links=[HOSTILE])
    words = _words(wheelhouse_command(recipe))
    assert words[-3:] == recipe.requirements and words[words.index("-f") + 1] == HOSTILE
