"""Walk 26 #4: a fix names the stack of the environment (or log) it reads, never v0.1.1's pins for a v0.2 env,
and `diagnose --env` never names a CUDA recipe on a machine with no NVIDIA driver."""

from __future__ import annotations

from pathlib import Path

from tests.fixtures.wheels import build_wheel
from tests.unit.verify.test_inspect_env import make_env
from wizard.detect import kernel_module
from wizard.install.envs import write_marker
from wizard.verify import inspect_env as inspect_module
from wizard.verify.diagnose import diagnose_text

LOG = ("==> Installing jax0.12.0.1-cpu into /tmp/state/envs/jax0.12.0.1-cpu-20261128-114222\n"
       "Traceback (most recent call last):\n"
       "RuntimeError: jaxlib version 0.12.0.1 is newer than and incompatible with jax version 0.6.0. "
       "Please update your jax and/or jaxlib packages.\n")


def test_the_log_s_jaxlib_mismatch_fix_quotes_the_log_s_own_recipe_stack():
    finding = next(f for f in diagnose_text(LOG) if f.id == "jaxlib_mismatch")
    assert "jax0.12.0.1-cpu" in finding.fix
    assert "JAX 0.12.0.1, which GraphCast v0.2 runs with" in finding.fix
    assert "0.4.23" not in finding.fix and "v0.1.1" not in finding.fix
    assert "jax==0.12.0.1" in finding.fix  # the simple mend: jax back to jaxlib's release


def test_an_unnamed_log_quotes_the_default_stack_it_names():
    text = LOG.splitlines(keepends=True)[1:]
    finding = next(f for f in diagnose_text("".join(text)) if f.id == "jaxlib_mismatch")
    assert "jax0.4.23" in finding.fix and "JAX 0.4.23, which GraphCast v0.1.1 runs with" in finding.fix


def test_diagnose_env_on_a_v02_cpu_env_without_a_driver_names_its_own_cpu_recipe(tmp_path, monkeypatch):
    house = tmp_path / "house"
    env = make_env(tmp_path, [build_wheel(house, "jaxlib", "0.12.0.1"), build_wheel(house, "jax", "0.6.0")])
    write_marker(env, {"recipe": "jax0.12.0.1-cpu", "title": "JAX 0.12.0.1 on the CPU", "backend": "cpu"})
    missing = str(tmp_path / "no-driver")  # the real probe, reading a /proc file that is not there: no driver here
    real_probe = kernel_module.probe
    monkeypatch.setattr(kernel_module, "probe", lambda: real_probe(missing))
    report = inspect_module.inspect_env(env, {"PATH": "/usr/bin:/bin"}, ldconfig=[])
    finding = next(f for f in report.findings if f.id == "jaxlib_mismatch")
    assert "`gc-wizard install jax0.12.0.1-cpu`" in finding.fix
    assert "cuda" not in finding.fix and "0.4.23" not in finding.fix
    assert f"--python {Path(env).absolute()} --no-deps jax==0.12.0.1" in finding.fix
