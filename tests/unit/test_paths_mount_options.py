"""`paths.mount_options` reads a mount's options from /proc/self/mountinfo, and `env_mount_block` names every option
of `BREAKING_MOUNT_OPTIONS` (34th hostile pass (part A) P4: nosymfollow was not looked at)."""

from __future__ import annotations

from wizard import paths


def test_the_root_mount_has_options():
    assert "rw" in paths.mount_options("/") or "ro" in paths.mount_options("/")


def test_nosymfollow_is_named(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "mount_of", lambda path: (str(tmp_path), "tmpfs"))
    monkeypatch.setattr(paths, "mount_options", lambda point: ["rw", "nosymfollow"])
    words, breaks, works = paths.env_mount_block(tmp_path / "env")
    assert words == f"{tmp_path / 'env'} is on a file system mounted nosymfollow ({tmp_path})"
    assert breaks == paths.BREAKING_MOUNT_OPTIONS["nosymfollow"]
    # its own way out (fixers' leftover after the 34th hostile pass: it reused noexec's "allows programs")
    assert works == "a file system that follows symbolic links (one not mounted nosymfollow)"
    monkeypatch.setattr(paths, "mount_options", lambda point: ["rw", "relatime"])
    assert paths.env_mount_block(tmp_path / "env") is None
