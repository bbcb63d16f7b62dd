"""Diagnosis over real messages in realistic logs: root cause first, exact ids, and nothing in clean logs."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tests.fixtures.cli import bare_program, run_inproc
from tests.fixtures.state import TESTS, last_json
from wizard.detect.facts import CudaLibrary, DiskInfo, Driver, EnvironmentInfo, Facts, Platform, PythonInfo
from wizard.errors import UserError
from wizard.verify import diagnose
from wizard.verify.diagnose import diagnose_text, gpu_recipe_for, load_known_failures, parse_known_failures

LOGS = TESTS / "logs"

#: Each log: the finding ids expected, root cause first, and for each the symptoms it folds in.
EXPECTED: dict[str, list[tuple[str, list[str]]]] = {
    "seed000_cudnn821_notebook.log": [("cudnn_version_mismatch", ["dnn_library_init_failed"])],
    "seed001_outdated_cuda_micromamba.log": [("cuda_component_outdated", ["cpu_fallback"])],
    "cudnn_850_torch_first.log": [("cudnn_version_mismatch", ["dnn_library_init_failed"])],
    "cudnn_8700_cpu_fallback.log": [("cudnn_version_mismatch", ["cpu_fallback"])],
    "cublas_older_cpu_fallback.log": [("cuda_component_outdated", ["cpu_fallback"])],
    "outdated_cudnn_9100_conda.log": [("cuda_component_outdated", ["cpu_fallback"])],
    "unable_to_load_cudnn9.log": [("cuda_library_missing", ["cpu_fallback"])],
    "missing_libcudart12.log": [("cuda_library_missing", ["cpu_fallback"])],
    "cudnn_cnn_infer_missing.log": [("cudnn_sublibrary_missing", ["cuda_library_missing"])],
    "cpu_jaxlib_on_gpu_host.log": [("cpu_only_jaxlib", ["cpu_fallback"])],  # its "Falling back to cpu." folded in
    "old_jax_no_gpu_found.log": [("cpu_only_jaxlib", ["cpu_fallback"])],
    # cudart_stub's "Could not find cuda drivers" means libcudart did not load (real threads in
    # tests/logs/real: deepface#739, nixpkgs#560004), not that the driver is missing.
    "plugin_no_gpu_driver.log": [("cuda_library_missing", ["no_cuda_device"])],
    "plugin_no_visible_gpu.log": [("no_cuda_device", [])],
    "cuinit_no_device.log": [("no_cuda_device", ["cpu_fallback"])],
    "driver_not_loaded.log": [("driver_not_loaded", ["no_cuda_device", "cpu_fallback"])],
    "driver_library_mismatch.log": [("driver_library_mismatch", ["no_cuda_device", "cpu_fallback"])],
    "driver_too_old_h100_ptx.log": [("driver_too_old", ["driver_older_than_ptxas"])],
    "driver_older_than_ptxas.log": [("driver_older_than_ptxas", [])],
    "gpu_full_no_devices.log": [("gpu_out_of_memory", ["no_cuda_device", "cpu_fallback"])],
    "cudnn_handle_gpu_full.log": [("gpu_out_of_memory", ["dnn_library_init_failed"])],
    "cudnn_handle_memory_free.log": [("dnn_library_init_failed", [])],
    "dnn_init_failed_only.log": [("dnn_library_init_failed", [])],
    "oom_graphcast_025deg.log": [("gpu_out_of_memory", [])],
    "oom_failed_allocate_request.log": [("gpu_out_of_memory", [])],
    "ptxas_unsupported_version.log": [("ptxas_problem", [])],
    "ptxas_too_old_h100.log": [("ptxas_problem", [])],
    "ptxas_requires_118.log": [("ptxas_problem", [])],
    "ptxas_bug_1231.log": [("ptxas_problem", [])],
    "ptxas_and_cuda_not_found.log": [("cuda_toolkit_not_found", ["ptxas_problem"])],
    "libdevice_not_found.log": [("cuda_toolkit_not_found", [])],
    "numpy2_jaxlib0423.log": [("numpy2_incompatible", [])],
    "pjrt_plugin_mismatch.log": [("pjrt_api_mismatch", [])],
    "jaxlib_too_old.log": [("jaxlib_mismatch", [])],
    "gencast_commit_jax_tree.log": [("jax_too_old_for_graphcast", [])],
    "graphcast_not_installed.log": [("graphcast_missing", [])],
    "haiku_without_flax.log": [("python_module_missing", [])],
    # Clean logs: a successful GPU session, a verify run, an install, notebook noise.
    "clean_jax_gpu_session.log": [],
    "clean_verify_cpu_quick.log": [],
    "clean_uv_pip_install.log": [],
    "clean_notebook_noise.log": [],
}

#: The ids interface.md fixes; every one must exist in the knowledge file.
FIXED_IDS = {
    "cudnn_version_mismatch", "cuda_component_outdated", "cuda_library_missing", "cudnn_sublibrary_missing",
    "cpu_fallback", "no_cuda_device", "gpu_out_of_memory", "driver_older_than_ptxas", "ptxas_problem",
    "numpy2_incompatible", "jax_too_old_for_graphcast", "pjrt_api_mismatch", "driver_not_loaded", "driver_too_old",
}


def _facts(*, cuda_driver: str | None = "12.2", libraries: tuple[CudaLibrary, ...] = ()) -> Facts:
    return Facts(
        driver=Driver(version="535.104.05" if cuda_driver else None, cuda_driver_version=cuda_driver, source="nvml")
        if cuda_driver else None,
        gpus=(), cuda_libraries=libraries,
        python=PythonInfo(version="3.11.7", executable="/usr/bin/python3"),
        environment=EnvironmentInfo(kind="conda", path="/home/u/.conda/envs/gc"),
        disk=DiskInfo(state_free_gib=40.0), platform=Platform(os="linux", arch="x86_64", glibc="2.35"),
    )


def test_every_log_is_listed():
    assert sorted(p.name for p in LOGS.glob("*.log")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_log_diagnosis(name):
    findings = diagnose_text((LOGS / name).read_text(encoding="utf-8"))
    got = [(f.id, sorted(f.explains)) for f in findings]
    assert got == [(i, sorted(e)) for i, e in EXPECTED[name]], got
    text = (LOGS / name).read_text(encoding="utf-8")
    for finding in findings:
        assert finding.evidence, finding.id
        assert finding.title and finding.explanation and finding.fix
        assert "{" not in finding.explanation + finding.fix, "unfilled placeholder"
        # Evidence lines are real pieces of lines of the log (a window, `…` where cut; whitespace-trimmed).
        for line in finding.evidence:
            assert line.strip("…") in text or line.startswith("… and ")


def test_fixed_ids_are_all_known():
    ids = {entry.id for entry in load_known_failures()}
    assert FIXED_IDS <= ids


def test_seed_root_cause_names_versions_and_evidence():
    findings = diagnose_text((LOGS / "seed000_cudnn821_notebook.log").read_text(encoding="utf-8"))
    root = findings[0]
    assert "8.6.0" in root.explanation and "8.2.1" in root.explanation
    assert root.evidence[0].startswith("Loaded runtime CuDNN library: 8.2.1")
    assert any("DNN library initialization failed" in line for line in root.evidence)
    assert "jax0.4.23-cuda12-cudnn89" in root.fix
    assert root.to_dict()["explains"] == ["dnn_library_init_failed"]


def test_facts_name_the_shadowing_folder():
    cudnn = CudaLibrary(name="cudnn", version="8.2.1", path="/opt/cudnn-8.2/lib64/libcudnn.so.8.2.1",
                        found_via="LD_LIBRARY_PATH", loads_first=True)
    wheel = CudaLibrary(name="cudnn", version="8.9.7", path="/env/lib/python3.11/site-packages/nvidia/cudnn/lib/"
                        "libcudnn.so.8", found_via="wheel")
    text = (LOGS / "seed000_cudnn821_notebook.log").read_text(encoding="utf-8")
    plain = diagnose_text(text)[0]
    sharp = diagnose_text(text, _facts(libraries=(cudnn, wheel)))[0]
    assert "/opt/cudnn-8.2/lib64" not in plain.fix
    assert "Remove /opt/cudnn-8.2/lib64 (cudnn 8.2.1) from LD_LIBRARY_PATH" in sharp.fix
    assert "site-packages" not in sharp.fix  # the wheel's own cuDNN is not blamed


def test_facts_pick_the_recipe_for_the_driver():
    text = (LOGS / "seed001_outdated_cuda_micromamba.log").read_text(encoding="utf-8")
    cuda11 = diagnose_text(text, _facts(cuda_driver="11.4"))[0]
    assert "`jax0.4.23-cuda11-cudnn86`" in cuda11.fix
    assert gpu_recipe_for(_facts(cuda_driver="12.2")) == "jax0.4.23-cuda12-cudnn89"
    assert gpu_recipe_for(None) == "jax0.4.23-cuda12-cudnn89"


def test_outdated_component_explanation_uses_the_minimum():
    finding = diagnose_text((LOGS / "seed001_outdated_cuda_micromamba.log").read_text(encoding="utf-8"))[0]
    assert "installed 11080" in finding.explanation and "at least 12010" in finding.explanation


def test_memory_check_separates_full_gpu_from_plain_failure():
    full = "Memory usage: 7995392 bytes free, 11554717696 bytes total.\nDNN library initialization failed"
    roomy = "Memory usage: 10894180352 bytes free, 11554717696 bytes total.\nDNN library initialization failed"
    assert [f.id for f in diagnose_text(full)] == ["gpu_out_of_memory"]
    assert [f.id for f in diagnose_text(roomy)] == ["dnn_library_init_failed"]


def test_ansi_and_carriage_returns_are_cleaned():
    text = "\x1b[31mXlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed.\x1b[0m\r\n"
    (finding,) = diagnose_text(text)
    assert finding.evidence == ("XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed.",)


def test_bad_knowledge_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "kf.yaml"
    with pytest.raises(UserError, match=r"kf\.yaml: entry 'x': bad regex"):
        parse_known_failures("- {id: x, title: t, patterns: ['(unclosed'], explanation: e, fix: f}\n", bad)
    with pytest.raises(UserError, match=r"entry 'x': 'explains' names unknown id 'nope'"):
        parse_known_failures("- {id: x, title: t, patterns: ['a'], explanation: e, fix: f, explains: [nope]}\n",
                             bad)
    with pytest.raises(UserError, match=r"entry 'x': missing 'patterns'"):
        parse_known_failures("- {id: x, title: t, explanation: e, fix: f}\n", bad)
    with pytest.raises(UserError, match=r"entry 2: missing 'id'"):
        parse_known_failures("- {id: x, title: t, patterns: [a], explanation: e, fix: f}\n"
                             "- {title: t, patterns: [b], explanation: e, fix: f}\n", bad)


# --------------------------------------------------------------------------------------------------
# The CLI


def test_cli_diagnose_file_human():
    proc = run_inproc("diagnose", str(LOGS / "seed000_cudnn821_notebook.log"))
    assert proc.returncode == 1, proc.stderr
    assert "[cudnn_version_mismatch]" in proc.stdout
    assert "Fix: " in proc.stdout and "Evidence:" in proc.stdout
    assert "> Loaded runtime CuDNN library: 8.2.1 but source was compiled with: 8.6.0." in proc.stdout


def test_cli_diagnose_stdin_json():
    text = (LOGS / "seed001_outdated_cuda_micromamba.log").read_text(encoding="utf-8")
    proc = run_inproc("diagnose", "-", "--json", input=text)
    assert proc.returncode == 1, proc.stderr
    data = last_json(proc)
    assert [f["id"] for f in data["findings"]] == ["cuda_component_outdated"]
    assert set(data["findings"][0]) >= {"id", "title", "explanation", "fix", "evidence"}


def test_cli_diagnose_clean_log_exits_zero():
    proc = run_inproc("diagnose", str(LOGS / "clean_notebook_noise.log"), "--json")
    assert proc.returncode == 0, proc.stderr
    assert last_json(proc)["findings"] == []
    human = run_inproc("diagnose", str(LOGS / "clean_uv_pip_install.log"))
    assert human.returncode == 0 and "No known problem found" in human.stdout


def test_cli_diagnose_unreadable_file_names_it(tmp_path):
    missing = tmp_path / "nope.log"
    proc = run_inproc("diagnose", str(missing))
    assert proc.returncode == 2
    assert str(missing) in proc.stderr and "Traceback" not in proc.stderr


def test_cli_diagnose_names_the_folder_detection_finds(tmp_path):
    # A folder shaped like the seed's old cuDNN install on LD_LIBRARY_PATH (detection reads file names).
    folder = tmp_path / "cudnn-8.2" / "lib64"
    folder.mkdir(parents=True)
    (folder / "libcudnn.so.8.2.1").write_bytes(b"")
    (folder / "libcudnn.so.8").symlink_to("libcudnn.so.8.2.1")
    proc = run_inproc("diagnose", str(LOGS / "seed000_cudnn821_notebook.log"), "--json",
                   env={"LD_LIBRARY_PATH": str(folder)})
    assert proc.returncode == 1, proc.stderr
    fix = last_json(proc)["findings"][0]["fix"]
    assert fix.startswith(f"Remove {folder} (cudnn 8.2.1) from LD_LIBRARY_PATH")


# --- fixes name recipes of the stack that was installed -------------------------------------------------------------
_CPU_FALLBACK_LOG = ("RuntimeError: JAX is using the cpu backend, but this environment is meant to run on the GPU: "
                     "jax-cuda12-plugin is installed but found no usable CUDA device.\n")


def _env_from(tmp_path: Path, recipe: str) -> Path:
    """A real (tiny) venv carrying gc-wizard's marker for `recipe`, as an install leaves it."""
    import json
    import venv

    env = tmp_path / f"env-{recipe}"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(env)
    (env / "gc-wizard-env.json").write_text(json.dumps({"recipe": recipe, "title": recipe, "backend": "gpu",
                                                        "runtime_env": {}, "created": "2026-11-22T21:00:00"}))
    return env


