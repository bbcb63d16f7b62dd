"""A CUDA, cuDNN, NCCL or driver library on LD_PRELOAD (or in /etc/ld.so.preload) is loaded into every process before
anything else (22nd hostile pass P8: detect said "no libcuda.so.1" while one was preloaded, verify named it nowhere,
activate kept it without a word). One decision, `libpath.split_preload`, read by detect's warnings, the activation
(activate, the kernel, the check) and verify's note."""

from __future__ import annotations

from wizard.after.activate import activation_script
from wizard.detect import libpath
from wizard.detect.chain import preload_warnings
from wizard.install.activation import compute_activation
from wizard.verify.check import probe_environment
from wizard.verify.shadow import preload_finding


def _libs(tmp_path):
    pre = tmp_path / "pre"
    pre.mkdir()
    for name in ("libcuda.so.1", "libcudnn.so.8.2.1", "libnccl.so.2", "libjemalloc.so.2"):
        (pre / name).write_bytes(b"\x7fELF")
    (pre / "libwrap.so").symlink_to(pre / "libcudnn.so.8.2.1")  # a wrapper's name for a cuDNN
    return pre


def test_split_preload_names_cuda_and_driver_libraries_only(tmp_path):
    pre = _libs(tmp_path)
    value = f"{pre}/libjemalloc.so.2 {pre}/libcuda.so.1:{pre}/libnccl.so.2  {pre}/libwrap.so"
    kept, removed = libpath.split_preload(value)
    assert kept == [f"{pre}/libjemalloc.so.2"]
    reasons = dict(removed)
    assert "the CUDA driver library" in reasons[f"{pre}/libcuda.so.1"]
    assert "NCCL 2" in reasons[f"{pre}/libnccl.so.2"] and "cuDNN 8.2.1" in reasons[f"{pre}/libwrap.so"]


def test_detect_warns_of_a_preloaded_cuda_library_and_of_the_system_list(tmp_path):
    pre = _libs(tmp_path)
    said = [w.message for w in preload_warnings({"LD_PRELOAD": f"{pre}/libcuda.so.1"}, system=[])]
    assert len(said) == 1 and f"{pre}/libcuda.so.1 on LD_PRELOAD is the CUDA driver library" in said[0]
    assert "activate" in said[0]
    system = preload_warnings({}, system=[(f"{pre}/libcudnn.so.8.2.1", "is cuDNN 8.2.1 (libcudnn.so.8.2.1)")])
    assert "/etc/ld.so.preload" in system[0].message and "admin" in system[0].message
    assert preload_warnings({"LD_PRELOAD": f"{pre}/libjemalloc.so.2"}, system=[]) == []


def test_detect_s_library_warnings_carry_it(tmp_path):
    from wizard.detect.chain import library_warnings

    pre = _libs(tmp_path)
    ids = [w.id for w in library_warnings([], {"LD_PRELOAD": f"{pre}/libcuda.so.1", "PATH": ""})]
    assert "ld_preload_cuda" in ids


def test_activation_drops_it_and_says_so_and_keeps_the_rest(tmp_path):
    pre = _libs(tmp_path)
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    act = compute_activation(env, {"PATH": "/usr/bin", "LD_PRELOAD": f"{pre}/libjemalloc.so.2 {pre}/libcuda.so.1"})
    assert act.set["LD_PRELOAD"] == f"{pre}/libjemalloc.so.2"
    script = activation_script(act, "bash")
    line = next(c for c in script.splitlines() if c.startswith("#") and "libcuda.so.1" in c)
    assert "removed from LD_PRELOAD" in line
    alone = compute_activation(env, {"PATH": "/usr/bin", "LD_PRELOAD": f"{pre}/libcuda.so.1"})
    assert "LD_PRELOAD" in alone.unset
    child, removed = probe_environment(env, "cpu", base={"PATH": "/usr/bin", "LD_PRELOAD": f"{pre}/libcuda.so.1"})
    assert "LD_PRELOAD" not in child
    finding = preload_finding(removed)
    assert finding is not None and finding.id == "ld_preload_cuda"
    assert finding.evidence[0].startswith(f"LD_PRELOAD holds {pre}/libcuda.so.1: is the CUDA driver library")
    assert preload_finding([]) is None
