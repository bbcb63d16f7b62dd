"""The bounded readers say the wizard's own sentence for a file built to hurt, whatever the YAML library's
version says first (PyYAML 6.0.4 stops deep flow nesting in its scanner with its own words)."""

import os
import time

import pytest

from wizard import bounded
from wizard.bounded import ParseLimitError, check_yaml, flow_depth


@pytest.mark.parametrize("text", [
    "schema: 1\nnotes: " + "[" * 5000 + "]" * 5000 + "\n",
    "schema: 1\nnotes: " + "{a: " * 500 + "1" + "}" * 500 + "\n",
    "schema: 1\nnotes: " + "[" * 25 + "]" * 25 + "\n",
], ids=["flow-5000", "mapping-500", "flow-25"])
def test_deep_flow_nesting_is_the_wizards_sentence_with_the_line(text):
    with pytest.raises(ParseLimitError) as caught:
        check_yaml(text)
    assert str(caught.value) == "line 2 is nested more than 20 levels deep; no valid file is"


def test_deep_block_nesting_is_refused_too():
    text = "".join("  " * i + f"k{i}:\n" for i in range(30)) + "  " * 30 + "v\n"
    with pytest.raises(ParseLimitError, match="nested more than 20 levels"):
        check_yaml(text)


def test_a_syntax_error_with_brackets_in_quotes_stays_a_syntax_error():
    import yaml

    with pytest.raises(yaml.YAMLError):
        check_yaml('a: "' + "[" * 40 + '"\nb: [\n')


def test_flow_depth_skips_quotes_and_comments():
    assert flow_depth("a: '[[[['  # [[[[\nb: [[1]]\n", 10_000) == (2, 2)


def test_read_bytes_refuses_a_grown_file_a_fifo_and_a_device_before_reading(tmp_path):
    """`bounded.read_bytes` (git's index, pack indexes, loose objects; eleventh hostile pass #110): a file past the
    limit is refused by its size, never read whole nor cut; a FIFO or a device is never opened."""
    import os

    from wizard import bounded

    small = tmp_path / "small"
    small.write_bytes(b"DIRC" + b"\0" * 60)
    assert bounded.read_bytes(small, 64) == small.read_bytes()
    sparse = tmp_path / "sparse"
    with open(sparse, "wb") as handle:
        handle.truncate(5 * 2**30)
    with pytest.raises(bounded.ParseLimitError, match="5120 MiB, more than the 64 MiB"):
        bounded.read_bytes(sparse, 64 * 2**20)
    with pytest.raises(bounded.ParseLimitError, match="more than the 1 KiB"):
        bounded.read_bytes(sparse, 1024)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path, kind in ((fifo, "named pipe"), ("/dev/zero", "character device")):
        with pytest.raises(bounded.ParseLimitError, match=kind):
            bounded.read_bytes(path, 1024)


def test_a_stream_named_on_the_command_line_is_read_and_one_nobody_writes_is_given_up(tmp_path, monkeypatch):
    """Fifteenth hostile pass P5: `install --yes --answers FIFO` opened the named pipe with a plain `open`, which
    blocks until a writer comes — for ever, unattended. Streams are read without blocking, under a deadline."""
    import threading

    monkeypatch.setattr(bounded, "STREAM_SECONDS", 0.6)
    fifo = tmp_path / "answers.fifo"
    os.mkfifo(fifo)
    with pytest.raises(bounded.ParseLimitError, match=r"^it is a named pipe \(FIFO\) and nothing was written to it "
                                                      r"within 1 s$"):
        bounded.read_text(fifo, 1000, streams_ok=True)

    def write_late():  # the writer opens the pipe a moment after the reader (`cat f > fifo &`)
        time.sleep(0.2)
        with open(fifo, "w") as out:
            out.write('{"recipe": "tiny-a"}\n')

    writer = threading.Thread(target=write_late)
    writer.start()
    assert bounded.read_text(fifo, 1000, streams_ok=True) == '{"recipe": "tiny-a"}\n'
    writer.join()
    read_end, write_end = os.pipe()  # what `<(cat f)` names as /dev/fd/N
    os.write(write_end, b"x" * 5000)
    os.close(write_end)
    with pytest.raises(bounded.ParseLimitError, match="larger than"):
        bounded.read_text(f"/proc/self/fd/{read_end}", 1000, streams_ok=True)
    os.close(read_end)
    with pytest.raises(bounded.ParseLimitError, match="named pipe"):
        bounded.read_text(fifo, 1000)  # a file the wizard reads by itself is never a stream