def test_cpu_fallback_fix_names_the_cpu_recipe_of_the_installed_stack(tmp_path):
    """Issue 15's GPU-less check of jax0.10.2-cuda12: the fix must offer jax0.10.2-cpu (same GraphCast v0.2),
    not the 0.4.23 recipes; the 0.4.23 stack keeps its own; facts with a CUDA 13 driver pick the CUDA 13 build."""
    from wizard.verify.causes import Context

    (finding,) = diagnose_text(_CPU_FALLBACK_LOG, context=Context(recipe="jax0.10.2-cuda12"))
    assert finding.id == "cpu_fallback"
    assert "gc-wizard install jax0.10.2-cpu" in finding.fix and "gc-wizard install jax0.10.2-cuda12" in finding.fix
    assert "0.4.23" not in finding.fix
    (finding,) = diagnose_text(_CPU_FALLBACK_LOG, context=Context(recipe="jax0.4.23-cuda11-cudnn86"))
    assert "gc-wizard install jax0.4.23-cpu" in finding.fix and "jax0.4.23-cuda11-cudnn86" in finding.fix
    facts = _facts(cuda_driver="13.0")
    (finding,) = diagnose_text(_CPU_FALLBACK_LOG, facts, context=Context(recipe="jax0.10.2-cuda12"))
    assert "gc-wizard install jax0.10.2-cuda13" in finding.fix and "jax0.10.2-cpu" in finding.fix
    (finding,) = diagnose_text(_CPU_FALLBACK_LOG)  # nothing known about the environment: the 0.4.23 defaults
    assert "jax0.4.23-cpu" in finding.fix and "{" not in finding.fix


