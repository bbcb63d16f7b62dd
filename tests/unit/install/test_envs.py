"""Environments on disk: real venvs frozen and re-synced by the real uv, markers, disk use, free space."""

from __future__ import annotations

import os
import subprocess

import pytest

from wizard.errors import OperationFailed, UserError
from wizard.install import envs


def _uv(*args: str) -> None:
    from uv import find_uv_bin

    subprocess.run([find_uv_bin(), *args], check=True, capture_output=True, text=True)


@pytest.fixture
def venv(tmp_path, wheelhouse):
    """A real uv venv holding pkg-a 1.0 and pkg-c 3.1 from a local wheelhouse."""
    wheelhouse.add("pkg-a", "1.0")
    wheelhouse.add("pkg-a", "2.0")
    wheelhouse.add("pkg-c", "3.1")
    env = tmp_path / "env"
    _uv("venv", "--quiet", str(env))
    _uv("pip", "install", "--quiet", "--python", str(env / "bin" / "python"), "--offline", "--find-links",
        str(wheelhouse.path), "pkg-a==1.0", "pkg-c==3.1")
    return env


def test_freeze_lists_the_exact_package_set(venv):
    assert envs.freeze(venv) == ["pkg-a==1.0", "pkg-c==3.1"]


def test_freeze_of_a_folder_that_is_no_environment_fails_loudly(tmp_path):
    with pytest.raises(OperationFailed, match="does not exist"):
        envs.freeze(tmp_path)


def test_no_hash_file_when_nothing_gives_a_hash(venv, wheelhouse, tmp_path):
    """uv hashes what an index lists; a package neither an index nor a local wheelhouse has gets none."""
    out = tmp_path / "frozen" / "x.txt"
    assert envs.hashed_requirements(venv, ["no-such-package-anywhere==9.9"], out) is None
    assert envs.hashed_requirements(venv, ["no-such-package-anywhere==9.9"], out,
                                    find_links=[str(wheelhouse.path)]) is None
    assert not out.exists()


def test_a_wheelhouse_install_records_the_sha256_of_every_file_for_each_pin(venv, wheelhouse, tmp_path):
    """Eleventh hostile pass #85: uv gives no hash for a --find-links wheel, so the set was frozen without any and a
    rebuild took whatever file the folder held later. Each file the folder holds for a pin now is hashed (a wheel
    and an sdist of one version both), a file of another version is not, and a `file://` folder counts too."""
    import hashlib
    import shutil

    from wizard.install.recorded_set import recorded_hashes

    house = tmp_path / "house"
    shutil.copytree(wheelhouse.path, house)
    wheel = next(house.glob("pkg_a-1.0-*.whl"))
    sdist = house / "pkg_a-1.0.tar.gz"
    sdist.write_bytes(b"an sdist of the same version")
    other = next(house.glob("pkg_a-2.0-*.whl"), None)
    out = tmp_path / "frozen" / "x.txt"
    for links in ([str(house)], [house.as_uri()]):
        assert envs.hashed_requirements(venv, ["pkg-a==1.0", "nothing-has-it==1.0"], out, find_links=links) == out
        hashed = recorded_hashes(out.read_text())
        sha = {hashlib.sha256(p.read_bytes()).hexdigest() for p in (wheel, sdist)}
        assert hashed == {("pkg-a", "1.0"): sha}
        if other is not None:
            assert hashlib.sha256(other.read_bytes()).hexdigest() not in out.read_text()
        assert "nothing-has-it==1.0\n" in out.read_text()  # a plain pin, and a rollback refuses it


def test_sync_restores_exactly_installing_and_removing(venv, wheelhouse):
    snapshot = envs.freeze(venv)
    _uv("pip", "install", "--quiet", "--python", str(venv / "bin" / "python"), "--offline", "--find-links",
        str(wheelhouse.path), "pkg-a==2.0")
    _uv("pip", "uninstall", "--quiet", "--python", str(venv / "bin" / "python"), "pkg-c")
    assert envs.freeze(venv) == ["pkg-a==2.0"]
    assert envs.sync(venv, snapshot, find_links=[str(wheelhouse.path)]) == "offline"
    assert envs.freeze(venv) == snapshot
    envs.sync(venv, [])  # an environment that had nothing gets nothing back
    assert envs.freeze(venv) == []


def test_sync_failure_names_uvs_own_error(venv, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(OperationFailed) as info:
        envs.sync(venv, ["pkg-zzz==1.0"], find_links=[str(empty)])
    assert "pkg-zzz" in str(info.value) and "offline:" in str(info.value)


def test_key_versions_reads_jax_cudnn_numpy_and_graphcast():
    frozen = ["absl-py==2.1.0", "jax==0.4.23", "jaxlib==0.4.23+cuda12.cudnn89", "numpy==1.26.4",
              "nvidia-cudnn-cu12==8.9.7.29", "graphcast @ file:///work/graphcast", "Flax==0.8.4"]
    assert envs.key_versions(frozen) == {"jax": "0.4.23", "jaxlib": "0.4.23+cuda12.cudnn89",
                                         "nvidia-cudnn-cu12": "8.9.7.29", "numpy": "1.26.4",
                                         "graphcast": "file:///work/graphcast"}


def test_disk_usage_counts_a_hardlinked_file_once(tmp_path):
    data = os.urandom(1 << 20)
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "big.bin").write_bytes(data)
    os.link(tmp_path / "a" / "big.bin", tmp_path / "a" / "same-file.bin")
    (tmp_path / "a" / "link").symlink_to("big.bin")
    naive = sum(p.stat().st_size for p in (tmp_path / "a").iterdir() if not p.is_symlink())
    used = envs.disk_usage(tmp_path / "a")
    assert naive == 2 << 20
    assert (1 << 20) <= used < (1 << 20) + 64 * 1024


