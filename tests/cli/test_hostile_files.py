"""Hostile recipe, answers, facts, history and marker files: each is one sentence, nothing runs, nothing lost.

Every case runs the real CLI on a file built to hurt (an alias bomb, ten thousand nested brackets, a
file of 300 MB worth of size claims, a duplicate, an escape sequence, a variable that runs code) and
checks the command's ending: the promised exit status, a sentence that names the file (and the line
where there is one), no traceback, no MemoryError/RecursionError, and nothing executed.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from wizard import paths

BUILTIN_CPU = (paths.builtin_recipes_dir() / "jax0.4.23-cpu.yaml").read_text()


def _clean(proc) -> None:
    for text in (proc.stdout, proc.stderr):
        assert "Traceback" not in text and "MemoryError" not in text and "RecursionError" not in text, text
        assert "\x1b" not in text, "an escape sequence reached the terminal"


def _recipe_dir(tmp_path: Path, text: str, name: str = "jax0.4.23-cpu.yaml") -> Path:
    folder = tmp_path / "hostile-recipes"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder


def _with_runtime(name: str, value: str = "1") -> str:
    return BUILTIN_CPU.replace("runtime_env:\n  JAX_PLATFORMS: cpu", f"runtime_env:\n  JAX_PLATFORMS: cpu\n  {name}: \"{value}\"")


# ------------------------------------------------------------------ recipes

RUNS_CODE = ["PROMPT_COMMAND", "BASH_ENV", "ENV", "IFS", "GIT_SSH_COMMAND", "JAX_COMMAND", "PIP_INDEX_URL",
             "PIP_CONFIG_FILE", "UV_INDEX_URL", "UV_PYTHON", "LD_PRELOAD", "LD_AUDIT", "LD_LIBRARY_PATH",
             "PYTHONSTARTUP", "PYTHONPATH", "PYTHONHOME", "PYTHONINSPECT", "PS1", "PAGER", "EDITOR",
             "SHELLOPTS", "BASHOPTS", "ZDOTDIR", "PERL5OPT", "NODE_OPTIONS", "GIT_CONFIG_GLOBAL", "http_proxy"]


@pytest.mark.parametrize("name", RUNS_CODE)
def test_a_recipe_variable_that_can_run_code_is_refused_naming_file_and_line(tmp_path, name):
    folder = _recipe_dir(tmp_path, _with_runtime(name, "touch /tmp/gc-wizard-pwned"))
    proc = run_inproc("recipes", "--json", "--recipes-dir", str(folder))
    _clean(proc)
    assert proc.returncode == 2
    assert f"{folder / 'jax0.4.23-cpu.yaml'}, line " in proc.stderr and name in proc.stderr
    assert last_json(proc) == {"ok": False, "error": proc.stderr.strip().removeprefix("gc-wizard: "), "exit": 2}


@pytest.mark.parametrize("value", ["$(touch /tmp/x)", "`id`", "a;b", "a|b", "a&b", "a>b", "x\\ny",
                                   "x" * 2000], ids=["subshell", "backquote", "semicolon", "pipe", "ampersand",
                                                     "redirect", "backslash", "too-long"])
def test_a_recipe_variable_value_with_shell_syntax_is_refused(tmp_path, value):
    folder = _recipe_dir(tmp_path, _with_runtime("XLA_FLAGS", value.replace("\\", "\\\\")))
    proc = run_inproc("recipes", "--recipes-dir", str(folder))
    _clean(proc)
    assert proc.returncode == 2 and "line " in proc.stderr


@pytest.mark.parametrize("name", ["JAX_ENABLE_X64", "XLA_PYTHON_CLIENT_MEM_FRACTION", "TF_CPP_MIN_LOG_LEVEL",
                                  "CUDA_VISIBLE_DEVICES", "NCCL_DEBUG", "NVIDIA_TF32_OVERRIDE"])
def test_the_documented_families_are_accepted(tmp_path, name):
    folder = _recipe_dir(tmp_path, _with_runtime(name, "0"))
    proc = run_inproc("recipes", "--recipes-dir", str(folder))
    assert proc.returncode == 0, proc.stderr


BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
    f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(9))
DEEP_YAML = "schema: 1\nnotes: " + "[" * 5000 + "]" * 5000 + "\n"

RECIPE_CASES = {
    "alias bomb": (BOMB, "alias"),
    "alias in notes": (BUILTIN_CPU.replace("notes:", "x: &n hello\nnotes:"), None),
    "deep nesting": (DEEP_YAML, "nested"),
    "huge file": ("# " + "x" * (300 * 1024) + "\n" + BUILTIN_CPU, "larger than"),
    "escape in title": (BUILTIN_CPU.replace("title: ", 'title: "\\e]0;pwned\\a\\e[2J" #', 1), "control characters"),
    "NUL in title": (BUILTIN_CPU.replace("title: ", 'title: "a\\0b" #', 1), "NUL"),
    "not UTF-8": (None, "not a text file"),
}


@pytest.mark.parametrize("case", list(RECIPE_CASES))
def test_hostile_recipe_file_is_one_sentence(tmp_path, case):
    text, words = RECIPE_CASES[case]
    folder = tmp_path / "r"
    folder.mkdir()
    target = folder / "jax0.4.23-cpu.yaml"
    if text is None:
        target.write_bytes(b"schema: 1\ntitle: \xff\xfe\n")
    else:
        target.write_text(text, encoding="utf-8")
    proc = run_inproc("recipes", "--json", "--recipes-dir", str(folder))
    _clean(proc)
    assert proc.returncode == 2, proc.stderr
    assert str(target) in proc.stderr
    if words:
        assert words in proc.stderr
    assert last_json(proc)["ok"] is False


def test_a_bom_is_accepted_in_a_recipe(tmp_path):
    folder = _recipe_dir(tmp_path, "\ufeff" + BUILTIN_CPU)
    proc = run_inproc("recipes", "--recipes-dir", str(folder))
    assert proc.returncode == 0, proc.stderr


def test_duplicate_recipe_ids_in_one_folder_name_both_files(tmp_path):
    folder = _recipe_dir(tmp_path, BUILTIN_CPU)
    (folder / "jax0.4.23-cpu.yml").write_text(BUILTIN_CPU)
    proc = run_inproc("recipes", "--recipes-dir", str(folder))
    _clean(proc)
    assert proc.returncode == 2
    assert "jax0.4.23-cpu.yaml" in proc.stderr and "jax0.4.23-cpu.yml" in proc.stderr and "twice" in proc.stderr


# ------------------------------------------------------------------ answers

GOOD_ANSWERS = {"schema": "gc-wizard-answers", "version": 1, "recipe": "jax0.4.23-cpu", "options": {}}

ANSWERS_CASES = {
    "duplicate key": ('{\n "schema": "gc-wizard-answers",\n "version": 1,\n "recipe": "a",\n "recipe": "b"\n}\n',
                      "lines 4 and 5"),
    "deep nesting": ('{"schema": ' + "[" * 100000 + "]" * 100000 + "}", "nested"),
    "huge": ('{"schema": "gc-wizard-answers", "pad": "' + "x" * (300 * 1024) + '"}', "larger than"),
    "yaml alias bomb": (BOMB, "alias"),
    "env with a newline": (json.dumps({**GOOD_ANSWERS, "env": "/tmp/a\nb"}), "newline"),
    "env with a colon": (json.dumps({**GOOD_ANSWERS, "env": "/tmp/a:b"}), "':'"),
    "env with a NUL": (json.dumps({**GOOD_ANSWERS, "env": "/tmp/a\u0000b"}), "NUL"),
    "wrong type": (json.dumps({**GOOD_ANSWERS, "options": {"find_links": "/x"}}), "find_links"),
}


@pytest.mark.parametrize("case", list(ANSWERS_CASES))
def test_hostile_answers_file_is_one_sentence(tmp_path, case):
    text, words = ANSWERS_CASES[case]
    answers = tmp_path / "answers.json"
    answers.write_text(text, encoding="utf-8")
    proc = run_inproc("install", "--answers", str(answers), "--yes", "--json", "--no-verify")
    _clean(proc)
    assert proc.returncode == 2, proc.stderr
    assert words in proc.stderr
    assert last_json(proc)["ok"] is False
    assert not (Path(os.environ["GC_WIZARD_HOME"]) / "envs").exists()


def test_a_bom_is_accepted_in_an_answers_file(tmp_path):
    answers = tmp_path / "answers.json"
    answers.write_text("\ufeff" + json.dumps({**GOOD_ANSWERS, "recipe": "no-such-recipe"}), encoding="utf-8")
    proc = run_inproc("install", "--answers", str(answers), "--yes")
    _clean(proc)
    assert proc.returncode == 2 and "no-such-recipe" in proc.stderr  # read fine; the recipe is what is wrong


# ------------------------------------------------------------------ facts


def _facts() -> dict:
    proc = run_inproc("detect", "--json")
    assert proc.returncode == 0, proc.stderr
    return last_json(proc)


def test_hostile_facts_files(tmp_path):
    facts = _facts()
    cases = {
        "deep nesting": ('{"driver": ' + "[" * 100000 + "]" * 100000 + "}", "nested"),
        "huge": ("[" + "0," * (5 * 1024 * 1024) + "0]", "larger than"),
        "a list where a version goes": (json.dumps({**facts, "python": {**facts["python"], "version": ["3"]}}),
                                        "version"),
        "not an object": ("[1, 2]", "not the JSON"),
    }
    for case, (text, words) in cases.items():
        path = tmp_path / f"{case}.json"
        path.write_text(text)
        proc = run_inproc("recipes", "--facts", str(path), "--json")
        _clean(proc)
        assert proc.returncode == 2, (case, proc.stderr)
        assert str(path) in proc.stderr and words in proc.stderr, (case, proc.stderr)


def test_facts_with_escape_sequences_print_none(tmp_path):
    facts = _facts()
    facts["python"]["executable"] = "/usr/bin/python3\x1b]0;pwned\x07\x1b[2J"
    path = tmp_path / "facts.json"
    path.write_text("\ufeff" + json.dumps(facts))  # with a BOM, too
    proc = run_inproc("recipes", "--facts", str(path))
    assert proc.returncode == 0, proc.stderr
    _clean(proc)


# ------------------------------------------------------------------ history and markers


def _make_env(tmp_path: Path, home: Path, name: str, recipe: str = "tiny-a") -> Path:
    env = home / "envs" / name
    (env / "bin").mkdir(parents=True)
    # an interpreter binary (not a shim script) and a venv's pyvenv.cfg: activate and the module file hold an env's
    # python to paths.guard_env_python
    os.symlink(sys.executable, env / "bin" / "python")
    (env / "pyvenv.cfg").write_text(f"home = {os.path.dirname(sys.executable)}\n")
    (env / "gc-wizard-env.json").write_text(json.dumps({"recipe": recipe, "backend": "cpu", "verified": "2026-11-01",
                                                        "entry_id": f"id-{name}", "runtime_env": {}}))
    return env


@pytest.mark.parametrize("content", [
    b'{"entries": ' + b"[" * 100000 + b"]" * 100000 + b"}",
    b'{"entries": [' + b'{"id": "x"},' * 3_000_000 + b'{"id": "y"}]}',
    b"\xff\xfe not text",
    b"[truncated",
], ids=["deep-nesting", "over-the-size-cap", "not-text", "truncated"])
def test_an_unreadable_history_is_set_aside_and_rebuilt_from_the_env_markers(tmp_path, isolated_state, content):
    a = _make_env(tmp_path, isolated_state, "tiny-a-1")
    b = _make_env(tmp_path, isolated_state, "tiny-b-1", "tiny-b")
    (isolated_state / "history.json").write_bytes(content)
    proc = run_inproc("history", "--json")
    _clean(proc)
    assert proc.returncode == 0, proc.stderr
    assert "moved to" in proc.stderr and "2 environments" in proc.stderr
    entries = last_json(proc)
    assert {e["env"] for e in entries} == {str(a), str(b)}
    assert all(e["kind"] == "install" and e["status"] == "verified" and not e["current"] for e in entries)
    assert len(list(isolated_state.glob("history.json.corrupt-*"))) == 1
    again = run_inproc("history", "--json")  # saved: the next run reads it without a warning
    assert again.returncode == 0 and "moved to" not in again.stderr and len(last_json(again)) == 2


def test_a_bom_is_accepted_in_the_history(isolated_state):
    (isolated_state / "history.json").write_text("\ufeff" + json.dumps({"version": 1, "entries": []}))
    proc = run_inproc("history", "--json")
    assert proc.returncode == 0 and "moved to" not in proc.stderr and last_json(proc) == []


def test_history_is_data_a_log_outside_logs_is_never_read(isolated_state, tmp_path):
    secret = tmp_path / "not-a-log.txt"
    secret.write_text("PRIVATE-CONTENT-THAT-MUST-NOT-LEAK\n")
    fifo = isolated_state / "logs" / "fifo.log"
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo)  # reading it would block the report forever
    entries = [{"id": f"e{i}", "kind": "install", "recipe": "x", "env": "/nonexistent", "status": "failed",
                "log": log} for i, log in enumerate([str(secret), str(fifo), "/etc/passwd"])]
    (isolated_state / "history.json").write_text(json.dumps({"version": 1, "entries": entries}))
    proc = run_inproc("report", timeout=120)
    _clean(proc)
    assert proc.returncode == 0, proc.stderr
    assert "PRIVATE-CONTENT" not in proc.stdout and "root:x:0:0" not in proc.stdout


def test_history_is_data_an_interpreter_it_names_is_never_run(isolated_state, tmp_path, tiny):
    proc, a = tiny.install("tiny-a")
    assert proc.returncode == 0, proc.stderr
    proc, _ = tiny.install("tiny-b")
    assert proc.returncode == 0, proc.stderr
    evil = tmp_path / "evil-python"
    flag = tmp_path / "ran"
    evil.write_text(f"#!/bin/sh\ntouch {flag}\nexit 1\n")
    evil.chmod(0o755)
    data = json.loads((isolated_state / "history.json").read_text())
    for entry in data["entries"]:
        if entry["id"] == a["entry_id"]:
            entry["python"] = str(evil)
    (isolated_state / "history.json").write_text(json.dumps(data))
    shutil.rmtree(a["env"])
    proc = run_inproc("rollback", a["entry_id"], "--yes", "--no-verify", "--json",
                   env={"UV_OFFLINE": "1"})
    _clean(proc)
    assert not flag.exists(), "rollback ran the interpreter history.json named"


@pytest.mark.parametrize("field,value", [("log", ["x"]), ("python", {"a": 1}), ("current", "yes"),
                                         ("packages", [1, 2]), ("verify", "ok")])
def test_a_history_entry_with_wrong_types_is_kept_untouched_and_named(isolated_state, field, value):
    entry = {"id": "bad", "kind": "install", "recipe": "x", "env": "/e", "status": "verified", field: value}
    (isolated_state / "history.json").write_text(json.dumps({"version": 1, "entries": [entry]}))
    proc = run_inproc("history", "--json")
    _clean(proc)
    assert proc.returncode == 0 and "entry 1 could not be read" in proc.stderr
    assert json.loads((isolated_state / "history.json").read_text())["entries"][0] == entry


@pytest.mark.parametrize("field,value", [("id", "../../x\nINJECTED line"), ("id", "a/b"), ("id", "ok\u202eevil"),
                                         ("kind", "install\nINJECTED line"),
                                         # twelfth pass #62: an option where a folder or URL goes reached uv's argv
                                         ("find_links", ["--index-url=http://elsewhere/"]), ("find_links", [" -f"]),
                                         ("find_links", [""])])
def test_an_entry_id_or_kind_the_wizard_never_writes_is_named_not_printed(isolated_state, field, value):
    """Ninth hostile pass H6: a newline in an edited entry's id came out as a row of its own in `history` and in
    the rollback prompt; an id is also a file name under logs/ and frozen/. Such an entry is named as unreadable
    (the file kept as it is), like one with a wrong type."""
    entry = {"id": "20261127-000000-aaaa", "kind": "install", "recipe": "x", "env": "/e", "status": "verified",
             field: value}
    (isolated_state / "history.json").write_text(json.dumps({"version": 1, "entries": [entry]}))
    for argv in (("history",), ("history", "--json")):
        proc = run_inproc(*argv)
        _clean(proc)
        assert proc.returncode == 0 and "entry 1 could not be read" in proc.stderr, proc.stderr
        assert not any(line.startswith("INJECTED") for line in (proc.stdout + proc.stderr).split("\n"))
    assert json.loads((isolated_state / "history.json").read_text())["entries"][0] == entry


def test_a_newline_in_any_text_field_of_an_entry_prints_no_row_of_its_own(isolated_state, tmp_path):
    """Tenth hostile pass T10/T15/L33: `started`, `finished`, `log` and the lock's path of an edited entry, holding a
    newline, came out as rows of their own in `history` and bullets of their own in `report`."""
    entry = {"id": "20261127-000000-aaaa", "kind": "install", "recipe": "x", "env": "/e", "status": "verified",
             "current": True, "started": "2026-11-27T00:00\n== ROW1", "finished": "2026\nFINROW",
             "log": "/tmp/x\n== LOGROW", "lock": {"path": "L/n\nFAKE.txt", "format": "requirements.txt"}}
    (isolated_state / "history.json").write_text(json.dumps({"version": 1, "entries": [entry]}))
    history = run_inproc("history")
    report = run_inproc("report", "--out", str(tmp_path / "report.md"))
    _clean(history)
    _clean(report)
    written = (tmp_path / "report.md").read_text() if (tmp_path / "report.md").exists() else report.stdout
    for text in (history.stdout, written):
        lines = text.split("\n")
        assert not any(line.startswith(("== ROW1", "FINROW", "== LOGROW", "FAKE.txt")) for line in lines), text
    assert "FAKE.txt" in history.stdout and "\\u000a" in history.stdout


def test_a_hostile_env_marker_sets_nothing_that_runs(tmp_path, isolated_state):
    env = _make_env(tmp_path, isolated_state, "marked")
    marker = json.loads((env / "gc-wizard-env.json").read_text())
    marker["runtime_env"] = {"PROMPT_COMMAND": "touch /tmp/pwned", "BASH_ENV": "/tmp/x", "LD_PRELOAD": "/tmp/x.so",
                             "XLA_FLAGS": "$(id)", "JAX_PLATFORMS": "cpu"}
    marker["title"] = "evil\x1b]0;title\x07\x1b[2J"
    (env / "gc-wizard-env.json").write_text(json.dumps(marker))
    proc = run_inproc("activate", "--env", str(env))
    assert proc.returncode == 0, proc.stderr
    exports = [line for line in proc.stdout.splitlines() if line.startswith("export ")]
    assert any("JAX_PLATFORMS=cpu" in line for line in exports)
    for name in ("PROMPT_COMMAND", "BASH_ENV", "LD_PRELOAD", "XLA_FLAGS"):
        assert not any(line.startswith(f"export {name}=") for line in exports), name


def test_a_huge_marker_is_ignored(tmp_path, isolated_state):
    env = _make_env(tmp_path, isolated_state, "huge")
    (env / "gc-wizard-env.json").write_text('{"recipe": "' + "x" * (2 * 1024 * 1024) + '"}')
    proc = run_inproc("activate", "--env", str(env))
    _clean(proc)
    assert proc.returncode == 0


@pytest.mark.parametrize("field, text, shown", [
    ("title", BUILTIN_CPU.replace("title: JAX 0.4.23 on the CPU", 'title: "JAX \\u202eUPG\\u202c on the CPU"'),
     "\\u202e"),
    ("title", BUILTIN_CPU.replace("title: JAX 0.4.23 on the CPU", 'title: "JAX\\u2028line two"'), "\\u2028"),
    ("description", BUILTIN_CPU.replace("  GraphCast v0.1.1 on the CPU", "  Graph\u200bCast v0.1.1 \u2067on the CPU", 1),
     "\\u200b \\u2067"),
    ("requirements", BUILTIN_CPU.replace("requirements:\n", "requirements:\n  - \"\\ufeffnumpy<2\"\n", 1), "\\ufeff"),
    ("runtime_env", _with_runtime("JAX_TRACEBACK_FILTERING", "off\u200f"), "\\u200f"),
    # Tenth pass T22: a tag character beyond U+FFFF was named `\ue0041`, which reads as U+E004 and a "1".
    ("title", BUILTIN_CPU.replace("title: JAX 0.4.23 on the CPU", 'title: "JAX \\U000E0041 on the CPU"'),
     "\\U000e0041"),
])
def test_bidi_and_zero_width_characters_are_refused_like_controls(tmp_path, field, text, shown):
    """5i: U+202E (right-to-left override), U+200B (zero-width space) and U+2066 (an isolate) in a recipe title were
    printed raw, so a terminal showed other text than the file holds. New cases, in every text field a recipe
    has: the line separator U+2028, a right-to-left isolate, a BOM inside a requirement, a right-to-left mark in a
    runtime value — each refused naming the file, the line and the character's escape."""
    folder = _recipe_dir(tmp_path, text)
    proc = run_inproc("recipes", "--recipes-dir", str(folder))
    _clean(proc)
    assert proc.returncode == 2 and str(folder / "jax0.4.23-cpu.yaml") in proc.stderr and "line " in proc.stderr
    assert shown in proc.stderr, proc.stderr
    assert not [c for c in proc.stderr + proc.stdout if c in "\u202e\u2028\u200b\u2067\ufeff\u200f"]