def test_diagnose_env_names_the_installed_stacks_cpu_recipe(tmp_path):
    """The real CLI: `diagnose --env DIR LOG` reads the environment's marker, and its fix stays in that stack."""
    log = tmp_path / "verify.log"
    log.write_text(_CPU_FALLBACK_LOG)
    for recipe, cpu in (("jax0.10.2-cuda12", "jax0.10.2-cpu"), ("jax0.10.2-cuda13", "jax0.10.2-cpu"),
                        ("jax0.4.23-cuda12-cudnn89", "jax0.4.23-cpu")):
        proc = run_inproc("diagnose", "--env", str(_env_from(tmp_path, recipe)), str(log), "--json")
        result = last_json(proc)
        assert proc.returncode == 1 and result["environment"]["recipe"] == recipe, proc.stderr
        fallback = next(f for f in result["findings"] if f["id"] == "cpu_fallback")
        assert f"gc-wizard install {cpu}`" in bare_program(fallback["fix"]), fallback["fix"]
        other = "jax0.4.23" if cpu.startswith("jax0.10.2") else "jax0.10.2"
        assert other not in fallback["fix"]


def test_a_conditional_pattern_is_validated_and_counts_only_with_its_surroundings(tmp_path):
    path = tmp_path / "kf.yaml"
    doc = ("- id: in_box\n  title: t\n  patterns:\n    - {match: 'thing failed', with: 'inside the box'}\n"
           "  explanation: e\n  fix: f\n")
    entries = parse_known_failures(doc, path)
    assert diagnose_text("thing failed\n", known_failures=entries) == []
    # the surroundings may come before or after the match, far away in the log
    far = "inside the box\n" + "noise\n" * 5000 + "thing failed\n"
    assert [f.id for f in diagnose_text(far, known_failures=entries)] == ["in_box"]
    for bad, problem in (("{match: 'a'}", "needs 'match' and 'with' or 'without'"),
                         ("{match: 'a', with: '(open'}", "bad regex '(open'"),
                         ("{match: 'a', without: '(open'}", "bad regex '(open'"),
                         ("{with: 'a', without: 'b'}", "needs 'match' and 'with' or 'without'"),
                         ("{match: 'a', with: 'b', extra: 'c'}", "needs 'match' and 'with' or 'without'")):
        with pytest.raises(UserError, match=rf"kf\.yaml: entry 'x': .*{re.escape(problem)}"):
            parse_known_failures(f"- {{id: x, title: t, patterns: [{bad}], explanation: e, fix: f}}\n", path)


