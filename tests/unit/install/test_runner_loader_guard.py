"""An `LD_LIBRARY_PATH` folder (or an LD_PRELOAD/LD_AUDIT library) another user could swap is left out of every
installer step's environment (`runner.build_env`) and of every helper child (`children.run_capture`: uv's compile,
freeze, download), and named in the step's log, not only of detect's GPU probes: uv needs librt.so.1 and ld.so took
another user's from that folder as root in install, lock, rollback and bundle (34th hostile pass (part B) P4)."""

import os
import sys

from wizard import children
from wizard.install.runner import build_env


def _open_folder(tmp_path):
    folder = tmp_path / "everyone"
    folder.mkdir()
    os.chmod(folder, 0o777)  # every user can write it, no sticky bit
    return str(folder)


def test_build_env_leaves_a_swappable_library_folder_out_and_names_it(tmp_path, monkeypatch):
    monkeypatch.setattr(children, "SKIPPED_PROGRAMS", [])
    mine = tmp_path / "mine"
    mine.mkdir()
    theirs = _open_folder(tmp_path)
    notes: list[str] = []
    env = build_env({"LD_PRELOAD": f"{theirs}/libx.so"},
                    {"PATH": "/usr/bin", "LD_LIBRARY_PATH": f"{theirs}:{mine}"}, notes)
    assert env["LD_LIBRARY_PATH"] == str(mine) and "LD_PRELOAD" not in env
    said = [n for n in notes if n.startswith(("LD_LIBRARY_PATH: ", "LD_PRELOAD: "))]
    assert len(said) == 2 and all(theirs in n and "installer steps" in n for n in said)
    assert said[0] in children.SKIPPED_PROGRAMS


def test_helper_children_do_not_get_the_folder_either(tmp_path, monkeypatch):
    monkeypatch.setattr(children, "SKIPPED_PROGRAMS", [])
    theirs = _open_folder(tmp_path)
    show = [sys.executable, "-c", "import os; print(os.environ.get('LD_LIBRARY_PATH', '-'))"]
    monkeypatch.setenv("LD_LIBRARY_PATH", theirs)
    assert children.run_capture(show, timeout=30).stdout.strip() == "-"
    given = {"PATH": os.defpath, "LD_LIBRARY_PATH": theirs}
    assert children.run_capture(show, timeout=30, env=given).stdout.strip() == "-"
    assert any(theirs in note for note in children.SKIPPED_PROGRAMS)
