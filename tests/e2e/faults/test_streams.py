"""The standard streams as cron, daemon wrappers, full disks and odd locales leave them (issue 24, P1 P4 P5 P6).

Each case runs the real CLI in a real shell with the stream closed (`>&-`, `<&-`, `2>&-`), on
/dev/full, or with Python's UTF-8 mode off, on commands other than the ones the issue measured: one
sentence that names the stream (never the state folder), no traceback, and no secret in any
channel, the `--json` line included.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.fixtures.envs import python_link_env
from tests.fixtures.state import REPO


def _shell(script: str, *args: str, env: dict | None = None, stdin: str = "") -> subprocess.CompletedProcess:
    """`script` run by bash with "$PY -m wizard" as $GCW and ARGS as "$@": redirections as a user types them."""
    full = {**os.environ, "PY": sys.executable, **(env or {})}
    return subprocess.run(["bash", "-c", script.replace("$GCW", '"$PY" -m wizard'), "gcw", *args],
                          capture_output=True, text=True, env=full, input=stdin, cwd=str(REPO), timeout=300)


def _no_traceback(proc: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout, proc.stderr


def test_a_closed_stdout_is_refused_by_name_before_anything_runs(tiny):
    for script in ('$GCW recipes --recipes-dir "$1" >&-', '$GCW plan tiny-a --recipes-dir "$1" >&-'):
        proc = _shell(script, str(tiny.recipes))
        _no_traceback(proc)
        assert proc.returncode == 1 and "standard output is closed" in proc.stderr, proc.stderr
    proc = _shell('$GCW install tiny-b --yes --json "$@" >&-', *tiny.args())
    _no_traceback(proc)
    assert proc.returncode == 1 and "standard output is closed" in proc.stderr
    assert tiny.history() == []  # refused before anything ran: nothing installed, nothing recorded


def test_a_closed_stdin_or_stderr_is_not_a_traceback(tiny):
    proc, result = tiny.install("tiny-a")
    assert result and result["ok"], proc.stderr
    proc = _shell("$GCW remove \"$1\" <&-", result["entry_id"])
    _no_traceback(proc)
    assert proc.returncode in (1, 2) and "--yes" in proc.stderr or "current" in proc.stderr, proc.stderr
    proc = _shell("$GCW diagnose - <&-")
    _no_traceback(proc)
    assert proc.returncode == 2 and "standard input is closed" in proc.stderr
    proc = _shell("$GCW history --json 2>&-")
    assert proc.returncode == 0 and json.loads(proc.stdout.splitlines()[-1])[0]["current"] is True


def test_a_full_stdout_names_stdout_not_the_state_disk(tiny):
    for script in ('$GCW recipes --recipes-dir "$1" > /dev/full', '$GCW recipes --json --recipes-dir "$1" > /dev/full'):
        proc = _shell(script, str(tiny.recipes))
        _no_traceback(proc)
        assert proc.returncode == 1, proc.stderr
        assert "standard output (/dev/full)" in proc.stderr and "GC_WIZARD_HOME" not in proc.stderr, proc.stderr


def test_a_stdout_open_for_reading_is_named_so_with_a_fix_that_applies(tiny):
    """Eighth hostile pass F5: `1</dev/null` was told "send standard output to a file on a disk with space, or to
    /dev/null" — where it already went. The cause is the open mode, and the fix says so."""
    for script in ('$GCW recipes --recipes-dir "$1" 1</dev/null', '$GCW history --json 1</dev/null'):
        proc = _shell(script, str(tiny.recipes))
        _no_traceback(proc)
        assert proc.returncode == 1, proc.stderr
        assert "standard output (/dev/null): it is open for reading only" in proc.stderr, proc.stderr
        assert "disk with space" not in proc.stderr and "open standard output for writing" in proc.stderr


