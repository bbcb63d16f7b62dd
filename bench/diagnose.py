"""Diagnosis on real logs and on a big one: corpus accuracy, and throughput / peak memory on a 1 GB log.

1. Corpus accuracy: every log of tests/logs/real (sources in its SOURCES.md), first finding against the
   root cause its thread established; clean logs must give none. Per-id counts and every miss.
2. Big log: writes a log of SIZE MiB (default 1024) — a real failure at the start and another at the end,
   training-loop noise and harmless TensorFlow warnings in between — then runs `gc-wizard diagnose
   FILE --json` as a subprocess and reports MB/s and its peak RSS. Baseline in the same process: a plain
   Python read of the same file in the same pieces (the I/O floor), and the RSS of `python -c pass`.
3. `diagnose --env`: median time to inspect an environment (the wizard's own venv; pass another with
   --env DIR), against `python -c pass`.

    python bench/diagnose.py [--size MIB] [--env DIR] [--keep]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.corpus import REAL, score, silent_without_their_cause  # noqa: E402
from wizard.verify.diagnose import (  # noqa: E402
    CHUNK_CHARS,
    diagnose_text,
    load_known_failures,
    unrecognised,
)


def corpus() -> None:
    start = time.perf_counter()
    result = score(lambda text: [f.id for f in diagnose_text(text)], lambda text: unrecognised(text) is not None)
    seconds = time.perf_counter() - start
    print(f"corpus: {result['hits']}/{result['failures']} failure logs get the thread's root cause first "
          f"({result['accuracy']:.1%}); another cause first: {result['wrong_first']}; failure logs that look clean: "
          f"{result['silent']}; clean logs with no finding: {result['clean_ok']}/{result['clean']} "
          f"({seconds * 1000:.0f} ms for all)")
    total, silent = silent_without_their_cause(
        lambda text, kept: diagnose_text(text, known_failures=kept), lambda text: unrecognised(text) is not None,
        load_known_failures())
    print(f"with its own cause left out of the catalogue: {total - len(silent)}/{total} failure logs still get a "
          f"finding or the unrecognised result; {len(silent)} look clean")
    for fid, (ok, total) in sorted(result["per_id"].items()):
        print(f"  {fid:28} {ok}/{total}")
    for name, expected, got in result["misses"]:
        print(f"  MISS {name}: expected {expected}, got {got}")


def write_big_log(path: Path, mib: int) -> int:
    noise = []
    for i in range(4000):
        noise.append(f"2024-05-14 23:55:{i % 60:02d},{i % 1000:03d} INFO step {i}: loss=0.{i:05d} lr=3e-4 "
                     f"grad_norm=1.{i % 97:02d} tokens/s=10{i % 9}23\n")
        if i % 50 == 0:
            noise.append("2023-12-05 09:29:18.697209: E tensorflow/compiler/xla/stream_executor/cuda/cuda_dnn.cc:9342]"
                         " Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one "
                         "has already been registered\n")
        if i % 70 == 0:
            noise.append(f"  {i % 100:2d}%|▎          | {i}/100000 [00:05<15:37, 106.37it/s]\n")
    block = "".join(noise).encode()
    target = mib * 2**20
    with open(path, "wb") as out:
        out.write((REAL / "jax_047_cudnn_850_compiled_860.log").read_bytes())
        written = 0
        while written < target:
            out.write(block)
            written += len(block)
        out.write((REAL / "condaforge_jax_outdated_cudnn_8907_min_9100.log").read_bytes())
    return path.stat().st_size


def plain_read_seconds(path: Path) -> float:
    start = time.perf_counter()
    with open(path, encoding="utf-8", errors="replace") as handle:
        while handle.readlines(CHUNK_CHARS):
            pass
    return time.perf_counter() - start


def child_run(argv: list[str]) -> tuple[float, int, subprocess.CompletedProcess]:
    """Wall seconds and peak RSS (KiB) of one child process."""
    pid_start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _pid, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - pid_start
    out, err = proc.stdout.read(), proc.stderr.read()
    done = subprocess.CompletedProcess(argv, os.waitstatus_to_exitcode(status), out, err)
    return seconds, usage.ru_maxrss, done


def big_log(mib: int, keep: bool) -> None:
    folder = Path(tempfile.mkdtemp(prefix="gcw-bench-diagnose-"))
    path = folder / "big.log"
    size = write_big_log(path, mib)
    try:
        floor = plain_read_seconds(path)
        seconds, rss, done = child_run([sys.executable, "-m", "wizard", "diagnose", str(path), "--json"])
        _base_s, base_rss, _ = child_run([sys.executable, "-c", "pass"])
        import json

        ids = [f["id"] for f in json.loads(done.stdout.strip().splitlines()[-1])["findings"]]
        mb = size / 1e6
        print(f"big log: {mb:.0f} MB in {seconds:.1f} s = {mb / seconds:.1f} MB/s "
              f"(plain read in the same pieces: {mb / floor:.0f} MB/s, ratio {seconds / floor:.1f}x); "
              f"peak RSS {rss / 1024:.0f} MiB (python -c pass: {base_rss / 1024:.0f} MiB); "
              f"findings {ids}")
    finally:
        if keep:
            print(f"  kept {path}")
        else:
            path.unlink()
            folder.rmdir()


def env_timing(env: Path, runs: int = 7) -> None:
    base = statistics.median(child_run([sys.executable, "-c", "pass"])[0] for _ in range(runs))
    times = []
    for _ in range(runs):
        seconds, _rss, done = child_run([sys.executable, "-m", "wizard", "diagnose", "--env", str(env), "--json"])
        times.append(seconds)
    from wizard.verify.inspect_env import inspect_env

    start = time.perf_counter()
    inspect_env(env)
    inproc = time.perf_counter() - start
    print(f"diagnose --env {env}: CLI median {statistics.median(times) * 1000:.0f} ms "
          f"(python -c pass {base * 1000:.0f} ms, ratio {statistics.median(times) / base:.1f}x); "
          f"in-process inspect_env {inproc * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1024, help="big log size in MiB (default 1024)")
    parser.add_argument("--env", type=Path, default=Path(sys.prefix), help="environment to inspect")
    parser.add_argument("--keep", action="store_true", help="keep the big log")
    args = parser.parse_args()
    corpus()
    env_timing(args.env)
    big_log(args.size, args.keep)


if __name__ == "__main__":
    main()
