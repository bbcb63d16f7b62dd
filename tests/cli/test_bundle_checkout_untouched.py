"""`bundle --graphcast-src CHECKOUT` ran `pip wheel` in the checkout itself: setuptools wrote `build/` and
`graphcast.egg-info/` into the user's (or the lab's shared) folder and packed whatever an earlier build had left in
`build/lib` — a stale module (or a payload, the fourth fault pass) went into the bundle; a lab's read-only checkout
could not be bundled. The install already built from a copy (`source_copy`); the bundle now builds from one too.
The real CLI in this process, the real pip, a real PEP 517 build (tests/fixtures/source_tree)."""

from __future__ import annotations

import json
import zipfile

from tests.fixtures.cli import run_inproc
from tests.fixtures.source_tree import buildable_checkout


def _listing(folder):
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


def test_bundle_builds_graphcast_from_a_copy_leaving_the_checkout_as_it_was(tiny, tmp_path, monkeypatch,
                                                                            isolated_state):
    monkeypatch.setenv("UV_OFFLINE", "1")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    checkout = buildable_checkout(tmp_path / "graphcast")
    stale = checkout / "build" / "lib" / "graphcast" / "stale_payload.py"  # an earlier build's leftover
    stale.parent.mkdir(parents=True)
    stale.write_text("raise SystemExit('packed from a stale build/lib')\n")
    before = _listing(checkout)
    out = tmp_path / "bun"
    proc = run_inproc("bundle", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                      "--graphcast-src", str(checkout), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert _listing(checkout) == before  # no build/ output, no graphcast.egg-info/
    manifest = json.loads((out / "manifest.json").read_text())
    with zipfile.ZipFile(out / "wheels" / manifest["graphcast"]["wheel"]) as wheel:
        names = wheel.namelist()
    assert "graphcast/__init__.py" in names
    assert "graphcast/stale_payload.py" not in names, names
    assert str(checkout) in manifest["graphcast"]["source"]  # the manifest names the user's folder, not the copy


def test_a_sourceless_module_in_the_checkout_never_reaches_the_build(tiny, tmp_path, monkeypatch, isolated_state):
    """28th hostile pass (part B) P10: a compiled `wheel.pyc` at the top of a checkout was imported by the build
    (which puts the checkout first on `sys.path`) and ran as root. The copy every build reads — the bundle's and the
    install's (`source_copy.folder_copy`) — leaves out compiled modules and `.eggs/`: here the real pip runs the
    checkout's own backend, which imports `base64`, and a sourceless `base64.pyc` beside it must not run."""
    import py_compile

    monkeypatch.setenv("UV_OFFLINE", "1")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    checkout = buildable_checkout(tmp_path / "graphcast")
    marker = tmp_path / "ran"
    shim = tmp_path / "shim.py"
    shim.write_text(f"open({str(marker)!r}, 'w').write('base64.pyc ran')\nraise ImportError('shim')\n")
    py_compile.compile(str(shim), cfile=str(checkout / "base64.pyc"), doraise=True)
    out = tmp_path / "bun"
    proc = run_inproc("bundle", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                      "--graphcast-src", str(checkout), "--out", str(out))
    assert not marker.exists(), proc.stderr
    assert proc.returncode == 0, proc.stderr
