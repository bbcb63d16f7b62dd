"""A bundle's manifest and a lock are read with a size cap, and a manifest names only files of its own folder
(fifth hostile pass: a manifest linked to /dev/zero grew the wizard to 24 GB; `../../../etc/hostname` was read)."""

from __future__ import annotations

import json

import pytest

from wizard.errors import ExitCode, UserError
from wizard.install.bundle import FORMAT, MANIFEST, add_files, check_bundle, read_manifest
from wizard.install.lockfile import lock_packages
from wizard.install.tree_digest import file_sha256
from wizard.recipes.loader import get_recipe


def test_a_manifest_linked_to_an_endless_device_is_a_sentence(tmp_path):
    (tmp_path / MANIFEST).symlink_to("/dev/zero")
    with pytest.raises(UserError, match="a character device, not a regular file"):  # never opened, never read
        read_manifest(tmp_path)


@pytest.mark.parametrize("name", ["../../../etc/hostname", "/etc/hostname", "wheels/../../x.whl", "..", ""])
def test_a_manifest_naming_a_file_outside_its_folder_is_refused(tmp_path, name):
    (tmp_path / MANIFEST).write_text(json.dumps({"format": FORMAT, "files": [{"name": name, "sha256": "0" * 64}]}))
    with pytest.raises(UserError, match="not a file of the bundle's own folder"):
        read_manifest(tmp_path)


def test_a_lock_far_larger_than_any_lock_is_refused_before_it_is_read_whole(tmp_path):
    lock = tmp_path / "requirements.lock.txt"
    with lock.open("wb") as handle:
        handle.truncate(9 * 1024 * 1024)
    with pytest.raises(UserError, match="larger than"):
        lock_packages(lock)


def _bundle(root, wheel, *, listed=True):
    """A bundle folder by hand for recipe jax0.4.23-cpu: its lock, one GraphCast wheel in wheels/, a manifest."""
    (root / "wheels").mkdir(parents=True)
    (root / "wheels" / "graphcast-0.1.1-py3-none-any.whl").write_bytes(b"PK\x05\x06" + b"\0" * 18)
    (root / "requirements.txt").write_text("")
    files = [{"name": "requirements.txt", "sha256": file_sha256(root / "requirements.txt"), "size": 0}]
    if listed:
        path = root / "wheels" / "graphcast-0.1.1-py3-none-any.whl"
        files.append({"name": "wheels/graphcast-0.1.1-py3-none-any.whl", "sha256": file_sha256(path), "size": 22})
    (root / MANIFEST).write_text(json.dumps({"format": FORMAT, "recipe": "jax0.4.23-cpu", "python": "3.11",
                                             "files": files, "packages": {}, "graphcast": {"wheel": wheel}}))
    return root


@pytest.mark.parametrize("wheel, says", [
    ("../../elsewhere/graphcast-0.1.1-py3-none-any.whl", "not a file of the bundle's own wheels/ folder"),
    ("/tmp/evil/graphcast-0.1.1-py3-none-any.whl", "not a file of the bundle's own wheels/ folder"),
    ("sub/graphcast-0.1.1-py3-none-any.whl", "not a file of the bundle's own wheels/ folder"),
    ("..", "not a file of the bundle's own wheels/ folder"),
    ("graphcast-0.1.1.tar.gz", "not a wheel (.whl)"),
    ("graphcast-0.2.0-py3-none-any.whl", "which its files do not list with a sha256"),  # not hashed: refused
    (None, "names no GraphCast wheel"),
    (["graphcast-0.1.1-py3-none-any.whl"], "names no GraphCast wheel"),
    ("a" * 100_000, "not a wheel (.whl)"),  # thirteenth pass #42: named, not printed whole
])
def test_a_graphcast_wheel_outside_the_bundle_or_unhashed_is_refused(tmp_path, wheel, says):
    """Eleventh hostile pass #123: `"graphcast": {"wheel": "../../evilhouse/x.whl"}` installed a wheel from outside
    the bundle that its hash check never saw (its .pth then ran at the env's every start)."""
    root = _bundle(tmp_path / "bb", wheel)
    with pytest.raises(UserError) as caught:
        check_bundle(root, get_recipe("jax0.4.23-cpu"))
    assert caught.value.exit_code == ExitCode.BAD_INPUT
    assert str(caught.value).startswith(f"--bundle {root}: {MANIFEST} ") and says in str(caught.value)
    if isinstance(wheel, str):
        assert repr(wheel) in str(caught.value) or len(str(caught.value)) < 400


def test_the_wheel_the_manifest_lists_passes_the_graphcast_check(tmp_path):
    root = _bundle(tmp_path / "bb", "graphcast-0.1.1-py3-none-any.whl")
    bundle = check_bundle(root, get_recipe("jax0.4.23-cpu"), "3.11")
    assert bundle.graphcast_wheel == root.absolute() / "wheels" / "graphcast-0.1.1-py3-none-any.whl"
    root = _bundle(tmp_path / "unlisted", "graphcast-0.1.1-py3-none-any.whl", listed=False)
    with pytest.raises(UserError, match="which its files do not list with a sha256"):
        check_bundle(root, get_recipe("jax0.4.23-cpu"))