def test_an_absence_pattern_counts_only_when_its_line_is_nowhere_in_the_log(tmp_path, monkeypatch):
    """`without`: the match counts only when the other line is missing from the whole log, before or after it,
    in the same stream piece or another; beside `with`, both must hold."""
    import io

    from wizard.verify import diagnose as diagnose_module

    doc = ("- id: alone\n  title: t\n  patterns:\n    - {match: 'thing failed', without: 'because of \\w+'}\n"
           "    - {match: 'other failed', with: 'inside the box', without: 'the lid was open'}\n"
           "  explanation: e\n  fix: f\n")
    entries = parse_known_failures(doc, tmp_path / "kf.yaml")
    assert [f.id for f in diagnose_text("thing failed\n", known_failures=entries)] == ["alone"]
    noise = "step ok\n" * 4000
    for text in ("because of cuInit\nthing failed\n", "thing failed\n" + noise + "because of dlopen\n",
                 "other failed\n", "inside the box\nother failed\nthe lid was open\n"):
        assert diagnose_text(text, known_failures=entries) == [], text
    assert [f.id for f in diagnose_text("inside the box\n" + noise + "other failed\n", known_failures=entries)] == [
        "alone"]
    # across stream pieces: the ruling-out line far after the match still rules it out
    monkeypatch.setattr(diagnose_module, "CHUNK_CHARS", 4096)
    streamed = diagnose_module.diagnose_stream(io.StringIO("thing failed\n" + noise + "because of x\n"),
                                               known_failures=entries)
    assert streamed == []


