"""The one output layer (wizard.commands.streams) on its own: what every command's writes go through
(issue 24, P1 P4 P5 P6). Real text streams over real byte buffers and a real /dev/full."""

from __future__ import annotations

import io
import sys

import pytest

from wizard.commands.output import emit_json
from wizard.commands.streams import GuardedStream, OutputFailed


def _stream(encoding: str) -> tuple[GuardedStream, io.BytesIO]:
    raw = io.BytesIO()
    inner = io.TextIOWrapper(raw, encoding=encoding, errors="strict")
    return GuardedStream(inner, -1, "standard output"), raw


def test_every_write_is_redacted_whatever_the_caller():
    out, raw = _stream("utf-8")
    out.write('{"ok": false, "error": "uv: Failed to read https://h/?auth=ghp_' + "a" * 36 + '"}\n')
    out.write("Authorization: Bearer abcdefghijklmnop\n")
    out.flush()
    text = raw.getvalue().decode()
    assert "ghp_" not in text and "abcdefghijklmnop" not in text and text.count("<redacted>") == 2


def test_an_ascii_stream_gets_stand_ins_or_utf8_bytes_and_path_bytes_stay_bytes():
    """A user's `é` is written as its UTF-8 bytes, never `?` (32nd hostile pass (part A) P4: a path's `?` named a
    folder that does not exist)."""
    out, raw = _stream("ascii")
    out.write("\u25cf current  /data/st\udcfeate  caf\u00e9\n")  # a mark, a path byte that is not UTF-8, a user's é
    out.flush()
    assert raw.getvalue() == b"* current  /data/st\xfeate  caf\xc3\xa9\n"


def test_an_ascii_stream_writes_a_path_as_its_bytes_typography_in_it_too():
    """The wizard's marks get their stand-ins apart from a path; inside one (a word holding a `/`) every character is
    its UTF-8 bytes, so a pasted `export GC_WIZARD_HOME='…'` names the real folder (32nd hostile pass (part A) P4)."""
    out, raw = _stream("ascii")
    out.write("export GC_WIZARD_HOME='/tmp/st\u00e9\u2014x' \u2014 Deleting /tmp/a\u2026 \u2026\n")
    out.flush()
    assert raw.getvalue() == ("export GC_WIZARD_HOME='/tmp/st\u00e9\u2014x' -- Deleting /tmp/a\u2026 ...\n"
                              .encode())


def test_the_wizards_own_typography_reads_as_ascii_under_the_c_locale():
    """Under `LC_ALL=C` the plan's first line read "Plan for jax0.4.23-cpu ? JAX 0.4.23 on the CPU"."""
    out, raw = _stream("ascii")
    out.write("Plan for x \u2014 JAX \u00b7 \u2713 a \u2192 b \u2026 \u201cq\u201d \u2265 1\n")
    out.flush()
    assert raw.getvalue() == b'Plan for x -- JAX - ok a -> b ... "q" >= 1\n'


def test_a_failing_stream_names_itself_and_where_it_goes_not_the_state_folder():
    with open("/dev/full", "w", encoding="utf-8") as full:
        out = GuardedStream(full, full.fileno(), "standard output")
        with pytest.raises(OutputFailed) as caught:
            out.write("x" * 10000 + "\n")
            out.flush()
    message = str(caught.value)
    assert "standard output (/dev/full)" in message and "full" in message and "GC_WIZARD_HOME" not in message


def test_a_json_value_is_masked_before_it_is_serialised_so_the_next_line_survives(monkeypatch):
    """In `--json`'s serialised text a newline is `\\n`: a masked `HF_TOKEN=…` value took the next line's first
    word with it. Each string is masked before serialising (and the line again by stdout's own pass); nothing
    secret remains and nothing else is lost."""
    out, raw = _stream("utf-8")
    monkeypatch.setattr(sys, "stdout", out)
    token = "hf_" + "Qw3rTy" * 6
    emit_json({"ok": False, "error": f"export HF_TOKEN={token}\nsecond line stays", "findings": [
        {"evidence": [f"password: {token[3:]}\nkept", ("https://me:S3cretPass@h/", 1)]}]})
    out.flush()
    line = raw.getvalue().decode().splitlines()[-1]
    assert token[3:] not in line and "S3cretPass" not in line, line
    assert "\\nsecond line stays" in line and "\\nkept" in line and '"ok": false' in line, line


