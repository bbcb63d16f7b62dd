"""The fault suite's tools: start the real wizard, catch it in a phase, signal it, see what is left.

Everything here is a real process: `python -m wizard` as a user runs it, real uv into real venvs, a
real HTTP server that serves wheels slowly (a download that is still running when the signal comes),
and the real GraphCast probe, run by the real environment's Python, hanging in `import jax` because
the environment's `jax` is a tiny stand-in package that sleeps on import (the hardware boundary: no
GPU, no real JAX needed to see whether the probe dies with the wizard).

Every process the wizard starts is watched from outside while it runs (`Watch`), so a child that
outlives the wizard — reparented to init, in its own session — is still found.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.fixtures.state import REPO
from tests.fixtures.wheels import build_wheel

#: (signal, the exit status docs/interface.md promises for it)
SIGNALS = [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)]
SIGNAL_IDS = ["SIGINT", "SIGTERM", "SIGHUP"]
#: Seconds a stop may take (issue 12: "within 10 s").
LIMIT = 10.0

#: `import jax` in the stand-in environment hangs like a JAX waiting on a lock or a busy GPU.
SLEEPY_JAX = "import time\ntime.sleep(300)\n"


def spawn(*args: str, env: dict | None = None) -> subprocess.Popen:
    """`python -m wizard ARGS` in its own session (like a login shell's job), stdin not a terminal."""
    full = dict(os.environ, PYTHONFAULTHANDLER="1")
    full.update(env or {})
    return subprocess.Popen([sys.executable, "-m", "wizard", *args], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, start_new_session=True,
                            env=full)


def _table() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state) for every process."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            out[int(entry)] = (int(fields[1]), fields[0])
        except (OSError, IndexError, ValueError):
            continue
    return out


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return False


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


class Watch:
    """Every descendant the wizard ever had, collected every 50 ms while it runs."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc = proc
        self.seen: dict[int, str] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _scan(self) -> None:
        table = _table()
        known = {self.proc.pid} | set(self.seen)
        changed = True
        while changed:
            changed = False
            for pid, (ppid, state) in table.items():
                if ppid in known and pid not in known and state not in ("Z", "X"):
                    known.add(pid)
                    self.seen[pid] = cmdline(pid)
                    changed = True

    def _run(self) -> None:
        while not self._stop.is_set():
            self._scan()
            time.sleep(0.05)

    def matching(self, text: str) -> list[int]:
        found = []
        for pid in list(self.seen):
            if alive(pid):
                self.seen[pid] = cmdline(pid) or self.seen[pid]  # first seen between fork and exec: read again
                if text in self.seen[pid]:
                    found.append(pid)
        return found

    def left(self, grace: float = 3.0) -> dict[int, str]:
        """Descendants still alive once the wizard is gone (after `grace` seconds for them to die)."""
        self._stop.set()
        self._thread.join(timeout=2)
        deadline = time.monotonic() + grace
        while True:
            left = {pid: cmd for pid, cmd in self.seen.items() if alive(pid)}
            if not left or time.monotonic() > deadline:
                return left
            time.sleep(0.1)

    def close(self) -> None:
        """Kill whatever is left (a failed test must not leave processes for the next one)."""
        self._stop.set()
        for pid in list(self.seen):
            if alive(pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass


@pytest.fixture
def watch():
    made: list[Watch] = []

    def start(proc: subprocess.Popen) -> Watch:
        w = Watch(proc)
        made.append(w)
        return w

    yield start
    for w in made:
        w.close()
        if w.proc.poll() is None:
            os.killpg(w.proc.pid, signal.SIGKILL)
            w.proc.communicate(timeout=30)


def wait_until(predicate, what: str, timeout: float = 60.0, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        if proc is not None and proc.poll() is not None:
            out, err = proc.communicate()
            raise AssertionError(f"the wizard ended ({proc.returncode}) before {what}:\n{out}\n{err}")
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def logs_contain(home: Path, text: str) -> bool:
    folder = home / "logs"
    if not folder.is_dir():
        return False
    for log in folder.glob("*.log"):
        try:
            if text in log.read_text(errors="replace"):
                return True
        except OSError:
            continue
    return False


def stop(proc: subprocess.Popen, sig: int) -> tuple[int, str, str, float]:
    """Send `sig` to the wizard's process group (what Ctrl-C, a hang-up or `kill -- -PGID` do) and wait.

    Returns (exit status, stdout, stderr, seconds until it exited).
    """
    started = time.monotonic()
    os.killpg(proc.pid, sig)
    try:
        out, err = proc.communicate(timeout=LIMIT + 20)
    except subprocess.TimeoutExpired:
        os.kill(proc.pid, signal.SIGABRT)  # PYTHONFAULTHANDLER: where it hangs, for the failure message
        out, err = proc.communicate()
        raise AssertionError(f"the wizard did not stop within {LIMIT + 20} s of {sig!r}:\n{err}") from None
    return proc.returncode, out, err, time.monotonic() - started


def history(home: Path) -> list[dict]:
    """The history as `gc-wizard history --json` gives it (this also runs the next-start repairs)."""
    proc = subprocess.run([sys.executable, "-m", "wizard", "history", "--json"], cwd=REPO, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "GC_WIZARD_HOME": str(home)})
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text, text


def _normal(name: str) -> str:
    """A project name normalised (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


class _SlowHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder both ways uv reads one: as a flat `--find-links` page (`/`) and as a PEP 503
    simple index (`/<project>/`, what `UV_INDEX_URL` makes uv ask for); wheel files trickle out 64
    bytes a second (a download that is still running).

    Why the index pages: without them every index request is a 404, so an installer that has only the
    index to go on (a rollback rebuilding from its frozen set) fails at once with "not found in the
    package registry" instead of downloading — and a signal test then catches it only by luck.
    """

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        name = self.path.split("?", 1)[0].strip("/")
        if name and "/" not in name and not name.endswith(".whl") and not Path(self.directory, name).exists():
            return self._project_page(name)
        return super().do_GET()

    def _project_page(self, name: str) -> None:
        wheels = sorted(w.name for w in Path(self.directory).glob("*.whl") if _normal(w.name.split("-", 1)[0]) == _normal(name))
        if not wheels:
            self.send_error(404)
            return
        body = "".join(f'<a href="/{w}">{w}</a>\n' for w in wheels).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def copyfile(self, source, outputfile) -> None:
        if not self.path.endswith(".whl"):
            return super().copyfile(source, outputfile)
        try:
            while chunk := source.read(64):
                outputfile.write(chunk)
                outputfile.flush()
                time.sleep(1.0)
        except (BrokenPipeError, ConnectionResetError):
            pass


class SlowHouse:
    """A wheelhouse served slowly over HTTP on 127.0.0.1 (a flat index uv and pip both read)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder
        folder.mkdir(parents=True, exist_ok=True)
        handler = functools.partial(_SlowHandler, directory=str(folder))
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"

    def add(self, name: str, version: str, **kw) -> Path:
        return build_wheel(self.path, name, version, module_source="x = '" + "x" * 4000 + "'\n", **kw)

    def env(self) -> dict[str, str]:
        """Variables that make uv use this server instead of PyPI, and no cache (so it downloads)."""
        return {"UV_NO_CACHE": "1", "UV_INDEX_URL": self.url, "UV_DEFAULT_INDEX": self.url}


@pytest.fixture
def slow_house(tmp_path):
    house = SlowHouse(tmp_path / "slow-house")
    yield house
    house.server.shutdown()