def test_markers_round_trip_and_a_broken_one_reads_as_none(tmp_path):
    envs.write_marker(tmp_path, {"recipe": "tiny-a", "backend": "cpu", "runtime_env": {"A": "1"}, "mine": 7})
    marker = envs.read_marker(tmp_path)
    assert (marker.recipe, marker.backend, dict(marker.runtime_env)) == ("tiny-a", "cpu", {"A": "1"})
    assert marker.to_dict()["mine"] == 7  # keys written by others are kept
    assert envs.Env(tmp_path).marker == marker
    envs.restore_marker(tmp_path, None)
    assert not (tmp_path / envs.MARKER).exists()
    assert envs.read_marker(tmp_path) is None  # none: an environment the user built
    for broken in ("[1, 2", "[1, 2]", '{"runtime_env": [1]}', '{"recipe": 7}', "\xff\xfe"):
        (tmp_path / envs.MARKER).write_text(broken)
        assert envs.read_marker(tmp_path) is None, broken  # one policy: unreadable is "no marker"
    envs.restore_marker(tmp_path, {"recipe": "theirs"})
    assert envs.read_marker(tmp_path).recipe == "theirs"
    assert sorted(p.name for p in tmp_path.iterdir()) == [envs.MARKER]


def test_env_value_and_the_current_env(tmp_path, isolated_state):
    from wizard.history.store import Entry, load_history

    env = envs.Env.at(isolated_state / "envs" / "x")
    assert env.python == env.path / "bin" / "python" and not env.exists and env.is_managed
    assert not envs.Env.at(tmp_path).is_managed
    history = load_history()
    with pytest.raises(UserError, match="no current environment yet"):
        envs.current_env(history)
    entry = history.add(Entry(id="e1", kind="install", recipe="tiny-a", env=str(env.path), status="installed"))
    history.make_current(entry)
    with pytest.raises(UserError, match="no longer exists"):
        envs.current_env(history)
    env.path.mkdir(parents=True)
    assert envs.current_env(history) == env


def test_only_managed_environments_can_be_removed(tmp_path, isolated_state):
    outside = tmp_path / "users-env"
    outside.mkdir()
    with pytest.raises(OperationFailed, match="not a managed environment"):
        envs.remove_env(outside)
    assert outside.is_dir()
    inside = isolated_state / "envs" / "tiny-a-1"
    (inside / "lib").mkdir(parents=True)
    (inside / "lib" / "x.py").write_bytes(b"x" * 10000)
    assert envs.is_managed(inside) and not envs.is_managed(isolated_state / "envs")
    assert envs.remove_env(inside) >= 10000 and not inside.exists()


