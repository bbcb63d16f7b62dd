"""`diagnose` on a log that is not plain UTF-8 (hostile pass 19 P4): the same cuDNN-mismatch log that is diagnosed as
UTF-8 was "No known problem found", exit 0, when saved as UTF-16 (PowerShell's `>`), gzip'd (a rotated cluster log)
or when the file was binary. Each is read as the text it holds, from a file and from standard input; bytes that are
no text log get a sentence naming the file, never a clean bill of health."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import REPO, last_json

LOG = REPO / "tests" / "logs" / "real" / "gcbfplus_found_cudnn_8600_built_8906.log"

ENCODINGS = {
    "utf-16 with BOM": lambda text: text.encode("utf-16"),
    "utf-16-le without BOM": lambda text: text.encode("utf-16-le"),
    "utf-16-be with BOM": lambda text: b"\xfe\xff" + text.encode("utf-16-be"),
    "utf-8 with BOM": lambda text: b"\xef\xbb\xbf" + text.encode(),
    "gzip": lambda text: gzip.compress(text.encode()),
    "xz": lambda text: lzma.compress(text.encode()),
    "bzip2": lambda text: bz2.compress(text.encode()),
    "gzip of utf-16": lambda text: gzip.compress(text.encode("utf-16")),
    "gzip cut off": lambda text: gzip.compress(text.encode() * 3)[:-40],
}


@pytest.mark.parametrize("name", list(ENCODINGS))
def test_the_same_failure_is_found_however_the_log_was_saved(tmp_path, name):
    path = tmp_path / "run.log"
    path.write_bytes(ENCODINGS[name](LOG.read_text()))
    proc = run_inproc("diagnose", str(path), "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert last_json(proc)["findings"][0]["id"] == "cudnn_version_mismatch"


def test_a_utf16_log_on_standard_input_too(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "wizard", "diagnose", "-", "--json"], cwd=REPO, capture_output=True,
                          input=LOG.read_text().encode("utf-16"), timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert b'"cudnn_version_mismatch"' in proc.stdout


@pytest.mark.parametrize("content, words", [
    (bytes(range(256)) * 64, "is not a text log (its first bytes are binary data"),
    (b"\x28\xb5\x2f\xfd" + b"\x00" * 64, "is packed with zstd, which gc-wizard does not unpack; unpack it first "
                                         "(`zstd -d FILE`)"),
    (b"PK\x03\x04" + b"\x00" * 64, "is packed with zip"),
], ids=["binary", "zstd", "zip"])
def test_bytes_that_are_no_text_log_get_a_sentence_not_a_clean_bill(tmp_path, content, words):
    path = tmp_path / "run.log"
    path.write_bytes(content)
    proc = run_inproc("diagnose", str(path), "--json")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    error = last_json(proc)["error"]
    assert error.startswith(f"{path} ") and words in error, error
    assert "No known problem" not in proc.stdout + proc.stderr


def test_a_log_with_a_stray_nul_and_latin1_bytes_is_still_a_log(tmp_path):
    path = tmp_path / "run.log"
    path.write_bytes(b"caf\xe9 \x00 progress\n" + LOG.read_bytes())
    proc = run_inproc("diagnose", str(path), "--json")
    assert proc.returncode == 1 and last_json(proc)["findings"][0]["id"] == "cudnn_version_mismatch"
    assert Path(path).exists()


#: One line of 48 MB that packs a hundred- to a million-fold: each format's reader must hold a bounded number of bytes,
#: not a bounded number of lines (twentieth hostile pass P2: a 14 KB `.bz2` took 2.6 GB, as its reader unpacked each
#: 8 KB read whole).
_PACKERS = {
    "gzip": lambda data: gzip.compress(data, 1),
    "xz": lambda data: lzma.compress(data, preset=0),
    "bzip2": lambda data: bz2.compress(data, 1),
    "gzip, two members": lambda data: gzip.compress(data[: len(data) // 2], 1) + gzip.compress(data[len(data) // 2:], 1),
    "xz, two streams": lambda data: lzma.compress(data[: len(data) // 2], preset=0) + lzma.compress(
        data[len(data) // 2:], preset=0),
    "bzip2 of utf-16": lambda data: bz2.compress(data.decode().encode("utf-16"), 1),
}


@pytest.mark.parametrize("packer", list(_PACKERS))
def test_a_packed_log_is_unpacked_in_bounded_bytes_whatever_its_ratio(packer, monkeypatch):
    """Memory stays bounded whatever the ratio; a packing past DEFLATE's ratio is read only to the unpacking bound
    (twenty-first hostile pass P2), here put above the log's size so that the whole of it is read."""
    import io
    import tracemalloc

    from wizard.verify import log_text
    from wizard.verify.log_text import open_log_text

    monkeypatch.setattr(log_text, "FREE_BYTES", 128 << 20)

    cause = "Loaded runtime CuDNN library: 8.2.1 but source was compiled with: 8.6.0.\n"
    data = b"x" * (48 << 20) + b"\n" + cause.encode()
    packed = _PACKERS[packer](data)
    tracemalloc.start()
    try:
        handle = open_log_text(io.BytesIO(packed), "run.log")
        size, last = 0, ""
        while piece := handle.read(1 << 16):
            size, last = size + len(piece), (last + piece)[-200:]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert size == len(data) and last.endswith(cause)
    assert peak < 8 << 20, f"{peak / 1e6:.0f} MB held to read a {len(packed)}-byte {packer} log"