def test_an_ascii_locale_gets_no_traceback_from_marks_or_path_bytes(tiny, isolated_state):
    proc, result = tiny.install("tiny-a")
    assert result and result["ok"], proc.stderr
    ascii_env = {"LC_ALL": "POSIX", "LANG": "", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    for script in ("$GCW history", '$GCW recipes --recipes-dir "$1"', "$GCW report"):
        proc = _shell(script, str(tiny.recipes), env=ascii_env)
        _no_traceback(proc)
        assert proc.returncode == 0, proc.stderr


def test_utf8_paths_under_the_c_locale_without_utf8_mode_are_taken(tiny, tmp_path):
    """Twentieth pass P4: under `LC_ALL=C PYTHONUTF8=0` Python decodes argv and the environment as ASCII, so a
    UTF-8 `--env …/envé` and `GC_WIZARD_HOME=…/stü` were refused as "has the byte \\xc3, which is not UTF-8"."""
    base = os.fsencode(str(tmp_path))
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0",
           "GC_WIZARD_HOME": os.fsdecode(base + "/stü".encode())}
    env_dir = (base + "/envé".encode()).decode("utf-8")
    for extra in ([], ["--env", env_dir], ["--env", (base + "/e\u2028ls".encode()).decode("utf-8")]):
        proc = subprocess.run([sys.executable, "-m", "wizard", "plan", "tiny-a", "--json",
                               *[a for a in tiny.args() if a != "--no-verify"], *extra],
                              capture_output=True, env=env, cwd=str(REPO), timeout=300)
        stderr = proc.stderr.decode("utf-8", "replace")
        assert "Traceback" not in stderr and proc.returncode == 0, stderr + proc.stdout.decode("utf-8", "replace")
        assert b"not UTF-8" not in proc.stdout + proc.stderr
    proc = subprocess.run([sys.executable, "-m", "wizard", "install", "tiny-a", "--yes", "--json", *tiny.args(),
                           "--env", env_dir], capture_output=True, env=env, cwd=str(REPO), timeout=300)
    assert proc.returncode == 0 and json.loads(proc.stdout.splitlines()[-1])["ok"], proc.stderr
    assert Path(env_dir, "bin", "python").exists()


def test_a_state_path_with_a_byte_that_is_not_utf8_is_refused_before_anything_runs(tiny, tmp_path):
    """uv refuses a venv path that is not UTF-8, so the wizard says so up front (exit 2, nothing half-made);
    every other command still shows the folder as the bytes it is."""
    home = os.fsdecode(os.fsencode(str(tmp_path)) + b"/st\xfe\xc3te")  # `\xfe`: never valid UTF-8
    env = {**os.environ, "GC_WIZARD_HOME": home}
    for extra in ([], ["--env", os.fsdecode(os.fsencode(str(tmp_path)) + b"/env\xff")]):
        proc = subprocess.run([sys.executable, "-m", "wizard", "install", "tiny-a", "--yes", "--json", *tiny.args(),
                               *extra], capture_output=True, env=env, cwd=str(REPO), timeout=300)
        stderr = proc.stderr.decode("utf-8", "replace")
        assert "Traceback" not in stderr and proc.returncode == 2, stderr
        assert "not UTF-8" in stderr and json.loads(proc.stdout.splitlines()[-1])["ok"] is False
    for command in (["history"], ["history", "--json"], ["report", "--out", str(tmp_path / "r.md")], ["recipes"]):
        shown = subprocess.run([sys.executable, "-m", "wizard", *command], capture_output=True, env=env,
                               cwd=str(REPO), timeout=120)
        assert shown.returncode == 0 and b"Traceback" not in shown.stderr, shown.stderr
    assert not list(Path(home).glob("envs/*"))
    listed = subprocess.run([sys.executable, "-m", "wizard", "history", "--json"], capture_output=True, env=env,
                            cwd=str(REPO), timeout=120)
    assert json.loads(listed.stdout.splitlines()[-1]) == []  # refused before an entry was recorded