@pytest.mark.parametrize("char", ["\u202e", "\u202d", "\u2066", "\u2067", "\u2069", "\u200b", "\u200f", "\ufeff",
                                  "\u2060",
                                  # Eighth hostile pass U4-U7: C1 controls (U+009B is a terminal's CSI) made the JSON
                                  # line invalid as `\x9b`; the rest of Unicode's format category and the separators
                                  # stayed raw.
                                  "\x9b", "\x85", "\x9d", "\x7f", "\u061c", "\xad", "\u180e", "\u2028", "\u2029",
                                  "\ufff9", "\U000e0041", "\U000e0001",
                                  # Ninth pass V1: a lone surrogate from an edited history.json was written as `?`.
                                  "\ud800", "\udbff", "\udfff"])
def test_invisible_format_characters_are_written_as_escapes_and_json_reads_them_back(char):
    """Sixth hostile pass 5k: a history entry's error holding U+202E was drawn raw, so the line read as other
    text. Every write shows them as escapes; in a `--json` line the escape is JSON's own."""
    import json

    out, raw = _stream("utf-8")
    value = f"tiny-a{char}upc-{char} failed"
    out.write(f"! {value}\n")
    out.write(json.dumps({"error": value}, ensure_ascii=False) + "\n")
    out.flush()
    plain, line = raw.getvalue().decode().splitlines()
    shown = json.dumps(char)[1:-1]  # JSON's own escape: `\\u009b`, a surrogate pair beyond U+FFFF
    assert char not in plain and shown.startswith("\\u") and shown in plain, plain
    assert char not in line and json.loads(line)["error"] == value


@pytest.mark.parametrize("text", ["esc\x1b[31mRED.py", "t\x1b]0;TUIOWNED\x07.py", "c\x1b[2J\x1b[31mX.py", "bell\x07",
                                  "nul\x00", "csi\x9b2J"])
def test_control_characters_a_terminal_acts_on_are_written_as_escapes(text):
    """Seventh hostile pass 5c/5f/5d: a checkout's file name with ESC cleared the screen and set the window title;
    tab, newline and carriage return stay what they are."""
    out, raw = _stream("utf-8")
    out.write(f"{text}\tand\r\n")
    out.flush()
    written = raw.getvalue().decode()
    assert not any(ch in written for ch in "\x1b\x07\x00\x9b") and written.endswith("\tand\r\n"), written


def test_a_stream_that_fails_mid_way_under_a_command_that_changes_something_is_dropped_and_said_truly():
    """A command that changes something goes on when its stdout fails (a disk that filled meanwhile): the rest of its
    output is dropped, and the last word says that part was lost and where to see what it changed — never "the state
    folder is not affected" (fourteenth hostile pass Q5). A read-only command still ends on the failure."""
    from wizard.commands import streams

    with streams.guarded_streams(wrap=False), open("/dev/full", "w", encoding="utf-8") as full:
        out = GuardedStream(full, full.fileno(), "standard output", outlive_reader=True)
        out.write("x" * 10000 + "\n")
        out.flush()  # no OutputFailed: the command goes on
        out.write("more\n")
        note, stdout_lost = streams.lost_output_note()
    assert stdout_lost and out.reader_gone
    assert note.startswith("cannot write to standard output (/dev/full): the disk it goes to is full, so part of what")
    assert "`gc-wizard history`" in note and "not affected" not in note


def test_a_full_stream_is_known_before_a_byte_is_written(monkeypatch):
    """`unwritable_problem` looks at the descriptors (a `--json` stdout must hold only its line): /dev/full is refused
    by name; an in-memory capture is not a descriptor and is left alone."""
    from wizard.commands import streams

    with open("/dev/full", "w", encoding="utf-8") as full:
        monkeypatch.setattr(sys, "stdout", full)
        assert streams._cannot_take_output(full.fileno()).errno == 28
        monkeypatch.setattr(sys, "stdout", io.StringIO())
        assert streams.unwritable_problem() is None or "standard error" in streams.unwritable_problem()


class _ShortWrites(io.BytesIO):
    """A byte buffer that takes at most 1000 bytes a call, as a file-size limit makes a real one do."""

    def write(self, data) -> int:
        return super().write(bytes(data[:1000]))


def test_a_write_the_buffer_takes_only_part_of_is_finished():
    """Seventeenth hostile pass P6: a buffer's short count went unread, and the output was cut without a word."""
    raw = _ShortWrites()
    inner = io.TextIOWrapper(raw, encoding="utf-8")
    stream = GuardedStream(inner, -1, "standard output")
    stream.write("x" * 4500 + "\n")
    stream.flush()
    assert raw.getvalue() == b"x" * 4500 + b"\n"


