"""`paths._proc_devices` (what `process_relative` judges each folder by) reads /proc/self/mounts once a process, and a
mount table put in `_mount_table`'s place gets its own answer.

Why (review leftover): every `process_relative` — each interpreter a search probes — read and parsed the mount table
again."""

from __future__ import annotations

import builtins
import os

from wizard import paths


def test_the_mount_table_is_read_once_a_process(monkeypatch):
    monkeypatch.setattr(paths, "_PROC_DEVICES", {}, raising=False)  # as a fresh process: no answer yet
    opened: list[str] = []
    real_open = builtins.open

    def counting_open(file, *args, **kwargs):
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting_open)
    first = paths._proc_devices()
    again = paths._proc_devices()
    paths.process_relative("/proc/self/exe")
    monkeypatch.undo()
    assert opened.count("/proc/self/mounts") == 1, opened
    assert first == again and os.stat("/proc").st_dev in first


def test_another_mount_table_gets_its_own_answer(monkeypatch, tmp_path):
    paths._proc_devices()  # the real answer, kept
    monkeypatch.setattr(paths, "_mount_table", lambda: [(str(tmp_path), "proc")])
    assert paths._proc_devices() == {os.stat(tmp_path).st_dev}
    monkeypatch.setattr(paths, "_mount_table", lambda: [])  # no proc mounted at all: nothing leads into one
    assert paths._proc_devices() == frozenset() and paths.process_relative("/proc/self/exe") is None
    monkeypatch.undo()
    assert os.stat("/proc").st_dev in paths._proc_devices()
