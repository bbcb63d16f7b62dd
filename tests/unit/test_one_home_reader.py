"""The home folder has one reader (`security.known_home`), and `paths.home_folder` its one refusal.

Why: 32nd hostile pass (part A) P2 — on an account with no HOME and no passwd entry (`docker run --user 54321`, a
batch system's uid), `Path.home()` raised RuntimeError (a raw double traceback, or "this is a bug" with GC_WIZARD_HOME
set) and `expanduser("~")` gave back "~", a folder named `~` under the working folder. A later `Path.home()` or
`expanduser("~")` in wizard/ fails here."""

from __future__ import annotations

import ast
import os
import pwd
from pathlib import Path

import pytest

from wizard import paths
from wizard.errors import UserError
from wizard.security import expand_home, known_home

WIZARD = Path(__file__).resolve().parents[2] / "wizard"


def _home_calls(tree: ast.AST) -> list[int]:
    """Line numbers of `X.home()` and `X.expanduser("~")` / `expanduser("~")` calls."""
    found = []
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call):
            continue
        name = getattr(call.func, "attr", getattr(call.func, "id", None))
        tilde = [arg for arg in call.args if isinstance(arg, ast.Constant) and arg.value == "~"]
        if (name == "home" and not call.args) or (name == "expanduser" and tilde):
            found.append(call.lineno)
    return found


def test_nothing_but_known_home_reads_the_home_folder():
    offenders = []
    for path in sorted(WIZARD.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        offenders += [f"{path.relative_to(WIZARD.parent)}:{line}" for line in _home_calls(tree)]
    assert not offenders, f"the home folder read without security.known_home: {offenders}"


@pytest.fixture
def no_home(monkeypatch):
    """An account with no HOME and no passwd entry."""
    monkeypatch.delenv("HOME", raising=False)

    def missing(uid):
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.setattr(pwd, "getpwuid", missing)


def test_no_home_and_no_passwd_entry_is_none_and_the_state_folder_is_refused_in_a_sentence(no_home, monkeypatch):
    for name in ("GC_WIZARD_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    assert known_home() is None and paths.user_recipes_dir() is None
    assert paths.user_recipes_dir() not in paths.recipe_dirs()
    with pytest.raises(UserError) as refused:
        paths.state_dir()
    said = str(refused.value)
    assert "HOME is not set" in said and "GC_WIZARD_HOME=DIR" in said and f"uid {os.getuid()}" in said


def test_home_unset_reads_the_password_database(monkeypatch):
    monkeypatch.delenv("HOME", raising=False)
    assert known_home() == Path(pwd.getpwuid(os.getuid()).pw_dir)
    assert known_home({"HOME": "/h/me"}) == Path("/h/me") and known_home({"HOME": "rel"}) is None


#: The modules that read a path as an installer reads it (pip's and uv's own `~`, whatever the wizard's rule).
_INSTALLER_READERS = {"wizard/install/cache_trust.py", "wizard/installer_files.py", "wizard/installer_settings.py"}


def test_nothing_but_expand_home_expands_a_path():
    """`Path.expanduser` raised RuntimeError with no home folder and `os.path.expanduser` read an empty HOME as `/`:
    a user's `~/x` had three readings (fixers' leftover: quoted ~). A later `expanduser` in wizard/ fails here."""
    offenders = []
    for path in sorted(WIZARD.rglob("*.py")):
        where = str(path.relative_to(WIZARD.parent))
        if where in _INSTALLER_READERS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        allowed = [range(f.lineno, (f.end_lineno or f.lineno) + 1) for f in ast.walk(tree)
                   if isinstance(f, ast.FunctionDef) and f.name == "expand_home" and where == "wizard/security.py"]
        offenders += [f"{where}:{call.lineno}" for call in ast.walk(tree)
                      if isinstance(call, ast.Call) and getattr(call.func, "attr", None) == "expanduser"
                      and not any(call.lineno in lines for lines in allowed)]
    assert not offenders, f"a path expanded without security.expand_home: {sorted(set(offenders))}"


def test_with_no_home_a_quoted_tilde_is_a_folder_named_tilde(no_home, monkeypatch):
    assert expand_home("~/x") == "~/x" and expand_home("~") == "~" and expand_home("/a/~/b") == "/a/~/b"
    monkeypatch.setenv("HOME", "")
    assert expand_home("~/x") == "~/x"  # never `/x`, as os.path.expanduser read an empty HOME
    monkeypatch.setenv("HOME", "/h/me/")
    assert expand_home("~/x") == "/h/me/x" and expand_home("~") == "/h/me" and expand_home("x~") == "x~"
    monkeypatch.setenv("HOME", "/")
    assert expand_home("~/x") == "/x" and expand_home("~") == "/"


def test_with_no_home_every_option_path_reads_tilde_as_a_folder(no_home, monkeypatch, tmp_path):
    """`report --out '~/r.md'` and `--recipes-dir '~/r'` stopped with "this is a bug" (Path.expanduser's RuntimeError)
    while `verify --env '~/x'` took `~` as a folder here: each now takes it as that folder."""
    from wizard.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "state"))
    (tmp_path / "~").mkdir()
    assert main(["report", "--out", "~/r.md"]) == 0
    assert (tmp_path / "~" / "r.md").is_file()
    assert paths.recipe_dirs(["~/r"])[-1] == Path("~/r")
