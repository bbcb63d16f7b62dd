"""The path a new lab member walks, on the command line: sources from the environment, a wrong GraphCast
refused before anything installs, a recipe that does not fit refused, an unreachable host named with its
fix, the "Next:" lines working in a new login shell, and the small things (a closed pipe, diagnose's
prompt). Real uv into real venvs from local wheelhouses; the stand-in NVIDIA stack for detection.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import REPO, last_json
from tests.fixtures.wheels import build_wheel
from wizard.install.reach import find_unreachable, unreachable_advice
from wizard.install.source_env import merged_sources
from wizard.install.sources import check_graphcast_source, look_at_wheelhouse, read_identity
from wizard.recipes.loader import get_recipe


def _checkout(root: Path, name: str, version: str) -> Path:
    """A source folder whose setup.py names `name` `version` (parsed by the wizard, never run)."""
    root.mkdir(parents=True)
    (root / "setup.py").write_text(f'from setuptools import setup\nsetup(\n    name="{name}",\n    version="{version}",\n)\n')
    return root


def _history(env: dict | None = None) -> list[dict]:
    proc = run_inproc("history", "--json", env=env)
    return json.loads(proc.stdout.splitlines()[-1])


# --- the GraphCast source, read without running it ----------------------------------------------------
def test_the_real_checkouts_are_told_apart():
    recipe = get_recipe("jax0.4.23-cpu")
    sources = {"GC_WIZARD_GRAPHCAST_SRC": "graphcast 0.1.1", "GC_WIZARD_GRAPHCAST_V02_SRC": "graphcast 0.2"}
    found = {var: os.environ.get(var) for var in sources}
    if not all(found.values()):
        pytest.skip("needs GraphCast checkouts: set GC_WIZARD_GRAPHCAST_SRC (v0.1.1) and GC_WIZARD_GRAPHCAST_V02_SRC")
    right = check_graphcast_source(recipe, found["GC_WIZARD_GRAPHCAST_SRC"])
    assert right.ok and right.identity.describe().startswith("graphcast 0.1.1")
    wrong = check_graphcast_source(recipe, found["GC_WIZARD_GRAPHCAST_V02_SRC"])
    assert not wrong.ok and "graphcast 0.2" in wrong.problem and "needs DeepMind's graphcast 0.1.1" in wrong.problem


def test_sources_of_every_kind_are_read_and_judged(tmp_path):
    recipe = get_recipe("jax0.4.23-cpu")
    weathernext = check_graphcast_source(recipe, str(_checkout(tmp_path / "main", "weathernext", "0.3.1.dev")))
    assert not weathernext.ok and "weathernext 0.3.1.dev" in weathernext.problem and "WeatherNext" in weathernext.problem
    v02 = check_graphcast_source(recipe, str(build_wheel(tmp_path / "w", "graphcast", "0.2")))
    assert not v02.ok and "graphcast 0.2 (a wheel)" in v02.problem
    pypi = check_graphcast_source(recipe, "https://files.example/graphcast-1.0.0-py3-none-any.whl")
    assert not pypi.ok and "PyPI's unrelated package" in pypi.problem
    tag = check_graphcast_source(recipe, "graphcast @ git+https://github.com/google-deepmind/graphcast@v0.2")
    assert not tag.ok and "graphcast 0.2 (a git URL)" in tag.problem
    assert check_graphcast_source(recipe, recipe.graphcast.source).ok
    good = check_graphcast_source(recipe, str(_checkout(tmp_path / "good", "graphcast", "0.1.1")))
    assert good.ok and good.note is None
    branch = check_graphcast_source(recipe, "git+https://github.com/google-deepmind/graphcast@main")
    assert branch.ok and "could not read which version" in branch.note
    sdist = tmp_path / "graphcast-0.1.1.tar.gz"
    sdist.write_bytes(b"")
    assert read_identity(str(sdist)).version == "0.1.1"


def test_sources_come_from_the_environment_too():
    src, links = merged_sources(None, ["/a"], {"GC_WIZARD_GRAPHCAST_SRC": "/gc", "GC_WIZARD_FIND_LINKS": "/b::/a:/c"})
    assert src == "/gc" and links == ["/a", "/b", "/c"]
    assert merged_sources("/mine", [], {"GC_WIZARD_GRAPHCAST_SRC": "/gc"})[0] == "/mine"


def test_a_wheelhouse_says_how_many_pins_it_holds(tmp_path, tiny):
    recipe = get_recipe("tiny-a", [str(tiny.recipes)])
    house = look_at_wheelhouse(tiny.house.path, recipe)
    assert house.covered == ("pkg-a",) and not house.missing and house.graphcast
    assert "1 of 1 pins" in house.describe()


def test_wrong_checkout_is_refused_before_anything_installs(tiny, tmp_path):
    main = _checkout(tmp_path / "graphcast-main", "weathernext", "0.3.1.dev")
    proc = run_inproc("install", "tiny-a", "--yes", "--recipes-dir", str(tiny.recipes), "--find-links",
                   str(tiny.house.path), "--offline", "--graphcast-src", str(main), "--no-verify")
    assert proc.returncode == 2, proc.stderr
    assert "weathernext 0.3.1.dev" in proc.stderr and "needs DeepMind's graphcast 0.1.1" in proc.stderr
    assert "--force" in proc.stderr and "Traceback" not in proc.stderr
    assert _history() == [] and not any((Path(os.environ["GC_WIZARD_HOME"]) / "envs").glob("*"))


def test_force_installs_a_source_that_is_not_the_recipes(tiny, tmp_path):
    other = build_wheel(tmp_path / "other", "graphcast", "0.2")
    proc = run_inproc("install", "tiny-a", "--yes", "--json", "--force", "--recipes-dir", str(tiny.recipes),
                   "--find-links", str(tiny.house.path), "--offline", "--graphcast-src", str(other), "--no-verify")
    assert proc.returncode == 0, proc.stderr
    assert "--force: " in " ".join((proc.stderr + proc.stdout).split()) and last_json(proc)["ok"]


# --- incompatible means refused ------------------------------------------------------------------------
def test_a_recipe_that_does_not_fit_is_refused_with_its_reasons(gpu_server, tiny):
    gpu_server("no-nvidia")
    proc = run_inproc("install", "jax0.4.23-cuda12-cudnn89", "--yes")
    assert proc.returncode == 2
    assert "does not fit this machine" in proc.stderr and "no NVIDIA driver" in proc.stderr
    assert "--force" in proc.stderr and _history() == []
    plan = run_inproc("plan", "jax0.4.23-cuda12-cudnn89", "--offline", "--graphcast-src", str(tiny.graphcast))
    assert plan.returncode == 0, plan.stderr
    assert plan.stdout.startswith("! jax0.4.23-cuda12-cudnn89 DOES NOT FIT THIS MACHINE")
    assert "no NVIDIA driver" in " ".join(plan.stdout.splitlines()[1:4])  # the reasons next (wrapped to 80 columns)
    as_json = last_json(run_inproc("plan", "jax0.4.23-cuda12-cudnn89", "--json", "--offline", "--graphcast-src",
                                str(tiny.graphcast)))
    assert as_json["fits"] is False and as_json["reasons"]


def test_an_answers_replay_of_a_recipe_that_does_not_fit_is_refused(gpu_server, tmp_path):
    gpu_server("no-nvidia")
    from wizard.after.answers import Answers, save_answers
    from wizard.install.options import InstallOptions

    answers = save_answers(tmp_path / "answers.json",
                           Answers(options=InstallOptions(recipe_id="jax0.4.23-cuda12-cudnn89")))
    proc = run_inproc("install", "--answers", str(answers), "--yes")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "does not fit this machine" in proc.stderr


def test_force_installs_a_recipe_that_does_not_fit(tiny):
    text = (tiny.recipes / "tiny-a.yaml").read_text().replace("os: [linux]", "os: [darwin]")
    (tiny.recipes / "tiny-mac.yaml").write_text(text.replace("id: tiny-a", "id: tiny-mac"))
    refused = run_inproc("install", "tiny-mac", "--yes", *tiny.args())
    assert refused.returncode == 2 and "runs on darwin only" in refused.stderr
    proc, result = tiny.install("tiny-mac", "--force")
    assert proc.returncode == 0 and result["ok"], proc.stderr


# --- sources from the environment, in every command ------------------------------------------------------
def test_plan_and_install_honour_the_environment_sources(tiny):
    env = {"GC_WIZARD_GRAPHCAST_SRC": str(tiny.graphcast), "GC_WIZARD_FIND_LINKS": f"{tiny.house.path}:"}
    plan = last_json(run_inproc("plan", "tiny-a", "--json", "--offline", "--recipes-dir", str(tiny.recipes), env=env))
    assert plan["graphcast"]["install"] == str(tiny.graphcast)
    assert str(tiny.house.path) in plan["find_links"] and plan["graphcast_source"]["ok"]
    assert plan["download"]["from_wheelhouse"] == 1 and plan["download"]["bytes"] > 0
    proc = run_inproc("install", "tiny-a", "--yes", "--json", "--offline", "--no-verify", "--recipes-dir",
                   str(tiny.recipes), env=env)
    assert proc.returncode == 0 and last_json(proc)["ok"], proc.stderr


# --- an unreachable host names the fix ---------------------------------------------------------------------
def test_the_installers_network_errors_name_host_and_role():
    text = "\n".join([
        "fatal: unable to access 'https://github.com/google-deepmind/graphcast/': Could not resolve host: github.com",
        "error: Failed to read --find-links URL: https://storage.googleapis.com/jax-releases/jax_cuda_releases.html",
        "  Caused by: dns error: failed to lookup address information: Name or service not known",
        "Could not fetch URL https://pypi.org/simple/jax/: HTTPSConnectionPool(host='pypi.org', port=443): Max "
        "retries exceeded (Caused by NewConnectionError('Failed to establish a new connection'))",
        "fatal: unable to access 'https://github.com/deepmind/x/': Could not resolve proxy: proxy.lab.example",
    ])
    roles = {h.host: h.role for h in find_unreachable(text)}
    assert roles == {"github.com": "graphcast", "storage.googleapis.com": "jax-releases", "pypi.org": "index",
                     "proxy.lab.example": "proxy"}
    advice = unreachable_advice(text, get_recipe("jax0.4.23-cuda12-cudnn89"))
    assert "--graphcast-src" in advice and "git -C graphcast checkout v0.1.1" in advice
    assert "pip download" in advice and "jaxlib==0.4.23+cuda12.cudnn89" in advice and "--find-links" in advice
    assert "https_proxy" in advice
    assert unreachable_advice("Successfully installed jax-0.4.23") == ""


def test_an_unreachable_graphcast_host_is_named_with_the_fix(tiny, local_index):
    # The package index answers (a local one holding the recipe's wheels); only GraphCast's host does not.
    index = local_index(tiny.house.path)
    args = ("install", "tiny-a", "--yes", "--recipes-dir", str(tiny.recipes), "--find-links",
            str(tiny.house.path), "--graphcast-src",
            "graphcast @ git+https://graphcast.invalid/google-deepmind/graphcast@v0.1.1", "--no-verify")
    env = {"UV_OFFLINE": "0", "UV_INDEX_URL": index, "UV_DEFAULT_INDEX": index, "PIP_INDEX_URL": index}
    refused = run_inproc(*args, env=env)  # said before anything downloads (walk 18)
    assert refused.returncode == 2 and "Nothing was downloaded; pass --force" in refused.stderr, refused.stderr
    # --force: the install goes on, and the GraphCast step's failure still names the host and the fix
    proc = run_inproc(*args, "--force", env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "cannot reach graphcast.invalid" in proc.stderr
    assert "--graphcast-src DIR" in proc.stderr and "git clone https://github.com/google-deepmind/graphcast" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_an_unreachable_index_is_named_with_the_wheelhouse_fix(tiny):
    proc = run_inproc("install", "tiny-a", "--yes", "--recipes-dir", str(tiny.recipes), "--find-links",
                   "https://wheels.invalid/simple/", "--graphcast-src", str(tiny.graphcast), "--no-verify",
                   env={"UV_INDEX_URL": "https://index.invalid/simple"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert re.search(r"cannot reach [a-z.]*invalid", proc.stderr), proc.stderr
    assert "pip download" in proc.stderr and "--find-links wheels --offline" in proc.stderr


def test_an_unreachable_index_set_in_the_environment_is_named_with_its_variable(tiny, monkeypatch):
    """t24g S4: "cannot reach 127.0.0.1. Here the packages come from the package index", the variable unnamed."""
    monkeypatch.delenv("UV_DEFAULT_INDEX", raising=False)  # it would win over UV_INDEX_URL, as uv reads them
    proc = run_inproc("install", "tiny-a", "--yes", "--recipes-dir", str(tiny.recipes), "--graphcast-src",
                      str(tiny.graphcast), "--no-verify", env={"UV_INDEX_URL": "http://ann:S3cretPw@127.0.0.1:9/simple"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    said = " ".join(proc.stderr.split())  # wrapped to the terminal's width
    assert "cannot reach 127.0.0.1" in said
    assert "the index http://ann:***@127.0.0.1:9/simple (from UV_INDEX_URL)" in said
    assert "unset UV_INDEX_URL" in said and "S3cretPw" not in said


# --- the next step works as printed ----------------------------------------------------------------------
def test_next_lines_work_pasted_into_a_new_login_shell(tiny, tmp_path):
    proc, result = tiny.install("tiny-a")
    assert proc.returncode == 0 and result["ok"]
    text = run_inproc("install", "tiny-b", "--yes", *tiny.args()).stdout
    # The activate command: beside its comment, or (past 80 columns) on the line below it, whole.
    line = next(line for line in text.splitlines() if "activate)" in line)
    command = line.removeprefix("Next: ").split("    #")[0].strip()
    assert command.startswith('eval "$(') and command.endswith(' activate)"')
    # The state folder the tests chose is exported on the line before (walk 21 #17), as on the Done screen.
    export = next(line for line in text.splitlines() if "export GC_WIZARD_HOME=" in line)
    command = export.removeprefix("Next: ").split("    #")[0].strip() + " && " + command
    # A new login shell, as after the README's Quick start: the wizard's venv is not on PATH there.
    home = tmp_path / "home"
    home.mkdir()
    # Nor is GC_WIZARD_HOME, which the tests (like a lab's Slurm script) set: the printed lines carry it.
    env = {"HOME": str(home), "PATH": "/usr/local/bin:/usr/bin:/bin", "TERM": "dumb"}
    shell = subprocess.run(["bash", "-l", "-c", f'{command} && python -c "import sys; print(sys.prefix)"'],
                           capture_output=True, text=True, env=env, timeout=60)
    assert shell.returncode == 0, shell.stderr
    current = next(e for e in _history() if e["current"])
    assert shell.stdout.strip().splitlines()[-1] == current["env"]
    assert "command not found" not in shell.stderr


# --- small things ------------------------------------------------------------------------------------------
def test_a_closed_pipe_ends_quietly(gpu_server):
    gpu_server("no-nvidia")
    wizard = subprocess.Popen([sys.executable, "-m", "wizard", "--no-tui"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, cwd=REPO, text=True)
    head = subprocess.run(["head", "-1"], stdin=wizard.stdout, capture_output=True, text=True, timeout=120)
    wizard.stdout.close()
    err = wizard.stderr.read()
    assert wizard.wait(timeout=120) == 0, err
    assert head.stdout.startswith("gc-wizard:") and "Traceback" not in err and "BrokenPipe" not in err, err


def test_diagnose_on_a_terminal_says_what_it_waits_for():
    child = pexpect.spawn(sys.executable, ["-m", "wizard", "diagnose"], cwd=str(REPO), encoding="utf-8",
                          timeout=30, env=dict(os.environ))
    child.expect("paste the log, then press Ctrl-D")
    child.sendline("jaxlib is version 0.4.1, but this version of jax requires version >= 0.4.23.")
    time.sleep(0.2)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert "jax and jaxlib" in child.before and child.exitstatus == 1


def test_the_app_refuses_a_missing_source_before_it_starts(tmp_path):
    """`gc-wizard --graphcast-src WRONG` in a terminal: said at once, exit 2, no screen drawn."""
    checkout = tmp_path / "graphcast"
    (checkout / "graphcast").mkdir(parents=True)
    (checkout / "setup.py").write_text("from setuptools import setup\nsetup(name='graphcast')\n")
    cases = (([str(tmp_path / "missing")], "no such folder or file"),
             ([str(checkout / "graphcast")], f"Its parent {checkout} is one"))
    for value, said in cases:
        child = pexpect.spawn(sys.executable, ["-m", "wizard", "--graphcast-src", *value], cwd=str(REPO),
                              encoding="utf-8", timeout=30, env=dict(os.environ), dimensions=(24, 200))
        child.expect(pexpect.EOF)
        child.close()
        assert said in child.before and "\x1b[?1049h" not in child.before, child.before
        assert child.exitstatus == 2


# --- what it costs, and the live log ------------------------------------------------------------------------
def test_download_size_from_the_wheelhouse_and_overall_progress_from_the_installers_lines(tmp_path):
    from wizard.install.cost import download_size
    from wizard.install.progress import InstallProgress

    house = tmp_path / "house"
    wheel = build_wheel(house, "pkg-a", "1.0", module_source="x = 1\n" * 500)
    size = download_size({"pkg-a": "1.0", "pkg-b": "2.0"}, find_links=[str(house)], offline=True)
    assert size.bytes == wheel.stat().st_size and size.from_wheelhouse == 1 and size.unknown == ("pkg-b",)
    assert size.describe().startswith("1 package (about ") and "is a local file, in the wheelhouse; 1 of unknown " \
        "size (pkg-b)" in size.describe() and "nothing" not in size.describe()  # pkg-b may be downloaded

    uv = InstallProgress(total_packages=3, expected_bytes=80_000_000)
    for line in ["Resolved 3 packages in 1.2s", "Downloading jaxlib (73.6MiB)", " Downloaded jaxlib",
                 "Prepared 3 packages in 4.1s", "Installed 3 packages in 90ms"]:
        uv.feed(line)
    assert uv.bytes_done == int(73.6 * 1024**2) and uv.summary(65).startswith("3 of 3 packages · 77 MB of ~80 MB")
    assert uv.summary(65).endswith("1:05 so far")

    pip = InstallProgress(total_packages=2)
    for line in ["Collecting jaxlib==0.4.23", "  Downloading jaxlib-0.4.23-cp311-manylinux2014_x86_64.whl (77.2 MB)",
                 "Progress 262144 of 77208449"]:
        pip.feed(line)
    assert pip.current == ("jaxlib", 262144, 77208449)
    pip.feed("Progress 77208449 of 77208449")
    pip.feed("Using cached numpy-1.26.4-cp311-cp311-manylinux_2_17_x86_64.whl (18.3 MB)")
    assert pip.bytes_done == 77208449 and pip.fetched == {"jaxlib", "numpy"} and pip.current is None


def test_long_log_lines_are_wrapped_for_80_columns():
    from wizard.tui.widgets.live_log import wrap_line

    line = "fatal: unable to access 'https://github.com/google-deepmind/graphcast/': Could not resolve host: github.com"
    rows = wrap_line(line, 76)
    assert len(rows) == 2 and all(len(row) <= 76 for row in rows) and rows[1].startswith("  ↳ ")
    assert "".join(row.removeprefix("  ↳ ") for row in rows) == line
    assert wrap_line("short", 76) == ["short"]


def test_plain_rollback_goes_back_to_the_environment_that_was_current_before(tiny):
    (tiny.recipes / "tiny-c.yaml").write_text((tiny.recipes / "tiny-a.yaml").read_text().replace("tiny-a", "tiny-c"))
    ids = {}
    for recipe_id in ("tiny-a", "tiny-b"):
        proc, result = tiny.install(recipe_id)
        assert proc.returncode == 0, proc.stderr
        ids[recipe_id] = result["entry_id"]
    back = run_inproc("rollback", ids["tiny-a"], "--yes", "--no-verify")
    assert back.returncode == 0, back.stderr
    proc, result = tiny.install("tiny-c")
    assert proc.returncode == 0, proc.stderr
    # The newest other good install is tiny-b, but the one current before tiny-c was tiny-a.
    plain = run_inproc("rollback", "--yes", "--no-verify")
    assert plain.returncode == 0, plain.stderr
    assert "tiny-a" in plain.stdout and "tiny-b" not in plain.stdout.split("Rolled back")[-1]
    current = [e for e in tiny.history() if e["current"]]
    assert current[0]["id"] == ids["tiny-a"] and current[0]["installer"] == "uv"


def test_pip_progress_lines_update_one_live_row_not_the_log(tiny, tmp_path):
    """Under pip, hundreds of `Progress N of M` lines per wheel go to the live row; the log keeps moving."""
    from wizard.install.plan import build_plan
    from wizard.recipes.pythons import own_python
    from wizard.tui.screens.install import InstallScreen

    plan = build_plan(get_recipe("tiny-a", [str(tiny.recipes)]), env_dir=tmp_path / "env", python=own_python(),
                      installer="pip", find_links=[str(tiny.house.path)], offline=True,
                      graphcast_src=str(tiny.graphcast))
    screen = InstallScreen(plan)
    screen.feed_line("Collecting jaxlib==0.4.23")
    screen.feed_line("  Downloading jaxlib-0.4.23-cp311-cp311-manylinux2014_x86_64.whl (77.2 MB)")
    for done in range(262144, 77208449, 262144 * 40):
        screen.feed_line(f"Progress {done} of 77208449")
    assert screen.live_log._live.startswith("downloading jaxlib:") and "of 77 MB" in screen.live_log._live
    assert not any(line.startswith("Progress") for line in screen.live_log._pending)
    screen.feed_line("Progress 77208449 of 77208449")
    screen.feed_line("Collecting numpy==1.26.4")
    assert screen.live_log._pending[-1] == "Collecting numpy==1.26.4" and screen.live_log._live == ""
    assert screen.progress.bytes_done == 77208449
    assert screen._step_list.progress == ""  # the file is whole; the step is not


def test_pips_silent_install_phase_is_said_on_both_faces(tiny, tmp_path):
    """Walk 28 #4: after `Installing collected packages` pip printed nothing for two minutes, and the app showed only a
    spinner. The live row (app) and a line (CLI) say that it is quiet, and why, from one sentence in the core."""
    import io

    from wizard.commands.install import TerminalEvents
    from wizard.install.plan import build_plan
    from wizard.install.progress import PIP_QUIET_WORDS
    from wizard.recipes.pythons import own_python
    from wizard.tui.screens.install import InstallScreen

    plan = build_plan(get_recipe("tiny-a", [str(tiny.recipes)]), env_dir=tmp_path / "env", python=own_python(),
                      installer="pip", find_links=[str(tiny.house.path)], offline=True,
                      graphcast_src=str(tiny.graphcast))
    screen = InstallScreen(plan)
    screen.feed_line("Collecting numpy==1.26.4")
    assert screen.live_log._live != PIP_QUIET_WORDS
    screen.feed_line("Installing collected packages: numpy, jaxlib, jax")
    assert screen.live_log._live == PIP_QUIET_WORDS and len(PIP_QUIET_WORDS) <= 80
    out = io.StringIO()
    events = TerminalEvents(out, assume_yes=True)
    events.line(plan.steps[0], "Collecting numpy==1.26.4")
    events.line(plan.steps[0], "Installing collected packages: numpy, jaxlib, jax")
    lines = out.getvalue().splitlines()  # the wizard's own note wraps between words at 80 columns (walk 33 #5)
    assert lines[:2] == ["    Collecting numpy==1.26.4", "    Installing collected packages: numpy, jaxlib, jax"]
    assert all(line.startswith("    ") for line in lines[2:])
    assert " ".join(" ".join(lines[2:]).split()) == f"({PIP_QUIET_WORDS})"