def test_an_end_only_a_named_pipe_may_outwait_is_answered_at_once(tmp_path, monkeypatch):
    """31st hostile pass (part A) P8: `--answers /dev/null` (or /dev/stdin closed) waited out 15 s, then said "nothing
    was written to it". Only a named pipe can get its writer later; /dev/null, a pipe whose writer closed it and
    `<(true)` have ended, so their empty text comes back without a wait (the caller says "is empty")."""
    def waited(_seconds):
        raise AssertionError("an ended stream was waited out")

    monkeypatch.setattr(bounded.time, "sleep", waited)
    assert bounded.read_text("/dev/null", 1000, streams_ok=True) == ""
    read_end, write_end = os.pipe()  # `true | gc-wizard … --answers /dev/stdin`, or `<(true)`
    os.close(write_end)
    try:
        assert bounded.read_text(f"/proc/self/fd/{read_end}", 1000, streams_ok=True) == ""
        assert not bounded._named_pipe(read_end)
    finally:
        os.close(read_end)
    fifo = tmp_path / "answers.fifo"
    os.mkfifo(fifo)
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        assert bounded._named_pipe(fd)  # its writer may still come: waited for, as before
    finally:
        os.close(fd)


def test_a_number_longer_than_python_reads_is_the_files_fault_not_a_bug(tmp_path):
    """Sixteenth hostile pass P5: an integer of more than 4300 digits (Python's limit) in a recipe or an answers file
    ended as "gc-wizard stopped on an error of its own … this is a bug", exit 1. Each reader names the file."""
    from wizard.yaml_data import YAMLError, load_data

    digits = "9" * 5000
    with pytest.raises(ParseLimitError, match=r"a number far longer than any setting \(more than 4300 digits\)"):
        bounded.loads_json('{"version": ' + digits + "}")
    with pytest.raises(YAMLError) as info:
        load_data("schema: 1\nversion: " + digits + "\n")
    assert info.value.line == 2 and "4300 digits" in info.value.problem


@pytest.mark.parametrize("text", [
    "packages = " + "[" * 100_000 + "]" * 100_000,
    "a = " + "{ b = " * 2000 + "1" + " }" * 2000,
    "x = " + "9" * 5000,
])
def test_toml_nested_or_numbered_past_any_real_file_is_a_sentence(text):
    """Seventeenth hostile pass P5: a 200 KB pylock.toml of nested arrays made tomllib recurse into a RecursionError,
    which ended as "an error of its own; this is a bug"."""
    with pytest.raises(ParseLimitError, match="nested more than 64 levels deep|more than 4300 digits"):
        bounded.loads_toml(text)


def test_a_lock_nested_past_any_real_one_is_refused_in_one_clause():
    from wizard.install.lockfile import PYLOCK, packages_in, unhashed_entry

    text = 'lock-version = "1.0"\npackages = ' + "[" * 100_000 + "]" * 100_000 + "\n"
    assert unhashed_entry(text, PYLOCK) == "it is nested more than 64 levels deep; no valid file is"
    assert packages_in(text, PYLOCK) == {}  # read as holding nothing; the refusal above is what the user sees


def test_plain_toml_reads_as_tomllib_reads_it():
    assert bounded.loads_toml('\ufeff[tool.uv]\nindex-url = "https://x/simple"\n') == {
        "tool": {"uv": {"index-url": "https://x/simple"}}}
