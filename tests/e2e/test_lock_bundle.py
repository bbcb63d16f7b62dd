"""Hashed locks and offline bundles, with the real uv and pip on tiny wheels (and the real stack, online).

A lock pins the recipe's whole closure with sha256 hashes; an install from it refuses a wheel whose
bytes changed. A bundle is made from a package index (a real one on loopback here), and then installs
with every index unreachable.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.fixtures.cli import bare_program, run_inproc
from tests.fixtures.jaxenv import require_graphcast_src
from tests.fixtures.state import last_json
from tests.fixtures.wheels import build_wheel
from wizard.install.lockfile import uv_writes_pylock


@pytest.fixture
def deps(tiny, tmp_path, monkeypatch):
    """Recipe `tiny-dep`: pkg-c 1.0, which pulls in pkg-d 3.0 (so the closure is bigger than the pins).

    uv's cache is the test's own: tests beside it serve the same `pkg-c 1.0` from loopback indexes, and an offline
    pylock resolve on a fresh machine's shared cache once named such an index's URL ("Failed to download
    http://127.0.0.1:PORT/simple/pkg-c/… to compute missing hashes"), failing twice in clean-clone runs."""
    monkeypatch.setenv("UV_CACHE_DIR", str(tmp_path / "uv-cache"))
    tiny.house.add("pkg-c", "1.0", requires=["pkg-d>=3"])
    tiny.house.add("pkg-d", "3.0")
    tiny.write("tiny-dep", ["pkg-c==1.0"])
    return tiny


def _lock(deps, out: Path):
    proc = run_inproc("lock", "tiny-dep", "--recipes-dir", str(deps.recipes), "--find-links", str(deps.house.path),
                   "--offline", "--out", str(out), "--json")
    assert proc.returncode == 0, proc.stderr
    return last_json(proc)


def _install(deps, *extra: str):
    proc = run_inproc("install", "tiny-dep", "--yes", "--json", "--recipes-dir", str(deps.recipes), "--find-links",
                   str(deps.house.path), "--offline", "--graphcast-src", str(deps.graphcast), "--no-verify", *extra)
    return proc, last_json(proc)


@pytest.mark.parametrize("name", ["pylock.tiny.toml", "requirements-tiny.txt"])
def test_lock_pins_the_closure_with_hashes_and_the_install_records_it(deps, tmp_path, name):
    if name.startswith("pylock") and not uv_writes_pylock():
        pytest.skip("this uv cannot write pylock.toml")
    out = tmp_path / name
    lock = _lock(deps, out)
    assert lock["packages"] == {"pkg-c": "1.0", "pkg-d": "3.0"}
    assert lock["format"] == ("pylock.toml" if name.startswith("pylock") else "requirements.txt")
    text = out.read_text()
    assert text.count("sha256") >= 2 and "gc-wizard lock for recipe tiny-dep" in text

    proc, result = _install(deps, "--lock", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "locked packages (every file's hash checked)" in proc.stderr
    (entry,) = [e for e in deps.history() if e["id"] == result["entry_id"]]
    assert entry["lock"]["path"] == str(out) and entry["lock"]["sha256"] == lock["sha256"]
    assert "pkg-d==3.0" in entry["packages"]
    listed = " ".join(run_inproc("history").stdout.split())  # the human table wraps its notes at 80 columns
    assert f"from the lock {out}" in listed


@pytest.mark.parametrize("name", ["pylock.tiny.toml", "tiny.txt"])
def test_a_wheel_whose_hash_changed_is_refused(deps, tmp_path, monkeypatch, name):
    if name.startswith("pylock") and not uv_writes_pylock():
        pytest.skip("this uv cannot write pylock.toml")
    out = tmp_path / name
    _lock(deps, out)
    # The same name and version, other bytes: what a tampered mirror or a re-upload looks like. The
    # install runs as on another server, with a cache of its own (uv would otherwise reuse the bytes it
    # read while locking, which do match the lock).
    build_wheel(deps.house.path, "pkg-d", "3.0", module_source="import os  # not what was locked\n")
    monkeypatch.setenv("UV_CACHE_DIR", str(tmp_path / "another-servers-cache"))
    proc, result = _install(deps, "--lock", str(out))
    assert proc.returncode == 1 and not result["ok"]
    assert "Hash mismatch" in result["error"] and "pkg-d" in result["error"]
    assert not Path(result["env"]).exists()  # the unfinished environment is gone; nothing became current
    assert not [e for e in deps.history() if e["current"]]
    text = run_inproc("install", "tiny-dep", "--yes", "--recipes-dir", str(deps.recipes), "--find-links",
                   str(deps.house.path), "--offline", "--graphcast-src", str(deps.graphcast), "--no-verify",
                   "--lock", str(out))
    assert text.returncode == 1 and "has other bytes than the one the lock was made with" in text.stderr
    assert "experimental" not in text.stderr  # uv's pylock preview warning is switched off
    diagnosis = run_inproc("diagnose", result["log"], "--json")
    finding = last_json(diagnosis)["findings"][0]
    assert finding["id"] == "hash_mismatch" and "pkg-d==3.0" in finding["explanation"]


def test_a_lock_for_another_recipe_is_refused_before_anything_runs(deps, tmp_path):
    out = tmp_path / "tiny.txt"
    _lock(deps, out)
    proc = run_inproc("install", "tiny-a", "--yes", "--recipes-dir", str(deps.recipes), "--find-links",
                   str(deps.house.path), "--offline", "--graphcast-src", str(deps.graphcast), "--no-verify",
                   "--lock", str(out))
    assert proc.returncode == 2 and "was not made for recipe tiny-a: pkg-a is missing" in proc.stderr


def _only_this_index(url: str, monkeypatch) -> None:
    """The one index both uv and pip (bundle's downloader) use: no other index, wheelhouse or pip config."""
    for name in ("UV_INDEX_URL", "UV_DEFAULT_INDEX", "PIP_INDEX_URL"):
        monkeypatch.setenv(name, url)
    for name in ("PIP_FIND_LINKS", "PIP_EXTRA_INDEX_URL", "UV_EXTRA_INDEX_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")


def test_bundle_from_an_index_installs_with_every_index_closed(deps, tmp_path, local_index, monkeypatch,
                                                                 request):
    _only_this_index(local_index(deps.house.path), monkeypatch)
    bundle = tmp_path / "bundle"
    proc = run_inproc("bundle", "tiny-dep", "--recipes-dir", str(deps.recipes), "--out", str(bundle),
                   "--graphcast-src", str(deps.graphcast), "--json")
    assert proc.returncode == 0, proc.stderr[-3000:]
    made = last_json(proc)
    manifest = json.loads((bundle / "manifest.json").read_text())
    names = sorted(f["name"] for f in manifest["files"] if not f["name"].startswith("wizard/"))  # gc-wizard's own
    assert names == ["recipes/tiny-dep.yaml", "requirements.txt", "wheels/graphcast-0.1.1-py3-none-any.whl",
                     "wheels/pkg_c-1.0-py3-none-any.whl", "wheels/pkg_d-3.0-py3-none-any.whl"]
    assert made["files"] == 5 + len(made["wizard"]) and manifest["packages"] == {"pkg-c": "1.0", "pkg-d": "3.0"}

    closed = request.getfixturevalue("closed_indexes")
    shutil.rmtree(deps.house.path)  # and no wheelhouse either
    proc = run_inproc("install", "tiny-dep", "--yes", "--json", "--recipes-dir", str(deps.recipes), "--bundle",
                   str(bundle), "--no-verify")
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = last_json(proc)
    assert closed.startswith("http://127.0.0.1:")
    (entry,) = [e for e in deps.history() if e["id"] == result["entry_id"]]
    assert entry["bundle"] == str(bundle) and entry["lock"]["path"] == str(bundle / "requirements.txt")
    assert {"pkg-c==1.0", "pkg-d==3.0"} <= set(entry["packages"])
    assert f"graphcast @ file://{bundle}/wheels/graphcast-0.1.1-py3-none-any.whl" in entry["packages"]


def test_a_damaged_or_foreign_bundle_says_what_is_wrong(deps, tmp_path, local_index, monkeypatch):
    url = local_index(deps.house.path)
    monkeypatch.setenv("UV_DEFAULT_INDEX", url)
    monkeypatch.setenv("PIP_INDEX_URL", url)
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    monkeypatch.delenv("PIP_FIND_LINKS", raising=False)
    bundle = tmp_path / "bundle"
    proc = run_inproc("bundle", "tiny-dep", "--recipes-dir", str(deps.recipes), "--out", str(bundle),
                   "--graphcast-src", str(deps.graphcast))
    assert proc.returncode == 0, proc.stderr[-3000:]
    common = ["install", "tiny-dep", "--yes", "--recipes-dir", str(deps.recipes), "--no-verify"]

    wheel = bundle / "wheels" / "pkg_d-3.0-py3-none-any.whl"
    original = wheel.read_bytes()
    build_wheel(wheel.parent, "pkg-d", "3.0", module_source="changed = True\n")
    proc = run_inproc(*common, "--bundle", str(bundle))
    assert proc.returncode == 2
    assert "is damaged" in proc.stderr and "wheels/pkg_d-3.0-py3-none-any.whl" in proc.stderr

    # A FIFO at the wheel's name is there but is no wheel: said so (not "missing"), and never opened (no hang).
    wheel.unlink()
    os.mkfifo(wheel)
    proc = run_inproc(*common, "--bundle", str(bundle))
    assert proc.returncode == 2 and "not a regular file of the bundle's own folder: wheels/pkg_d-3.0-py3-none-any.whl" \
        in proc.stderr
    assert "missing" not in proc.stderr
    wheel.unlink()

    # Thirteenth hostile pass #41: the wheel as a link to the same bytes outside the bundle, and wheels/ itself a link
    # to another copy: checked by hash, but the outside file may change before the install reads it.
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / wheel.name).write_bytes(original)
    wheel.symlink_to(outside / wheel.name)
    proc = run_inproc(*common, "--bundle", str(bundle))
    assert proc.returncode == 2 and "bundle's own folder: wheels/pkg_d-3.0-py3-none-any.whl" in proc.stderr
    wheel.unlink()
    wheel.write_bytes(original)

    # A bundle made on another kind of machine: its pkg-d wheel is for macOS on ARM.
    wheel.unlink()
    foreign = wheel.parent / "pkg_d-3.0-cp311-cp311-macosx_11_0_arm64.whl"
    foreign.write_bytes(original)
    manifest = json.loads((bundle / "manifest.json").read_text())
    for item in manifest["files"]:
        if item["name"] == "wheels/pkg_d-3.0-py3-none-any.whl":
            item["name"] = f"wheels/{foreign.name}"
    (bundle / "manifest.json").write_text(json.dumps(manifest))
    proc = run_inproc(*common, "--bundle", str(bundle))
    assert proc.returncode == 2, proc.stderr
    assert "does not fit this machine" in proc.stderr and "pkg-d (only pkg_d-3.0-cp311-cp311-macosx" in proc.stderr
    assert "Traceback" not in proc.stderr

    proc = run_inproc(*common, "--bundle", str(tmp_path / "nothing-here"))
    assert proc.returncode == 2 and "no such folder" in proc.stderr


@pytest.mark.parametrize("outside", ["../../evilhouse/graphcast-0.1.1-py3-none-any.whl", "ABS"])
def test_a_manifest_whose_graphcast_wheel_lies_outside_the_bundle_installs_nothing(deps, tmp_path, local_index,
                                                                                     monkeypatch, outside):
    """Eleventh hostile pass #123: the manifest's `graphcast.wheel` was joined to wheels/ unchecked, so a `..` or
    an absolute path installed a wheel from elsewhere whose `.pth` ran at the environment's next start."""
    url = local_index(deps.house.path)
    monkeypatch.setenv("UV_DEFAULT_INDEX", url)
    monkeypatch.setenv("PIP_INDEX_URL", url)
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    monkeypatch.delenv("PIP_FIND_LINKS", raising=False)
    bundle = tmp_path / "bb" / "bundle"
    proc = run_inproc("bundle", "tiny-dep", "--recipes-dir", str(deps.recipes), "--out", str(bundle),
                      "--graphcast-src", str(deps.graphcast))
    assert proc.returncode == 0, proc.stderr[-3000:]
    pwned = tmp_path / "PWN_GCPTH"
    evil = build_wheel(tmp_path / "bb" / "evilhouse", "graphcast", "0.1.1",  # where wheels/../../ leads
                       files={"zz_evilgc.pth": f"import pathlib; pathlib.Path({str(pwned)!r}).touch()\n".encode()})
    wheel = str(evil) if outside == "ABS" else outside
    manifest = json.loads((bundle / "manifest.json").read_text())
    manifest["graphcast"]["wheel"] = wheel
    (bundle / "manifest.json").write_text(json.dumps(manifest))
    proc = run_inproc("install", "tiny-dep", "--yes", "--json", "--recipes-dir", str(deps.recipes), "--bundle",
                      str(bundle), "--no-verify")
    assert proc.returncode == 2, proc.stderr[-3000:]
    error = last_json(proc)["error"]
    assert f"names the GraphCast wheel {wheel!r}, which is not a file of the bundle's own wheels/ folder" in error
    assert not pwned.exists() and not deps.history()


@pytest.mark.network
@pytest.mark.slow
def test_real_bundle_from_pypi_installs_offline_verifies_and_forecasts(tmp_path, request):
    """The firewalled GPU node's whole path: bundle --with-assets where there is internet, then install
    --bundle and forecast with every index and host closed."""
    src = require_graphcast_src()
    forecast_assets = request.getfixturevalue("forecast_assets")
    bundle = tmp_path / "bundle"
    proc = run_inproc("bundle", "jax0.4.23-cpu", "--out", str(bundle), "--graphcast-src", src, "--json",
                      "--with-assets", "--assets", str(forecast_assets), timeout=1500)
    assert proc.returncode == 0, proc.stderr[-3000:]
    made = last_json(proc)
    assert made["graphcast"]["wheel"] == "graphcast-0.1.1-py3-none-any.whl"  # built from the checkout
    assert made["assets"] and (bundle / "assets" / "SHA256SUMS").is_file()
    assert any(f.startswith("jaxlib-0.4.23-") for f in (p.name for p in (bundle / "wheels").iterdir()))
    manifest = json.loads((bundle / "manifest.json").read_text())
    assert {"assets/SHA256SUMS", "assets/stats/mean_by_level.nc"} <= {f["name"] for f in manifest["files"]}

    request.getfixturevalue("closed_indexes")
    proc = run_inproc("install", "jax0.4.23-cpu", "--yes", "--json", "--bundle", str(bundle), "--level", "quick",
                   timeout=1500)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = last_json(proc)
    assert result["status"] == "verified"
    assert result["verify"]["tiers"][0]["versions"]["graphcast"] == "0.1.1"

    forecast = run_inproc("forecast", "--json", timeout=600)  # no --assets: the bundle's, from the env's marker
    assert forecast.returncode == 0, forecast.stdout[-3000:] + forecast.stderr[-3000:]
    done = last_json(forecast)
    assert done["ok"] and done["assets"]["verified"] and done["assets"]["source"] == f"{bundle / 'assets'}/"


def test_the_suggested_install_line_quotes_a_lock_path_with_a_space(deps, tmp_path):
    """Tenth hostile pass L37: "Install from it: … --lock /x/lk sp/pylock.toml" broke when pasted."""
    (tmp_path / "lk sp").mkdir()
    out = tmp_path / "lk sp" / "tiny.txt"
    proc = run_inproc("lock", "tiny-dep", "--recipes-dir", str(deps.recipes), "--find-links", str(deps.house.path),
                      "--offline", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    line = next(line for line in proc.stdout.splitlines() if line.startswith("Install from it:"))
    # (github.com does not answer here: the line then holds `--graphcast-src DIR` too, with a sentence saying what goes
    # there, between the lock and the find-links)
    assert f"install tiny-dep --recipes-dir {deps.recipes} --lock '{out}' " in line and " --find-links " in line, line


def _printed_line(stdout: str, label: str) -> list[str]:
    import shlex

    line = next(row for row in stdout.splitlines() if row.startswith(label)).removeprefix(label).strip()
    words = shlex.split(line)
    while "=" in words[0]:  # GC_WIZARD_HOME=… (and PYTHONPATH=… for a tree run as `python -m wizard`) first
        words.pop(0)
    if words[1:3] == ["-m", "wizard"]:  # the program as a new shell runs it from a tree (`paths.wizard_command`)
        words = [words[0], *words[3:]]
    assert (words[0].endswith("gc-wizard") or words[0].endswith("python")) and words[1] == "install", line
    return words[1:]


def test_the_printed_bundle_and_lock_lines_run_as_printed(deps, tmp_path, local_index, monkeypatch):
    """27th hostile pass (part B) P2: for a recipe from --recipes-dir, bundle's "On the offline machine:" and lock's
    "Install from it:" lines dropped the folder, and failed with "unknown recipe". Each printed line is run here
    through the real parser and recipe lookup; the bundle's after its recipe folder and wheelhouse are gone."""
    _only_this_index(local_index(deps.house.path), monkeypatch)
    lock = tmp_path / "pylock.txt"
    proc = run_inproc("lock", "tiny-dep", "--recipes-dir", str(deps.recipes), "--find-links", str(deps.house.path),
                      "--offline", "--out", str(lock))
    assert proc.returncode == 0, proc.stderr
    words = _printed_line(proc.stdout, "Install from it:")
    proc = run_inproc(*words, "--graphcast-src", str(deps.graphcast), "--yes", "--no-verify", "--json")
    assert proc.returncode == 0, proc.stderr[-3000:]

    bundle = tmp_path / "bundle"
    proc = run_inproc("bundle", "tiny-dep", "--recipes-dir", str(deps.recipes), "--out", str(bundle),
                      "--graphcast-src", str(deps.graphcast))
    assert proc.returncode == 0, proc.stderr[-3000:]
    words = _printed_line(proc.stdout, "On the offline machine:")
    assert (bundle / "recipes" / "tiny-dep.yaml").is_file()
    # Walk 26 #1: the line names the folder as DIR, wherever it is copied to; the build's path is gone.
    assert str(bundle) not in " ".join(words) and "DIR" in words, words
    moved = tmp_path / "offline-machine" / "gc-bundle"
    shutil.copytree(bundle, moved)
    shutil.move(bundle, tmp_path / "renamed")
    words = [str(moved) + w[3:] if w == "DIR" or w.startswith("DIR/") else w for w in words]
    shutil.rmtree(deps.recipes)
    shutil.rmtree(deps.house.path)
    without = [w for i, w in enumerate(words) if w != "--recipes-dir" and (i == 0 or words[i - 1] != "--recipes-dir")]
    proc = run_inproc(*without, "--yes", "--no-verify", "--json")  # the folder left out: the bundle's is named
    assert proc.returncode == 2 and f"add `--recipes-dir {moved / 'recipes'}`" in last_json(proc)["error"], proc.stderr
    proc = run_inproc(*words, "--yes", "--no-verify", "--json", "--env", str(tmp_path / "from-bundle"))
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_lock_for_another_python_and_platform(deps, tmp_path):
    out = tmp_path / "arm.txt"
    proc = run_inproc("lock", "tiny-dep", "--recipes-dir", str(deps.recipes), "--find-links", str(deps.house.path),
                   "--offline", "--python", "3.10", "--platform", "aarch64-manylinux_2_28", "--out", str(out),
                   "--json")
    assert proc.returncode == 0, proc.stderr
    lock = last_json(proc)
    assert lock["python"] == "3.10" and lock["platform"] == "aarch64-manylinux_2_28"
    assert "Python 3.10, platform aarch64-manylinux_2_28" in out.read_text()
    bad = run_inproc("lock", "tiny-dep", "--recipes-dir", str(deps.recipes), "--platform", "bogus",
                  "--out", str(tmp_path / "x.txt"))
    assert bad.returncode == 2 and "--platform bogus is not a platform uv knows" in bad.stderr
    old = run_inproc("lock", "tiny-dep", "--recipes-dir", str(deps.recipes), "--python", "3.9")
    assert old.returncode == 2 and "needs Python >=3.10,<3.13, not 3.9" in old.stderr


def _outside_recipe(deps, tmp_path):
    """Recipe `tiny-outside`: pkg-c 1.0 from the index, and pkg-x 1.0 that no index has (`outside_index`, as
    WeatherNext's gdm-xarray-jax): only a wheelhouse made where GitHub answers holds it."""
    extra = tmp_path / "github-wheels"
    extra.mkdir()
    built = deps.house.add("pkg-x", "1.0")
    shutil.move(str(built), extra / built.name)  # the index (the wheelhouse served) no longer has it
    deps.write("tiny-outside", ["pkg-c==1.0", "pkg-x==1.0"])
    path = deps.recipes / "tiny-outside.yaml"
    path.write_text(path.read_text() + "outside_index:\n  - name: pkg-x\n"
                    "    source: git+https://github.com/example/pkg-x@v1.0\n")
    return extra


def test_a_bundle_of_a_recipe_with_a_github_only_pin_carries_its_wheel(deps, tmp_path, local_index, monkeypatch,
                                                                      request):
    """WeatherNext's case: `bundle` refuses up front, naming the wheel to build, when no wheelhouse holds the
    GitHub-only pin; with the wheelhouse it carries that wheel too, and the offline install needs nothing else."""
    extra = _outside_recipe(deps, tmp_path)
    _only_this_index(local_index(deps.house.path), monkeypatch)
    bundle = tmp_path / "bundle"
    refused = run_inproc("bundle", "tiny-outside", "--recipes-dir", str(deps.recipes), "--out", str(bundle),
                         "--graphcast-src", str(deps.graphcast))
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "pkg-x 1.0" in refused.stderr and "--find-links" in refused.stderr and "Traceback" not in refused.stderr
    assert not bundle.exists() or not any(bundle.iterdir()), "nothing was downloaded before the refusal"
    lock = run_inproc("lock", "tiny-outside", "--recipes-dir", str(deps.recipes), "--out", str(tmp_path / "x.txt"))
    assert lock.returncode == 2 and "pkg-x 1.0" in lock.stderr and "no package index has" in lock.stderr
    assert "GitHub as well" not in lock.stderr  # a lock holds no GraphCast: its source is not this step's

    proc = run_inproc("bundle", "tiny-outside", "--recipes-dir", str(deps.recipes), "--out", str(bundle),
                      "--graphcast-src", str(deps.graphcast), "--find-links", str(extra), "--json")
    assert proc.returncode == 0, proc.stderr[-3000:]
    names = sorted(f["name"] for f in json.loads((bundle / "manifest.json").read_text())["files"])
    assert "wheels/pkg_x-1.0-py3-none-any.whl" in names and "wheels/pkg_c-1.0-py3-none-any.whl" in names

    request.getfixturevalue("closed_indexes")
    shutil.rmtree(extra)
    proc = run_inproc("install", "tiny-outside", "--yes", "--json", "--recipes-dir", str(deps.recipes), "--bundle",
                      str(bundle), "--no-verify")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert last_json(proc)["ok"]


def test_a_bundle_keeps_no_password_of_the_source_it_was_made_from(deps, tmp_path, local_index, monkeypatch):
    """Twelfth hostile pass #8: the manifest (0644, made to be copied to other machines) held the GraphCast source
    URL with its password in clear, while every printed channel masked it. The wheel still comes through it."""
    from tests.fixtures.index import PASSWORD, USER, serve_with_password

    _only_this_index(local_index(deps.house.path), monkeypatch)
    server, url = serve_with_password(Path(deps.graphcast).parent)
    try:
        source = url.replace("http://", f"http://{USER}:{PASSWORD}@") + Path(deps.graphcast).name
        bundle = tmp_path / "bundle"
        proc = run_inproc("bundle", "tiny-dep", "--recipes-dir", str(deps.recipes), "--out", str(bundle),
                          "--graphcast-src", source, "--json")
    finally:
        server.shutdown()
    assert proc.returncode == 0, proc.stderr[-3000:]
    manifest = json.loads((bundle / "manifest.json").read_text())
    assert manifest["graphcast"]["source"] == source.replace(PASSWORD, "***")
    assert not [p for p in bundle.rglob("*") if p.is_file() and PASSWORD.encode() in p.read_bytes()]


@pytest.mark.parametrize("name", ["pylock.tiny.toml", "tiny.txt"])
def test_a_lock_installs_from_a_wheelhouse_that_wants_a_password(deps, tmp_path, name, monkeypatch):
    """Twelfth hostile pass #11: the find-links password went into a requirements file beside the lock, which uv
    refuses beside a pylock.toml ("Cannot specify additional requirements alongside a pylock.toml file"), so an
    authenticated lock install could never run. It now reaches uv through its own variable, and works."""
    if name.startswith("pylock") and not uv_writes_pylock():
        pytest.skip("this uv cannot write pylock.toml")
    from tests.fixtures.index import PASSWORD, USER, serve_with_password

    for variable in ("UV_DEFAULT_INDEX", "UV_INDEX_URL", "PIP_INDEX_URL"):  # the wheelhouse behind the password is
        monkeypatch.delenv(variable, raising=False)  # the only place to look
    monkeypatch.setenv("UV_NO_INDEX", "1")
    server, url = serve_with_password(deps.house.path)
    try:
        private = url.replace("http://", f"http://{USER}:{PASSWORD}@")
        out = tmp_path / name
        proc = run_inproc("lock", "tiny-dep", "--recipes-dir", str(deps.recipes), "--find-links", private,
                          "--out", str(out), "--json")
        assert proc.returncode == 0, proc.stderr
        proc = run_inproc("install", "tiny-dep", "--yes", "--json", "--recipes-dir", str(deps.recipes),
                          "--find-links", private, "--graphcast-src", str(deps.graphcast), "--no-verify",
                          "--lock", str(out), env={"UV_CACHE_DIR": str(tmp_path / "cold-cache")})
    finally:
        server.shutdown()
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert PASSWORD not in proc.stdout + proc.stderr
    assert "pkg-d==3.0" in [e for e in deps.history() if e["current"]][0]["packages"]


def test_a_pylock_that_would_hold_a_credential_from_its_page_links_is_not_written(tiny, tmp_path, monkeypatch):
    """Thirteenth hostile pass #65: a find-links page whose links carry a password and a token put them, as they
    are, in pylock.toml (0644, made to be shared). The lock is refused, naming the address masked; a
    requirements lock, which names files by their hashes only, is written and holds neither."""
    if not uv_writes_pylock():
        pytest.skip("this uv cannot write pylock.toml")
    import functools
    import http.server
    import threading

    for variable in ("UV_DEFAULT_INDEX", "UV_INDEX_URL", "PIP_INDEX_URL"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("UV_NO_INDEX", "1")
    site = tmp_path / "site"
    (site / "w").mkdir(parents=True)
    for wheel in tiny.house.path.glob("pkg_a-*.whl"):
        shutil.copy(wheel, site / "w" / wheel.name)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(
        type("Quiet", (http.server.SimpleHTTPRequestHandler,), {"log_message": lambda *a: None}), directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://wu:WHEELPW6x@127.0.0.1:{server.server_address[1]}/w"
        (site / "links").mkdir()
        (site / "links" / "index.html").write_text("".join(
            f'<a href="{base}/{w.name}?token=WHEELTOK5">{w.name}</a>\n' for w in (site / "w").glob("*.whl")))
        page = f"http://127.0.0.1:{server.server_address[1]}/links/"
        refused = run_inproc("lock", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", page,
                             "--out", str(tmp_path / "pylock.toml"), "--json")
        written = run_inproc("lock", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", page,
                             "--out", str(tmp_path / "tiny.txt"), "--json")
    finally:
        server.shutdown()
    assert refused.returncode == 2 and "would hold a password or token" in refused.stderr, refused.stderr
    assert "WHEELPW6x" not in refused.stderr + refused.stdout and not (tmp_path / "pylock.toml").exists()
    assert written.returncode == 0, written.stderr
    text = (tmp_path / "tiny.txt").read_text()
    assert "pkg-a==1.0" in text and "WHEELPW6x" not in text and "WHEELTOK5" not in text


def _evil_wheel(folder: Path) -> tuple[Path, str]:
    """A wheel no recipe asks for, whose `.pth` would run in every start of the environment's Python."""
    import hashlib

    wheel = build_wheel(folder, "evil", "1.0", files={"evil.pth": b"import os; open(os.devnull)\n"})
    return wheel, hashlib.sha256(wheel.read_bytes()).hexdigest()


@pytest.mark.parametrize("name", ["pylock.tiny.toml", "tiny.txt"])
def test_a_lock_names_what_it_adds_and_refuses_a_package_no_requirement_needs(deps, tmp_path, name):
    """Nineteenth hostile pass P3: a lock with an added `evil` package was installed without a word (only a lock
    lacking one of the recipe's packages was refused). Its dependencies are named now, and a package nothing the
    recipe installs asks for is refused unless --allow-extra-packages."""
    if name.startswith("pylock") and not uv_writes_pylock():
        pytest.skip("this uv cannot write pylock.toml")
    out = tmp_path / name
    _lock(deps, out)
    sources = ["--recipes-dir", str(deps.recipes), "--find-links", str(deps.house.path), "--offline",
               "--graphcast-src", str(deps.graphcast)]
    plan = run_inproc("plan", "tiny-dep", "--lock", str(out), *sources, "--json")
    assert plan.returncode == 0, plan.stderr
    assert last_json(plan)["added_packages"] == [{"name": "pkg-d", "version": "3.0", "status": "needed",
                                                  "needed_by": "pkg-c"}]
    text = " ".join(run_inproc("plan", "tiny-dep", "--lock", str(out), *sources).stdout.split())
    assert "adds 1 package(s) the recipe does not name — 1 that the recipe's requirements need." in text

    wheel, digest = _evil_wheel(deps.house.path)
    if name.startswith("pylock"):
        out.write_text(out.read_text() + f'\n[[packages]]\nname = "evil"\nversion = "1.0"\nwheels = [{{ url = '
                       f'"file://{wheel}", hashes = {{ sha256 = "{digest}" }} }}]\n')
    else:
        out.write_text(out.read_text() + f"evil==1.0 \\\n    --hash=sha256:{digest}\n")
    proc, result = _install(deps, "--lock", str(out))
    assert proc.returncode == 2, proc.stderr
    assert f"--lock {out} adds evil 1.0, which no requirement of recipe tiny-dep needs" in result["error"]
    assert "--allow-extra-packages" in result["error"] and "Traceback" not in proc.stderr
    assert deps.history() == []  # refused before anything was made

    proc, result = _install(deps, "--lock", str(out), "--allow-extra-packages")
    assert proc.returncode == 0, proc.stderr
    assert {"name": "evil", "version": "1.0", "status": "unreached", "needed_by": None} in result["added_packages"]
    assert "kept because --allow-extra-packages was given: evil 1.0" in " ".join(proc.stderr.split())


def test_a_bundle_with_a_wheel_no_requirement_needs_is_refused(deps, tmp_path, local_index, monkeypatch):
    """Nineteenth hostile pass P3, the bundle's form: a wheel added to wheels/, requirements.txt and the manifest
    (hashes and all) was installed without a word."""
    _only_this_index(local_index(deps.house.path), monkeypatch)
    bundle = tmp_path / "bundle"
    proc = run_inproc("bundle", "tiny-dep", "--recipes-dir", str(deps.recipes), "--out", str(bundle),
                      "--graphcast-src", str(deps.graphcast))
    assert proc.returncode == 0, proc.stderr[-3000:]
    wheel, digest = _evil_wheel(bundle / "wheels")
    lock = bundle / "requirements.txt"
    lock.write_text(lock.read_text() + f"evil==1.0 \\\n    --hash=sha256:{digest}\n")
    manifest = json.loads((bundle / "manifest.json").read_text())
    manifest["packages"]["evil"] = "1.0"
    manifest["files"].append({"name": f"wheels/{wheel.name}", "sha256": digest, "size": wheel.stat().st_size})
    for item in manifest["files"]:
        if item["name"] == "requirements.txt":
            import hashlib
            item["sha256"] = hashlib.sha256(lock.read_bytes()).hexdigest()
            item["size"] = lock.stat().st_size
    (bundle / "manifest.json").write_text(json.dumps(manifest))
    common = ["install", "tiny-dep", "--yes", "--json", "--recipes-dir", str(deps.recipes), "--bundle", str(bundle),
              "--no-verify"]
    proc = run_inproc(*common)
    assert proc.returncode == 2, proc.stderr[-3000:]
    assert f"--bundle {bundle} adds evil 1.0, which no requirement of recipe tiny-dep needs" in proc.stderr
    assert "gc-wizard bundle tiny-dep" in bare_program(proc.stderr) and deps.history() == []
    plan = run_inproc("plan", "tiny-dep", "--recipes-dir", str(deps.recipes), "--bundle", str(bundle),
                      "--allow-extra-packages", "--json")
    assert plan.returncode == 0, plan.stderr[-3000:]
    assert [a["name"] for a in last_json(plan)["added_packages"]] == ["evil", "pkg-d"]
