"""Runtime variables that would make CUDA, NCCL or XLA load or run code are refused, from a recipe and
from an environment marker; real XLA_FLAGS values are accepted (issue 24, P2 and P10).

The issue measured CUDA_INJECTION64_PATH, NCCL_NET_PLUGIN and NCCL_TUNER_PLUGIN; these are other names
of the same class (a library, a plugin, or a place code is loaded from, inside an allowed family) and
other XLA flags.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wizard.errors import UserError
from wizard.install.activation import compute_activation
from wizard.recipes.loader import load_recipe_file

BUILTIN = Path(__file__).resolve().parents[3] / "recipes"
CPU_TEXT = (BUILTIN / "jax0.4.23-cpu.yaml").read_text()


def _recipe(tmp_path: Path, name: str, value: str) -> Path:
    text = CPU_TEXT.replace("  JAX_PLATFORMS: cpu", f"  JAX_PLATFORMS: cpu\n  {name}: \"{value}\"", 1)
    assert text != CPU_TEXT
    path = tmp_path / "jax0.4.23-cpu.yaml"
    path.write_text(text)
    return path


LOADS_CODE = [
    ("CUDA_INJECTION32_PATH", "/tmp/evil.so"),
    ("NCCL_PROFILER_PLUGIN", "/tmp/libnccl-profiler-evil.so"),
    ("NCCL_ENV_PLUGIN", "evil"),
    ("NCCL_CONF_FILE", "/tmp/nccl.conf"),  # a file that can set the plugins
    ("CUDA_HOME", "/tmp/fake-cuda"),  # where XLA runs ptxas from
    ("CUDA_PATH", "/tmp/fake-cuda"),
    ("XLA_PJRT_PLUGIN_LIBRARY_PATH", "/tmp/evil.so"),
    ("JAX_PLUGIN_LIBRARY", "/tmp/evil.so"),
    ("XLA_FLAGS", "--xla_gpu_enable_triton_gemm=false --xla_gpu_ptx_file=/tmp/evil.ptx"),
    ("XLA_FLAGS", "--xla_gpu_cuda_data_dir=/tmp/fake-cuda"),
    ("XLA_FLAGS", "--xla_gpu_llvm_ir_file=/tmp/evil.ll"),
    ("XLA_FLAGS", "--xla_dump_to=/tmp/d not-a-flag"),
    # Where files are written is the user's to choose, not a recipe's: NCCL truncates its debug file (the
    # fourth fault pass pointed it at a ~/.bashrc on an H200), XLA dumps where it is told.
    ("NCCL_DEBUG_FILE", "/home/me/.bashrc"),
    ("NCCL_TOPO_DUMP_FILE", "/home/me/.profile"),
    ("NCCL_GRAPH_DUMP_FILE", "/tmp/g.xml"),
    ("CUDA_CACHE_PATH", "/home/me/.ssh"),
    ("JAX_COMPILATION_CACHE_DIR", "/scratch/me/jax-cache"),
    ("XLA_FLAGS", "--xla_dump_to=/home/me/.ssh --xla_dump_hlo_as_text"),
    ("XLA_FLAGS", "--xla_gpu_dump_autotune_results_to=/tmp/a.txt"),
    ("XLA_FLAGS", "--xla_gpu_per_fusion_autotune_cache_dir=/tmp/c"),
    ("XLA_FLAGS", "--xla_gpu_per_fusion_autotune_cache_dir=cachehere"),  # a cache's place, even without a slash
    ("XLA_FLAGS", "--xla_gpu_kernel_cache_file=k.bin"),
    ("XLA_FLAGS", "--xla_some_new_flag=/etc/passwd"),  # any path, whatever the flag is called
    # A location word anywhere in the name, without a slash in the value (the fifth pass: these passed a rule
    # that only read the name's ending): TSL truncates its vlog file, JAX writes IR, the driver talks to an
    # MPS server through the pipe folder it is given.
    ("TF_CPP_VLOG_FILENAME", ".bashrc"),
    ("JAX_DUMP_IR_TO", "irdump"),
    ("CUDA_MPS_PIPE_DIRECTORY", "mps"),
    ("CUDA_MPS_LOG_DIRECTORY", "mpslog"),
    ("CUDA_COREDUMP_FILE", "core"),
    ("CUDA_COREDUMP_PIPE", "pipe"),
    ("XLA_FLAGS", "--xla_gpu_asm_extra_flags=-v"),  # options handed to ptxas
    # Options XLA hands to LLVM, whose -info-output-file appends -stats/-time-passes to a file (sixth pass 2c);
    # the same class under other names, and any value that is itself an option for someone else.
    ("XLA_FLAGS", "--xla_backend_extra_options=-info-output-file=stats.txt,-time-passes"),
    ("XLA_FLAGS", "--xla_backend_extra_options=xla_cpu_disable_foo"),
    ("XLA_FLAGS", "--xla_cpu_llvm_cl_opts=-stats"),
    ("XLA_FLAGS", "--xla_gpu_llvm_options=x"),
    ("XLA_FLAGS", "--xla_gpu_cublas_args=x"),
    ("XLA_FLAGS", "--xla_some_new_map=-info-output-file"),
    ("XLA_FLAGS", "--xla_some_new_map=key=value"),
    ("XLA_FLAGS", "--xla_some_new_list=a,-stats"),
    ("XLA_FLAGS", "--xla_gpu_experimental_output_dir_name=x"),
    # Switches that make the driver write a core dump where it defaults to (the fifth hostile pass).
    ("CUDA_ENABLE_COREDUMP_ON_EXCEPTION", "1"),
    ("CUDA_ENABLE_USER_TRIGGERED_COREDUMP", "1"),
    ("CUDA_ENABLE_LIGHTWEIGHT_COREDUMP", "1"),
]


@pytest.mark.parametrize(("name", "value"), LOADS_CODE, ids=[f"{n}={v[:30]}" for n, v in LOADS_CODE])
def test_a_recipe_naming_code_to_load_or_a_place_to_write_is_refused_with_file_and_line(tmp_path, name, value):
    path = _recipe(tmp_path, name, value)
    with pytest.raises(UserError) as caught:
        load_recipe_file(path)
    message = str(caught.value)
    assert str(path) in message and ":" in message and name.split("_")[0] in message


ACCEPTED = [
    ("XLA_FLAGS", "--xla_gpu_enable_triton_gemm=false --xla_gpu_autotune_level=0"),
    ("XLA_FLAGS", "--xla_force_host_platform_device_count=8"),
    ("XLA_FLAGS", "--xla_gpu_autotune_level=4 --xla_gpu_enable_latency_hiding_scheduler=true"),
    ("NCCL_DEBUG", "INFO"),
    ("NCCL_SOCKET_IFNAME", "ib0"),
    ("TF_CPP_VMODULE", "gpu_compiler=1"),
    ("CUDA_VISIBLE_DEVICES", "0,1"),
    ("NCCL_IB_TIMEOUT", "22"),
    ("XLA_PYTHON_CLIENT_MEM_FRACTION", ".8"),
    ("JAX_TRACEBACK_FILTERING", "off"),
    ("XLA_FLAGS", "--xla_gpu_enable_command_buffer=FUSION,CUBLAS --xla_dump_hlo_pass_re=.*"),
    ("XLA_FLAGS", "--xla_gpu_autotune_level=-1"),  # a negative number is no option
    # Eighth hostile pass C1b: a cache's mode says whether results are read or written, not where.
    ("XLA_FLAGS", "--xla_gpu_experimental_autotune_cache_mode=update"),
    ("JAX_DEFAULT_DEVICE_NAME", "Grafikkarte-é"),  # printable, not ASCII
]


@pytest.mark.parametrize(("name", "value"), ACCEPTED, ids=[f"{n}={v[:30]}" for n, v in ACCEPTED])
def test_real_tuning_values_are_accepted(tmp_path, name, value):
    recipe = load_recipe_file(_recipe(tmp_path, name, value))
    assert recipe.runtime_env[name] == value


def test_an_env_marker_holding_a_plugin_is_ignored_for_it_and_says_so(tmp_path):
    """A marker is a file in the environment: activation, kernels and the check drop what a recipe could not set."""
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    marker = {"backend": "gpu", "runtime_env": {"NCCL_TUNER_PLUGIN": "/tmp/evil.so", "CUDA_INJECTION64_PATH": "/x.so",
                                                "XLA_PYTHON_CLIENT_PREALLOCATE": "false"}}
    act = compute_activation(env, {"PATH": "/usr/bin"}, marker)
    assert act.set.get("XLA_PYTHON_CLIENT_PREALLOCATE") == "false"
    assert "NCCL_TUNER_PLUGIN" not in act.set and "CUDA_INJECTION64_PATH" not in act.set
    assert any("NCCL_TUNER_PLUGIN" in note for note in act.notes)


NOT_PRINTABLE = ["a\u2028export Q=1", "\ufeffx", "a\u2029b", "a\u200eb", "a\u0085b", "a\x7fb", "a\x1b[31mb",
                 "a\u00adb"]


@pytest.mark.parametrize("value", NOT_PRINTABLE, ids=[repr(v) for v in NOT_PRINTABLE])
def test_a_value_that_is_not_printable_is_refused_by_the_same_rule_as_the_docs(tmp_path, value):
    """Docs: "one line of printable text" — `str.isprintable`, so a LINE SEPARATOR (a line break to many editors
    and terminals), a byte-order mark or a direction mark are refused like a control character (sixth pass 2e)."""
    path = tmp_path / "jax0.4.23-cpu.yaml"
    path.write_text(CPU_TEXT.replace("  JAX_PLATFORMS: cpu", "  JAX_PLATFORMS: cpu\n  JAX_T: " + json.dumps(value), 1))
    with pytest.raises(UserError) as caught:
        load_recipe_file(path)
    message = str(caught.value)  # the loader's control-character check may say it first, in its own words
    assert str(path) in message and "JAX_T" in message and ("never needs" in message or "control characters" in message)
    act = compute_activation(tmp_path / "env", {"PATH": "/usr/bin"}, {"backend": "cpu", "runtime_env": {"JAX_T": value}})
    assert "JAX_T" not in act.set and any("JAX_T" in note for note in act.notes)


@pytest.mark.parametrize("name, value", [
    ("JAX_TOK", "ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
    ("NCCL_SOCKET_IFNAME", "https://me:pa55w0rd@host/x"),
    ("JAX_COORDINATOR_ADDRESS", "me:Secr3tPw@node1:1234"),
    ("TF_CPP_VMODULE", "hf_abcdefghijklmnopqrstuvwxyz0123"),
    ("JAX_PASSWORD_X", "plainword"),  # sixteenth pass P2: masked by `plan --json` under its name, kept elsewhere
    ("NCCL_X_KEY", "SecretKeyValue9"),
    ("XLA_SECRET", "abc"),
])
def test_a_value_that_looks_like_a_credential_is_refused(tmp_path, name, value):
    """Fifteenth hostile pass R6: a runtime value holding a token was masked on every output but exported exact
    into activate's lines, the kernels and the env marker. A library setting is never a credential: refused."""
    with pytest.raises(UserError) as info:
        load_recipe_file(_recipe(tmp_path, name, value))
    assert f"the value of {name} looks like a credential" in str(info.value)
    assert value not in str(info.value)


def test_ordinary_values_are_not_taken_for_credentials(tmp_path):
    for name, value in (("XLA_PYTHON_CLIENT_MEM_FRACTION", ".75"), ("NCCL_IB_PKEY", "0x8001"),
                        ("JAX_COMPILATION_CACHE_DIR", "cache"), ("XLA_FLAGS", "--xla_gpu_enable_triton_gemm=false")):
        try:
            load_recipe_file(_recipe(tmp_path, name, value))
        except UserError as exc:
            assert "credential" not in str(exc), (name, str(exc))
