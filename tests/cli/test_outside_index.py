"""A recipe pin no package index has (WeatherNext's gdm-xarray-jax, on GitHub only) is asked for before anything
installs: the plan refuses without a wheelhouse that holds it, naming the wheel to build and where, and plans
once one does. Recipe files that misuse `outside_index` are refused by file and line."""

from __future__ import annotations

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from tests.fixtures.wheels import build_wheel
from wizard.errors import UserError
from wizard.recipes.loader import parse_recipe


def test_the_plan_asks_for_the_github_only_wheel_first(isolated_state, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    for args in ((), ("--find-links", str(empty))):
        proc = run_inproc("plan", "weathernext0.3.0-cpu", *args)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr
        assert "needs gdm-xarray-jax 0.1.1, which no package index has" in proc.stderr
        assert "git+https://github.com/google-deepmind/xarray_jax.git@v0.1.1" in proc.stderr
        assert "--find-links DIR" in proc.stderr
        assert "weathernext itself comes from GitHub as well" in proc.stderr and "--graphcast-src DIR" in proc.stderr
    checkout = tmp_path / "weathernext"
    checkout.mkdir()
    (checkout / "setup.py").write_text('from setuptools import setup\nsetup(name="weathernext", version="0.3.0")\n')
    proc = run_inproc("plan", "weathernext0.3.0-cpu", "--graphcast-src", str(checkout))
    assert proc.returncode == 2 and "gdm-xarray-jax" in proc.stderr and "comes from GitHub as well" not in proc.stderr
    house = tmp_path / "house"
    build_wheel(house, "gdm-xarray-jax", "0.1.1", requires=["jax", "xarray", "numpy", "absl-py", "chex"])
    plan = last_json(run_inproc("plan", "weathernext0.3.0-cpu", "--find-links", str(house), "--json"))
    assert plan["recipe"] == "weathernext0.3.0-cpu" and "gdm-xarray-jax==0.1.1" in plan["requirements"]
    assert any(str(house) in arg for step in plan["steps"] for arg in step["argv"])


RECIPE = """schema: 1
id: odd
title: t
description: d
backend: cpu
requirements:
  - jax==0.12.0.1
graphcast: {source: "weathernext @ git+https://github.com/google-deepmind/graphcast@89c4b2a77a1c57b328b909c575550fd2e5aadc9c", revision: 89c4b2a77a1c57b328b909c575550fd2e5aadc9c, version: "0.3"}
machine: {os: [linux], arch: [x86_64], python: ">=3.12"}
disk_gib: 1
outside_index:
  - name: %s
    source: %s
"""


def test_outside_index_must_name_a_pin_and_a_remote_source(tmp_path):
    for name, source, line, says in (
            ("gdm-xarray-jax", "git+https://example.org/x.git", 12, "which the requirements do not pin"),
            ("jax", "file:///tmp/x", 13, "must use git+https:// or https://")):
        path = tmp_path / "odd.yaml"
        path.write_text(RECIPE % (name, source))
        try:
            parse_recipe(path.read_text(), path)
        except UserError as exc:
            assert str(path) in str(exc) and f"line {line}:" in str(exc) and says in str(exc), str(exc)
        else:
            raise AssertionError(f"{name} {source} was accepted")
