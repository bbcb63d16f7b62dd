"""No silent miss: a log with a failure the catalogue cannot explain is "unrecognised" (exit 1, its last error
quoted), whatever shape the failing line has; a clean log stays clean."""

from __future__ import annotations

import pytest

from tests.corpus import CLEAN, load_corpus
from tests.fixtures.cli import run_inproc
from tests.fixtures.state import TESTS, last_json
from wizard.verify.diagnose import unrecognised

FAILING = {
    "loguru": "2026-01-01 12:00:00.123 | ERROR    | ai_models.model:run:123 - the GRIB field tp06 is missing",
    "jax-stack": "jax._src.source_info_util.JaxStackTraceBeforeTransformation: NotImplementedError: MLIR "
                 "translation rule for primitive 'cumsum' not found for platform METAL",
    "bad-zip": "  File \"x.py\", line 3, in <module>\nzipfile.BadZipFile: File is not a zip file",
    "hdf5": "HDF5-DIAG: Error detected in HDF5 (1.14.2) thread 0:\n  #000: H5F.c line 836 in H5Fopen(): unable to open",
    "nan-field": "Running model...\nNaN values found in field 2t at step 6",
    "prose-prefix": "Prediction failed with ValueError: operands could not be broadcast together with shapes (2,) (3,)",
    "coloured": "\x1b[31mRuntimeError: CUDA error: an illegal memory access was encountered\x1b[0m",
    "carriage-return": "Downloading 10%\rDownloading 100%\rOSError: [Errno 28] No space left on device",
    "absl-status": "INTERNAL: external/xla/xla/service/gpu/fusions/fusion.cc:42: something new went wrong",
    "quoted-in-prose": "all subprocesses fail due to a `RuntimeError: CUDA error: something new` error.",
    "check-failed": "F0101 00:00:00.000000 1 foo.cc:12] Check failed: status.ok() something new",
    "glog-error": "2026-01-01 00:00:00.000000: E external/xla/xla/pjrt/pjrt_client.cc:99] Execution of replica 0 "
                  "failed: a new problem",
    "tool-error": "nvidia-container-cli: mount error: file creation failed: /var/lib/something/new",
    "uv-cross": "  × Failed to build `some-new-package==1.0`",
    "terminate": "terminate called after throwing an instance of 'std::logic_error'",
    "markdown-bold": "**RuntimeError: something new in a post\nmore words**",
    "nccl-warn": "host:1:2 [0] misc/socket.cc:99 NCCL WARN something new went wrong",
    "rich-box": "My Tool Error │ │ something new │",
    "torch-rank-glog": "[rank3]:[E0101 00:00:00.000000000 Something.cpp:1] something new failed",
    "cuda-error-word": "Some CUDA Error: something new on this GPU",
    "quoted-tool-error": "`sbatch: error: something new about this job`",
    "cpu-fallback": "WARNING:2025-01-01 00:00:00,000:jax._src.xla_bridge:999: Something new. Falling back to cpu.",
    "pip-retries": "WARNING: Retrying (Retry(total=4)) after connection broken by 'NewConnectionError(…)': /simple/x/",
    "bare-attribute-error": "module 'somelib' has no attribute 'something_new'",
    "ffi-handler": "No FFI handler registered for something_new_ffi",
    "quoted-status": "`INTERNAL: Failed to launch CUDA kernel: fusion_1 with block dimensions: 1x1x1: something new`",
    "cuda-status-word": "custom call failed: CUDA_ERROR_SOMETHING_NEW: an unexpected thing happened",
    "oci-hook": "container_linux.go:265: starting container process caused \"process_linux.go:368: container init "
                "caused \\\"error running hook: exit status 1, stdout: , stderr: something new\\\"\"",
    "resolver-internal": "pip._vendor.resolvelib.resolvers.ResolutionImpossible: [RequirementInformation(requirement="
                         "SpecifierRequirement('somenewpkg==1.0'), parent=None)]",
    "quoted-pip-error": "I keep getting \"ERROR: Could not do something new\" after the install",
    "kernel-oom": "Sep 29 02:47:51 host kernel: Out of memory: Killed process 42 (python) total-vm:1kB",
    "torch-cuda-init": "UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Error 999: "
                       "something new",
    "cxx-what": "terminate called recursively\n  what():  SomeLibrary Error 7: something new",
    "cxx-what-alone": "what(): something new went wrong in the worker",
    "docker-error": "Error response from daemon: could not select device driver \"something-new\"",
    "bare-error-prefix": "Error: failed to start containers: 0123456789abcdef",
    "azure-annotation": "##[error]Process completed with exit code 3 after something new",
    "github-annotation": "::error::something new failed in this step",
    "prose-error-word": "Runtime error: something new happened here",
    "python-fatal": "Fatal Python error: Segmentation fault",
    "cut-traceback": "Traceback (most recent call last):\n  File \"run.py\", line 9, in <module>\n    main()\n  File "
                     "\"run.py\", line 5, in main\n    something_new()",
    "pubgrub-derivation": "  Because some-new-package (1.0) depends on other-package (>=2) and other-package has no "
                          "versions above 1.9,",
    # a check's own refusal with no error word (batch 44: such logs looked clean once their entry was left out)
    "compiled-with": "Loaded runtime SomeLib library: 3.1 but source was compiled with: 3.2. Something new.",
    "versions-mismatch": "somelib compiled (7102) and runtime (7005) versions mismatch",
    "insufficient-driver": "Cannot get devices: CUDA driver version is insufficient for CUDA runtime version",
    "no-device": " no CUDA-capable device is detected at some/new/place.cpp:34",
    "numpy2-wrapped": "A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.9.9 as it may crash.",
    "not-defined-option": "sometool fatal : Value 'sm_99' is not defined for option 'gpu-new'",
    "driver-too-old": "The NVIDIA driver on your system is too old (found version 9999).",
    "newer-incompatible": "somelib version 9.9 is newer than and incompatible with otherlib version 1.0.",
    "bare-no-distribution": "No matching distribution found for some-new-package>=1.0",
    "no-kernel-image": "[x][y.cu:1]:launch failed: no kernel image is available for execution on the device",
    "cannot-dlopen": "W gpu_device.cc:1] Cannot dlopen some GPU libraries. Please make sure the missing ones are there.",
    "runtime-error-number": "/some/file.cuh@54: CUDA Runtime Error(46): something new",
    "markdown-check-failed": "_Check_ failed: result == ncclSuccess (1 vs. 0)  something _new_",
    "killed-after-progress": "Loading shards:  38%|███     | 3/8 [00:02<00:03,  1.28it/s]Killed",
    # batch 47: an XLA error line quoted in markdown, and the coordination service's verdict without a glog prefix
    "quoted-glog": "> 2026-01-01 00:00:00.000000: E external/xla/xla/pjrt/distributed/client.cc:1] something new",
    "coordination-error": "/job:jax_worker/replica:0/task:1 has been set to ERROR in coordination service: "
                          "something new",
    # batch 49: an exception class without Error in its name, raised from a library's exceptions module
    "exceptions-module": "google.api_core.exceptions.Forbidden: 403 GET https://example.invalid/something new",
    # batch 50: onnxruntime's own error lines
    "onnxruntime-log": "2024-01-01 00:00:00.000000000 [E:onnxruntime:, sequential_executor.cc:1 Execute] something new",
    "onnxruntime-status": "[ONNXRuntimeError] : 1 : FAIL : something new",
    "onnxruntime-ep-error": "EP Error something new in the CUDA provider",
    "pip-conflict-block": "The conflict is caused by:\n    something-new 1.0 depends on other==2",
    # a package built from source while installing: the compiler's and the linker's own lines, no exception name
    "gcc-fatal-header": "csrc/ops.cu:3:10: fatal error: something_new.h: No such file or directory\n"
                        "compilation terminated.",
    "gcc-error-line-only": "/tmp/pip-install-x/src/module.c:12: error: something new is not declared",
    "clang-error": "  src/new.cpp:7:1: error: unknown type name 'something_new'",
    "cc1-fatal": "cc1plus: fatal error: something/new.cpp: No such file or directory",
    "bare-fatal-error": "fatal error: something_new.h: No such file or directory",
    "ld-cannot-find": "/usr/bin/ld: cannot find -lsomethingnew: No such file or directory",
    "ld-gold-undefined": "ld.gold: new.o: in function `main': undefined reference to `something_new'",
}