def test_tokens_in_find_links_queries_never_reach_the_json_line(tiny):
    tokens = {"github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz": "?t=github_pat_11ABCDEFG0123456789_"
              "abcdefghijklmnopqrstuvwxyz", "glpat-AbCdEf0123456789xyzQW": "?gitlab=glpat-AbCdEf0123456789xyzQW",
              "SeKrEt0987654321abc": "?access_token=SeKrEt0987654321abc",
              # Shapes the fourth pass found leaking: a PyPI token under a neutral name, a presigned signature.
              "pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6QUJDREVGR0g":
                  "?t=pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6QUJDREVGR0g",
              "deadbeefcafebabe0123456789abcdef": "?X-Amz-Date=20261126T000000Z&X-Amz-Signature="
                                                  "deadbeefcafebabe0123456789abcdef"}
    for secret, query in tokens.items():
        proc = subprocess.run(
            [sys.executable, "-m", "wizard", "install", "tiny-a", "--yes", "--json", "--recipes-dir", str(tiny.recipes),
             "--find-links", f"https://127.0.0.1:9/wheels/{query}", "--find-links", str(tiny.house.path),
             "--graphcast-src", str(tiny.graphcast), "--no-verify"],
            capture_output=True, text=True, cwd=str(REPO), timeout=300)
        _no_traceback(proc)
        assert secret not in proc.stdout and secret not in proc.stderr, (secret, proc.stdout[-2000:])
        result = json.loads(proc.stdout.splitlines()[-1])
        # The leak path the issue measured: the JSON "error" quotes the installer's failure on that URL.
        assert result["ok"] is False and "127.0.0.1:9" in result["error"] and "<redacted>" in result["error"]


def test_a_module_file_for_an_env_whose_path_is_not_utf8_keeps_its_bytes(tmp_path):
    """The Lua file is written with the path's own byte (what Lmod must be given), not a crash that leaves a
    half-written file behind."""
    env_dir = os.fsdecode(os.fsencode(str(tmp_path)) + b"/v\xffenv")
    python_link_env(Path(env_dir), names=("python", "python3"), cfg="home = /usr/bin\nversion = 3.11.7\n")
    env = {**os.environ, "GC_WIZARD_HOME": str(tmp_path / "home")}
    proc = subprocess.run([sys.executable, "-m", "wizard", "module", "install", "--env", env_dir], capture_output=True,
                          text=True, env=env, cwd=str(REPO), timeout=120, errors="surrogateescape")
    _no_traceback(proc)
    assert proc.returncode == 0 and "error of its own" not in proc.stderr, proc.stderr
    written = list((tmp_path / "home" / "modules" / "graphcast").iterdir())
    assert [p.name for p in written] == ["v-env.lua"]
    assert os.fsencode(env_dir) in written[0].read_bytes()


def test_a_wheelhouse_whose_path_is_not_utf8_is_refused_before_an_env_is_made(tiny, tmp_path, isolated_state):
    house = os.fsdecode(os.fsencode(str(tmp_path)) + b"/h\xfe")
    os.mkdir(house)
    proc = subprocess.run([sys.executable, "-m", "wizard", "install", "tiny-a", "--yes", "--recipes-dir",
                           str(tiny.recipes), "--find-links", house, "--offline", "--graphcast-src",
                           str(tiny.graphcast), "--no-verify"], capture_output=True, text=True, cwd=str(REPO),
                          timeout=120, errors="surrogateescape")
    _no_traceback(proc)
    assert proc.returncode == 2 and "not UTF-8" in proc.stderr, proc.stderr
    assert not list(Path(isolated_state).glob("envs/*"))


