"""Diagnosis measured on real logs users posted publicly (tests/logs/real, sources in its SOURCES.md).

The corpus test is the issue's bar: at least 95% of failure logs get the thread's root cause as the
first finding, and no clean log gets any finding. It prints the accuracy and per-id counts, so a
regression shows which cause it hit.
"""

from __future__ import annotations

import collections
import io
import re

import pytest

from tests.corpus import CLEAN, REAL, UNRECOGNISED, load_corpus, score, silent_without_their_cause
from tests.fixtures.cli import bare_program, run_inproc
from tests.fixtures.state import last_json
from wizard.verify import diagnose as diagnose_module
from wizard.verify.diagnose import diagnose_stream, diagnose_text, load_known_failures, unrecognised

CORPUS = load_corpus()


#: Finding ids without a real log yet (see the test below); assets_unreachable has one since batch 78
#: (aurora_190, a checkpoint its hub says is not there).
UPSTREAM_ONLY: set[str] = set()


def test_corpus_is_documented_and_big_enough():
    files = sorted(p.name for p in REAL.glob("*.log"))
    assert files == sorted(log.name for log in CORPUS), "every log has exactly one SOURCES.md row"
    ids = {entry.id for entry in load_known_failures()}
    failures = [log for log in CORPUS if log.expected != CLEAN]
    assert len(CORPUS) >= 80 and len(CORPUS) - len(failures) >= 10
    for log in CORPUS:
        assert re.match(r"^https://github\.com/[\w.-]+/[\w.-]+/(issues|pull)/\d+$", log.url), log.url
        assert log.expected in (CLEAN, UNRECOGNISED) or log.expected in ids, log.expected
        assert log.why and log.text().strip()
    # Every finding id is met by at least one real log, but those whose patterns are only the wizard's own
    # forecast-time lines or an upstream library's source string so far (no public thread shows them yet);
    # tests/e2e/test_forecast.py meets each with the real libraries in a real environment.
    met = {log.expected for log in failures} - {UNRECOGNISED}
    assert ids - met - UPSTREAM_ONLY == set(), sorted(ids - met - UPSTREAM_ONLY)


def test_corpus_accuracy(capsys):
    result = score(lambda text: [f.id for f in diagnose_text(text)], lambda text: unrecognised(text) is not None)
    with capsys.disabled():
        print(f"\ncorpus: {result['hits']}/{result['failures']} failure logs right "
              f"({result['accuracy']:.1%}); another cause first: {result['wrong_first']}; failure logs that look "
              f"clean: {result['silent']}; clean logs without findings: {result['clean_ok']}/{result['clean']}")
        for fid, (ok, total) in sorted(result["per_id"].items()):
            print(f"  {fid:28} {ok}/{total}")
        for name, expected, got in result["misses"]:
            print(f"  MISS {name}: expected {expected}, got {got}")
    assert result["accuracy"] >= 0.97, result["misses"]
    assert result["clean_ok"] == result["clean"], [m for m in result["misses"] if m[1] == CLEAN]
    assert result["silent"] == 0


def test_a_cause_the_catalogue_does_not_know_rarely_looks_clean(capsys):
    """Each failure log with its own cause's entry removed: another finding or the unrecognised result, not a
    clean log. The few that stay silent print only warnings (a CPU fallback, an old ptxas, pip's retries)
    with no error line at all; the bound keeps that share from growing."""
    entries = load_known_failures()
    total, silent = silent_without_their_cause(
        lambda text, kept: diagnose_text(text, known_failures=kept), lambda text: unrecognised(text) is not None,
        entries)
    with capsys.disabled():
        print(f"\nwith its cause left out: {len(silent)}/{total} failure logs look clean")
    assert len(silent) <= 0.09 * total, silent
    for name in silent:  # none of them has an exception, fatal or status line
        text = (REAL / name).read_text(encoding="utf-8")
        assert not re.search(r"^\s*(?:\w+\.)*\w*(?:Error|Exception): |\bfatal\b|^INTERNAL: ", text, re.M), name


@pytest.mark.parametrize("log", [log for log in CORPUS if log.expected != CLEAN], ids=lambda log: log.name)
def test_evidence_is_real_lines_of_the_log(log):
    text = log.text()
    for finding in diagnose_text(text):
        assert finding.evidence and "{" not in finding.explanation + finding.fix
        for line in finding.evidence:
            assert line.strip("…") in text or line.startswith("… and "), line


def test_streaming_matches_whole_text_across_piece_boundaries(monkeypatch):
    """A multi-line pattern cut by a piece boundary still matches, nothing is counted twice."""
    outdated = (REAL / "condaforge_jax_outdated_cudnn_8907_min_9100.log").read_text(encoding="utf-8")
    cudnn = (REAL / "jax_047_cudnn_850_compiled_860.log").read_text(encoding="utf-8")
    noise = "".join(f"step {i}: loss=0.{i:04d}\n" for i in range(3000))
    text = noise + outdated + noise + cudnn + noise
    monkeypatch.setattr(diagnose_module, "CHUNK_CHARS", 4096)  # ~ 200 pieces, boundaries everywhere
    streamed = diagnose_stream(io.StringIO(text))
    whole = diagnose_text(text)
    assert [(f.id, f.evidence) for f in streamed] == [(f.id, f.evidence) for f in whole]
    assert [(f.id, f.explains) for f in streamed] == [
        ("cudnn_version_mismatch", ("cpu_fallback", "cuda_component_outdated"))]