@pytest.mark.parametrize("name", list(FAILING))
def test_every_shape_of_a_failing_line_is_seen(name):
    found = unrecognised(FAILING[name])
    assert found is not None and found.last_error != "no error line (the run stopped without one)"


@pytest.mark.parametrize("text", [
    "UserWarning: the default of X will change (not a failure)",
    "I1204 13:13:42.884638 139807170155648 xla_bridge.py:895] Unable to initialize backend 'tpu': INTERNAL: "
    "Failed to open libtpu.so: libtpu.so: cannot open shared object file: No such file or directory",
    "I1204 13:13:42.884638 139807170155648 xla_bridge.py:895] Unable to initialize backend 'rocm': module "
    "'jaxlib.xla_extension' has no attribute 'GpuAllocatorConfig'",
    "2019-02-19 15:41:04.314945: E external/org_tensorflow/tensorflow/stream_executor/cuda/cuda_driver.cc:844] "
    "failed to allocate 0B (0 bytes) from device: CUDA_ERROR_INVALID_VALUE: invalid argument",
    "E0000 00:00:1733000000.000000 4242 cuda_blas.cc:1418] Unable to register cuBLAS factory: Attempting to "
    "register factory for plugin cuBLAS when one has already been registered",
    "I0000 00:00:1700000000.000000 1234 service.cc:145] XLA service initialized; no IndexError here",
    "E0000 00:00:1700000000.000000 1234 cuda_dnn.cc:8310] Unable to register cuDNN factory: Attempting to register "
    "factory for plugin cuDNN when one has already been registered",
    # XLA's autotuning timer (xla/stream_executor/cuda/cuda_timer.cc): only the timing's accuracy suffers
    "2025-05-14 10:34:02.197166: E external/xla/xla/stream_executor/cuda/cuda_timer.cc:86] Delay kernel timed out: "
    "measured time has sub-optimal accuracy. There may be a missing warmup execution, please investigate in Nsight "
    "Systems.",
    "E0316 10:00:00.000000  4242 cuda_timer.cc:87] Delay kernel timed out: measured time has sub-optimal accuracy.",
    "Errors: 0, warnings: 2",
    "Error handling was improved in this release",
    "No Error: every check passed",
    "Epoch 3: Mean Squared Error: 0.0123, Mean Absolute Error: .081",
    "Validation Error: 12.5%",
])
def test_benign_lines_are_not_failures(text):
    assert unrecognised(text) is None


