"""Output targets that are not files to write (24th hostile pass (part A) P10): one rule (`wizard.outputs.
refuse_odd_target`) checks `--out` before the work, names it by the path the user gave and never waits to open it.
`report --out FIFO` with nothing reading gathered the report and then waited forever without a word; `lock --out
/dev/null` resolved first and then refused naming "null". These use real FIFOs, sockets, a reader and the real CLI."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

from tests.fixtures.state import REPO, run_cli


def test_a_fifo_nothing_reads_is_refused_before_the_report_is_made_and_never_waited_on(tmp_path):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    link = tmp_path / "link"
    link.symlink_to(fifo)
    for given, shown in ((fifo, str(fifo)), (link, f"{link} (a link to {fifo})")):
        proc = run_cli("report", "--out", str(given), timeout=60)
        said = " ".join(proc.stderr.split())
        assert proc.returncode == 2, said
        assert f"cannot write the report to {shown}: it is a FIFO (a named pipe) that nothing is reading" in said
        assert "Traceback" not in said and proc.stdout == ""


def test_a_fifo_with_a_reader_gets_the_whole_report_and_the_check_does_not_end_its_reader(tmp_path):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got = tmp_path / "got.md"
    with got.open("wb") as sink:
        reader = subprocess.Popen(["cat", str(fifo)], stdout=sink)
    try:
        proc = run_cli("report", "--out", str(fifo), timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert reader.wait(timeout=30) == 0
    finally:
        reader.kill()
    text = got.read_text()
    assert len(text) > 500 and "gc-wizard" in text, text


def test_a_socket_is_refused_by_name_before_the_work(tmp_path):
    path = tmp_path / "s.sock"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        proc = run_cli("report", "--out", str(path), timeout=60)
    finally:
        server.close()
    assert proc.returncode == 2, proc.stderr
    assert f"cannot write the report to {path}: it is a socket" in " ".join(proc.stderr.split())


def test_a_lock_out_is_checked_before_resolving_and_named_as_given(tiny, tmp_path):
    fifo = tmp_path / "pylock.toml"
    os.mkfifo(fifo)
    for out, words in (("/dev/null", "/dev/null: a lock is named pylock.toml"),
                       ("/proc/version", "/proc/version: a lock is named pylock.toml"),
                       (str(fifo), f"--out {fifo}: it is a FIFO (a named pipe) that nothing is reading")):
        proc = run_cli("lock", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                       "--offline", "--out", out, timeout=120)
        said = " ".join(proc.stderr.split())
        assert proc.returncode == 2, said
        assert words in said, said
        assert "Resolving" not in proc.stdout, proc.stdout  # refused before the work, not after it


def test_the_write_itself_never_waits_on_a_fifo_whose_reader_left(tmp_path):
    """Where no check ran before (the app's report screen), the write opens without waiting: ENXIO, one sentence."""
    fifo = tmp_path / "late.fifo"
    os.mkfifo(fifo)
    code = ("import sys\nfrom wizard.security import write_private_file\n"
            "try:\n    write_private_file(sys.argv[1], 'x')\nexcept OSError as exc:\n    print('errno', exc.errno)\n")
    out = subprocess.run([sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, timeout=30,
                         cwd=str(REPO))
    assert out.stdout.strip() == "errno 6", out.stdout + out.stderr  # ENXIO at once, never a wait
