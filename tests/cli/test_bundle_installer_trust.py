"""Walk 33 #2: `bundle` always resolved with uv as it was, and failed on TLS on a server where the plan on the same
machine had chosen pip because pip.conf names the proxy's CA (`cert`) and uv is given none. Now bundle takes the
installer by the one rule plan and install take (`install.plan.default_installer`): said in the plan's sentence,
uv's resolve then given pip's CA; `--installer uv` still forces uv, and its TLS failure leads with the switch. Real
parts: an HTTPS index whose certificate only its own CA signs, a real pip.conf, the real uv and pip."""

from __future__ import annotations

from tests.cli.test_pip_cert_tls import _behind_the_proxy
from tests.fixtures.cli import run_inproc
from tests.fixtures.wheels import build_wheel


def test_bundle_takes_the_installer_and_trust_the_plan_takes(tiny, tls_index, isolated_state, monkeypatch, tmp_path):
    _behind_the_proxy(monkeypatch, tmp_path, tls_index)
    monkeypatch.chdir(tmp_path)
    args = ("bundle", "tiny-a", "--recipes-dir", str(tiny.recipes), "--graphcast-src", str(tiny.graphcast),
            "--without-wizard")
    forced = run_inproc(*args, "--installer", "uv", "--out", str(tmp_path / "forced"))
    assert forced.returncode == 1, forced.stdout + forced.stderr
    said = " ".join(forced.stderr.split())
    assert "Switch the installer to pip (`--installer pip`), or give uv the same file" in said, said
    assert said.index("--installer pip") < said.index("was reached but answered with a TLS certificate"), said
    assert "in the app" not in said and "Correct that address" not in said, said

    made = run_inproc(*args, "--out", str(tmp_path / "bundle"))
    flat = " ".join(made.stdout.split())
    assert made.returncode == 0, made.stdout + made.stderr
    assert (f"Installer pip, not uv: pip here trusts the certificates in {tls_index.ca} (`cert` in "
            f"{tmp_path / 'pip.conf'}) and uv reads no pip settings, so uv would fail on TLS; `--installer uv` still "
            "picks uv.") in flat, flat
    assert "Bundle ready:" in flat and "no such setting" not in flat
    plan = " ".join(run_inproc("plan", "tiny-a", "--recipes-dir", str(tiny.recipes), "--graphcast-src",
                               str(tiny.graphcast)).stdout.split())
    assert "Installer pip, not uv: pip here trusts the certificates" in plan and "uv reads no pip settings" in plan


def test_bundle_packs_this_machines_wheel_whatever_pips_target_variables_say(tiny, isolated_state, monkeypatch,
                                                                            tmp_path):
    """38th hostile pass (part B) P1: with `PIP_PLATFORM=win_amd64`, `pip download` took the Windows wheel and stopped
    on the lock's hashes ("someone may have tampered with them"); its own --platform/--abi now win."""
    build_wheel(tiny.house.path, "pkg-a", "1.0", tag="py3-none-win_amd64")
    for name, value in (("PIP_PLATFORM", "win_amd64"), ("PIP_ABI", "cp39"), ("PIP_IMPLEMENTATION", "pp"),
                        ("PIP_PYTHON_VERSION", "3.9")):
        monkeypatch.setenv(name, value)
    made = tiny.bundle(tmp_path / "b", monkeypatch, "--without-wizard", "--installer", "pip")
    assert made.returncode == 0, made.stdout + made.stderr[-3000:]
    packed = sorted(p.name for p in (tmp_path / "b" / "wheels").iterdir())
    assert "pkg_a-1.0-py3-none-any.whl" in packed and not any("win_amd64" in name for name in packed), packed