def test_clean_logs_stay_clean():
    clean = [log.text() for log in load_corpus() if log.expected == CLEAN]
    clean += [path.read_text() for path in (TESTS / "logs").glob("clean_*.log")]
    assert clean and all(unrecognised(text) is None for text in clean)


def test_the_cli_says_unrecognised_with_exit_1_and_the_line(tmp_path):
    log = tmp_path / "run.log"
    log.write_text(FAILING["loguru"] + "\n")
    proc = run_inproc("diagnose", str(log), "--json")
    assert proc.returncode == 1
    data = last_json(proc)
    assert "tp06 is missing" in data["unrecognised"]["last_error"] and data["unrecognised"]["id"] == "unrecognised"
    assert data["findings"] == []


def test_the_lines_it_saw_are_quoted_in_order_each_once(tmp_path):
    text = "\n".join([FAILING["absl-status"], "step 1 ok", FAILING["check-failed"], FAILING["absl-status"],
                      FAILING["terminate"]]) + "\n"
    found = unrecognised(text)
    assert found.lines == (FAILING["check-failed"], FAILING["absl-status"], FAILING["terminate"])
    assert found.last_error == FAILING["terminate"]
    log = tmp_path / "run.log"
    log.write_text(text)
    human = run_inproc("diagnose", str(log))
    assert human.returncode == 1 and "[unrecognised]" in human.stdout
    quoted = " ".join(f"> {FAILING['check-failed']}".split())  # wrapped under its "> " on a narrow terminal
    assert "The failing lines it saw:" in human.stdout and quoted in " ".join(human.stdout.split())
    assert last_json(run_inproc("diagnose", str(log), "--json"))["unrecognised"]["lines"] == list(found.lines)


def test_many_failing_lines_quote_only_the_last_few():
    text = "".join(f"RuntimeError: problem number {n}\n" for n in range(40))
    assert unrecognised(text).lines == tuple(f"RuntimeError: problem number {n}" for n in range(35, 40))


_STOPPED = ("===== 2026-11-27T11:23:05+00:00  install-graphcast: Install GraphCast 0.1.1 (--no-deps)\n"
            "Building graphcast @ file:///tmp/src\n[gc-wizard] stopping the step (cancelled)\n"
            "===== install-graphcast: FAILED ({status}) in 0.4 s\n")


def test_a_run_the_user_stopped_is_not_a_failure():
    """Seventeenth walk, problem 7: the log of an install stopped with Ctrl-C was "unrecognised", exit 1, with the
    advice to send a report to the server's maintainer; nothing had failed."""
    assert unrecognised(_STOPPED.format(status="cancelled")) is None


@pytest.mark.parametrize("text", [
    _STOPPED.format(status="killed by signal 9 (SIGKILL)"),
    _STOPPED.format(status="exit status 1"),
    _STOPPED.format(status="cancelled").replace("Building", "OSError: [Errno 5] Input/output error\nBuilding"),
])
def test_a_stop_with_an_error_or_a_kill_is_still_unrecognised(text):
    assert unrecognised(text) is not None


def test_a_secret_near_the_cut_is_masked_before_the_line_is_shortened():
    """Pass 18: a 400-character failing line with a URL password or a token near the cut was cut first, and what
    was left of the secret no longer had the shape the masking knows (`https://alice:LONGPW4242SECR…`)."""
    for secret, shown in (("https://alice:LONGPW4242SECRET@host/x", "https://alice:***@host/x"),
                          ("ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij", "<redacted>")):
        for pad in range(330, 400, 7):
            line = f"RuntimeError: {'x' * pad} {secret} then more words after it {'y' * 40}"
            found = unrecognised(line + "\n")
            said = found.last_error + " ".join(found.lines)
            assert "LONGPW" not in said and "ghp_ABCDEFGHIJ" not in said, (pad, said[-80:])
            assert shown in said or said.endswith("…"), (pad, said[-80:])