def test_a_file_size_limit_ends_the_command_with_a_sentence_not_a_cut_file(tmp_path):
    """The real CLI under `ulimit -f 2` writing `recipes --json` (about 30 KB) to a file: it used to end 0 with the
    file cut at the limit; now the limit stops it, named, with a failing status."""
    import os
    import resource
    import subprocess

    from tests.fixtures.state import REPO

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))

    out = tmp_path / "r.json"
    with open(out, "wb") as handle:
        proc = subprocess.run([sys.executable, "-m", "wizard", "recipes", "--json"], cwd=REPO, stdout=handle,
                              stderr=subprocess.PIPE, text=True, timeout=120, preexec_fn=limit,
                              env={**os.environ, "GC_WIZARD_HOME": str(tmp_path / "h")})
    assert proc.returncode in (1, 153), proc.stderr
    assert "Traceback" not in proc.stderr and ("file-size limit" in proc.stderr or "file too large" in proc.stderr)


@pytest.mark.parametrize("codec", ["idna", "undefined"])
def test_an_encoding_that_cannot_write_plain_text_is_refused_by_name_before_anything_runs(codec, tiny):
    """25th hostile pass (part A) P2: under `PYTHONIOENCODING=idna` (a line longer than a DNS label fails) or
    `undefined` every write raised inside the codec, the sentence about it too, and every command exited 1 without a
    word; `install --yes` even made its env current first. Now one sentence in raw ASCII names the variable, the
    `--json` line still arrives, and nothing runs."""
    import json

    from tests.fixtures.state import run_cli

    env = {"PYTHONIOENCODING": codec}
    for args in (["--version"], ["history", "--json"], ["install", "tiny-a", "--yes", *tiny.args()]):
        proc = run_cli(*args, env=env)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr + proc.stdout, (args, proc.stderr)
        assert f"encoding {codec} (set by PYTHONIOENCODING) cannot write plain text" in proc.stderr, proc.stderr
        assert "nothing was done" in proc.stderr and "PYTHONIOENCODING=utf-8" in proc.stderr, proc.stderr
        if "--json" in args:
            assert json.loads(proc.stdout.splitlines()[-1])["exit"] == 1, proc.stdout
    assert tiny.history() == []
    for held in ("ascii", "utf-8-sig", "cp1252:strict"):  # they can write it: nothing refused
        assert run_cli("--version", env={"PYTHONIOENCODING": held}).returncode == 0, held


@pytest.mark.parametrize("codec", ["utf-16", "UTF_32", "utf-16-le", "utf_16_be"])
def test_an_encoding_that_is_not_ascii_compatible_is_refused_by_name_before_anything_runs(codec, tiny):
    """37th hostile pass (part B) P1: `PYTHONIOENCODING=utf-16` (or utf-32, any spelling) passed the round trip, and
    a command printed UTF-16 beside the raw bytes the wizard writes past the codec; `history` and `install` crashed
    on a child's answer (`install` after removing the env it had built). Now refused up front, by name, in ASCII."""
    import json

    from tests.fixtures.state import run_cli

    env = {"PYTHONIOENCODING": codec}
    for args in (["history", "--json"], ["install", "tiny-a", "--yes", *tiny.args()]):
        proc = run_cli(*args, env=env)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr + proc.stdout, (args, proc.stderr)
        assert "(set by PYTHONIOENCODING) is not ASCII-compatible" in proc.stderr, proc.stderr
        assert "nothing was done" in proc.stderr and "PYTHONIOENCODING=utf-8" in proc.stderr, proc.stderr
        if "--json" in args:
            assert json.loads(proc.stdout.splitlines()[-1])["exit"] == 1, proc.stdout
    assert tiny.history() == []


def test_output_lost_after_the_work_leaves_the_exit_status_the_commands_own(tiny):
    """25th hostile pass (part A) P2, the class: a write that failed after an install began (stdout a real /dev/full,
    not refused up front here since it is not descriptor 1) turned the finished install into exit 1, though its env
    was installed and made current. The status is the result's own; the sentence says what output was lost."""
    from tests.fixtures.cli import _kept_apart
    from tests.fixtures.state import REPO
    from wizard import cli

    argv = ["install", "tiny-a", "--yes", *tiny.args()]
    with _kept_apart(None, "", REPO) as (_out, err), open("/dev/full", "w", encoding="utf-8") as full:
        sys.stdout, sys.argv = full, ["gc-wizard", *argv]  # both put back by `_kept_apart`
        code = cli.main(argv)
        said = err.getvalue()
    assert code == 0, said
    assert "cannot write to standard output" in said and "the exit status is the command's own" in said, said
    entries = tiny.history()
    assert [(e["recipe"], e["status"], e["current"]) for e in entries] == [("tiny-a", "installed", True)]
