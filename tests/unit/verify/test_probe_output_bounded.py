"""The GraphCast probe's output is kept bounded in characters, whatever it prints (issue 24, P3's class:
every reader of a child's or a user's log is bounded by size, not by lines).

A real child process prints what an environment with a chatty or hostile import can: one 20 MB line
without a newline and 5,000 lines of logging, then its result JSON; the reader keeps the last lines,
each cut, and the last line whole (the result).
"""

from __future__ import annotations

import subprocess
import sys
import threading

from wizard.install.runner import StepLog
from wizard.verify import check
from wizard.verify.check import ProbeListeners, ProbeStream

CHATTY = r"""
import json, sys
sys.stderr.write("x" * 20_000_000)  # longer than one read (PROBE_READ_CHARS)
sys.stderr.write("\n")
for i in range(5000):
    print(f"W0000 log line {i}", file=sys.stderr)
sys.stdout.write("y" * 3_000_000 + "\n")
print(json.dumps({"tiers": [], "ok": False}))
"""


def test_a_chatty_probe_is_kept_in_bounded_memory_and_its_result_read(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", CHATTY], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    stream = ProbeStream()
    log = StepLog(tmp_path / "probe.log")
    listeners = ProbeListeners()
    readers = [threading.Thread(target=check._read_stderr, args=(proc.stderr, stream, log, listeners)),
               threading.Thread(target=check._read_stdout, args=(proc.stdout, stream, log, listeners))]
    for reader in readers:  # both at once, as run_probe reads them: a full pipe would block the child
        reader.start()
    for reader in readers:
        reader.join()
    proc.wait()
    kept = sum(len(line) for line in stream.stderr) + sum(len(line) for line in stream.stdout)
    assert kept < (check.PROBE_STDERR_LINES + check.PROBE_STDOUT_LINES) * (check.PROBE_LINE_CHARS + 1) + 100_000
    assert len(stream.stderr) == check.PROBE_STDERR_LINES and stream.stderr[-1] == "W0000 log line 4999"
    assert check._parse_result(stream.stdout) == {"tiers": [], "ok": False}
