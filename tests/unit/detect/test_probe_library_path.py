"""detect's GPU probes never load a library from an `LD_LIBRARY_PATH` folder another user could fill (30th hostile
pass (part A) P8: a `libnvidia-ml.so.1` planted in a folder every user could write ran its constructor in the NVML
and libcuda child, and detect said nothing). The folder is left out of the probes' variable and named once."""

from __future__ import annotations

import os

from wizard import children
from wizard.detect.deadline import probe_env


def test_a_folder_every_user_can_write_is_left_out_of_the_probes_and_named(tmp_path, monkeypatch):
    shared = tmp_path / "everyone"
    shared.mkdir()
    shared.chmod(0o777)  # no sticky bit: anyone may put a libnvidia-ml.so.1 there
    own = tmp_path / "mine"
    own.mkdir()
    monkeypatch.setattr(children, "SKIPPED_PROGRAMS", [])
    env = probe_env({"LD_LIBRARY_PATH": f"{shared}{os.pathsep}{own}", "PATH": "/usr/bin:/bin"})
    assert env["LD_LIBRARY_PATH"] == str(own)
    assert len(children.SKIPPED_PROGRAMS) == 1 and str(shared) in children.SKIPPED_PROGRAMS[0]
    assert "GPU probes" in children.SKIPPED_PROGRAMS[0]


def test_trusted_folders_are_kept_as_they_are(tmp_path, monkeypatch):
    own = tmp_path / "mine"
    own.mkdir()
    monkeypatch.setattr(children, "SKIPPED_PROGRAMS", [])
    env = probe_env({"LD_LIBRARY_PATH": f"{own}{os.pathsep}/usr/lib", "PATH": "/usr/bin:/bin"})
    assert env["LD_LIBRARY_PATH"] == f"{own}{os.pathsep}/usr/lib" and children.SKIPPED_PROGRAMS == []


# 31st hostile pass (part B) P3: a library named by LD_PRELOAD or LD_AUDIT in a place another user could fill was
# passed on to every probe, while the same folder on LD_LIBRARY_PATH was left out: one rule for what the loader loads.

def test_a_preloaded_or_auditing_library_another_user_could_swap_is_left_out_of_the_probes(tmp_path, monkeypatch):
    shared = tmp_path / "everyone"
    shared.mkdir()
    shared.chmod(0o777)
    (shared / "libhack.so").write_bytes(b"")
    own = tmp_path / "mine"
    own.mkdir()
    (own / "libok.so").write_bytes(b"")
    monkeypatch.setattr(children, "SKIPPED_PROGRAMS", [])
    env = probe_env({"LD_PRELOAD": f"{shared}/libhack.so {own}/libok.so:libc.so.6",
                     "LD_AUDIT": f"{shared}/libhack.so", "PATH": "/usr/bin:/bin"})
    assert env["LD_PRELOAD"] == f"{own}/libok.so libc.so.6" and "LD_AUDIT" not in env
    said = " ".join(children.SKIPPED_PROGRAMS)
    assert f"LD_PRELOAD: {shared}/libhack.so left out" in said and f"LD_AUDIT: {shared}/libhack.so left out" in said
