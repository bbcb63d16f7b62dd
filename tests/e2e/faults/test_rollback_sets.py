"""Rollback never makes current an environment whose package set is not the one frozen for it.

Real environments built by the real wizard; the target is then changed behind its back the way
people do (`uv pip install` into it), and the rollback must put the frozen set back before switching
— or, when that cannot be done (the wheel it needs is gone and there is no index), fail and leave
the current environment current.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from uv import find_uv_bin

from tests.fixtures.state import last_json, run_cli


def _freeze(env: str) -> list[str]:
    from wizard.install.envs import freeze

    return freeze(Path(env))


def _uv_install(env: str, *args: str) -> None:
    subprocess.run([find_uv_bin(), "pip", "install", "-q", "--python", f"{env}/bin/python", *args], check=True)


def test_a_changed_target_is_put_back_to_its_frozen_set_before_it_becomes_current(tiny):
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    frozen = _freeze(a["env"])
    _uv_install(a["env"], "--offline", "--find-links", str(tiny.house.path), "pkg-b==2.0")  # someone added a package
    assert _freeze(a["env"]) != frozen
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json",
                   env={"UV_OFFLINE": "1"})
    assert proc.returncode == 0, proc.stderr
    assert last_json(proc)["restored"] is True
    assert _freeze(a["env"]) == frozen
    current = next(e for e in tiny.history() if e["current"])
    assert current["id"] == a["entry_id"]


def test_a_target_that_cannot_get_its_frozen_set_back_is_not_made_current(tiny):
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    tiny.house.add("pkg-a", "1.5")
    _uv_install(a["env"], "--offline", "--find-links", str(tiny.house.path), "pkg-a==1.5")  # an upgrade by hand
    for wheel in tiny.house.path.glob("pkg_a-1.0-*.whl"):
        wheel.unlink()  # the frozen version can no longer be had
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json",
                   env={"UV_OFFLINE": "1", "UV_NO_CACHE": "1"})
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    result = last_json(proc)
    assert result["ok"] is False and "current environment is unchanged" in result["error"]
    current = next(e for e in tiny.history() if e["current"])
    assert current["id"] == b["entry_id"]
