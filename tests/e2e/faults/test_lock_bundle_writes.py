"""What `lock` and `bundle` write, and what they leave when writing fails (sixth hostile pass 5b, 6b, 6c, 6e).

Real uv and pip on the tiny wheels. A lock's JSON describes the text it wrote (never what reading --out back
gives: a device reads back nothing); a write that fails names --out; a failed bundle removes what it made;
a path holding a byte that is not UTF-8 is no "error of its own"; a full disk is named as such."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import zipfile

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.full_disk import tmpfs_at
from tests.fixtures.state import last_json
from wizard import full_disk
from wizard.errors import OperationFailed
from wizard.install import bundle
from wizard.install.no_space import NO_INODES, NoRoom, no_room, no_room_inside


def _lock(tiny, out, *extra):
    return run_inproc("lock", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                      "--offline", "--out", str(out), "--json", *extra)


def _bundle(tiny, out, recipe="tiny-a"):
    return run_inproc("bundle", recipe, "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                      "--graphcast-src", str(tiny.graphcast), "--out", str(out), "--json",
                      env={"UV_OFFLINE": "1", "PIP_NO_INDEX": "1"})


def _clean(proc):
    for text in (proc.stdout, proc.stderr):
        assert "Traceback" not in text and "of its own" not in text, text


def test_a_lock_written_into_a_device_is_described_from_what_was_written(tiny, tmp_path):
    out = tmp_path / "lock.txt"
    out.symlink_to("/dev/null")  # what `> /dev/null` would take; reading it back gives nothing
    proc = _lock(tiny, out)
    _clean(proc)
    result = last_json(proc)
    assert proc.returncode == 0 and result["packages"] == {"pkg-a": "1.0"}
    assert result["sha256"] != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"  # sha256("")


def test_a_lock_that_cannot_be_written_names_the_out_file_not_the_state_folder(tiny, tmp_path):
    out = tmp_path / "lock.txt"
    out.symlink_to("/dev/full")  # every write: No space left on device
    proc = _lock(tiny, out)
    _clean(proc)
    error = last_json(proc)["error"]
    assert proc.returncode == 1 and f"cannot write the lock {out}: the disk is full there" in error
    assert "GC_WIZARD_HOME" not in error and "resolve" not in error


def test_a_bundle_into_a_path_with_a_byte_that_is_not_utf8_is_made(tiny, tmp_path):
    out = tmp_path / "bun\udcff"  # what Python makes of the byte 0xff in a path
    proc = _bundle(tiny, out)
    _clean(proc)
    assert proc.returncode == 0, proc.stderr
    assert (out / "manifest.json").is_file() and (out / "wheels" / "pkg_a-1.0-py3-none-any.whl").is_file()


def test_a_failed_bundle_removes_the_folders_it_made_and_empties_one_it_was_given(tiny, tmp_path):
    tiny.write("tiny-z", ["pkg-z==9.9"])  # in no wheelhouse: the resolution fails
    made = tmp_path / "new"
    proc = _bundle(tiny, made / "deep" / "bun", recipe="tiny-z")
    _clean(proc)
    assert proc.returncode == 1 and not made.exists()
    given = tmp_path / "given"
    given.mkdir()
    proc = _bundle(tiny, given, recipe="tiny-z")
    assert proc.returncode == 1 and given.is_dir() and list(given.iterdir()) == []


@pytest.mark.parametrize("failure, why", [
    (OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "/x/bun/wheels/a.whl"), "the disk is full"),
    (OSError(errno.EDQUOT, os.strerror(errno.EDQUOT)), "your disk quota is used up"),
    (OperationFailed("uv could not resolve recipe tiny-a for Python 3.11:\n  error: failed to write to file "
                     "`/x/bun/.tmpkhkBq5`: No space left on device (os error 28)"), "the disk is full"),
    (OperationFailed("could not download the wheels:\n  ERROR: Could not install packages due to an OSError: "
                     "[Errno 122] Disk quota exceeded"), "your disk quota is used up"),
])
def test_a_full_disk_is_told_from_the_childs_words_or_the_error_number(failure, why):
    assert no_room(failure) == why


def test_other_failures_are_not_a_full_disk():
    assert no_room(OSError(errno.EACCES, os.strerror(errno.EACCES))) is None
    assert no_room(OperationFailed("uv could not resolve recipe tiny-a: pkg-z was not found")) is None


@pytest.mark.parametrize("added", [
    "pkg-b @ file://{outside} --hash=sha256:{digest}",  # a package the manifest does not list, from elsewhere
    "pkg-a @ file://{outside} --hash=sha256:{digest}",  # a listed name, but a file outside the bundle
    "--find-links {outside_dir}",
])
def test_a_bundle_whose_lock_installs_from_outside_it_is_refused_by_file_and_line(tiny, tmp_path, added):
    bundle = tmp_path / "bun"
    assert _bundle(tiny, bundle).returncode == 0
    outside = tiny.house.path / "pkg_b-2.0-py3-none-any.whl"
    lock = bundle / "requirements.txt"
    text = lock.read_text() + added.format(outside=outside, outside_dir=outside.parent,
                                           digest=hashlib.sha256(outside.read_bytes()).hexdigest()) + "\n"
    lock.write_text(text)
    manifest = json.loads((bundle / "manifest.json").read_text())
    for item in manifest["files"]:  # re-hashed, as someone who edits the lock would
        if item["name"] == "requirements.txt":
            item.update(sha256=hashlib.sha256(text.encode()).hexdigest(), size=len(text.encode()))
    (bundle / "manifest.json").write_text(json.dumps(manifest))
    line = text.count("\n")
    for command in ("plan", "install"):
        proc = run_inproc(command, "tiny-a", "--recipes-dir", str(tiny.recipes), "--bundle", str(bundle), "--json",
                          *(("--yes", "--no-verify") if command == "install" else ()))
        _clean(proc)
        error = last_json(proc)["error"]
        assert proc.returncode == 2 and f"requirements.txt, line {line} " in error and "is refused" in error
    assert tiny.history() == []


def test_a_bundle_onto_a_full_disk_names_the_bundle_and_leaves_nothing(tiny, tmp_path):
    """Sixth pass 6e: a full tmpfs at --out gave "uv could not resolve recipe" and left an empty folder."""
    with tmpfs_at(tmp_path / "disk", "size=1m", "a tmpfs needs root and mount(8), as on the CI machine") as disk:
        with open(disk / "fill", "wb") as fill, contextlib.suppress(OSError):
            while True:
                fill.write(b"\0" * 65536)
                fill.flush()
        out = disk / "mid" / "bun"
        proc = _bundle(tiny, out)
        _clean(proc)
        error = last_json(proc)["error"]
        assert proc.returncode == 1 and error.startswith(f"cannot write the bundle {out}: the disk is full there")
        assert "resolve" not in error and sorted(p.name for p in disk.iterdir()) == ["fill"]


def test_a_full_disk_while_gc_wizards_own_wheels_are_zipped_names_the_bundle(tiny, tmp_path, monkeypatch):
    """38th hostile pass (part A) P4: the zip's writes of gc-wizard's own wheels name no file, and the sentence for
    a full disk with no file named the state folder and /tmp ("point GC_WIZARD_HOME at another disk"), never --out."""
    out = tmp_path / "bun"
    real = zipfile.ZipFile.writestr

    def writestr(self, name, data, *args, **kwargs):
        if os.fspath(self.filename).startswith(str(out / "wizard")):  # gc-wizard's own wheels only
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))  # as a zip's write says it: no file
        return real(self, name, data, *args, **kwargs)

    monkeypatch.setattr(zipfile.ZipFile, "writestr", writestr)
    proc = _bundle(tiny, out)
    _clean(proc)
    error = last_json(proc)["error"]
    assert proc.returncode == 1 and error.startswith(f"cannot write the bundle {out}: the disk is full there"), error
    assert "GC_WIZARD_HOME" not in error and "temporary folder" not in error and not out.exists()


def test_a_bundle_whose_own_wheels_fill_its_disk_names_the_bundle(tiny, tmp_path):
    """38th hostile pass (part A) P4 on a real disk: a 3 MiB tmpfs holds the recipe's wheels, not gc-wizard's own,
    and the clean-up frees it again, so a sentence naming no place had no full disk left for its `df` to show."""
    with tmpfs_at(tmp_path / "disk", "size=3m", "a tmpfs needs root and mount(8), as on the CI machine") as disk:
        out = disk / "bun"
        proc = _bundle(tiny, out)
        _clean(proc)
        if proc.returncode == 0:
            pytest.skip("the bundle fit in 3 MiB here (gc-wizard's own wheels are smaller than on CI)")
        error = last_json(proc)["error"]
        assert proc.returncode == 1 and error.startswith(f"cannot write the bundle {out}: the disk is full"), error
        assert "GC_WIZARD_HOME" not in error and list(disk.iterdir()) == []


def test_a_full_disk_is_said_of_the_bundle_only_for_a_write_inside_it(tmp_path):
    out = tmp_path / "bun"
    full = errno.ENOSPC, os.strerror(errno.ENOSPC)
    assert no_room_inside(OSError(*full, str(out / "wizard" / "a.whl")), out) == "the disk is full"
    assert no_room_inside(OSError(*full, "/src/m.npz", None, str(out / "assets" / "m.part")), out) == "the disk is full"
    assert no_room_inside(OSError(*full, str(tmp_path / "state" / "assets" / "m.part")), out) is None
    assert no_room_inside(OSError(*full, str(tmp_path / "bundle")), out) is None  # a name that only starts alike
    assert no_room_inside(OSError(*full), out) is None  # no file: said by the places it can be
    assert no_room_inside(OperationFailed("No space left on device"), out) is None
    assert no_room_inside(NoRoom("cannot write the bundle …", "the disk is full"), out) == "the disk is full"


def test_inodes_used_up_mid_bundle_are_named_though_the_clean_up_frees_them(tiny, tmp_path, monkeypatch):
    """33rd hostile pass (part A) P7: the inodes ran out mid-bundle; the clean-up removed what was made, which freed
    them, and only then was the disk asked: "the disk is full … free some space" with 50 MB free."""
    out = tmp_path / "bun"

    def fill(*_args, **_kwargs):
        (out / bundle.WHEELS / "a.whl").write_bytes(b"")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(out / bundle.WHEELS / "b.whl"))

    monkeypatch.setattr(bundle, "_fill", fill)
    # the disk's inodes are used up while the bundle's files are there, and free again once they are removed
    monkeypatch.setattr(full_disk, "out_of_files", lambda _folder: (out / bundle.WHEELS).exists())
    proc = _bundle(tiny, out)
    _clean(proc)
    error = last_json(proc)["error"]
    assert proc.returncode == 1 and "(inodes) is used up" in error and "the disk is full" not in error, error
    assert not out.exists()


def test_a_full_disk_with_free_inodes_is_still_a_full_disk(tmp_path, monkeypatch):
    monkeypatch.setattr(full_disk, "out_of_files", lambda _folder: False)
    assert no_room(OSError(errno.ENOSPC, "x"), tmp_path) == "the disk is full"
    monkeypatch.setattr(full_disk, "out_of_files", lambda _folder: True)
    assert no_room(OSError(errno.ENOSPC, "x"), tmp_path) == NO_INODES
    assert no_room(OSError(errno.EDQUOT, "x"), tmp_path) == "your disk quota is used up"


def test_a_sentence_already_naming_a_full_disk_keeps_its_reason_when_wrapped():
    assert no_room(NoRoom("cannot write the lock /x/l.txt: the disk is full there. …", "the disk is full")) \
        == "the disk is full"


def _read_only(monkeypatch, folder):
    """`folder` reads as a read-only mount (os.statvfs's flag), as a `mount -o ro` would: no root needed."""
    real = os.statvfs

    class _View:
        def __init__(self, result):
            self._result = result

        def __getattr__(self, name):
            return getattr(self._result, name)

        @property
        def f_flag(self):
            return self._result.f_flag | os.ST_RDONLY

    monkeypatch.setattr(os, "statvfs", lambda path: _View(real(path)) if os.fspath(path) == str(folder)
                        else real(path))


@pytest.mark.parametrize("command", ["lock", "bundle"])
def test_an_out_on_a_read_only_mount_names_out_and_its_folder(tiny, tmp_path, monkeypatch, command):
    """L2 (fourth pass): `lock --out /ro/pylock.toml` said "cannot use /ro/pylock.partial431351.toml: it is on a
    read-only file system. To go on, point GC_WIZARD_HOME at a writable folder" — a temporary file the user never
    named, and the state folder's fix. Both `lock` and `bundle` (a new folder in it, or the folder itself) now
    refuse before any work with a sentence naming --out and its folder, and nothing is made."""
    mount = tmp_path / "ro"
    mount.mkdir()
    _read_only(monkeypatch, mount)
    outs = [mount / "pylock.tiny.toml", mount / "lock.txt"] if command == "lock" else [mount / "sub" / "bun", mount]
    for out in outs:
        proc = _lock(tiny, out) if command == "lock" else _bundle(tiny, out)
        _clean(proc)
        error = last_json(proc)["error"]
        assert proc.returncode == 2, error
        assert error == (f"--out {out}: the folder {mount} is on a read-only file system; choose an --out in a "
                         "folder you can write.")
        assert list(mount.iterdir()) == []


def test_a_file_system_error_outside_the_state_never_offers_gc_wizard_home(tmp_path, monkeypatch):
    """The error-to-sentence mapper's fixes: moving GC_WIZARD_HOME fixes only a path in the state folder; for any
    other path (an --out, a source) the fix names that path's own remedy."""
    from wizard.commands.guard import describe_os_error

    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "state"))
    for number in (errno.EROFS, errno.EACCES, errno.ENOSPC, errno.EEXIST, errno.EIO):
        outside = describe_os_error(OSError(number, os.strerror(number), str(tmp_path / "out" / "x.toml")))
        inside = describe_os_error(OSError(number, os.strerror(number), str(tmp_path / "state" / "logs")))
        assert "GC_WIZARD_HOME" not in outside and outside.startswith(f"cannot use {tmp_path / 'out' / 'x.toml'}: ")
        assert inside.startswith(f"cannot use the state folder {tmp_path / 'state'}: ")
    assert "point GC_WIZARD_HOME at a writable folder" in describe_os_error(
        OSError(errno.EROFS, "x", str(tmp_path / "state")))