def test_a_conditional_match_across_stream_pieces(monkeypatch):
    """The condition met in one piece of a big log and the match in another still count (the scanner keeps
    conditional matches to the end)."""
    import io

    from wizard.verify import diagnose as diagnose_module

    monkeypatch.setattr(diagnose_module, "CHUNK_CHARS", 4096)
    text = ("Linux host 5.15.153.1-microsoft-standard-WSL2\n" + "step ok\n" * 4000
            + "E cuda_driver.cc:268] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n")
    ids = [f.id for f in diagnose_module.diagnose_stream(io.StringIO(text))]
    assert ids[0] == "wsl_libcuda_path" and ids == [f.id for f in diagnose_text(text)]


def test_an_optional_part_is_left_out_when_the_log_does_not_give_its_value(tmp_path):
    doc = ("- id: x\n  title: t\n  patterns: ['needs (?P<release>\\d+)|needs more']\n"
           "  explanation: 'It needs a newer one [[(release {release})]], see: the fix.'\n  fix: f\n")
    entries = parse_known_failures(doc, tmp_path / "kf.yaml")
    (given,) = diagnose_text("needs 12\n", known_failures=entries)
    (missing,) = diagnose_text("needs more\n", known_failures=entries)
    assert given.explanation == "It needs a newer one (release 12), see: the fix."
    assert missing.explanation == "It needs a newer one, see: the fix."