@pytest.mark.parametrize("what", ["graphcast-src", "python", "lock"])
def test_any_path_uv_would_get_that_is_not_utf8_is_refused_before_an_env_is_made(tiny, tmp_path, isolated_state,
                                                                                  what):
    """The same class as the wheelhouse above, through the other paths a plan hands uv: a GraphCast wheel, an
    interpreter, a lock, each in a folder whose name has a byte that is not UTF-8. uv refused the GraphCast one
    only at its step, after every package had downloaded, with its bare "invalid UTF-8" line."""
    folder = os.fsdecode(os.fsencode(str(tmp_path)) + b"/p\xff")
    os.mkdir(folder)
    args = list(tiny.args())
    if what == "graphcast-src":
        wheel = Path(folder) / tiny.graphcast.name
        wheel.write_bytes(tiny.graphcast.read_bytes())
        args[args.index("--graphcast-src") + 1] = str(wheel)
    elif what == "python":
        os.symlink(sys.executable, Path(folder) / "python3")
        args += ["--python", str(Path(folder) / "python3")]
    else:
        lock = Path(folder) / "lock.txt"
        lock.write_text(f"pkg-a==1.0 --hash=sha256:{'0' * 64}\n")
        args += ["--lock", str(lock)]
    proc = subprocess.run([sys.executable, "-m", "wizard", "install", "tiny-a", "--yes", "--json", *args],
                          capture_output=True, text=True, cwd=str(REPO), timeout=120, errors="surrogateescape")
    _no_traceback(proc)
    assert proc.returncode == 2 and "not UTF-8" in proc.stderr and "\\xff" in proc.stderr, proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1])["exit"] == 2
    assert not list(Path(isolated_state).glob("envs/*")) and tiny.history() == []


def test_an_output_file_that_is_a_pipe_is_written_into_not_replaced(tiny, tmp_path):
    """`--out` and `--save-answers` naming a FIFO (as /dev/stdout, /dev/full or a named pipe are): the text goes
    into it, as a shell's `>` would send it, and the FIFO stays a FIFO. The atomic rename every private file
    is written with put a regular file in its place and said it wrote (as root, /dev/full itself was replaced)."""
    fifo, got = tmp_path / "out.fifo", tmp_path / "read.txt"
    proc = _shell('mkfifo "$1"; timeout 20 cat "$1" > "$2" & $GCW report --out "$1"; rc=$?; wait; exit $rc',
                  str(fifo), str(got))
    _no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    assert fifo.is_fifo() and got.read_text().startswith("# gc-wizard support report")

    answers_fifo, answers = tmp_path / "answers.fifo", tmp_path / "answers.json"
    proc = _shell('f="$1"; mkfifo "$f"; timeout 20 cat "$f" > "$2" & shift 2; $GCW install tiny-a --yes --save-answers "$f" "$@"; '
                  'rc=$?; wait; exit $rc', str(answers_fifo), str(answers), *tiny.args())
    _no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    assert answers_fifo.is_fifo() and json.loads(answers.read_text())["recipe"] == "tiny-a"


def test_a_reader_that_goes_away_never_stops_a_command_that_changes_something(tiny):
    """`… | head -1`, `… | true`: an install, a rollback and a remove go on to the end without their reader
    (each is recorded, exit status its own, and stderr says the reader left); a command that only prints
    still ends quietly with exit 0, as `ls | head` does. (Sixth hostile pass: the install exited 0 at its
    first line, with nothing installed and nothing recorded.)"""
    args = " ".join(f"'{a}'" for a in tiny.args())
    proc = _shell(f"$GCW install tiny-a --yes {args} | head -1; exit ${{PIPESTATUS[0]}}")
    _no_traceback(proc)
    assert proc.returncode == 0 and len(proc.stdout.splitlines()) == 1, proc.stderr
    assert "reader went away" in proc.stderr, proc.stderr
    first = tiny.history()
    assert [e["recipe"] for e in first] == ["tiny-a"] and Path(first[0]["env"]).is_dir()
    proc = _shell(f"$GCW install tiny-b --yes {args} 2>&1 | true; exit ${{PIPESTATUS[0]}}")
    assert proc.returncode == 0, proc.stderr
    entries = {e["recipe"]: e for e in tiny.history()}
    assert set(entries) == {"tiny-a", "tiny-b"} and entries["tiny-b"]["current"] is True
    old = entries["tiny-a"]["id"]
    proc = _shell(f"$GCW rollback {old} --yes --no-verify | true; exit ${{PIPESTATUS[0]}}")
    assert proc.returncode == 0 and "reader went away" in proc.stderr, proc.stderr
    assert next(e for e in tiny.history() if e["id"] == old)["current"] is True
    newer = next(e for e in tiny.history() if e["recipe"] == "tiny-b")
    proc = _shell(f"$GCW remove {newer['id']} --yes | true; exit ${{PIPESTATUS[0]}}")
    assert proc.returncode == 0, proc.stderr
    assert not Path(newer["env"]).exists()
    for script in ("$GCW history | head -c 1; exit ${PIPESTATUS[0]}", "$GCW history --json | true; exit ${PIPESTATUS[0]}"):
        proc = _shell(script)
        _no_traceback(proc)
        assert proc.returncode == 0 and "reader went away" not in proc.stderr, proc.stderr