def test_adding_files_never_writes_the_manifest_through_a_link(tmp_path):
    """The one rule of wizard.outputs for a bundle's own files (eleventh hostile pass #188/#189's class): a manifest
    that is a link to a file elsewhere is refused when the wizard would rewrite it, and that file stays as it was."""
    root = _bundle(tmp_path / "bb", "graphcast-0.1.1-py3-none-any.whl")
    elsewhere = tmp_path / "elsewhere.json"
    (root / MANIFEST).rename(elsewhere)
    (root / MANIFEST).symlink_to(elsewhere)
    before = elsewhere.read_text()
    (root / "assets").mkdir()
    (root / "assets" / "SHA256SUMS").write_text("")
    with pytest.raises(UserError, match=f"cannot write the bundle's manifest {root / MANIFEST}: it is a symbolic"):
        add_files(root, ["assets/SHA256SUMS"])
    assert elsewhere.read_text() == before


def test_a_bundle_stopped_before_its_manifest_is_named_as_unfinished(tmp_path):
    """A bundle killed outright (SIGKILL, the OOM killer, a Slurm time limit) leaves its wheels/ and no manifest, as
    no clean-up runs (thirteenth pass #57): making a bundle there again and installing from it both say that the
    folder holds an unfinished bundle and how to clear it, and nothing in it is removed."""
    from wizard.install.bundle import WHEELS, make_bundle

    left = tmp_path / "bundle"
    (left / WHEELS).mkdir(parents=True)
    (left / WHEELS / "numpy-1.26.4-cp311-cp311-manylinux_2_17_x86_64.whl").write_bytes(b"partial")
    with pytest.raises(UserError, match=r"holds an unfinished bundle .*no manifest\.json.*rm -r"):
        make_bundle(get_recipe("jax0.4.23-cpu"), left, python_version="3.11", graphcast_src="unused")
    with pytest.raises(UserError, match=r"--bundle .*holds an unfinished bundle.*gc-wizard bundle RECIPE"):
        read_manifest(left)
    assert (left / WHEELS / "numpy-1.26.4-cp311-cp311-manylinux_2_17_x86_64.whl").read_bytes() == b"partial"
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match="must be a new or empty folder"):
        make_bundle(get_recipe("jax0.4.23-cpu"), tmp_path / "other", python_version="3.11", graphcast_src="unused")


@pytest.mark.parametrize("folder", ["wizard", "wheels"])
def test_a_file_the_manifest_does_not_list_in_a_package_folder_is_refused_by_name(tmp_path, folder):
    """34th hostile pass (part B) P3: a `gc_wizard-9.9` wheel dropped into DIR/wizard went unnoticed, and the
    printed `pip install --find-links DIR/wizard gc-wizard` line installed it; that line now pins the version
    packed, and the bundle check names every file of wizard/ and wheels/ its manifest does not list."""
    from wizard import __version__
    from wizard.install.self_wheels import install_wizard_line

    assert install_wizard_line("DIR").endswith(f" --find-links DIR/wizard gc-wizard=={__version__}")
    root = _bundle(tmp_path / "bb", "graphcast-0.1.1-py3-none-any.whl")
    (root / folder).mkdir(exist_ok=True)
    (root / folder / "gc_wizard-9.9-py3-none-any.whl").write_bytes(b"PK\x05\x06" + b"\0" * 18)
    with pytest.raises(UserError) as caught:
        check_bundle(root, get_recipe("jax0.4.23-cpu"), "3.11")
    assert f"not listed in its {MANIFEST}" in str(caught.value) \
        and f"{folder}/gc_wizard-9.9-py3-none-any.whl" in str(caught.value), str(caught.value)


def test_an_unfinished_bundle_with_a_manifest_is_refused_for_its_mark_not_for_a_missing_manifest(tmp_path):
    """37th hostile pass (part B), case 39: a killed bundle with a forged manifest.json was still refused (its
    UNFINISHED mark), but the sentence said "no manifest.json" although one was there: it names the mark."""
    from wizard.install.bundle import UNFINISHED, WHEELS

    left = tmp_path / "bundle"
    (left / WHEELS).mkdir(parents=True)
    (left / UNFINISHED).write_text("")
    (left / MANIFEST).write_text("{}")
    with pytest.raises(UserError) as caught:
        read_manifest(left)
    said = str(caught.value)
    assert f"holds an unfinished bundle (its {UNFINISHED} mark" in said and f"no {MANIFEST}" not in said, said
    assert f"its {MANIFEST} does not make it a finished one" in said and "rm -r" in said, said
