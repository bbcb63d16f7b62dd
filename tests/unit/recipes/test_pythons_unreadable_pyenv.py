"""A PYENV_ROOT the user cannot read (another user's, reached through `su`) holds no Pythons for them; it does not stop
`recipes` or the plain walk-through (eighteenth hostile pass P16: "you do not have permission to write there")."""

from __future__ import annotations

import errno
import os

from wizard.recipes import pythons


def test_an_unreadable_pyenv_versions_folder_is_passed_over(tmp_path, monkeypatch):
    versions = tmp_path / "rootpyenv" / "versions"
    (versions / "3.11.7" / "bin").mkdir(parents=True)
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path / "rootpyenv"))
    real_listdir = os.listdir

    def listdir(path="."):  # the kernel's answer to a user without read permission on a 0700 folder (root has it)
        if os.fspath(path) == str(versions):
            raise PermissionError(errno.EACCES, "Permission denied", str(versions))
        return real_listdir(path)

    monkeypatch.setattr(os, "listdir", listdir)
    found = pythons._candidates(None)
    assert all(not path.startswith(str(versions)) for path, _ in found)
