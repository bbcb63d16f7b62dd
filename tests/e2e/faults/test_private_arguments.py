"""Eleventh hostile pass #162-#164/#205: a find-links password reached uv's command line, which every local user
reads (`/proc/PID/cmdline`, `ps aux`) for the whole download. The install still uses it, from a private file.

A real install through real uv, from a loopback wheelhouse that serves its wheels slowly (so the installer's
command line is there to be read while it downloads); every descendant's command line is collected as it runs.
"""

from __future__ import annotations

import base64
import http.server
import json
import os
import subprocess
import threading
import time

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
        wait_until(lambda: w.matching("pkg-slow"), "uv downloading pkg-slow", proc=proc)
        out, err = proc.communicate(timeout=240)
    finally:
        house.server.shutdown()
    no_traceback(out, err)
    assert proc.returncode == 0, err
    assert json.loads(out.splitlines()[-1])["ok"] is True
    seen = list(w.seen.values())
    assert any("pip install" in line for line in seen), seen
    assert not [line for line in seen if PASSWORD in line]


class _GitLogin(http.server.BaseHTTPRequestHandler):
    """A git host that wants a login: it records each request's Authorization header, and answers an authorised
    one a second later (so the git processes are there to be read) with 401 all the same."""

    seen: list[str | None] = []

    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        type(self).seen.append(self.headers.get("Authorization"))
        if self.headers.get("Authorization"):
            time.sleep(1.0)
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="lab git"')
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


def test_a_git_login_reaches_git_through_askpass_and_no_command_line(tmp_path, watch):
    """uv runs `git fetch URL` with a `git+https://user:token@host/…` requirement's URL, and git's helpers repeat it:
    the login leaves the URL, and git asks GIT_ASKPASS for it. Real uv, real git, a loopback host wanting a login."""
    from uv import find_uv_bin

    from wizard.install.private_args import PrivateArguments

    _GitLogin.seen = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _GitLogin)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        subprocess.run([find_uv_bin(), "venv", "-q", str(tmp_path / "v")], check=True)
        url = f"git+http://alice:{PASSWORD}@127.0.0.1:{server.server_address[1]}/dm/graphcast.git"
        argv = [find_uv_bin(), "pip", "install", "--no-cache", "--python", str(tmp_path / "v" / "bin" / "python"),
                f"graphcast @ {url}"]
        with PrivateArguments(argv) as private:
            env = private.environ({**os.environ, "GIT_TERMINAL_PROMPT": "0"})
            proc = subprocess.Popen(private.argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    start_new_session=True)
            w = watch(proc)
            out, err = proc.communicate(timeout=120)
    finally:
        server.shutdown()
    assert proc.returncode != 0  # the host never lets anyone in; what matters is what was sent, and shown
    login = "Basic " + base64.b64encode(f"alice:{PASSWORD}".encode()).decode()
    assert login in _GitLogin.seen, _GitLogin.seen
    seen = list(w.seen.values())
    assert any("git" in line and "127.0.0.1" in line for line in seen), seen
    assert not [line for line in seen if PASSWORD in line]
