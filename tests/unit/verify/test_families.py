"""Families, not strings: each widened catalogue entry matches the wordings its producer prints, with other
versions, paths, log prefixes, colour and carriage returns around them, and still gives no finding on clean logs."""

from __future__ import annotations

import pytest

from wizard.verify.diagnose import diagnose_text

PREFIXES = ["", "E1125 10:11:12.123456  4242 ptx_compiler.cc:123] ", "ERROR:absl:", "W0000 00:00:1700000000.1 ",
            "\x1b[31m", "Downloading 40%\r"]

FAMILIES = {
    "ptxas_problem": [
        "ptxas fatal   : Unsupported .version 8.3; current version is '8.2'",
        "ptxas /tmp/tmpxft_0001_00000000-6_main.ptx, line 5; fatal   : Unsupported .version 7.8; current version is '7.4'",
        "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: ptxas exited with non-zero error code 65280, output: ptxas "
        "fatal   : Unsupported .version 8.4; current version is '8.1'",
        "Unsupported .version 8.5; current version is '8.3'",
    ],
    "jax_too_new": [
        "AttributeError: jax.tree_map was removed in JAX v0.6.0: use jax.tree.map (jax v0.4.25 or newer)",
        "AttributeError: jax.experimental.host_callback was removed in JAX v0.4.35",
        "AttributeError: module 'jax.core' has no attribute 'ConcreteArray'",
        "AttributeError: module 'jax.random' has no attribute 'KeyArray'",
        "AttributeError: module 'jax.stages' has no attribute 'OutInfo'",
        "AttributeError: 'Config' object has no attribute 'define_bool_state'",
        "AttributeError: module 'jax.interpreters.xla' has no attribute 'pytype_aval_mappings'",
    ],
    "numpy2_incompatible": [
        "ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 88 from C header, got 96 "
        "from PyObject",
    ],
    "numpy_too_old": [
        "ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, got 88 "
        "from PyObject",
    ],
    "fabric_manager_not_running": [
        "E external/xla/xla/stream_executor/cuda/cuda_driver.cc:152] failed call to cuInit: INTERNAL: CUDA error: "
        "Failed call to cuInit: CUDA_ERROR_SYSTEM_NOT_READY: system not yet initialized",
        "RuntimeError: cuda runtime error (802) : system not yet initialized at THCGeneral.cpp:50",
        "CUDA error at bandwidthTest.cu:256 code=802(cudaErrorSystemNotReady) \"cudaSetDevice(currentDevice)\"",
    ],
    "resolver_conflict": [
        "ERROR: Cannot install jax[cuda]==0.4.34 and jax[cuda]==0.4.35 because these package versions have "
        "conflicting dependencies.",
        "ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/",
        "error: Requirements contain conflicting URLs for package `graphcast`:",
        "  × No solution found when resolving dependencies:\n  ╰─▶ Because flax==0.8.4 depends on jax>=0.4.27 and "
        "you require jax==0.4.23, we can conclude that your requirements are unsatisfiable.",
    ],
    "gpu_arch_not_in_build": [
        "RuntimeError: CUDA error: no kernel image is available for execution on the device",
        "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to load in-memory CUBIN: CUDA_ERROR_NO_BINARY_FOR_GPU",
        "what(): parallel_for failed: cudaErrorNoKernelImageForDevice: no kernel image is available",
    ],
    "cpu_only_jaxlib": [
        "WARNING: jax 0.4.13 does not provide the extra 'cuda12_pip'",
        "warning: The package `jax==0.4.23` does not have an extra named `cuda12-pip`",
    ],
}


@pytest.mark.parametrize("expected, line, prefix", [
    (fid, line, prefix) for fid, lines in FAMILIES.items() for line in lines for prefix in PREFIXES])
def test_every_wording_of_a_family_is_named(expected, line, prefix):
    text = f"Traceback (most recent call last):\n  File \"run.py\", line 1, in <module>\n{prefix}{line}\x1b[0m\n"
    findings = diagnose_text(text)
    assert findings and findings[0].id == expected, [f.id for f in findings]
    assert findings[0].fix