def test_no_cuda_device_ranks_the_causes_of_clusters_and_wsl_with_how_to_tell_them_apart():
    from wizard.verify.causes import Context, rank

    ids = [cause["id"] for cause in rank("no_cuda_device", Context(driver_present=True))]
    assert ids[0] == "no_cuda_device"
    assert {"slurm_gpu_binding", "gpu_busy_exclusive_process", "wsl_libcuda_path"} <= set(ids)
    # a machine with no driver at all: that comes first, the others still listed
    assert rank("no_cuda_device", Context(driver_present=False))[0]["id"] == "driver_not_loaded"


def test_anchors_are_looked_up_in_distinct_lines_and_none_is_lost():
    """A big log is mostly the same lines with other numbers: anchors are looked up in its distinct lines with
    digits read as 0 (one copy of a training loop's line, not a million), and every anchor that is in a line
    is still found there, whatever its digits, its neighbours or the characters around it."""
    noise = "".join(f"step {n}: loss={n / 7:.5f} lr=3e-4 \u2588\u2588 {n % 100}%\n" for n in range(20000))
    haystack = diagnose._anchor_haystack(noise)
    assert len(haystack) < len(noise.encode()) // 1000
    rng = random.Random(25)
    for _ in range(300):
        line = rng.choice(noise.splitlines()) if rng.random() < 0.5 else "".join(
            rng.choice("ab cd9876543210:_.\u2588'") for _ in range(rng.randint(1, 40)))
        start = rng.randrange(len(line))
        anchor = line[start:start + rng.randint(1, 12)]
        text = noise + line + "\n" + noise[:500]
        assert diagnose._anchor_key(anchor) in diagnose._anchor_haystack(text), (anchor, line)


def test_a_pattern_that_starts_with_an_alternation_has_an_anchor_per_branch():
    """A pattern led by a group of wordings (`(?:ECCODES ERROR|GRIB ERROR|…)…`) is still skipped on a piece
    holding none of them: its anchors are one literal per branch, not none."""
    pattern = re.compile(diagnose.tolerant_pattern(
        r"(?:ECCODES ERROR|GribInternalError|gribapi\.errors\.\w+)[^\n]*?(?P<reason>Decoding invalid)"))
    assert diagnose.literal_anchor(pattern) == ("ECCODES", "GribInternalError", "gribapi.errors.")
    named = re.compile(r"(?P<what>cudnn|nvrtc)\.s\d")
    assert diagnose.literal_anchor(named) == ("cudnn", "nvrtc")
    unanchored = [p.pattern[:60] for entry in diagnose.load_known_failures()
                  for p, anchors in zip(entry.patterns, entry.anchors, strict=True) if anchors is None]
    assert len(unanchored) <= 2, unanchored


def test_a_big_logs_wait_is_said_as_a_range_not_one_number(tmp_path, monkeypatch):
    """Eighth hostile pass M1: one number ("about 25 s") for a one-line 250 MB log that took 130 s on a busy
    machine. The wait is said as a range, from the fastest rate seen to a busy machine's."""
    import wizard.flows.diagnosis as command  # the reading is the core's since walk 26 #12

    log = tmp_path / "big.log"
    log.write_text("ok\n" * 1000)
    monkeypatch.setattr(command, "BIG_LOG_BYTES", 10)  # what a 250 MB log is told, on a small one
    proc = run_inproc("diagnose", str(log))
    assert proc.returncode == 0, proc.stderr
    assert f"reading {log} (0 MB) in pieces; this takes 1 s to 1 s (longer on a busy machine)" in proc.stderr
    assert command._duration(125) == "2 min" and command._duration(12.4) == "12 s"