def test_every_user_output_file_refuses_a_link_to_a_file_and_fails_a_full_disk_with_exit_1(tiny, tmp_path):
    """6d/6e/6i, with the writers the hostile pass did not try: `--save-answers` and `module install` into
    /dev/full (through a link) both end 1 (the operation failed), as `report --out` does. A module file whose path
    is a link to another file is refused (exit 2) and that file left alone: the link may be anyone's (eleventh
    hostile pass #188/#189 turned the earlier rule, which wrote the file it names)."""
    proc, result = tiny.install("tiny-a")
    assert result and result["ok"], proc.stderr
    mods, elsewhere = tmp_path / "mods" / "graphcast", tmp_path / "shared-modules"
    mods.mkdir(parents=True)
    elsewhere.mkdir()
    (elsewhere / "tiny-a.lua").write_text("-- the group's copy\n")
    (mods / "tiny-a.lua").symlink_to(elsewhere / "tiny-a.lua")
    proc = _shell('$GCW module install --dir "$1"', str(tmp_path / "mods"))
    _no_traceback(proc)
    assert proc.returncode == 2 and "is a symbolic link" in proc.stderr, proc.stderr
    assert (mods / "tiny-a.lua").is_symlink() and (elsewhere / "tiny-a.lua").read_text() == "-- the group's copy\n"

    (tmp_path / "full-mods" / "graphcast").mkdir(parents=True)
    (tmp_path / "full-mods" / "graphcast" / "tiny-a.lua").symlink_to("/dev/full")
    (tmp_path / "answers.json").symlink_to("/dev/full")
    for script, args in (('$GCW module install --dir "$1"', [str(tmp_path / "full-mods")]),
                         ('$GCW report --out "$1"', [str(tmp_path / "answers.json")]),
                         ('f="$1"; shift; $GCW install tiny-a --yes --json --save-answers "$f" "$@"',
                          [str(tmp_path / "answers.json"), *tiny.args()])):
        proc = _shell(script, *args)
        _no_traceback(proc)
        assert proc.returncode == 1 and "No space left on device" in proc.stderr, (script, proc.stderr)
    assert (tmp_path / "full-mods" / "graphcast" / "tiny-a.lua").is_symlink()


def test_a_non_blocking_stdout_gets_the_whole_json_line(tmp_path):
    """Seventh hostile pass 4b: with stdout a non-blocking pipe whose reader waits, `recipes --json` delivered
    4 KiB of its 33 and exited 0. The wizard puts its streams back in blocking mode."""
    import fcntl
    import time

    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETFL, fcntl.fcntl(write_end, fcntl.F_GETFL) | os.O_NONBLOCK)
    proc = subprocess.Popen([sys.executable, "-m", "wizard", "recipes", "--json"], stdout=write_end,
                            stderr=subprocess.PIPE, cwd=str(REPO))
    os.close(write_end)
    time.sleep(2)  # the reader is late: the pipe fills while the wizard writes
    chunks = []
    while chunk := os.read(read_end, 65536):
        chunks.append(chunk)
    os.close(read_end)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    recipes = json.loads(b"".join(chunks).decode().splitlines()[-1])
    assert len(recipes) >= 12