# ------------------------------------------------------------------ locks

_SHA = "a" * 64
_PYLOCK_HEAD = 'lock-version = "1.0"\ncreated-by = "uv"\nrequires-python = ">=3.10"\n\n[[packages]]\nname = "six"\nversion = "1.17.0"\n'


def _setup_py_that_marks(folder: Path, marker: Path) -> Path:
    folder.mkdir()
    (folder / "setup.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\nfrom setuptools import setup\n"
                                     "setup(name='six', version='1.17.0', py_modules=[])\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize("name, entry, says", [
    ("pylock.toml", "directory = {{ path = {folder!r} }}\n", "is a local folder (`directory = …`)"),
    ("pylock.toml", 'vcs = {{ type = "git", url = "file://{folder}", commit-id = "' + "b" * 40 + '" }}\n',
     "is a version-control checkout (`vcs = …`)"),
    ("pylock.toml", 'sdist = {{ url = "file://{folder}/six-1.17.0.tar.gz" }}\n', "lists a file without a sha256"),
    ("pylock.toml", 'archive = {{ path = "{folder}/six.zip", hashes = {{ md5 = "x" }} }}\n',
     "lists a file without a sha256"),
    ("pylock.toml", 'wheels = [{{ url = "file:///w/six-1.17.0-py3-none-any.whl", hashes = {{ sha256 = "' + _SHA
     + '" }} }}, {{ url = "file:///w/six-1.17.0-py2-none-any.whl" }}]\n', "lists a file without a sha256"),
    ("pylock.toml", "", "names no file"),
    ("pylock.toml", "[unclosed\n", "is not valid TOML"),
    ("lock.txt", "six==1.17.0 --hash=sha256:" + _SHA + "\nsix @ file://{folder}\n", "line 2"),
    ("lock.txt", "six==1.17.0\n", "has no `--hash=sha256:`"),
    ("lock.txt", "six==1.17.0 --hash=sha256:" + _SHA + "\n-e {folder}\n", "is not a `name==version` pin"),
    # Tenth pass L6/L14/L16: what the wizard never writes reached uv, after the environment was made, or excluded
    # its package (a marker with a bidi override and ESC) while the install said every file was checked.
    ("lock.txt", "six==1.17.0 --hash=sha256:" + _SHA + ' ; python_version >= "3"\n', "has more after its hashes"),
    ("pylock.toml", 'wheels = [{{ url = "file:///w/six-1.17.0-py3-none-any.whl", hashes = {{ sha256 = "' + _SHA
     + '" }} }}]\nmarker = "sys_platform == \\"\u202e\\u001b[31mlinux\\""\n', "characters a lock never has (\\u202e)"),
    ("pylock2.toml", "", "lock-version '2.0' is not 1.x"),
])
def test_a_lock_entry_without_a_sha256_is_refused_before_anything_is_made(tmp_path, isolated_state, name, entry,
                                                                           says):
    """C13 (fourth pass): a pylock.toml `directory = {path = …}` entry was handed to uv and its setup.py ran under
    "every file's hash checked". Each lock entry that names no file by sha256 — a folder, a VCS checkout, an sdist
    or archive or one wheel without its hash, an entry with no file, in either format — is refused (exit 2)
    naming the lock and the entry, before any environment or log is made and before anything is built."""
    marker = tmp_path / "PWNED"
    folder = _setup_py_that_marks(tmp_path / "evilpkg", marker)
    lock = tmp_path / name
    head = _PYLOCK_HEAD if name.endswith(".toml") else ""
    if name == "pylock2.toml":
        name, head = "pylock.toml", head.replace('lock-version = "1.0"', 'lock-version = "2.0"')
        lock = tmp_path / name
    lock.write_text(head + entry.format(folder=str(folder)), encoding="utf-8")
    proc = run_inproc("install", "jax0.4.23-cpu", "--yes", "--no-verify", "--offline", "--find-links",
                      str(tmp_path), "--graphcast-src", str(folder), "--lock", str(lock), "--json")
    _clean(proc)
    error = last_json(proc)["error"]
    assert proc.returncode == 2 and error.startswith(f"--lock {lock}: ") and says in error, error
    assert not marker.exists() and not (isolated_state / "envs").exists()


