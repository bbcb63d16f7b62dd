"""A GraphCast wheel or source archive is compared with the release the recipe pins, file by file, as a checkout is
(fifth hostile pass 8i/8j: a 438-byte wheel named graphcast-0.1.1 and an sdist with an edited setup.py got "✓")."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.fixtures.jaxenv import graphcast_src
from wizard.install.checkout_state import read_archive_state
from wizard.install.sources import SourceIdentity, SourceVerdict, checkout_caution, compared_with_release
from wizard.recipes.loader import get_recipe

V011 = get_recipe("jax0.4.23-cpu").graphcast.revision


def _wheel(path: Path, files: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return path


def _sdist(path: Path, files: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(f"graphcast-0.1.1/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def test_a_wheel_that_is_not_the_release_is_named_and_marked(tmp_path):
    wheel = _wheel(tmp_path / "graphcast-0.1.1-py3-none-any.whl",
                   {"graphcast/graphcast.py": b"print('not DeepMind')\n", "graphcast/extra.py": b"",
                    "graphcast-0.1.1.dist-info/METADATA": b"Name: graphcast\nVersion: 0.1.1\n"})
    tree = read_archive_state(wheel, V011)
    assert tree.changed and "graphcast/graphcast.py" in tree.modified and "graphcast/extra.py" in tree.untracked
    assert "graphcast/model_utils.py" in tree.deleted and not any(".dist-info" in p for p in tree.deleted + tree.untracked)
    identity = SourceIdentity(str(wheel), "wheel", "graphcast", "0.1.1")
    caution = checkout_caution(identity, V011)
    assert caution.startswith(f"the wheel {wheel} is different from GraphCast v0.1.1: 1 modified")
    assert "runs whenever GraphCast is imported" in caution
    assert SourceVerdict(compared_with_release(identity, V011), ok=True).mark() == "!"


def test_an_sdist_with_an_edited_setup_py_is_named(tmp_path):
    sdist = _sdist(tmp_path / "graphcast-0.1.1.tar.gz", {"setup.py": b"import os; os.system('id')\n"})
    tree = read_archive_state(sdist, V011)
    assert "setup.py" in tree.modified
    caution = checkout_caution(SourceIdentity(str(sdist), "sdist", "graphcast", "0.1.1"), V011)
    assert "setup.py" in caution and "building it runs its setup.py" in caution


def test_a_wheel_of_the_release_itself_has_no_caution(tmp_path):
    src = graphcast_src()
    if src is None:
        pytest.skip("set GC_WIZARD_GRAPHCAST_SRC to a GraphCast v0.1.1 checkout to build its wheel's files")
    files = {f"graphcast/{p.name}": p.read_bytes() for p in (Path(src) / "graphcast").glob("*.py")}
    wheel = _wheel(tmp_path / "graphcast-0.1.1-py3-none-any.whl", files)
    assert not read_archive_state(wheel, V011).changed
    assert checkout_caution(SourceIdentity(str(wheel), "wheel", "graphcast", "0.1.1"), V011) is None


def test_an_unknown_revision_or_a_url_is_not_compared(tmp_path):
    wheel = _wheel(tmp_path / "graphcast-0.1.1-py3-none-any.whl", {"graphcast/graphcast.py": b""})
    assert read_archive_state(wheel, "0" * 40) is None
    assert read_archive_state("https://example.org/graphcast-0.1.1-py3-none-any.whl", V011) is None


@pytest.mark.parametrize("extra", [
    "zz_graphcast.pth",  # runs at every interpreter start, GraphCast imported or not (sixth hostile pass 8c)
    "graphcast-0.1.1.data/scripts/jupyter-lab",  # lands in the env's bin/, first on PATH (8f)
    "graphcast-0.1.1.data/purelib/sitecustomize.py",
    "graphcast-0.1.1.dist-info/entry_points.txt",  # console scripts `pip`, `jupyter` (8g)
    "graphcast/data/model.bin", "jax/__init__.py",
])
def test_anything_a_wheel_adds_to_the_release_is_named_whatever_its_kind(tmp_path, extra):
    wheel = _wheel(tmp_path / "graphcast-0.1.1-py3-none-any.whl",
                   {"graphcast/graphcast.py": b"", extra: b"[console_scripts]\npip = graphcast:x\n",
                    "graphcast-0.1.1.dist-info/METADATA": b"Name: graphcast\nVersion: 0.1.1\n",
                    "graphcast-0.1.1.dist-info/WHEEL": b"Wheel-Version: 1.0\n",
                    "graphcast-0.1.1.dist-info/RECORD": b"", "graphcast-0.1.1.dist-info/top_level.txt": b"graphcast\n",
                    "graphcast-0.1.1.dist-info/licenses/LICENSE": b"Apache-2.0\n"})
    tree = read_archive_state(wheel, V011)
    assert tree.changed and tree.untracked == (extra,), tree.untracked
    caution = checkout_caution(SourceIdentity(str(wheel), "wheel", "graphcast", "0.1.1"), V011)
    assert caution and extra.rsplit("/", 1)[-1] in caution


def test_an_sdists_build_metadata_is_not_new_but_an_added_file_is(tmp_path):
    sdist = _sdist(tmp_path / "graphcast-0.1.1.tar.gz",
                   {"PKG-INFO": b"Name: graphcast\n", "setup.cfg": b"[egg_info]\n",
                    "graphcast.egg-info/SOURCES.txt": b"", "graphcast.egg-info/PKG-INFO": b"",
                    "graphcast/zz.pth": b"import os\n", "bin/gc-helper": b"#!/bin/sh\n"})
    tree = read_archive_state(sdist, V011)
    assert set(tree.untracked) == {"graphcast/zz.pth", "bin/gc-helper"}, tree.untracked


@pytest.mark.network
def test_archives_built_from_the_release_by_uv_have_no_caution(tmp_path):
    """`uv build` of the pristine checkout: its wheel's dist-info and its sdist's PKG-INFO are bookkeeping, and the
    sdist leaving out CONTRIBUTING.md and the notebook is no change (a false "!" would teach users to ignore it)."""
    import shutil
    import subprocess
    import sys

    from wizard.uv_tool import uv_bin

    src = graphcast_src()
    if src is None:
        pytest.skip("set GC_WIZARD_GRAPHCAST_SRC to a GraphCast v0.1.1 checkout to build its archives")
    copy = tmp_path / "graphcast"
    shutil.copytree(src, copy, ignore=shutil.ignore_patterns("build", "*.egg-info", ".git"))
    # The build backend (setuptools, wheel) comes from the index: hence the `network` mark.
    subprocess.run([uv_bin(), "build", "--python", sys.executable, "--wheel", "--sdist", str(copy), "-o",
                    str(tmp_path / "dist")], check=True, capture_output=True, timeout=300)
    for archive in (tmp_path / "dist").iterdir():
        tree = read_archive_state(archive, V011)
        assert tree is not None and not tree.changed, (archive.name, tree)


def test_links_in_an_archive_are_listed_and_those_leaving_it_named(tmp_path):
    """Seventeenth hostile pass P9: an sdist's symlink members (`graphcast/link.py -> /tmp/…/outside.txt`,
    `graphcast/rel.py -> ../../outside.txt`) were in no list, `outside_links` empty; a wheel's too (zip links)."""
    sdist = tmp_path / "graphcast-0.1.1.tar.gz"
    with tarfile.open(sdist, "w:gz") as archive:
        for name, target in (("graphcast/link.py", "/tmp/outside.txt"), ("graphcast/rel.py", "../../outside.txt"),
                             ("graphcast/inner.py", "model_utils.py")):
            info = tarfile.TarInfo(f"graphcast-0.1.1/{name}")
            info.type, info.linkname = tarfile.SYMTYPE, target
            archive.addfile(info)
        info = tarfile.TarInfo("graphcast-0.1.1/graphcast/hard.py")
        info.type, info.linkname = tarfile.LNKTYPE, "/etc/passwd"
        archive.addfile(info)
    tree = read_archive_state(sdist, V011)
    assert tree.outside == ("graphcast/hard.py -> /etc/passwd", "graphcast/link.py -> /tmp/outside.txt",
                            "graphcast/rel.py -> ../../outside.txt")
    assert {"graphcast/link.py", "graphcast/rel.py", "graphcast/inner.py", "graphcast/hard.py"} <= set(tree.untracked)
    assert tree.to_dict()["outside_links"] == list(tree.outside)

    wheel = tmp_path / "graphcast-0.1.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        link = zipfile.ZipInfo("graphcast/evil.py")
        link.external_attr = (0o120777 << 16)
        archive.writestr(link, "/home/victim/.ssh/id_rsa")
        archive.writestr("graphcast/graphcast.py", b"")
    assert read_archive_state(wheel, V011).outside == ("graphcast/evil.py -> /home/victim/.ssh/id_rsa",)



