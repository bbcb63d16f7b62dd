"""The GraphCast check names a stray copy of a module it imports as the root cause (issue 24, P9)."""

from __future__ import annotations


def test_a_failed_check_names_a_stray_copy_first(tmp_path):
    """What activation cannot leave out (the env lacks the module: a broken env) is named as the root cause."""
    from wizard.verify.check import _shadow_finding
    from wizard.verify.protocol import Tier

    env = tmp_path / "env"
    (env / "lib" / "python3.11" / "site-packages").mkdir(parents=True)  # no jax of its own
    stray = tmp_path / "checkouts"
    (stray / "jaxlib").mkdir(parents=True)
    tier = Tier.from_probe({"name": "jax_import", "ok": True, "status": "passed", "seconds": 1.0,
                            "jax_path": str(tmp_path / "elsewhere" / "jax")})
    finding = _shadow_finding([tier], env, {"PYTHONPATH": str(stray)})
    assert finding is not None and finding.id == "pythonpath_shadows_env"
    assert any("jax was imported from" in e for e in finding.evidence)
    assert any(str(stray) in e and "jaxlib" in e for e in finding.evidence)
    inside = Tier.from_probe({"name": "jax_import", "ok": True, "status": "passed", "seconds": 1.0,
                              "jax_path": str(env / "lib" / "python3.11" / "site-packages" / "jax")})
    assert _shadow_finding([inside], env, {}) is None
