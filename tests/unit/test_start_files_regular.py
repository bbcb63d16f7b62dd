"""The files a python reads at every start (each `.pth` in its site-packages, a build tree's `pybuilddir.txt`) are
read by the swap rule as regular files only (36th hostile pass (part A) P5: a FIFO `zz.pth` hung activate, kernel
install, verify, and plan and install with `--python`, in `open()`, before anything ran). A FIFO is named, and the
python is not run: it would wait on that file at its own start."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from wizard import source_trust
from wizard.recipes import pythons
from wizard.source_trust import StartFileNotRegular


def _bounded_call(fifo: Path, call):
    """`call()`'s outcome (what it returned or raised); a call still blocked on `fifo` after a generous wait is let
    go by opening the FIFO's other end, and counts as a failure, so the test never hangs and leaves no thread."""
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(60)
    if worker.is_alive():
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # the blocked open() gets its writer, then an end
        worker.join(60)
        pytest.fail(f"the check waited on the FIFO {fifo}")
    return outcome[0]


def test_a_fifo_pth_in_a_site_packages_is_named_not_opened(tmp_path):
    site = tmp_path / "site-packages"
    site.mkdir()
    fifo = site / "zz.pth"
    os.mkfifo(fifo)
    outcome = _bounded_call(fifo, lambda: source_trust.site_folder_risk(site))
    assert isinstance(outcome, StartFileNotRegular), outcome
    assert f"{fifo} is a named pipe (FIFO), not a regular file" in str(outcome)
    assert "nothing was run" in str(outcome)


def test_an_environments_python_with_such_a_pth_is_refused_by_name(tmp_path):
    venv = tmp_path / "v"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    fifo = next((venv / "lib").glob("python3*/site-packages")) / "zz.pth"
    os.mkfifo(fifo)
    named = f"the environment {venv}"
    outcome = _bounded_call(fifo, lambda: source_trust.refuse_swappable_python(
        named, venv / "bin" / "python", "the environment's python"))
    assert isinstance(outcome, StartFileNotRegular), outcome
    assert str(outcome).startswith(f"{named}: {fifo} is a named pipe (FIFO)")
    # an interpreter found on PATH with it is skipped, never run (it would wait on the FIFO at start)
    risk = _bounded_call(fifo, lambda: pythons._swap_risk(str(venv / "bin" / "python")))
    assert risk is not None and risk[0] == fifo and "named pipe" in risk[1]


def test_a_fifo_pybuilddir_txt_is_named_not_opened(tmp_path):
    fifo = tmp_path / "pybuilddir.txt"
    os.mkfifo(fifo)
    outcome = _bounded_call(fifo, lambda: source_trust._build_tree_library(tmp_path))
    assert isinstance(outcome, StartFileNotRegular), outcome
    assert f"{fifo} is a named pipe (FIFO)" in str(outcome)


def test_a_regular_pth_is_still_read(tmp_path):
    site = tmp_path / "site-packages"
    (site / "pkg").mkdir(parents=True)
    (site / "a.pth").write_text("# a comment\npkg\n")
    assert source_trust.site_folder_risk(site) is None