def test_an_endless_find_links_page_is_refused_before_the_installer_reads_it(tiny, endless_page, isolated_state):
    """Seventh hostile pass 12g: uv read a find-links page that never ends into memory (3.4 GB in five seconds)
    and failed without naming it. The wizard reads the page first, with a bound, and refuses by name."""
    url, _ = endless_page
    proc = subprocess.run(
        [sys.executable, "-m", "wizard", "install", "tiny-a", "--yes", "--json", "--recipes-dir", str(tiny.recipes),
         "--find-links", url, "--find-links", str(tiny.house.path), "--graphcast-src", str(tiny.graphcast),
         "--no-verify"], capture_output=True, text=True, cwd=str(REPO), timeout=300)
    _no_traceback(proc)
    result = json.loads(proc.stdout.splitlines()[-1])
    assert proc.returncode == 2 and result["ok"] is False, proc.stderr
    assert result["error"].startswith(f"the wheelhouse page {url} (--find-links) holds more than 64 MB")
    assert not list((isolated_state / "envs").glob("*"))  # refused before an environment was made


def test_lock_refuses_an_endless_find_links_page_by_name_too(tiny, endless_page, isolated_state, tmp_path):
    url, _ = endless_page
    out = tmp_path / "lock.txt"
    proc = subprocess.run([sys.executable, "-m", "wizard", "lock", "tiny-a", "--json", "--recipes-dir",
                           str(tiny.recipes), "--find-links", url, "--out", str(out)],
                          capture_output=True, text=True, cwd=str(REPO), timeout=300)
    _no_traceback(proc)
    result = json.loads(proc.stdout.splitlines()[-1])
    assert proc.returncode == 2 and result["error"].startswith(f"the wheelhouse page {url} (--find-links)")
    assert not out.exists()


