"""A write error said of the file being written (`security.writing`, `security.said_of`): writes through an open
file, a zip's blocks or a copy's `sendfile` name no file, or their source (38th hostile pass (part A) P4: a full disk
while a bundle's wheels were zipped was said of the state folder and /tmp, never of the --out being filled)."""

from __future__ import annotations

import errno
import os
import zipfile

import pytest

from wizard.security import said_of, writing


def test_a_write_error_without_a_file_is_said_of_the_file_being_written(tmp_path):
    target = tmp_path / "b" / "wizard" / "w.whl"
    with pytest.raises(OSError) as raised, writing(target):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert raised.value.errno == errno.ENOSPC and raised.value.filename == str(target)
    assert raised.value.__cause__ is None and raised.value.__suppress_context__


def test_a_full_disk_in_a_copy_is_said_of_the_destination_not_the_source(tmp_path):
    copied = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "/src/model.npz", None, str(tmp_path / "x.part"))
    assert said_of(copied, tmp_path / "x.part").filename == str(tmp_path / "x.part")
    quota = OSError(errno.EDQUOT, os.strerror(errno.EDQUOT), "/src/model.npz")
    assert said_of(quota, tmp_path / "x.part").filename == str(tmp_path / "x.part")


def test_an_error_naming_its_own_file_is_kept_as_it_is(tmp_path):
    denied = PermissionError(errno.EACCES, os.strerror(errno.EACCES), "/src/model.npz")
    assert said_of(denied, tmp_path / "x") is denied
    full_here = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(tmp_path / "x"))
    assert said_of(full_here, tmp_path / "x") is full_here
    with pytest.raises(PermissionError) as raised, writing(tmp_path / "x"):
        raise denied
    assert raised.value is denied


def test_other_errors_and_success_pass_through(tmp_path):
    with pytest.raises(ValueError), writing(tmp_path / "x"):
        raise ValueError("not an OSError")
    path = tmp_path / "a.zip"
    with zipfile.ZipFile(path, "w") as archive, writing(path):
        archive.writestr("a.txt", b"a")
    assert zipfile.ZipFile(path).namelist() == ["a.txt"]
