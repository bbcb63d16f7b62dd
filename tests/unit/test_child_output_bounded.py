"""Every helper's output is read by one bounded reader (`children.Collector`, through `communicate_bounded`): a child
that prints without end is stopped once it passes `children.OUTPUT_BYTES`, and said in one sentence naming it and the
limit; what is kept of each stream is its head and its tail.

30th hostile pass (part A) P1: `communicate_bounded` looped on `Popen.communicate`, which kept every byte until the
child's deadline, so an nvidia-smi or a `python3.X` wrapper printing without end grew `detect`, `recipes` and `plan`
to 1.2-1.7 GB. Real children (`yes`), no timing: without the bound each of these runs to its 60 s deadline and fails.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
from pathlib import Path

import pytest

import wizard
from wizard import children
from wizard.detect import deadline, smi
from wizard.errors import UserError
from wizard.recipes.pythons import probe_python

PACKAGE = Path(wizard.__file__).parent
YES = shutil.which("yes") or "/usr/bin/yes"
LINE = "x" * 100


def test_run_capture_stops_a_child_that_prints_without_end_and_names_it_and_the_limit():
    with pytest.raises(children.OutputLimitError) as caught:
        children.run_capture([YES, LINE], timeout=60)
    said = str(caught.value)
    assert said.startswith(f"{YES} printed more than 16 MiB of output") and "stopped" in said


def test_what_is_kept_of_a_stream_is_its_head_and_its_tail():
    proc = subprocess.Popen(["sh", "-c", f"echo first; exec {YES} {LINE} >&2"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    out, err, timed_out, too_much = children.communicate_bounded(proc, 60, limit=8 * 1024 * 1024)
    assert out == "first\n" and not timed_out
    assert too_much == children.output_limit_sentence("sh", 8 * 1024 * 1024)
    assert len(err) <= children.KEPT_HEAD + children.KEPT_TAIL + 100
    assert err.startswith(LINE + "\n") and "bytes left out ...]" in err and err.rstrip("x\n").endswith("]")


def test_kept_keeps_everything_below_its_bounds_and_says_what_it_left_out():
    kept = children.Kept(head=4, tail=6)
    for piece in (b"ab", b"cdef", b"ghij", b"klmnop"):
        kept.add(piece)
    assert kept.total == 16 and kept.data() == b"abcd\n[... 6 bytes left out ...]\nklmnop"
    small = children.Kept(head=4, tail=6)
    small.add(b"abcdefgh")
    assert small.text() == "abcdefgh"


def test_a_detection_probe_that_prints_without_end_is_stopped_and_said(tmp_path):
    done = deadline.run([YES, LINE], timeout=60)
    assert done.too_much and done.too_much.startswith(f"{YES} printed more than 16 MiB")
    assert not done.ok and not done.timed_out and done.output.splitlines()[-1] == done.too_much
    reading = smi._failure(done, YES)
    assert reading.status == "failed" and reading.detail == done.too_much


def test_a_probe_within_its_grace_that_prints_without_end_is_finished_not_left_running():
    running = deadline.start([YES, LINE], timeout=60)
    done = running.finish_within(30)
    assert done is not None and done.too_much


def test_a_given_python_that_prints_without_end_is_refused_with_the_sentence(tmp_path):
    wrapper = tmp_path / "python3.11"
    wrapper.write_text(f"#!/bin/sh\nexec {YES} {LINE} >&2\n")
    wrapper.chmod(0o755)
    with pytest.raises(UserError) as caught:
        probe_python(str(wrapper), "given", timeout=60)
    assert f"--python {wrapper}: {wrapper} printed more than 16 MiB of output" in str(caught.value)
    assert probe_python(str(wrapper), "path", timeout=60) is None


def test_an_install_steps_helper_is_bounded_too_and_raw_bytes_stay_bytes():
    """uv's freeze, compile and download, the kernel's probe and `uv cache dir` read through `run_capture` as well
    (`stoppable=False`: they stay in the wizard's process group and run while it stops, as before)."""
    with pytest.raises(children.OutputLimitError):
        children.run_capture([YES, LINE], timeout=60, stoppable=False)
    done = children.run_capture(["printf", "/tmp/x\\377\\n"], timeout=60, stoppable=False, raw=True)
    assert done.stdout == b"/tmp/x\xff\n"


def _captures_outside_the_reader() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and any(k.arg == "capture_output" for k in node.keywords):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    return found


def test_no_child_output_is_captured_outside_the_one_bounded_reader():
    assert _captures_outside_the_reader() == []