@pytest.mark.parametrize("kind", [tarfile.LNKTYPE, tarfile.SYMTYPE])
def test_a_release_file_stored_as_a_link_is_modified_once_never_also_deleted(tmp_path, kind):
    """25th hostile pass (part B) P2: `graphcast/losses.py` stored as a tar hard link (or a symlink) to a changed copy,
    `graphcast/zz_evil.py`, was listed as both "1 modified" and "1 deleted"; it is there, changed: modified only."""
    sdist = tmp_path / "graphcast-0.1.1.tar.gz"
    with tarfile.open(sdist, "w:gz") as archive:
        data = b"import os\nos.system('id')\n"
        info = tarfile.TarInfo("graphcast-0.1.1/graphcast/zz_evil.py")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("graphcast-0.1.1/graphcast/losses.py")
        link.type = kind
        link.linkname = "graphcast-0.1.1/graphcast/zz_evil.py" if kind == tarfile.LNKTYPE else "zz_evil.py"
        archive.addfile(link)
    tree = read_archive_state(sdist, V011)
    assert "graphcast/losses.py" in tree.modified and "graphcast/losses.py" not in tree.deleted, tree
    assert "graphcast/zz_evil.py" in tree.untracked and tree.changed
    listed = tree.to_dict()
    assert not set(listed["modified"]) & set(listed["deleted"])