def test_a_lock_the_wizard_writes_passes_the_hash_rule():
    """The rule's other side: uv's own pylock.toml and requirements output (multi-line `--hash`, markers) pass."""
    from wizard.install.lockfile import PYLOCK, REQUIREMENTS, unhashed_entry

    pylock = _PYLOCK_HEAD + (f'index = "https://pypi.org/simple"\nsdist = {{ url = "https://x/six-1.17.0.tar.gz", '
                             f'size = 1, hashes = {{ sha256 = "{_SHA}" }} }}\nwheels = [\n  {{ url = "https://x/six.whl",'
                             f' hashes = {{ sha256 = "{_SHA}" }} }},\n]\n')
    text = (f"# header\nsix==1.17.0 \\\n    --hash=sha256:{_SHA}\n    # via -r x.in\n"
            f"numpy==1.26.4 ; python_version >= '3.10' \\\n    --hash=sha256:{_SHA} \\\n    --hash=sha256:{_SHA}\n")
    assert unhashed_entry(pylock, PYLOCK) is None and unhashed_entry(text, REQUIREMENTS) is None


@pytest.mark.parametrize("answers, shown", [
    ({"recipe": "tiny-cpu\x1b[2J\u202eX\n== INJECTED"}, '"tiny-cpu\\u001b[2J\\u202eX\\n== INJECTED"'),
    ({"recipe": "jax0.4.23-cpu", "options": {"installer": "uv\x9b31m\u2028fake"}}, '"uv\\u009b31m\\u2028fake"'),
])
def test_an_answers_files_hostile_values_are_shown_escaped_on_one_line(tmp_path, isolated_state, answers, shown):
    """Tenth hostile pass T1/T2: the recipe's newline printed a forged line ("== INJECTED") under the refusal, and
    ESC and U+009B vanished from the text line while the JSON line escaped them. Both lines now say the same."""
    from wizard.security import one_line

    path = tmp_path / "answers.json"
    path.write_text(json.dumps({"schema": "gc-wizard-answers", "version": 1, **answers}))
    for argv in (("install", "--answers", str(path)), ("install", "--answers", str(path), "--json")):
        proc = run_inproc(*argv)
        _clean(proc)
        assert proc.returncode == 2, proc.stderr
        assert shown in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
    # The JSON line's sentence reads the same once its escapes are decoded and shown as the text line shows them.
    assert shown in one_line(last_json(proc)["error"]).replace("\\u000a", "\\n")