def test_capped_blocks_cut_only_overlong_lines_to_their_ends_across_block_edges(monkeypatch):
    """24th hostile pass (part A) P2: the reader cuts a line longer than twice LINE_KEPT to its first and last
    LINE_KEPT characters (two lines), at "\\n" or "\\r", wherever the blocks it reads end; every other line is whole."""
    import io

    from wizard.verify import diagnose

    monkeypatch.setattr(diagnose, "LINE_KEPT", 5)
    monkeypatch.setattr(diagnose, "CHUNK_CHARS", 7)

    def expected(text: str) -> tuple[str, int]:
        parts = re.split(r"([\r\n])", text)
        out, cut = [], 0
        for index in range(0, len(parts), 2):
            line = parts[index]
            if len(line) > 10:
                line, cut = line[:5] + "\n" + line[-5:], cut + 1
            out += [line, parts[index + 1] if index + 1 < len(parts) else ""]
        return "".join(out), cut

    chance = random.Random(24)
    for _ in range(3000):
        text = "x" * chance.randint(0, 40) + "".join(chance.choice("abcab\n\r") for _ in range(chance.randint(0, 60)))
        cuts = diagnose.LineCuts()
        assert ("".join(diagnose.capped_blocks(io.StringIO(text), cuts)), cuts.count) == expected(text), repr(text)


def _program(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)


def test_no_cuda_device_on_a_login_node_where_slurm_answers_says_add_slurm_first(tmp_path, monkeypatch):
    """Walk 24 #3: `verify --env GPU_ENV` pasted without `--slurm` ran on the login node and failed with
    no_cuda_device, whose causes named CUDA_VISIBLE_DEVICES, exclusive mode and WSL, never the node it ran on."""
    from tests.fixtures.facts import facts_with
    from wizard.verify import check
    from wizard.verify.causes import Context, rank

    monkeypatch.setenv("PATH", str(tmp_path))
    no_gpu = facts_with((), 64)
    assert not check._login_node(no_gpu)  # no srun: not a cluster
    _program(tmp_path, "srun", "exit 0")
    _program(tmp_path, "sinfo", "echo 'gpu*'")
    assert check._login_node(no_gpu)
    first = rank("no_cuda_device", Context(driver_present=True, slurm_login_node=True))[0]
    assert first["id"] == "slurm_login_node" and "--slurm" in first["why"]
    assert "slurm_login_node" not in [c["id"] for c in rank("no_cuda_device", Context(driver_present=True))]


def test_a_login_node_needs_what_detection_says_no_gpu_and_a_slurm_that_answers(tmp_path, monkeypatch):
    """Walk 33 #1: on a GPU server with Slurm's client programs but no cluster (`srun` on PATH, sinfo failing), with
    two GPUs detected, a failed check ranked "a login node with no GPU, and Slurm is here" first. The check, the
    first screen and the plain walk-through ask the one test (`gpu_node_offer`): detection's facts and sinfo."""
    from tests.fixtures.facts import facts_with
    from wizard.detect import slurm_cluster
    from wizard.flows.machine import slurm_offer
    from wizard.verify import check

    monkeypatch.setenv("PATH", str(tmp_path))
    _program(tmp_path, "srun", "exit 0")
    _program(tmp_path, "sinfo", "echo 'slurm_load_partitions: Unable to contact slurm controller' >&2; exit 1")
    two_gpus, no_gpu = facts_with((81920, 81920), 64), facts_with((), 64)
    assert not check._login_node(no_gpu) and slurm_offer(no_gpu) is None  # Slurm does not answer: no cluster
    _program(tmp_path, "sinfo", "echo 'gpu*'")
    assert not check._login_node(two_gpus) and slurm_offer(two_gpus) is None  # GPUs here: not a login node
    assert check._login_node(no_gpu) and slurm_offer(no_gpu) == ["gpu"]
    monkeypatch.setattr("wizard.detect.chain.detect", lambda: two_gpus)  # no facts given: detection is asked
    assert slurm_cluster.gpu_node_offer() is None
