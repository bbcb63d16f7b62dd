"""One reader of `file:` URLs: `security.local_url` (review of the 28th hostile pass's parser).

Why: the recorded package set, the lock's wheel finder, the history's remembered GraphCast source, the env
inspector and the self-install reader each split `file://` themselves with `urlsplit`/`unquote`, so the same URL
was a place in one and not in another: `file:/DIR` and `file:DIR` (which uv and pip read as the folder) were no
place at all, and `file://HOST/DIR` was `/DIR` to the lock reader but nothing to the recorded set. One table of
forms goes through every caller here, and a rule finds any new function that parses a `file:` URL itself."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.fixtures.wheels import build_wheel

WIZARD = Path(__file__).resolve().parents[2] / "wizard"

#: Each form uv and pip read as the place (True), or as another host's, no place here (False).
FORMS = {
    "file:///P": (lambda p: f"file://{p}", True),
    "percent-encoded": (lambda p: f"file://{quote(str(p))}", True),
    "file://localhost/P": (lambda p: f"file://localhost{p}", True),
    "file:/P": (lambda p: f"file:{p}", True),
    "file:relative": (lambda p: f"file:{str(p).lstrip('/')}", True),  # the WHATWG reading: `file:///relative`
    "FILE:///P": (lambda p: f"FILE://{p}", True),
    "file://otherhost/P": (lambda p: f"file://otherhost{p}", False),
}


@pytest.fixture
def places(tmp_path):
    """A wheelhouse holding one wheel and a GraphCast checkout, under a folder whose name needs percent-encoding."""
    root = tmp_path / "a b"
    house = root / "house"
    wheel = build_wheel(house, "pkg-x", "1.0")
    checkout = root / "graphcast"
    (checkout / "graphcast").mkdir(parents=True)
    (checkout / "setup.py").write_text("from setuptools import setup\nsetup(name='graphcast', version='0.1.1')\n")
    return {"house": house, "wheel": wheel, "checkout": checkout}


def _file_path(url, places, tmp_path):
    from wizard.install.recorded_set import file_path

    return file_path(url), places["wheel"]


def _local_folders(url, places, tmp_path):
    from wizard.install.recorded_set import local_folders

    return next(iter(local_folders([url])), None), places["house"]


def _wheel_in_folders(url, places, tmp_path):
    from wizard.install.lock_reach import wheel_in_folders

    return wheel_in_folders("pkg-x", "1.0", [url]), places["wheel"]


def _pylock_wheel(url, places, tmp_path):
    from wizard.install.lock_reach import lock_wheels

    lock = tmp_path / "pylock.x.toml"
    lock.write_text('lock-version = "1.0"\n[[packages]]\nname = "pkg-x"\nversion = "1.0"\nwheels = [{ url = '
                    f'{json.dumps(url)}, hashes = {{ sha256 = "{"a" * 64}" }} }}]\n')
    return lock_wheels(lock).get("pkg-x"), places["wheel"]


def _remembered_graphcast(url, places, tmp_path):
    from wizard.history.store import Entry, load_history

    history = load_history()
    history.add(Entry(id="20261122-210000-aaaa", kind="install", recipe="jax0.4.23-cpu", env="/e1",
                      status="verified", packages=["jax==0.4.23", f"graphcast @ {url}"]))
    found = history.last_local_graphcast("0.1.1")
    return (Path(found) if found else None), places["checkout"]


def _editable_checkout(url, places, tmp_path):
    from wizard.verify.inspect_env import package_folder

    dist = tmp_path / "site" / "graphcast-0.1.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "direct_url.json").write_text(json.dumps({"url": url, "dir_info": {"editable": True}}))
    return package_folder([tmp_path / "site"], dist, "graphcast"), places["checkout"] / "graphcast"


def _self_install_source(url, places, tmp_path):
    from wizard.self_install import _source

    class Info:
        def read_text(self, name):
            return json.dumps({"url": url, "dir_info": {}}) if name == "direct_url.json" else None

    source, _editable = _source(Info())
    return (Path(source) if source else None), places["checkout"]


def _install_source(url, places, tmp_path):
    from wizard.flows.transaction import _local_source

    found = _local_source(url)
    return (Path(found) if found else None), places["checkout"]


def _copy_origin(url, places, tmp_path):
    """A freeze line naming one of the wizard's build copies is written as the entry's recorded line, when that
    line's `file:` URL names a folder of the copy's name."""
    from wizard.install.source_copy import as_recorded

    copy = "file:///tmp/gc-wizard-source-1-abcd/graphcast"
    recorded = f"graphcast @ {url}"
    kept = as_recorded([f"graphcast @ {copy}"], [recorded]) == [recorded]
    return (places["checkout"] if kept else None), places["checkout"]


def _plan_wheelhouse(url, places, tmp_path):
    """The plan's Sources list a `--find-links` folder as a wheelhouse (`flows.review`)."""
    from tests.fixtures.cli import run_inproc
    from tests.fixtures.tiny import RECIPE

    recipes = tmp_path / "recipes"
    recipes.mkdir()
    (recipes / "tiny-x.yaml").write_text(RECIPE.format(id="tiny-x", requirements="  - pkg-x==1.0"))
    proc = run_inproc("plan", "tiny-x", "--recipes-dir", str(recipes), "--offline", "--find-links", url,
                      "--graphcast-src", str(places["checkout"]))
    listed = any(line.strip().startswith("Wheelhouse 1 wheel") for line in proc.stdout.splitlines())
    return (places["house"] if listed else None), places["house"]


#: Each caller, and which place its URL names: the wheel, the wheelhouse or the checkout.
CALLERS = [(_file_path, "wheel"), (_local_folders, "house"), (_wheel_in_folders, "house"), (_pylock_wheel, "wheel"),
           (_remembered_graphcast, "checkout"), (_editable_checkout, "checkout"), (_self_install_source, "checkout"),
           (_install_source, "checkout"), (_copy_origin, "checkout"), (_plan_wheelhouse, "house")]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize(("caller", "names"), CALLERS, ids=[c.__name__.strip("_") for c, _ in CALLERS])
def test_every_reader_of_a_file_url_finds_the_same_place(isolated_state, tmp_path, places, caller, names, form):
    spell, here = FORMS[form]
    found, expected = caller(spell(places[names]), places, tmp_path)
    assert found == (expected if here else None)


#: The functions that take a URL apart.
_URL_SPLITTERS = {"urlsplit", "urlparse", "unquote", "unquote_to_bytes", "url2pathname"}


def _splits_urls(function: ast.AST) -> bool:
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in _URL_SPLITTERS:
                return True
    return False


def _names_file_urls(function: ast.AST) -> bool:
    return any(isinstance(node, ast.Constant) and isinstance(node.value, str) and "file:" in node.value.lower()
               for node in ast.walk(function))


def test_no_function_but_the_one_parser_takes_a_file_url_apart():
    """A function that splits or decodes a URL (`urlsplit`, `urlparse`, `unquote`, `url2pathname`) and names
    `file:` is a second parser of `file:` URLs: it goes through `security.local_url` (or
    `install.recorded_set.file_path`, which calls it) instead."""
    offenders = []
    for path in sorted(WIZARD.rglob("*.py")):
        if path == WIZARD / "security.py":
            continue
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _splits_urls(node) \
                    and _names_file_urls(node):
                offenders.append(f"{path.relative_to(WIZARD)}:{node.lineno} {node.name}")
    assert not offenders, f"these parse `file:` URLs themselves; call security.local_url: {offenders}"