def test_evidence_memory_is_bounded_on_many_distinct_matches():
    lines = "".join(f"2024-01-01 00:00:{i:05d} Out of memory while trying to allocate {i} bytes.\n"
                    for i in range(5000))
    (finding,) = diagnose_stream(io.StringIO(lines))
    assert finding.id == "gpu_out_of_memory"
    assert finding.evidence[-1] == "… and 4992 more matching lines"


def test_symptom_ranked_by_context():
    from wizard.verify.causes import Context

    text = (REAL / "jax_cudnn_handle_internal_ample_memory.log").read_text(encoding="utf-8")
    (plain,) = diagnose_text(text)
    assert plain.id == "dnn_library_init_failed"
    # The log's own memory line rules the full GPU out; the environment's old cuDNN comes first.
    ctx = Context(cudnn_loaded="8.2.1", cudnn_loaded_from="/opt/cudnn-8.2/lib64", cudnn_built="8.6")
    (ranked,) = diagnose_text(text, context=ctx)
    assert [c["id"] for c in ranked.causes][0] == "cudnn_version_mismatch"
    assert "8.2.1" in ranked.causes[0]["why"] and "gpu_out_of_memory" not in [c["id"] for c in ranked.causes]
    full = "Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR\nMemory usage: 70719897 bytes free, " \
           "4231397376 bytes total.\n"
    (by_memory,) = diagnose_text(full, context=Context(cudnn_loaded="8.9.7", cudnn_built="8.9"))
    assert by_memory.id == "gpu_out_of_memory"  # under 10% free: the memory check makes it the cause
    quarter = full.replace("70719897", "707198976")  # 17% free: still the symptom, memory ranked first
    (symptom,) = diagnose_text(quarter, context=Context(cudnn_loaded="8.9.7", cudnn_built="8.9"))
    assert symptom.id == "dnn_library_init_failed" and symptom.causes[0]["id"] == "gpu_out_of_memory"
    assert symptom.to_dict()["causes"][0]["check"]


def test_cpu_fallback_ranked_by_jaxlib_build():
    from wizard.verify.causes import Context

    # Alone, the warning is the CPU-only jaxlib (nothing tried CUDA); after a line of a CUDA jaxlib trying to
    # start it is the symptom, and the environment's CPU-only jaxlib build ranks that cause first.
    alone = (REAL / "gladia_jax_0325_no_gpu_found.log").read_text(encoding="utf-8")
    assert [f.id for f in diagnose_text(alone)] == ["cpu_only_jaxlib"]
    text = "W0000 cuda_driver.cc: Could not load dynamic library 'libcuda.so.1'\n" + alone
    (finding,) = diagnose_text(text, context=Context(jaxlib_cpu_only=True))
    assert finding.id == "cpu_fallback" and finding.causes[0]["id"] == "cpu_only_jaxlib"


def test_unrecognised_failure_still_helps():
    text = ("gc-wizard-tier-start: jax_import\n"
            "Traceback (most recent call last):\n  File \"probe.py\", line 3, in <module>\n"
            "RuntimeError: something nobody has seen before\n")
    summary = unrecognised(text)
    assert summary.step == "the jax_import tier"
    assert summary.last_error == "RuntimeError: something nobody has seen before"
    assert "gc-wizard report" in summary.next_step
    for log in CORPUS:
        if log.expected == CLEAN:
            assert unrecognised(log.text()) is None, log.name


def test_unrecognised_names_the_tier_the_probe_died_in_from_its_own_lines():
    """The probe's real progress lines (JSON after the prefixes of wizard/verify/protocol.py): the tier it
    started and never finished is the step, a tier it reported failed wins over it."""
    from wizard.verify.protocol import TIER_PREFIX, TIER_START_PREFIX

    died = (f'{TIER_START_PREFIX}{{"name": "jax_import"}}\n'
            f'{TIER_PREFIX}{{"name": "jax_import", "ok": true, "status": "passed", "seconds": 1.0}}\n'
            f'{TIER_START_PREFIX}{{"name": "backend"}}\n'
            "Fatal Python error: Aborted\n")
    assert unrecognised(died).step == "the backend tier"
    failed = (f'{TIER_START_PREFIX}{{"name": "jax_import"}}\n'
              f'{TIER_PREFIX}{{"name": "jax_import", "ok": false, "status": "failed", "seconds": 1.0}}\n'
              "RuntimeError: something nobody has seen before\n")
    assert unrecognised(failed).step == "the jax_import tier"


