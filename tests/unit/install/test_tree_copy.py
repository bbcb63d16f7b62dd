"""The copy of a GraphCast checkout every build reads (`tree_copy`): folders, regular files and links only, bounded,
and each failure named where it is (31st hostile pass (part A) P1: `shutil.copytree` gave a raw list of triples and
the state folder's fix for a named pipe, and read a device node until TMPDIR was full)."""

from __future__ import annotations

import errno
import os
import stat

import pytest

from wizard.errors import OperationFailed, UserError
from wizard.install import tree_copy
from wizard.install.tree_copy import CopyFailed, copy_problem, copy_tree


def _checkout(root):
    (root / "graphcast").mkdir(parents=True)
    (root / "setup.py").write_text("from setuptools import setup\n")
    (root / "graphcast" / "model.py").write_text("X = 1\n")
    (root / "run.sh").write_text("#!/bin/sh\n")
    (root / "run.sh").chmod(0o755)
    (root / "graphcast" / "alias.py").symlink_to("model.py")
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / "build" / "lib").mkdir(parents=True)
    return root


def _said(exc) -> str:
    text = str(exc.value)
    assert "[('" not in text and "GC_WIZARD_HOME" not in text, text
    return text


def test_folders_files_and_links_are_copied_as_they_are_without_history_or_build_output(tmp_path):
    source = _checkout(tmp_path / "co")
    copy = tmp_path / "tmp" / "copy"
    copy_tree(source, copy)
    assert sorted(str(p.relative_to(copy)) for p in copy.rglob("*")) == [
        "graphcast", "graphcast/alias.py", "graphcast/model.py", "run.sh", "setup.py"]
    assert os.readlink(copy / "graphcast" / "alias.py") == "model.py"  # a link stays a link
    assert (copy / "graphcast" / "model.py").read_text() == "X = 1\n"
    assert stat.S_IMODE((copy / "run.sh").stat().st_mode) == 0o755


def test_a_named_pipe_is_refused_by_its_path_before_anything_is_copied(tmp_path):
    source = _checkout(tmp_path / "co")
    os.mkfifo(source / "graphcast" / "pipe_in.py")
    copy = tmp_path / "tmp" / "copy"
    with pytest.raises(UserError) as exc:
        copy_tree(source, copy)
    text = _said(exc)
    assert f"{source / 'graphcast' / 'pipe_in.py'} (a named pipe)" in text, text
    assert not copy.exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="a device node needs root (mknod)")
def test_a_device_node_is_refused_never_read(tmp_path):
    source = _checkout(tmp_path / "co")
    os.mknod(source / "graphcast" / "zero_in.py", stat.S_IFCHR | 0o644, os.makedev(1, 5))  # /dev/zero
    with pytest.raises(UserError) as exc:
        copy_tree(source, tmp_path / "tmp" / "copy")
    assert "zero_in.py (a character device)" in _said(exc)


def test_a_special_file_swapped_in_after_the_look_is_refused_not_read(tmp_path, monkeypatch):
    """The look and the copy are apart: a file that became a pipe in between is opened without blocking and
    refused by what it is now."""
    source = _checkout(tmp_path / "co")
    pipe = source / "graphcast" / "late.py"
    os.mkfifo(pipe)
    real = tree_copy._entries
    as_file = os.stat(source / "setup.py")

    def looked_before(root):
        return [(path, as_file if path.endswith("late.py") else info) for path, info in real(root)]

    monkeypatch.setattr(tree_copy, "_entries", looked_before)
    with pytest.raises(UserError) as exc:
        copy_tree(source, tmp_path / "tmp" / "copy")
    assert f"{pipe} (a named pipe)" in _said(exc)


def test_a_checkout_past_the_bound_is_refused_naming_its_largest_file(tmp_path, monkeypatch):
    source = _checkout(tmp_path / "co")
    with open(source / "big.bin", "wb") as handle:
        handle.truncate(64 << 20)  # sparse: its size, not its blocks, is what a copy writes
    monkeypatch.setattr(tree_copy, "MAX_COPY_BYTES", 32 << 20)
    with pytest.raises(UserError) as exc:
        copy_tree(source, tmp_path / "tmp" / "copy")
    assert f"the largest {source / 'big.bin'}" in _said(exc)
    assert not (tmp_path / "tmp" / "copy").exists()