def test_an_xz_log_that_asks_for_a_huge_dictionary_gets_a_sentence_not_a_clean_bill(tmp_path):
    path = tmp_path / "run.log.xz"
    path.write_bytes(lzma.compress(LOG.read_bytes(), filters=[{"id": lzma.FILTER_LZMA2, "dict_size": 1 << 30}]))
    proc = run_inproc("diagnose", str(path), "--json")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    error = last_json(proc)["error"]
    assert error.startswith(f"{path} is packed with an xz dictionary that needs more than") and "xz -d" in error
    assert "No known problem" not in proc.stdout + proc.stderr and "Traceback" not in proc.stderr


# Twenty-first hostile pass P2: packings inside packings were unpacked to any depth (13 KB of three gzip layers was 4 GB
# of log, about 25 minutes with nothing said). A third layer is refused; two are read up to the unpacking bound, and a
# log read only in part is never a clean bill of health.


def _bomb(cause_first: bool) -> bytes:
    """bzip2 holding gzip of 8 MB of one line repeated, the cuDNN cause first or last: a few KB packed."""
    import io

    inner = io.BytesIO()
    with gzip.GzipFile(fileobj=inner, mode="wb", compresslevel=9) as packer:
        if cause_first:
            packer.write(LOG.read_bytes())
        packer.write(b"step 1 of 1000 loss nan\n" * ((8 << 20) // 24))
        if not cause_first:
            packer.write(LOG.read_bytes())
    return bz2.compress(inner.getvalue(), 9)


def test_a_bomb_whose_read_part_holds_no_finding_is_a_sentence_not_a_clean_bill(tmp_path, monkeypatch):
    from wizard.verify import log_text

    monkeypatch.setattr(log_text, "FREE_BYTES", 1 << 20)
    path = tmp_path / "run.log.bz2"
    path.write_bytes(_bomb(cause_first=False))
    for args in ((), ("--json",)):
        proc = run_inproc("diagnose", str(path), *args)
        assert proc.returncode == 2, proc.stdout + proc.stderr
        said = last_json(proc)["error"] if args else " ".join(proc.stderr.split())
        assert f"{path} unpacks (gzip inside bzip2) to more than 1032 times its packed size" in said, said
        assert "read only the first 1 MB of it unpacked and not the rest" in said
        assert "`bzip2 -dc FILE | gzip -dc | gc-wizard diagnose -`" in said and "No known problem was found in the part" in said
        assert "No known problem found" not in proc.stdout


def test_a_bomb_whose_read_part_holds_a_finding_reports_it_and_says_the_rest_was_not_read(tmp_path, monkeypatch):
    from wizard.verify import log_text

    monkeypatch.setattr(log_text, "FREE_BYTES", 1 << 20)
    path = tmp_path / "run.log.bz2"
    path.write_bytes(_bomb(cause_first=True))
    proc = run_inproc("diagnose", str(path), "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    data = last_json(proc)
    assert data["findings"][0]["id"] == "cudnn_version_mismatch"
    assert "read only the first 1 MB of it unpacked" in data["partial"] and "read only the first" in proc.stderr
    proc = run_inproc("diagnose", str(path))
    assert proc.returncode == 1 and "cuDNN" in proc.stdout and "not the rest" in " ".join(proc.stderr.split())


def test_a_log_packed_three_times_on_standard_input_is_refused_with_a_sentence():
    data = LOG.read_bytes()
    for _ in range(3):
        data = gzip.compress(data)
    proc = subprocess.run([sys.executable, "-m", "wizard", "diagnose", "-"], cwd=REPO, capture_output=True,
                          input=data, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.decode().startswith("gc-wizard: the log on standard input is packed more than 2 times over "
                                           "(gzip inside gzip inside gzip …)"), proc.stderr
    assert b"Traceback" not in proc.stderr and b"No known problem" not in proc.stdout


_CLEAN_THEN_CAUSE = b"".join(b"step %d ok\n" % i for i in range(3000)) + LOG.read_bytes()


@pytest.mark.parametrize("pack", [gzip.compress, lzma.compress, bz2.compress])
def test_a_packed_log_cut_before_its_cause_is_a_sentence_not_a_clean_bill(tmp_path, pack):
    """Twenty-second hostile pass P4: cut by an upload limit, the same log was "No known problem found", exit 0."""
    path = tmp_path / "run.log.x"
    packed = pack(_CLEAN_THEN_CAUSE)
    path.write_bytes(packed[:200])
    for args in ((), ("--json",)):
        proc = run_inproc("diagnose", str(path), *args)
        assert proc.returncode == 2, proc.stdout + proc.stderr
        said = last_json(proc)["error"] if args else " ".join(proc.stderr.split())
        assert f"{path} is cut short" in said and "after 200 packed bytes" in said and "give the whole file" in said
        assert "No known problem was found in the part read" in said and "No known problem found" not in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "wizard", "diagnose", "-"], cwd=REPO, capture_output=True,
                          input=packed[:200], timeout=120)
    assert proc.returncode == 2 and b"the log on standard input is cut short" in proc.stderr, proc.stderr


def test_a_packed_log_cut_after_its_cause_reports_it_and_says_the_copy_is_cut(tmp_path):
    path = tmp_path / "run.log.gz"
    packed = gzip.compress(LOG.read_bytes() * 3)
    path.write_bytes(packed[:-40])
    proc = run_inproc("diagnose", str(path), "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    data = last_json(proc)
    assert data["findings"][0]["id"] == "cudnn_version_mismatch" and "is cut short" in data["partial"]


def test_an_empty_log_is_a_sentence_not_a_clean_bill(tmp_path):
    path = tmp_path / "job.err"
    path.write_bytes(b"")
    proc = run_inproc("diagnose", str(path))
    assert proc.returncode == 2 and f"{path} is empty, so there is nothing to diagnose" in " ".join(proc.stderr.split())
    proc = subprocess.run([sys.executable, "-m", "wizard", "diagnose", "-", "--json"], cwd=REPO, capture_output=True,
                          input=b"", timeout=120)
    assert proc.returncode == 2 and b"the log on standard input is empty" in proc.stdout, proc.stdout + proc.stderr
    blank = tmp_path / "blank.log"
    blank.write_text("\n")  # a log with a line in it, if only an empty one, is read as a log: clean
    assert run_inproc("diagnose", str(blank)).returncode == 0


def test_a_log_with_a_hole_of_nuls_is_read_as_a_log_and_the_hole_ends_a_line(tmp_path):
    """Twenty-second hostile pass N2: a log with a hole after its first line (a node that crashed mid-write, a sparse
    copy) was "not a text log (its first bytes are binary data, 73 74 61 72 …)" — the text `starting`; with the hole
    touching the error line, the evidence quoted 1,300 NULs."""
    path = tmp_path / "job.err"
    path.write_bytes(b"starting\n" + b"\0" * 200_000 + LOG.read_bytes())
    proc = run_inproc("diagnose", str(path), "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    finding = last_json(proc)["findings"][0]
    assert finding["id"] == "cudnn_version_mismatch" and "\\u0000" not in proc.stdout
    zeros = tmp_path / "zeros.log"
    zeros.write_bytes(b"\0" * 20_000)  # nothing but NULs is no log
    proc = run_inproc("diagnose", str(zeros))
    assert proc.returncode == 2 and "is not a text log" in " ".join(proc.stderr.split())


def _one_long_line_then(log: bytes, length: int) -> bytes:
    """A gzip of one `length`-byte line of `a` (the tester's 49 KB file held 50 MB) and then `log`."""
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=9) as packer:
        for _ in range(length >> 20):
            packer.write(b"a" * (1 << 20))
        packer.write(b"\n" + log)
    return out.getvalue()


def test_an_overlong_line_is_cut_to_its_ends_and_the_cut_is_said(tmp_path, monkeypatch):
    """24th hostile pass (part A) P2: a 49 KB gzip of one 50 MB line and then a log took 128 s, and a 6.5 MB one ran
    past 200 s: the scan's work grew with the line's length. Measured in work, not time: the characters the scanner is
    fed stay near the log's own size however long the line, the finding after it is found, and the cut is said (on
    stderr and in the JSON's `partial`); a log with nothing else in it is no clean bill."""
    from wizard.verify import diagnose

    fed: list[int] = []
    feed = diagnose.Scanner.feed
    monkeypatch.setattr(diagnose.Scanner, "feed", lambda self, text, *a, **k: (fed.append(len(text)),
                                                                               feed(self, text, *a, **k))[1])
    log = LOG.read_bytes()
    path = tmp_path / "run.log.gz"
    path.write_bytes(_one_long_line_then(log, 24 << 20))
    assert path.stat().st_size < 60_000
    proc = run_inproc("diagnose", str(path), "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    data = last_json(proc)
    assert data["findings"][0]["id"] == "cudnn_version_mismatch"
    said = f"{path} has a line of {24 << 20:,} characters, longer than any log line, so gc-wizard scanned only the " \
           f"first and last 64 KB of it and read past the middle."
    assert data["partial"] == said and said in " ".join(proc.stderr.split())
    assert sum(fed) < 4 * diagnose.LINE_KEPT + 3 * len(log), sum(fed)  # was over 48 MB: the line, twice
    path.write_bytes(_one_long_line_then(b"", 24 << 20))
    proc = run_inproc("diagnose", str(path))
    assert proc.returncode == 2 and "No known problem was found in the part read" in proc.stderr


@pytest.mark.parametrize("tail", ["utf-16-le", "utf-16-be with its mark", "utf-16-le and back to utf-8"])
def test_a_log_that_turns_utf16_partway_is_read_stretch_by_stretch(tmp_path, tail):
    """24th hostile pass (part A) P8: 40 plain lines and then a log in UTF-16 (a Windows tool's output appended) was
    "not a text log (its first bytes are binary data, 53 74 61 72 …)", "Star…" called binary; the log was not read."""
    start = b"Starting job on node gpu01\nloading modules ok\n" * 20
    text = LOG.read_text()
    middle = {"utf-16-le": text.encode("utf-16-le"), "utf-16-be with its mark": text.encode("utf-16"),
              "utf-16-le and back to utf-8": "job step 2\n".encode("utf-16-le")}[tail]
    end = LOG.read_bytes() if tail.endswith("back to utf-8") else b""
    path = tmp_path / "mixed.log"
    path.write_bytes(start + middle + end)
    proc = run_inproc("diagnose", str(path), "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert last_json(proc)["findings"][0]["id"] == "cudnn_version_mismatch" and "partial" not in last_json(proc)


def _tar(path: Path, members: dict[str, bytes], mode: str) -> None:
    import tarfile

    with tarfile.open(path, mode) as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))


@pytest.mark.parametrize("mode", ["w", "w:gz", "w:bz2"])
def test_a_tar_is_read_member_by_member_its_binary_members_skipped_and_named(tmp_path, mode):
    """24th hostile pass (part A) P8: a tar.gz with a binary member before the log was "not a text log (its first bytes
    are binary data, 62 69 6e 2e 64 61 74 00 …)" (the tar header's "bin.dat"), and the log inside was not read; the
    tar was never named. Each text member is read (a long name too), each binary one skipped and named."""
    path = tmp_path / "job.tar"
    long_name = "results/" + "n" * 120 + "/run.log"
    _tar(path, {"bin.dat": bytes(range(256)) * 80, "notes.txt": b"step 1\n", long_name: LOG.read_bytes()}, mode)
    proc = run_inproc("diagnose", str(path), "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    data = last_json(proc)
    assert data["findings"][0]["id"] == "cudnn_version_mismatch"
    assert (f"is a tar archive: gc-wizard read its text members notes.txt, {long_name} and skipped its binary member "
            "bin.dat.") in data["partial"]
    assert "bin.dat" in " ".join(proc.stderr.split())


def test_a_tar_with_no_text_member_is_named_as_a_tar_with_the_command_that_unpacks_it(tmp_path):
    path = tmp_path / "job.tar.gz"
    _tar(path, {"bin.dat": bytes(range(256)) * 80, "model.npz": b"PK\x03\x04" + bytes(300)}, "w:gz")
    proc = run_inproc("diagnose", str(path))
    said = " ".join(proc.stderr.split())
    assert proc.returncode == 2 and "Traceback" not in said
    assert (f"{path} (unpacked from gzip) is a tar archive with no text log in it (its members bin.dat, model.npz "
            "are binary); unpack it (`tar xf FILE`) and give the log inside, as text.") in said, said


def test_a_packed_tar_is_read_within_the_same_unpacking_bound(tmp_path, monkeypatch):
    """24th hostile pass (part A) P8: a tar's members are read through the packing's layer, so its bound holds."""
    from wizard.verify import log_text

    monkeypatch.setattr(log_text, "FREE_BYTES", 1 << 20)
    path = tmp_path / "job.tar.bz2"
    _tar(path, {"bin.dat": bytes(range(256)) * 80,
                "run.log": LOG.read_bytes() + b"step 1 of 1000 loss nan\n" * ((8 << 20) // 24)}, "w:bz2")
    proc = run_inproc("diagnose", str(path), "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    data = last_json(proc)
    assert data["findings"][0]["id"] == "cudnn_version_mismatch"
    assert "unpacks (bzip2) to more than 1032 times its packed size" in data["partial"]
    assert "MB of it unpacked and not the rest" in data["partial"] and "binary member bin.dat" in data["partial"]


def test_a_tar_cut_inside_a_member_says_so_and_reads_what_came_before(tmp_path):
    whole = tmp_path / "whole.tar"
    _tar(whole, {"run.log": LOG.read_bytes(), "later.log": b"step 2\n" * 400}, "w")
    import tarfile

    with tarfile.open(whole) as archive:
        inside = archive.getmember("later.log").offset_data + 100
    path = tmp_path / "job.tar"
    path.write_bytes(whole.read_bytes()[:inside])  # inside later.log: its end and the end blocks are gone
    proc = run_inproc("diagnose", str(path), "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    data = last_json(proc)
    assert data["findings"][0]["id"] == "cudnn_version_mismatch"
    assert data["partial"].startswith(f"{path} is cut short: the tar archive ends inside a member, so gc-wizard read "
                                      "only the "), data["partial"]


def test_a_tar_member_that_turns_utf16_partway_is_a_text_member(tmp_path):
    path = tmp_path / "job.tar"
    _tar(path, {"bin.dat": bytes(range(256)) * 80,
                "win.log": b"Starting job\n" * 5 + LOG.read_text().encode("utf-16-le")}, "w")
    proc = run_inproc("diagnose", str(path), "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert last_json(proc)["findings"][0]["id"] == "cudnn_version_mismatch"
    assert "read its text member win.log and skipped its binary member bin.dat" in last_json(proc)["partial"]