def test_a_removal_stopped_half_way_keeps_the_marker_and_names_what_stayed(isolated_state):
    """Seventeenth hostile pass P12: with one file immutable (`chattr +i`), `remove` deleted the marker and pyvenv.cfg
    first, said only "remove the rest by hand", and the next `remove` refused the half-deleted env as not the wizard's.
    A real immutable file (root and a file system with attributes, as this machine and CI have)."""
    env = isolated_state / "envs" / "tiny-a-2"
    (env / "lib" / "site").mkdir(parents=True)
    (env / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (env / envs.MARKER).write_text('{"recipe": "tiny-a"}\n')
    stuck = env / "lib" / "site" / "stuck.py"
    stuck.write_text("x = 1\n")
    (env / "lib" / "other.py").write_text("y = 2\n")
    if os.geteuid() != 0 or subprocess.run(["chattr", "+i", str(stuck)], capture_output=True).returncode != 0:
        pytest.skip("needs root and a file system that takes `chattr +i` to make a file no one can delete")
    try:
        with pytest.raises(OperationFailed) as info:
            envs.remove_env(env)
        text = str(info.value)
        assert f"{stuck} could not be deleted (Operation not permitted)" in text and "chattr -i" in text, text
        assert (env / envs.MARKER).is_file() and (env / "pyvenv.cfg").is_file()
        assert not (env / "lib" / "other.py").exists()
    finally:
        subprocess.run(["chattr", "-i", str(stuck)], check=True)
    assert envs.remove_env(env) >= 0 and not env.exists()  # the second remove finishes the job


def test_free_disk_check_names_the_folder_and_the_sizes(tmp_path):
    not_yet = tmp_path / "envs" / "new-env"
    free = envs.free_gib(not_yet)
    assert free > 0
    envs.check_free_disk(not_yet, 0.001, "recipe tiny-a")
    with pytest.raises(OperationFailed) as info:
        envs.check_free_disk(not_yet, free + 1000, "recipe tiny-a")
    assert str(tmp_path / "envs") in str(info.value) and "recipe tiny-a" in str(info.value)



def test_two_environments_sharing_a_file_use_it_once_together(tmp_path):
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    (tmp_path / "one" / "lib.so").write_bytes(os.urandom(1 << 20))
    os.link(tmp_path / "one" / "lib.so", tmp_path / "two" / "lib.so")  # as uv links both from its cache
    each = envs.disk_usage(tmp_path / "one")
    assert envs.disk_usage(tmp_path / "two") == each
    seen: set = set()
    together = envs.disk_usage(tmp_path / "one", seen) + envs.disk_usage(tmp_path / "two", seen)
    assert together == each


def test_a_current_entry_naming_a_folder_the_wizard_never_installed_into_is_refused(tmp_path, isolated_state):
    """Thirteenth hostile pass #69: an entry edited to name a plain venv outside envs/ had activate export it, verify
    run its Python and module install write a module for it. An --env folder the wizard installed into carries its
    marker and stays current."""
    from wizard.history.store import Entry, load_history

    history = load_history()
    plain = tmp_path / "nomark"
    (plain / "bin").mkdir(parents=True)
    entry = history.add(Entry(id="e1", kind="install", recipe="tiny-a", env=str(plain), status="installed"))
    history.make_current(entry)
    with pytest.raises(UserError, match="holds no gc-wizard marker"):
        envs.current_env(history)
    envs.write_marker(plain, {"recipe": "tiny-a", "entry_id": "e1"})
    assert envs.current_env(history).path == plain


def test_the_marker_keeps_no_token_a_recipe_carried(tmp_path):
    """Fourteenth hostile pass Q3: a recipe title holding `glpat-…` was masked on stdout, in history and logs, but
    copied as it was into the env's marker. Every text of the marker is masked now; the runtime variables, which
    activation exports from it, stay exact."""
    token = "glpat-ABCDEFGHIJ0123456789"
    envs.write_marker(tmp_path, {"recipe": "tiny-a", "title": f"tiny {token}", "runtime_env": {"A": "x-1"},
                                 "notes": [f"from https://me:pa55word@host/simple/ {token}"]})
    text = (tmp_path / envs.MARKER).read_text()
    assert token not in text and "pa55word" not in text and "<redacted>" in text
    marker = envs.read_marker(tmp_path)
    assert marker.title == "tiny <redacted>" and dict(marker.runtime_env) == {"A": "x-1"}


def test_files_hard_linked_from_elsewhere_are_not_counted_as_freed(isolated_state, tmp_path):
    """Seventeenth walk, problem 8: `remove` said "0.78 GiB freed" for an env whose files uv had hard-linked from its
    cache, where almost nothing was given back. Only a file whose every link is inside the env counts."""
    cache = tmp_path / "uv-cache"
    cache.mkdir()
    env = isolated_state / "envs" / "tiny-a-3"
    (env / "lib").mkdir(parents=True)
    (cache / "big.so").write_bytes(b"x" * 200_000)
    os.link(cache / "big.so", env / "lib" / "big.so")  # as uv installs from its cache
    (env / "lib" / "own.py").write_bytes(b"y" * 50_000)
    os.link(env / "lib" / "own.py", env / "lib" / "own-again.py")  # both links inside: freed
    freed = envs.freed_by_removing(env)
    assert 50_000 <= freed < 200_000, freed
    assert envs.disk_usage(env) >= 250_000  # what the env uses is still counted whole
    assert envs.remove_env(env) == freed and (cache / "big.so").stat().st_size == 200_000


def test_a_sync_step_the_swap_rule_refuses_is_the_wizards_refusal_not_uvs_failure(venv, wheelhouse, tmp_path,
                                                                                  monkeypatch):
    """28th hostile pass (part B) P9: a refusal the runner's check makes inside a step (here `UV_FIND_LINKS` at a
    folder every user can write) was said as the installer's failure ("could not restore … offline: Step sync-…");
    rollback's re-sync and rebuild now hand it on as the wizard's refusal (`runner.StepRefusal`, exit 2)."""
    from wizard.install.runner import StepRefusal

    shared = tmp_path / "ww"
    (shared / "wh").mkdir(parents=True)
    shared.chmod(0o777)
    wanted = tmp_path / "wanted.txt"
    wanted.write_text("\n".join(envs.freeze(venv)) + "\n")
    steps = envs.sync_steps(venv, str(wanted), find_links=[str(wheelhouse.path)])
    monkeypatch.setenv("UV_FIND_LINKS", str(shared / "wh"))  # set after the steps were made: their check sees it
    with pytest.raises(UserError) as info:
        envs.run_sync(venv, steps)
    assert isinstance(info.value, StepRefusal), type(info.value)
    text = str(info.value)
    assert text.startswith(f"the package source {shared / 'wh'} (from UV_FIND_LINKS): ") and "Step " not in text
