"""`children.which` finds a program as `shutil.which` does on Linux (detection uses it to stay off `shutil`)."""

from __future__ import annotations

import os
import shutil

from wizard.children import which


def test_it_agrees_with_shutil_on_executables_plain_files_folders_and_an_empty_path_entry(tmp_path, monkeypatch):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    (first / "tool").write_text("not executable")  # a plain file is passed over
    (first / "nvidia-smi").mkdir()  # so is a folder of the name
    for folder in (second,):
        for name in ("tool", "nvidia-smi"):
            (folder / name).write_text("#!/bin/sh\n")
            (folder / name).chmod(0o755)
    path = os.pathsep.join(["", str(first), str(second)])
    monkeypatch.chdir(tmp_path)
    (tmp_path / "here").write_text("#!/bin/sh\n")
    (tmp_path / "here").chmod(0o755)
    assert which("here", path) == shutil.which("here", path=path) == "here"  # the empty entry: this folder
    for name in ("tool", "nvidia-smi", "absent", "python3"):
        assert which(name, path) == shutil.which(name, path=path), name
    assert which("tool", path) == str(second / "tool")
    assert which("tool", "") == shutil.which("tool", path="")
