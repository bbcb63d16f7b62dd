"""Eleventh hostile pass #162-#164/#205: a find-links password reached uv's command line, which every local user
reads (`/proc/PID/cmdline`, `ps aux`) for the whole download. The install still uses it, from a private file.

A real install through real uv, from a loopback wheelhouse that serves its wheels slowly (so the installer's
command line is there to be read while it downloads); every descendant's command line is collected as it runs.
"""

from __future__ import annotations

import json

import pytest

from tests.fixtures.index import SlowHouse
from tests.fixtures.processes import no_traceback, spawn, wait_until

PASSWORD = "SEKRETpw0123"  # noqa: S105 (a test's own credential, for a loopback server)

pytestmark = pytest.mark.flaky(reruns=2, reruns_delay=2)


@pytest.mark.parametrize("how", ["flag", "environment"])
def test_a_find_links_password_never_reaches_a_command_line(how, tiny, tmp_path, isolated_state, watch):
    house = SlowHouse(tmp_path / "slow", chunk=2048)  # a few seconds a wheel
    try:
        house.add("pkg-slow", "1.0")
        tiny.write("tiny-slow", ["pkg-slow==1.0"])
        url = house.url.replace("http://", f"http://alice:{PASSWORD}@")
        args = ["install", "tiny-slow", "--yes", "--json", "--recipes-dir", str(tiny.recipes), "--find-links",
                str(tiny.house.path), "--graphcast-src", str(tiny.graphcast), "--no-verify"]
        env = house.env()  # the index, too, is this server (the suite closes the real one)
        if how == "flag":
            args += ["--find-links", url]
        else:
            env["GC_WIZARD_FIND_LINKS"] = url
        proc = spawn(*args, env=env)
        w = watch(proc)
        wait_until(lambda: w.matching("gc-wizard-private-"), "uv reading the private file", proc=proc)
        out, err = proc.communicate(timeout=240)
    finally:
        house.server.shutdown()
    no_traceback(out, err)
    assert proc.returncode == 0, err
    assert json.loads(out.splitlines()[-1])["ok"] is True
    seen = list(w.seen.values())
    assert any("pip install" in line for line in seen), seen
    assert not [line for line in seen if PASSWORD in line]
