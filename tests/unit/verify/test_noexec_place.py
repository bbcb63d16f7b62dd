"""`noexec_mount`'s fix names the mount a failing library really lies on when that is not the temporary folder's.

31st hostile pass (part A) P2: jaxlib's library failed to load from an environment on a noexec tmpfs, and the fix
led with "Point the temporary folder (TMPDIR) at a filesystem that allows programs", though TMPDIR was fine."""

from __future__ import annotations

from tests.fixtures.noexec import noexec_under
from wizard.verify.diagnose import diagnose_text


def _log(library) -> str:
    return (f"Traceback (most recent call last):\nImportError: {library}: failed to map segment from shared object\n")


def _library(folder):
    library = folder / "env" / "lib" / "python3.11" / "site-packages" / "jaxlib" / "cpu_feature_guard.so"
    library.parent.mkdir(parents=True)
    library.write_bytes(b"\x7fELF")
    return library


def test_a_library_on_a_noexec_mount_that_is_not_tmpdirs_names_that_mount(tmp_path, monkeypatch):
    mount = tmp_path / "nx"
    library = _library(mount)
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    noexec_under(monkeypatch, mount)
    finding = next(f for f in diagnose_text(_log(library)) if f.id == "noexec_mount")
    assert finding.fix.startswith(f"The library {library} lies on {mount}, which is mounted noexec"), finding.fix
    assert "the temporary folder (TMPDIR) has no part in it" in finding.fix
    assert "--env ~/envs/gc" in finding.fix and "{recipe}" not in finding.fix


def test_a_library_in_a_noexec_tmpdir_or_not_on_this_machine_keeps_the_tmpdir_fix(tmp_path, monkeypatch):
    mount = tmp_path / "tmp"
    library = _library(mount)
    monkeypatch.setenv("TMPDIR", str(mount))
    monkeypatch.setattr("tempfile.tempdir", str(mount))
    noexec_under(monkeypatch, mount)
    finding = next(f for f in diagnose_text(_log(library)) if f.id == "noexec_mount")
    assert finding.fix.startswith("Point the temporary folder at a filesystem that allows programs"), finding.fix
    pasted = next(f for f in diagnose_text(_log("/elsewhere/lib/x.so")) if f.id == "noexec_mount")
    assert pasted.fix.startswith("Point the temporary folder"), pasted.fix
