"""The one whole-file writer (`security.write_beside`): both `write_private_file` and the state's caches
(`paths.write_state_cache`) go through it, each with its own options (durable or not, into a device or not)."""

from __future__ import annotations

import os
import stat

import pytest

from wizard import paths, security


def _planted(folder, name, victim):
    """Links at every temporary name the writer could try first, to `victim`."""
    for partial in (f".{name}.{os.getpid()}", f".{name}.{os.getpid()}.0.tmp"):
        (folder / partial).symlink_to(victim)


@pytest.mark.parametrize("durable", [True, False])
def test_the_core_replaces_a_link_and_never_follows_one_at_its_temporary_name(tmp_path, monkeypatch, durable):
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    victim = tmp_path / "victim"
    victim.write_text("kept\n")
    target = tmp_path / "out" / "file.json"
    target.parent.mkdir()
    _planted(target.parent, target.name, victim)
    target.symlink_to(victim)

    assert security.write_beside(target, "new\n", mode=0o644, durable=durable) == target

    assert victim.read_text() == "kept\n"
    assert target.read_text() == "new\n" and not target.is_symlink()
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert bool(synced) is durable  # the file and its folder synced only when asked
    assert sorted(p.name for p in target.parent.iterdir() if not p.is_symlink()) == ["file.json"]


def test_a_fifo_is_replaced_unless_the_caller_writes_into_devices(tmp_path):
    target = tmp_path / "pipe"
    os.mkfifo(target)
    security.write_beside(target, "x\n", durable=False)
    assert target.is_file() and target.read_text() == "x\n"


def test_both_callers_write_through_the_one_core(tmp_path, monkeypatch):
    calls: list[tuple[str, dict]] = []
    real = security.write_beside

    def spy(path, text, **options):
        calls.append((os.fspath(path), options))
        return real(path, text, **options)

    monkeypatch.setattr(security, "write_beside", spy)
    monkeypatch.setattr(paths, "write_beside", spy)
    security.write_private_file(tmp_path / "private", "a\n")
    paths.write_state_cache(tmp_path / "cache.json", "{}")
    assert [(os.path.basename(p), o.get("durable"), o.get("into_devices", False)) for p, o in calls] == [
        ("private", True, True), ("cache.json", False, False)]
    assert stat.S_IMODE((tmp_path / "cache.json").stat().st_mode) == 0o600
