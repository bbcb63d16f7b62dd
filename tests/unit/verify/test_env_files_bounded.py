"""Files the wizard only looks into — a conda record, a CUDA header, a toolkit's version.json, a checkout's
setup.py — are read bounded and only when they are regular files: one linked to /dev/zero grew `diagnose --env`
to 24 GB until the kernel killed it, and a FIFO hung it (seventeenth hostile pass P4). Each reader is run in a
thread with a deadline, so a regression fails here instead of hanging the suite."""

from __future__ import annotations

import os
import threading

import pytest

from wizard.detect import libpath
from wizard.install.sources import read_identity
from wizard.verify.inspect_env import jaxlib_build


def _fifo(path) -> None:
    os.mkfifo(path)


def _zero(path) -> None:
    os.symlink("/dev/zero", path)


def _huge(path) -> None:
    with open(path, "wb") as handle:  # sparse: no disk used
        handle.truncate(3 * 2**30)


def _within(seconds: float, call):
    box: list = []
    thread = threading.Thread(target=lambda: box.append(call()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "the reader did not return: it waited on the file or read it whole"
    return box[0]


@pytest.mark.parametrize("make", [_fifo, _zero, _huge], ids=["fifo", "dev-zero", "3-GB-sparse"])
def test_a_conda_record_that_is_no_file_is_passed_over(tmp_path, make):
    (tmp_path / "conda-meta").mkdir()
    make(tmp_path / "conda-meta" / "jaxlib-0.4.23-cuda120py311h1234_200.json")
    build = _within(10, lambda: jaxlib_build(tmp_path, [], {}))
    assert build == {"cuda": "12", "cudnn": None, "from": "conda jaxlib-0.4.23-cuda120py311h1234_200"}


@pytest.mark.parametrize("make", [_fifo, _zero, _huge], ids=["fifo", "dev-zero", "3-GB-sparse"])
def test_cuda_headers_and_version_files_that_are_no_files_are_passed_over(tmp_path, make):
    lib = tmp_path / "cuda" / "lib64"
    lib.mkdir(parents=True)
    (tmp_path / "cuda" / "include").mkdir()
    make(tmp_path / "cuda" / "include" / "cudnn_version.h")
    make(tmp_path / "cuda" / "version.json")
    make(tmp_path / "cuda" / "version.txt")
    assert _within(10, lambda: libpath.cudnn_header_version(lib)) is None
    assert _within(10, lambda: libpath.toolkit_version_json(lib)) == {}
    assert _within(10, lambda: libpath.toolkit_version(tmp_path / "cuda")) is None


@pytest.mark.parametrize("make", [_fifo, _zero, _huge], ids=["fifo", "dev-zero", "3-GB-sparse"])
def test_a_checkouts_setup_py_that_is_no_file_names_nothing(tmp_path, make):
    checkout = tmp_path / "graphcast"
    checkout.mkdir()
    make(checkout / "setup.py")
    identity = _within(10, lambda: read_identity(str(checkout)))
    assert identity.version is None