def test_too_little_room_in_tmpdir_is_said_of_tmpdir(tmp_path, monkeypatch):
    source = _checkout(tmp_path / "co")
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tree_copy.tempfile, "tempdir", None)
    monkeypatch.setattr(tree_copy, "_free_room", lambda folder: 1000)
    problem = copy_problem(source, room_in=str(tmp_path / "tmp"))
    assert problem.startswith(f"the temporary folder (TMPDIR) {tmp_path / 'tmp'} has 0 MB free"), problem
    assert "point TMPDIR at a folder on a disk with room" in problem


def test_a_disk_that_fills_during_the_copy_is_named_as_tmpdir(tmp_path, monkeypatch):
    source = _checkout(tmp_path / "co")
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tree_copy.tempfile, "tempdir", str(tmp_path / "tmp"))  # as `mkdtemp` found it

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(tree_copy.os, "write", full)
    with pytest.raises(CopyFailed) as exc:
        copy_tree(source, tmp_path / "tmp" / "copy")
    text = _said(exc)
    assert text.startswith(f"the temporary folder (TMPDIR) {tmp_path / 'tmp'} filled up while the GraphCast "
                           "checkout was copied there"), text
    # not the phrase a bundle takes for a full --out (`no_space.no_room`)
    assert os.strerror(errno.ENOSPC) not in text and isinstance(exc.value, OperationFailed)


def test_a_file_the_checkout_cannot_give_is_named_in_the_checkout(tmp_path, monkeypatch):
    source = _checkout(tmp_path / "co")
    real = os.open

    def denied(path, flags, *args):
        if str(path).endswith("model.py") and not flags & os.O_WRONLY:
            raise OSError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real(path, flags, *args)

    monkeypatch.setattr(tree_copy.os, "open", denied)
    with pytest.raises(CopyFailed) as exc:
        copy_tree(source, tmp_path / "tmp" / "copy")
    assert _said(exc).startswith(f"cannot read {source / 'graphcast' / 'model.py'} in the GraphCast checkout")


@pytest.mark.parametrize("target", ["ABS", "../../secret", "./../model.py/../../../secret", "../escape/secret"])
def test_a_link_leading_out_of_the_checkout_is_refused_never_built_in(tmp_path, target):
    """35th hostile pass (part B) P5: `graphcast/leak.py -> /etc/shadow` was copied as a link, the build followed it,
    and the environment held the root-only file as a 0644 file every user could read; the plan only cautioned
    "what it points at is built in". A link leading out of the checkout (absolute, climbing above its top, or
    through another link) is refused by the look every build and the plan share, before anything is copied."""
    secret = tmp_path / "secret"
    secret.write_text("TOPSECRET\n")
    secret.chmod(0o600)
    source = _checkout(tmp_path / "co")
    (source / "escape").symlink_to(tmp_path)  # a folder link out: what is reached through it is out too
    (source / "graphcast" / "leak.py").symlink_to(str(secret) if target == "ABS" else target)
    problem = copy_problem(source, outcome="so `install` refuses it (exit 2)")
    assert problem is not None and "graphcast/leak.py -> " in problem and "so `install` refuses it" in problem
    copy = tmp_path / "tmp" / "copy"
    with pytest.raises(UserError) as exc:
        copy_tree(source, copy)
    assert "leading out of it" in _said(exc) and "graphcast/leak.py" in str(exc.value)
    assert not copy.exists()


def test_a_link_changed_to_lead_out_after_the_look_is_refused(tmp_path, monkeypatch):
    secret = tmp_path / "secret"
    secret.write_text("TOPSECRET\n")
    source = _checkout(tmp_path / "co")
    real = tree_copy._problem
    monkeypatch.setattr(tree_copy, "_problem", lambda *a, **k: None if len(a) > 2 and a[2] is not None else real(*a, **k))
    (source / "graphcast" / "alias.py").unlink()
    (source / "graphcast" / "alias.py").symlink_to(secret)
    with pytest.raises(UserError, match="leading out of it"):
        copy_tree(source, tmp_path / "tmp" / "copy")
    assert not (tmp_path / "tmp" / "copy" / "graphcast" / "alias.py").exists()