def test_cli_unrecognised_json_and_exit(tmp_path):
    log = tmp_path / "odd.log"
    log.write_text("Epoch 1\nTraceback (most recent call last):\nKeyError: 'mesh_size'\n", encoding="utf-8")
    proc = run_inproc("diagnose", str(log), "--json")
    assert proc.returncode == 1, proc.stderr
    data = last_json(proc)
    assert data["findings"] == [] and data["unrecognised"]["last_error"] == "KeyError: 'mesh_size'"
    human = run_inproc("diagnose", str(log))
    shown = bare_program(" ".join(human.stdout.split()))  # the program as printed, across the CLI's fold
    assert "Last error: KeyError: 'mesh_size'" in shown and "gc-wizard report" in shown


def test_cli_streams_a_file_with_crlf_and_ansi(tmp_path):
    log = tmp_path / "win.log"
    body = (REAL / "levanter_cudnn_841_compiled_860.log").read_text(encoding="utf-8")
    log.write_bytes(("\x1b[31m" + body.replace("\n", "\r\n") + "\x1b[0m").encode())
    proc = run_inproc("diagnose", str(log), "--json")
    assert [f["id"] for f in last_json(proc)["findings"]] == ["cudnn_version_mismatch"]


def test_per_id_counts_cover_the_new_ids():
    counts = collections.Counter(log.expected for log in CORPUS)
    for new_id in ("host_unreachable", "wrong_graphcast_package", "jax_too_new", "xarray_incompatible"):
        assert counts[new_id] >= 1, new_id


def test_every_pattern_is_justified_by_a_real_log_or_an_upstream_string():
    """Each regex in known_failures.yaml has a comment above it (in its group) naming a corpus log or
    `upstream:` source; a named corpus log must exist, and a pattern no real log matches must cite upstream."""
    from wizard.verify.diagnose import KNOWN_FAILURES_PATH, clean_log_text

    lines = KNOWN_FAILURES_PATH.read_text(encoding="utf-8").split("\n")
    texts = [clean_log_text(log.text()) for log in CORPUS]
    problems = []
    for index, line in enumerate(lines):
        if not re.match(r"^    - (?:match: )?'", line):
            continue
        comments, j = [], index - 1
        while j >= 0 and re.match(r"^    (- '|- match: '|  with: '|#)", lines[j]):
            if lines[j].lstrip().startswith("#"):
                comments.append(lines[j])
            j -= 1
        cited = " ".join(comments)
        for name in re.findall(r"[\w.-]+\.log", cited):
            if not (REAL / name).exists() and not (REAL.parent / name).exists():
                problems.append(f"line {index + 1}: cites a log that does not exist: {name}")
        pattern = re.compile(__import__("yaml").safe_load(line.strip()[2:].removeprefix("match: ")), re.MULTILINE)
        matched = any(pattern.search(text) for text in texts)
        if not matched and "upstream:" not in cited:
            problems.append(f"line {index + 1}: no real log matches and no upstream source is cited: {line.strip()}")
        if matched and not re.search(r"\.log|upstream:", cited):
            problems.append(f"line {index + 1}: no citation: {line.strip()}")
    assert not problems, "\n".join(problems)


def test_unrecognised_names_the_failed_install_step():
    text = ("\n===== 2026-11-22T18:34:01+00:00  install-requirements: Install the 1 pinned packages\n"
            "$ uv pip install pkg-a==1.0\n"
            "  × No solution found when resolving dependencies:\n"
            "error: some resolver trouble nobody has catalogued\n"
            "===== install-requirements: FAILED (exit status 1) in 0.2 s\n")
    summary = unrecognised(text)
    assert summary.step == "the install step install-requirements (Install the 1 pinned packages), exit status 1"
    assert summary.last_error == "error: some resolver trouble nobody has catalogued"


def test_unreachable_host_fix_names_the_host_and_the_local_source():
    text = (REAL / "pip_git_clone_could_not_resolve_github.log").read_text(encoding="utf-8")
    (finding,) = diagnose_text(text)
    assert finding.id == "host_unreachable"
    assert finding.fix.startswith("This server cannot reach github.com.") and "--graphcast-src" in finding.fix
    index = diagnose_text((REAL / "uv_corporate_no_such_host.log").read_text(encoding="utf-8"))[0]
    assert "cannot reach pypi.org" in index.fix and "--find-links" in index.fix


def test_a_log_without_line_ends_is_read_in_bounded_pieces(monkeypatch):
    """A "line" far longer than a piece (a binary blob, a progress bar that never ends its line) is cut where
    the piece ends, and a message right after it is still found, with the tail kept for the summary."""
    import collections

    from wizard.verify.diagnose import scan_stream

    monkeypatch.setattr(diagnose_module, "CHUNK_CHARS", 4096)
    blob = "\u2588" * 50_000  # one 50k-character line: twelve pieces
    text = blob + "\nLoaded runtime CuDNN library: 8.2.1 but source was compiled with: 8.6.0.\nend\n"
    tail: collections.deque = collections.deque(maxlen=3)
    scanner = scan_stream(io.StringIO(text), tail=tail)
    assert [f.id for f in scanner.findings()] == ["cudnn_version_mismatch"]
    assert "".join(tail).endswith("8.6.0.\nend\n")