# --- 22nd hostile pass P5: an archive is named by what it holds and always said to run its setup.py when built ---
_SETUP = b"from setuptools import setup\nsetup(name='graphcast', version='0.1.1', packages=['graphcast'])\n"


def _zip(path: Path, files: dict[str, bytes], top: str | None = "gc") -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in files.items():
            archive.writestr(f"{top}/{name}" if top else name, data)
    return path


def _tar(path: Path, files: dict[str, bytes], top: str | None = "graphcast-src") -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(f"{top}/{name}" if top else name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


@pytest.mark.parametrize("make", [
    lambda d: _tar(d / "mycopy.tgz", {"setup.py": _SETUP}),
    lambda d: _tar(d / "gc-pristine.tar.gz", {"setup.py": _SETUP}),
    lambda d: _tar(d / "flat.tar.gz", {"setup.py": _SETUP, "graphcast/x.py": b""}, top=None),
    lambda d: _zip(d / "gc.zip", {"setup.py": _SETUP}),
    lambda d: _zip(d / "gc-flat.zip", {"setup.py": _SETUP, "graphcast/x.py": b""}, top=None),
    lambda d: _tar(d / "anything", {"PKG-INFO": b"Metadata-Version: 2.1\nName: graphcast\nVersion: 0.1.1\n"}),
], ids=["tgz", "targz", "flat-tar", "zip", "flat-zip", "pkg-info"])
def test_an_archive_is_named_by_what_it_holds_not_by_its_file_name(tmp_path, make):
    from wizard.install.sources import read_identity

    identity = read_identity(str(make(tmp_path)))
    assert identity.kind == "sdist" and identity.short() == "graphcast 0.1.1", identity


def test_what_an_archive_holds_wins_over_its_file_name(tmp_path):
    from wizard.install.sources import read_identity

    sdist = _tar(tmp_path / "graphcast-0.1.1.tar.gz", {"setup.py": b"setup(name='evil', version='9.0')\n"})
    assert read_identity(str(sdist)).short() == "evil 9.0"
    bare = _tar(tmp_path / "graphcast-0.1.1.tar.gz", {"README": b""})  # says nothing: its name is all there is
    assert read_identity(str(bare)).short() == "graphcast 0.1.1"


def test_a_zips_one_top_folder_is_dropped_as_a_tarballs_is(tmp_path):
    edited = _zip(tmp_path / "gc.zip", {"setup.py": b"import os; os.system('id')\n"})
    tree = read_archive_state(edited, V011)
    assert tree.modified == ("setup.py",) and not any(p.startswith("gc/") for p in tree.untracked), tree
    flat = _zip(tmp_path / "flat.zip", {"setup.py": b"import os\n", "graphcast/x.py": b""}, top=None)
    tree = read_archive_state(flat, V011)
    assert tree.modified == ("setup.py",) and "graphcast/x.py" in tree.untracked


def test_a_source_archive_is_always_said_to_run_its_setup_py(tmp_path):
    unknown = SourceIdentity(str(tmp_path / "mycopy.tgz"), "sdist", "graphcast", "0.1.1")
    caution = checkout_caution(unknown, "0" * 40)  # no release to compare with
    assert caution == (f"the source archive {tmp_path / 'mycopy.tgz'}; building it runs its setup.py (its own code, "
                       "with your rights), so use one you trust.")


def test_a_pristine_archive_says_identical_and_that_building_runs_its_setup_py(tmp_path):
    src = graphcast_src()
    if src is None:
        pytest.skip("set GC_WIZARD_GRAPHCAST_SRC to a GraphCast v0.1.1 checkout to pack its tree")
    from wizard.install.sources import read_identity

    files = {str(p.relative_to(src)): p.read_bytes() for p in Path(src).rglob("*")
             if p.is_file() and ".git" not in p.relative_to(src).parts and "egg-info" not in str(p)
             and "build" not in p.relative_to(src).parts}
    for archive in (_tar(tmp_path / "gc-pristine.tar.gz", files), _zip(tmp_path / "gc.zip", files),
                    _zip(tmp_path / "gc-flat.zip", files, top=None)):
        identity = compared_with_release(read_identity(str(archive)), V011)
        assert identity.short() == "graphcast 0.1.1" and not identity.tree.changed, (archive, identity.tree)
        caution = checkout_caution(identity, V011)
        assert "identical to GraphCast v0.1.1, file for file" in caution
        assert "building it runs its setup.py" in caution


def _odd_tar(path: Path, files: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(f"graphcast-0.1.1/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        fifo = tarfile.TarInfo("graphcast-0.1.1/fifo")
        fifo.type = tarfile.FIFOTYPE
        archive.addfile(fifo)
        dev = tarfile.TarInfo("graphcast-0.1.1/zero")
        dev.type, dev.devmajor, dev.devminor = tarfile.CHRTYPE, 1, 5
        archive.addfile(dev)
        for name in ("graphcast-0.1.1/../../../victim/TRAV", "/victim/ABS"):
            info = tarfile.TarInfo(name)
            info.size = 1
            archive.addfile(info, io.BytesIO(b"x"))
    return path


def test_special_and_escaping_members_are_named_and_refused(tmp_path):
    """23rd hostile pass P4: a FIFO and a device member left a pristine tree "identical … file for file", and `..` or
    absolute members were listed only as new files; uv then refused the archive. Each is named, and the plan's
    verdict refuses the archive before anything is built (`--force` goes on, as for any refused source)."""
    from wizard.install.sources import check_graphcast_source

    src = graphcast_src()
    files = ({str(p.relative_to(src)): p.read_bytes() for p in Path(src).rglob("*")
              if p.is_file() and ".git" not in p.relative_to(src).parts and "egg-info" not in str(p)
              and "build" not in p.relative_to(src).parts} if src else
             {"setup.py": b"from setuptools import setup\nsetup(name='graphcast', version='0.1.1')\n"})
    archive = _odd_tar(tmp_path / "dev.tar.gz", files)
    tree = read_archive_state(archive, V011)
    assert tree.changed and len(tree.unusable) == 4, tree
    words = tree.describe()
    assert "identical" not in words and "graphcast-0.1.1/fifo (a FIFO)" in words
    assert "not what was compared" in words
    assert "(a character device)" in " ".join(tree.unusable)
    assert any("climbs out" in m for m in tree.unusable) and any("absolute path" in m for m in tree.unusable)
    verdict = check_graphcast_source(get_recipe("jax0.4.23-cpu"), str(archive))
    assert not verdict.ok and verdict.mark() == "✗" and "no installer unpacks" in verdict.problem
    assert "--force" in verdict.problem


def _release_like_files() -> dict[str, bytes]:
    """The release's own files when a v0.1.1 checkout is at hand, else a setup.py standing in for them."""
    src = graphcast_src()
    if src is None:
        return {"setup.py": b"from setuptools import setup\nsetup(name='graphcast', version='0.1.1')\n"}
    return {str(p.relative_to(src)): p.read_bytes() for p in Path(src).rglob("*")
            if p.is_file() and ".git" not in p.relative_to(src).parts and "egg-info" not in str(p)
            and "build" not in p.relative_to(src).parts}


def _tar_bytes(files: dict[str, bytes] | list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, data in (files.items() if isinstance(files, dict) else files):
            info = tarfile.TarInfo(f"graphcast-0.1.1/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _refused(archive: Path, reason: str) -> None:
    from wizard.install.sources import check_graphcast_source

    tree = read_archive_state(archive, V011)
    assert tree.changed and any(reason in m for m in tree.unusable), tree
    assert "identical" not in tree.describe()
    verdict = check_graphcast_source(get_recipe("jax0.4.23-cpu"), str(archive))
    assert not verdict.ok and verdict.mark() == "✗" and reason in verdict.problem, verdict


def test_a_member_name_held_twice_is_refused_in_a_zip_and_a_tar(tmp_path):
    """24th hostile pass (part B) P3 (a): a changed setup.py first and the release's last read as "identical";
    uv refused the zip ("multiple entries with different contents")."""
    import gzip
    import warnings

    files = _release_like_files()
    zipped = tmp_path / "graphcast-0.1.1.zip"
    with warnings.catch_warnings(), zipfile.ZipFile(zipped, "w") as archive:
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate name it writes
        archive.writestr("graphcast-0.1.1/setup.py", files["setup.py"] + b"\nopen('/tmp/PWNED', 'w')\n")
        for name, data in files.items():
            archive.writestr(f"graphcast-0.1.1/{name}", data)
    _refused(zipped, "graphcast-0.1.1/setup.py (2 members of this name")
    tarred = tmp_path / "graphcast-0.1.1.tar.gz"
    tarred.write_bytes(gzip.compress(_tar_bytes([("setup.py", b"import os\n"), *files.items()])))
    _refused(tarred, "2 members of this name")


def test_data_after_the_first_gzip_member_or_the_tar_end_is_refused(tmp_path):
    """24th hostile pass (part B) P3 (b): a .tar.gz of two gzip members (the tree with a changed setup.py, then the
    release's setup.py) read as "identical"; uv reads the first member only and refused it. Data after a tar's end
    marker is the same ambiguity without gzip."""
    import gzip

    files = _release_like_files()
    changed = _tar_bytes({**files, "setup.py": files["setup.py"] + b"\nimport os\n"})
    end = changed.rstrip(b"\0")
    end += b"\0" * (-len(end) % 512)  # the last member's data, padded to its block: the end marker goes
    two = tmp_path / "graphcast-0.1.1.tar.gz"
    two.write_bytes(gzip.compress(end) + gzip.compress(_tar_bytes({"setup.py": files["setup.py"]})))
    _refused(two, "data after its first gzip member")
    after = tmp_path / "after-end.tar"
    after.write_bytes(_tar_bytes(files) + _tar_bytes({"setup.py": b"import os\n"}))
    _refused(after, "after the tar's end-of-archive marker")


@pytest.mark.parametrize("kind", ["bz2", "xz"])
def test_data_after_the_first_bz2_or_xz_stream_or_the_tar_end_is_refused(tmp_path, kind):
    """Known limit after pass 24: multi-stream bz2/xz archives — a .tar.bz2 or .tar.xz of two streams (the tree with
    a changed setup.py, then the release's setup.py) read as one tree, "identical"; refused as the gzip twin is. Data
    after the tar's end marker inside one stream is refused too; a padded single stream is not."""
    import bz2
    import lzma

    compress = bz2.compress if kind == "bz2" else lzma.compress
    files = _release_like_files()
    changed = _tar_bytes({**files, "setup.py": files["setup.py"] + b"\nimport os\n"})
    end = changed.rstrip(b"\0")
    end += b"\0" * (-len(end) % 512)
    two = tmp_path / f"graphcast-0.1.1.tar.{kind}"
    two.write_bytes(compress(end) + compress(_tar_bytes({"setup.py": files["setup.py"]})))
    _refused(two, f"data after its first {'bzip2' if kind == 'bz2' else 'xz'} stream")
    after = tmp_path / f"after-end.tar.{kind}"
    after.write_bytes(compress(_tar_bytes(files) + _tar_bytes({"setup.py": b"import os\n"})))
    _refused(after, "after the tar's end-of-archive marker")
    padded = tmp_path / f"padded.tar.{kind}"
    padded.write_bytes(compress(_tar_bytes(files) + b"\0" * 20480) + (b"\0" * 64 if kind == "xz" else b""))
    assert not read_archive_state(padded, V011).unusable


def test_a_wheel_with_a_second_dist_info_is_refused(tmp_path):
    """24th hostile pass (part B) P3 (c): a real wheel plus `pkg_b-2.0.dist-info/` was "✓"; uv and pip refuse it."""
    wheel = _wheel(tmp_path / "graphcast-0.1.1-py3-none-any.whl",
                   {"graphcast/__init__.py": b"", "graphcast-0.1.1.dist-info/METADATA": b"Name: graphcast\n",
                    "graphcast-0.1.1.dist-info/RECORD": b"", "pkg_b-2.0.dist-info/METADATA": b"Name: pkg_b\n",
                    "pkg_b-2.0.dist-info/RECORD": b""})
    tree = read_archive_state(wheel, V011)
    assert any(m.startswith("pkg_b-2.0.dist-info/ (a second .dist-info folder") for m in tree.unusable), tree
    assert "identical" not in tree.describe()


def test_one_unambiguous_archive_is_not_refused(tmp_path):
    """The checks take nothing from a plain archive: a gzip tar padded with zeros, as `tar` writes it, and a tar
    whose folder entries repeat."""
    import gzip

    files = _release_like_files()
    padded = tmp_path / "graphcast-0.1.1.tar.gz"
    padded.write_bytes(gzip.compress(_tar_bytes(files) + b"\0" * 20480) + b"\0" * 64)
    assert not read_archive_state(padded, V011).unusable
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for _ in range(2):
            folder = tarfile.TarInfo("graphcast-0.1.1/graphcast")
            folder.type = tarfile.DIRTYPE
            archive.addfile(folder)
        for name, data in files.items():
            info = tarfile.TarInfo(f"graphcast-0.1.1/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    dirs = tmp_path / "dirs.tar"
    dirs.write_bytes(buffer.getvalue())
    assert not read_archive_state(dirs, V011).unusable


_WHEEL_OWN = {"graphcast/graphcast.py": b"", "graphcast-0.1.1.dist-info/METADATA": b"Name: graphcast\nVersion: 0.1.1\n",
              "graphcast-0.1.1.dist-info/WHEEL": b"Wheel-Version: 1.0\n", "graphcast-0.1.1.dist-info/RECORD": b""}


@pytest.mark.parametrize(("extra", "said"), [
    ("graphcast-0.1.1.data/purelib/zz_evil.pth", "at the install and at every start of this environment's Python"),
    ("zz_evil.pth", "at the install and at every start of this environment's Python"),
    ("graphcast-0.1.1.data/data/lib/python3.11/site-packages/sitecustomize.py", "at every start"),
    ("graphcast-0.1.1.data/scripts/jupyter-lab", "installs a program into the environment's bin/"),
    ("graphcast-0.1.1.dist-info/entry_points.txt", "installs a program into the environment's bin/"),
    ("graphcast-0.1.1.data/headers/x.h", "writes files elsewhere in the environment"),
    ("graphcast/extra.py", "runs whenever GraphCast is imported"),
])
def test_the_wheel_caution_says_what_each_kind_of_member_does(tmp_path, extra, said):
    """27th hostile pass (part B) P8: a `.pth` member was "its code runs whenever GraphCast is imported", though it
    ran during the install itself, nothing imported, and at every start after."""
    wheel = _wheel(tmp_path / "graphcast-0.1.1-py3-none-any.whl", {**_WHEEL_OWN, extra: b"x = 1\n"})
    caution = checkout_caution(SourceIdentity(str(wheel), "wheel", "graphcast", "0.1.1"), V011)
    assert said in caution, caution
    if extra.endswith((".pth", "sitecustomize.py")):
        assert "whenever GraphCast is imported" not in caution, caution


@pytest.mark.parametrize("name", ["python", "python3", "python3.11", "pythonw"])
def test_a_wheel_script_with_a_name_installers_refuse_is_refused_in_the_plan(tmp_path, name):
    """27th hostile pass (part B) P8: a `.data/scripts/python3` member was "ok" in the plan; uv then refused the
    install ("Scripts must not use the reserved name `python3`"). The plan reads it as install will."""
    from wizard.install.sources import check_graphcast_source

    member = f"graphcast-0.1.1.data/scripts/{name}"
    wheel = _wheel(tmp_path / "graphcast-0.1.1-py3-none-any.whl", {**_WHEEL_OWN, member: b"#!python\n"})
    tree = read_archive_state(wheel, V011)
    assert any(m.startswith(member) for m in tree.unusable), tree
    verdict = check_graphcast_source(get_recipe("jax0.4.23-cpu"), str(wheel))
    assert not verdict.ok and member in verdict.problem, verdict.problem


def test_an_ordinary_script_name_is_not_refused(tmp_path):
    wheel = _wheel(tmp_path / "graphcast-0.1.1-py3-none-any.whl",
                   {**_WHEEL_OWN, "graphcast-0.1.1.data/scripts/python-helper": b"#!python\n"})
    assert read_archive_state(wheel, V011).unusable == ()


def _unicode_path_field(name: str) -> bytes:
    """An Info-ZIP Unicode Path extra field (0x7075: version 1, the CRC-32 of the header's name, the UTF-8 name)."""
    import struct
    import zlib

    body = b"\x01" + struct.pack("<L", zlib.crc32(name.encode())) + name.encode()
    return struct.pack("<2H", 0x7075, len(body)) + body


def _zip_with(path: Path, files: dict[str, bytes], extras: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(f"graphcast-0.1.1/{name}")
            info.extra = extras.get(name, b"")  # written into the local header and the central directory alike
            archive.writestr(info, data)
    return path


def test_a_zip_whose_unicode_names_swap_setup_py_is_refused(tmp_path):
    """29th hostile pass (part B) P3: the real setup.py's entry carried a Unicode Path naming an egg-info file, and
    that file's entry (holding another setup.py) named setup.py; the plain names read "identical … file for file",
    uv unpacked the Unicode names and ran the other setup.py as root."""
    files = {**_release_like_files(), "PKG-INFO": b"Name: graphcast\n",
             "graphcast.egg-info/SOURCES.txt": b"import os; os.system('id')\n"}
    archive = _zip_with(tmp_path / "graphcast-0.1.1.zip", files,
                        {"setup.py": _unicode_path_field("graphcast-0.1.1/graphcast.egg-info/SOURCES.txt"),
                         "graphcast.egg-info/SOURCES.txt": _unicode_path_field("graphcast-0.1.1/setup.py")})
    _refused(archive, "a second, Unicode name 'graphcast-0.1.1/setup.py'")
    same = _zip_with(tmp_path / "same.zip", files, {"setup.py": _unicode_path_field("graphcast-0.1.1/setup.py")})
    assert not read_archive_state(same, V011).unusable  # a Unicode name equal to the header's is one reading


def test_a_zip_whose_local_header_names_another_file_is_refused(tmp_path):
    """A local header that names another file than the central directory: a streaming reader (uv unpacks some
    archives from the local headers) and a directory reader unpack different trees (29th pass (part B) P3's class)."""
    files = {**_release_like_files(), "setuq.py": b"import os; os.system('id')\n"}
    archive = _zip_with(tmp_path / "graphcast-0.1.1.zip", files, {})
    data = archive.read_bytes()
    at = data.index(b"PK\x03\x04")  # the first local header: patch its name only, the central directory keeps it
    while b"graphcast-0.1.1/setuq.py" not in data[at:at + 80]:
        at = data.index(b"PK\x03\x04", at + 4)
    archive.write_bytes(data[:at] + data[at:at + 80].replace(b"setuq.py", b"setup.py") + data[at + 80:])
    _refused(archive, "its local header names 'graphcast-0.1.1/setup.py'")


def test_a_zip_member_name_with_a_backslash_is_refused(tmp_path):
    files = {**_release_like_files(), "graphcast\\zz.py": b""}
    _refused(_zip_with(tmp_path / "graphcast-0.1.1.zip", files, {}), "its name holds a backslash")


@pytest.mark.parametrize("make", [_sdist, lambda path, files: _zip(path.with_suffix(".zip"), files, "graphcast-0.1.1")])
def test_an_sdists_setup_cfg_and_egg_info_are_compared_unless_a_build_wrote_them(tmp_path, make):
    """29th hostile pass (part B) P4: `setup.cfg` and all of `graphcast.egg-info/` were left out of the comparison,
    and a `[options.data_files]` entry installed an egg-info `.pth` that ran at every start of the env's Python while
    the archive was "identical … file for file". Only what an sdist build writes, and rewrites, is bookkeeping."""
    built_cfg = b"[egg_info]\ntag_build = \ntag_date = 0\n\n"
    written = {"PKG-INFO": b"Name: graphcast\n", "setup.cfg": built_cfg, "graphcast.egg-info/PKG-INFO": b"",
               "graphcast.egg-info/SOURCES.txt": b"setup.py\n", "graphcast.egg-info/top_level.txt": b"graphcast\n",
               "graphcast.egg-info/requires.txt": b"", "graphcast.egg-info/dependency_links.txt": b"\n"}
    plain = read_archive_state(make(tmp_path / "a.tar.gz", {**_release_like_files(), **written}), V011)
    assert not plain.untracked, plain
    cfg = built_cfg + b"[options.data_files]\nlib/python3.11/site-packages = graphcast.egg-info/zz_gc.pth\n"
    changed = read_archive_state(make(tmp_path / "b.tar.gz", {**_release_like_files(), **written, "setup.cfg": cfg,
                                                               "graphcast.egg-info/zz_gc.pth": b"import os\n"}), V011)
    assert set(changed.untracked) == {"setup.cfg", "graphcast.egg-info/zz_gc.pth"}, changed
    assert "identical" not in changed.describe()
    unreadable = read_archive_state(make(tmp_path / "c.tar.gz", {**_release_like_files(), "setup.cfg": b"[x\n"}), V011)
    assert unreadable.untracked == ("setup.cfg",)