@pytest.mark.parametrize("server", ["trickle_page", "trickle_headers"])
def test_a_trickling_find_links_page_does_not_stop_a_signal_from_ending_the_install(tiny, server, isolated_state,
                                                                                     request):
    """Ninth hostile pass W5/W6/W8: with a page arriving a byte at a time, SIGTERM, SIGINT and SIGHUP did nothing for
    minutes (the page's pre-read waited for a full megabyte; the signal handler waited for it). Tenth pass W9-W11: the
    same with the status line trickling. Now the signal ends the install within seconds, and nothing is left."""
    import signal
    import time

    trickle_page = request.getfixturevalue(server)

    proc = subprocess.Popen(
        [sys.executable, "-m", "wizard", "install", "tiny-a", "--yes", "--json", "--recipes-dir", str(tiny.recipes),
         "--find-links", trickle_page, "--find-links", str(tiny.house.path), "--graphcast-src", str(tiny.graphcast),
         "--no-verify"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(REPO))
    time.sleep(3)  # inside the page's read
    proc.send_signal(signal.SIGTERM)
    try:
        out, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("the install went on for 20 s after SIGTERM") from None
    assert "Traceback" not in err
    assert proc.returncode == 143, err
    assert not list((isolated_state / "envs").glob("*"))


def test_lock_says_a_trickling_find_links_page_is_slow_instead_of_saying_nothing(tiny, trickle_page, isolated_state,
                                                                                  tmp_path):
    """Ninth hostile pass W3: `lock` with a page arriving a byte at a time said nothing for minutes. The wizard's own
    read ends at its deadline and says the page is slow, before the installer reads it."""
    proc = subprocess.Popen([sys.executable, "-m", "wizard", "lock", "tiny-a", "--recipes-dir", str(tiny.recipes),
                             "--find-links", trickle_page, "--out", str(tmp_path / "lock.txt")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=str(REPO))
    said = []
    stopper = threading.Timer(90, proc.kill)  # a wizard that never says it ends here, not in a hung suite
    stopper.start()
    for line in proc.stderr:  # the sentence comes at the read's 15 s deadline; uv then reads the page for ever
        said.append(line)
        if "is slow (" in line:
            break
    proc.terminate()
    err = "".join(said) + proc.communicate(timeout=30)[1]
    stopper.cancel()
    assert "Traceback" not in err
    assert f"the wheelhouse page {trickle_page} is slow (" in err, err
    assert not (tmp_path / "lock.txt").exists()


def test_a_command_that_changes_something_is_refused_before_it_runs_when_its_streams_cannot_be_written(tiny,
                                                                                                       tmp_path):
    """Fourteenth hostile pass Q5: `install > /dev/full` ran to the end, made the new environment current, then said
    "The state folder is not affected", exit 1. Every command that changes something is refused up front when
    stdout or stderr is known to fail (/dev/full, open for reading only), with a sentence naming the stream and where
    it goes, and nothing changes; with stderr the one that fails, the `--json` line carries the sentence."""
    proc, result = tiny.install("tiny-a")
    assert result and result["ok"], proc.stderr
    before = tiny.history()
    readonly = tmp_path / "ro.txt"
    readonly.write_text("")
    cases = [
        ('$GCW install tiny-b --yes --json "$@" > /dev/full', "standard output (/dev/full): the disk it goes to is full"),
        ('$GCW install tiny-b --yes "$@" 1<"$RO"', f"standard output ({readonly}): it is open for reading only"),
        ("$GCW rollback --yes --no-verify > /dev/full", "standard output (/dev/full): the disk it goes to is full"),
        (f"$GCW remove --yes {result['entry_id']} > /dev/full", "standard output (/dev/full)"),
        ('$GCW lock tiny-b --recipes-dir "$2" --out "$OUTDIR/l.txt" > /dev/full', "standard output (/dev/full)"),
    ]
    for script, named in cases:
        proc = _shell(script, *tiny.args(), env={"RO": str(readonly), "OUTDIR": str(tmp_path)})
        _no_traceback(proc)
        assert proc.returncode == 1, (script, proc.stderr)
        assert named in proc.stderr and "nothing was done" in proc.stderr, (script, proc.stderr)
        assert "not affected" not in proc.stderr and len(proc.stderr.splitlines()) == 1, proc.stderr
    assert not (tmp_path / "l.txt").exists()
    proc = _shell('$GCW install tiny-b --yes --json "$@" 2>/dev/full', *tiny.args())
    line = json.loads(proc.stdout.splitlines()[-1])
    assert proc.returncode == 1 and line["ok"] is False and line["exit"] == 1
    assert "standard error (/dev/full): the disk it goes to is full" in line["error"]
    assert tiny.history() == before  # nothing installed, rolled back or removed; nothing recorded


def test_with_stderr_unwritable_the_refusal_is_said_on_stdout_for_every_command(tiny, tmp_path):
    """Twentieth pass P6: with `2>/dev/full` (or stderr a file on a full disk) `install`, `rollback`, `module
    install` and `report --out` were refused and said so only on stderr, which could not carry it: exit 1, an empty
    stdout. The one sentence now goes to stdout, naming standard error; `activate`'s stdout, which a shell evals,
    gets it as a comment; with --json the line alone carries it."""
    proc, result = tiny.install("tiny-a")
    assert result and result["ok"], proc.stderr
    proc, result = tiny.install("tiny-b")
    assert result and result["ok"], proc.stderr
    before = tiny.history()
    refusal = "gc-wizard: cannot write to standard error (/dev/full): the disk it goes to is full"
    for script in ('$GCW install tiny-a --yes "$@" 2>/dev/full',
                   "$GCW rollback --yes --no-verify 2>/dev/full",
                   f"$GCW remove --yes {result['entry_id']} 2>/dev/full",
                   '$GCW module install --dir "$OUTDIR/mods" 2>/dev/full',
                   '$GCW report --out "$OUTDIR/r.md" 2>/dev/full',
                   '$GCW lock tiny-b --recipes-dir "$2" --out "$OUTDIR/l.txt" 2>/dev/full'):
        proc = _shell(script, *tiny.args(), env={"OUTDIR": str(tmp_path)})
        _no_traceback(proc)
        assert proc.returncode == 1, (script, proc.stdout)
        assert proc.stdout.startswith(refusal) and "nothing was done" in proc.stdout, (script, proc.stdout)
        assert len(proc.stdout.splitlines()) == 1, proc.stdout
    assert not any((tmp_path / name).exists() for name in ("mods", "r.md", "l.txt"))
    assert tiny.history() == before
    proc = _shell('$GCW install tiny-a --yes --json "$@" 2>/dev/full', *tiny.args())
    assert len(proc.stdout.splitlines()) == 1 and json.loads(proc.stdout)["ok"] is False  # the JSON line alone
    # a command that only reads, ending on an error: the sentence too, and for activate as a shell comment
    proc = _shell("$GCW activate --env \"$OUTDIR/none\" 2>/dev/full", env={"OUTDIR": str(tmp_path)})
    assert proc.returncode != 0 and proc.stdout.startswith("# gc-wizard: "), proc.stdout
    assert all(line.startswith("# ") for line in proc.stdout.splitlines())
    proc = _shell("$GCW history --json 2>/dev/full; $GCW diagnose \"$OUTDIR/missing.log\" 2>/dev/full",
                  env={"OUTDIR": str(tmp_path)})
    assert "gc-wizard: " in proc.stdout and "missing.log" in proc.stdout, proc.stdout


@pytest.mark.parametrize("words", ["--version", "--help", "install --help", "rollback -h"])
def test_what_only_prints_ends_as_a_reading_command_on_a_full_or_departed_stdout(words):
    """Fifteenth hostile pass P12: `--version > /dev/full` ended with the changing commands' sentence ("what it
    changed is in `gc-wizard history`"); it changes nothing. It is named as a reading command is, and a reader that
    goes away (`--help | head -1`) ends it quietly, exit 0, as `ls | head` is."""
    full = _shell(f"$GCW {words} > /dev/full")
    _no_traceback(full)
    assert full.returncode == 1 and "cannot write to standard output (/dev/full)" in full.stderr, full.stderr
    assert "gc-wizard history" not in full.stderr
    for _ in range(3):
        gone = _shell(f"$GCW {words} | true; echo \"status=${{PIPESTATUS[0]}}\"")
        _no_traceback(gone)
        assert gone.stdout.strip().endswith("status=0") and gone.stderr == "", gone.stderr


def test_a_newline_or_a_byte_that_is_not_utf8_in_a_named_value_keeps_the_sentence_whole(tmp_path):
    """Fifteenth hostile pass P10/P11: a newline in a LOGFILE argument split `diagnose`'s sentence over two lines,
    and a byte that is not UTF-8 in a quoted value was spelled `\\udcff` where every other sentence says `\\xff`."""
    log = tmp_path / "run\nname.log"
    log.write_text("RuntimeError: something broke\n")
    proc = _shell('$GCW diagnose "$1"', str(log))
    _no_traceback(proc)
    said = " ".join(proc.stdout.split())  # the heading wraps at the terminal's width, under its own start
    assert said.startswith(f"No known problem found in {tmp_path}/run\\u000aname.log"), proc.stdout
    driver = _shell("$GCW detect --assume-driver $'5\\xff' --json")
    _no_traceback(driver)
    error = json.loads(driver.stdout.splitlines()[-1])["error"]
    assert driver.returncode == 2 and "'5\\xff'" in error and "udc" not in error, error
