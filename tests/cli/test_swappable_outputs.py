"""Every command that writes a file refuses a path reached through a link another user owns, or a folder on the
way another user can change (twenty-third hostile pass, part B, P1/P2): root wrote `report --out`, `lock --out`,
`bundle --out` and made `install --env` current wherever that user's link pointed. The real CLI in this process,
on the tiny recipes; real links given to `nobody` with lchown."""

from __future__ import annotations

import os
import sys

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.modes import NOBODY, need_root, open_folder
from tests.fixtures.state import last_json


@pytest.fixture
def their_link(tmp_path):
    """/…/tmp (1777) /V: a link `nobody` owns to /…/victim, a folder of root's holding keep.txt."""
    need_root("give a link to another user")
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("root's\n")
    link = open_folder(tmp_path / "tmp", sticky=True) / "V"
    link.symlink_to(victim)
    os.lchown(link, NOBODY, NOBODY)
    return link


def _refused(proc, named, link):
    error = last_json(proc)["error"] if proc.stdout.strip().startswith("{") else proc.stderr.strip().removeprefix("gc-wizard: ")
    assert proc.returncode == 2, (proc.stderr, error)
    assert error.startswith(f"{named}: {link}, on its way, is a link that user "), error
    assert f"(uid {NOBODY}) owns, and gc-wizard runs as root" in error and f"`readlink -f {link}`" in error, error
    assert "nothing was written" in error and "Traceback" not in proc.stderr


def test_report_out_through_another_users_link_is_refused_and_writes_nothing(their_link):
    proc = run_inproc("report", "--out", f"{their_link}/keep.txt")
    _refused(proc, f"cannot write the report to {their_link}/keep.txt", their_link)
    assert (their_link / "keep.txt").read_text() == "root's\n"


@pytest.mark.parametrize("command", ["lock", "bundle"])
def test_lock_and_bundle_out_through_another_users_link_are_refused(tiny, their_link, command):
    out = f"{their_link}/pylock.txt" if command == "lock" else f"{their_link}/bun"
    extra = ["--graphcast-src", str(tiny.graphcast)] if command == "bundle" else []
    offline = ["--offline"] if command == "lock" else []
    proc = run_inproc(command, "tiny-a", "--recipes-dir", str(tiny.recipes), *offline, "--find-links",
                      str(tiny.house.path), *extra, "--out", out, "--json")
    _refused(proc, f"--out {out}", their_link)
    assert sorted(p.name for p in their_link.iterdir()) == ["keep.txt"]


def test_a_report_through_your_own_link_is_written_where_it_leads(tmp_path):
    folder = tmp_path / "real"
    folder.mkdir()
    link = open_folder(tmp_path / "tmp", sticky=True) / "mine"
    link.symlink_to(folder)
    proc = run_inproc("report", "--out", f"{link}/r.txt")
    assert proc.returncode == 0, proc.stderr
    assert (folder / "r.txt").is_file() and not (folder / "r.txt").is_symlink()
def test_install_env_through_another_users_link_is_refused_and_never_made(tiny, their_link):
    proc = run_inproc("install", "tiny-a", "--yes", "--no-verify", *tiny.args()[:-1], "--env",
                      f"{their_link}/e1", "--json")
    error = last_json(proc)["error"]
    assert proc.returncode == 2 and error.startswith(f"--env {their_link}/e1: {their_link}, on its way, is a link "), error
    assert "Traceback" not in proc.stderr and not (their_link / "e1").exists()




@pytest.mark.parametrize("how", ["their env", "their link to yours"])
def test_verify_env_another_user_owns_or_links_is_refused_and_its_python_never_run(tmp_path, how):
    need_root("give an env or a link to another user")
    marker = tmp_path / "ran"
    env = tmp_path / "e1"
    (env / "bin").mkdir(parents=True)
    python = env / "bin" / "python"
    python.write_text(f"#!/bin/sh\necho ran >> {marker}\nexec {sys.executable} \"$@\"\n")
    python.chmod(0o755)
    given = env
    if how == "their env":
        for path in (env, env / "bin", python):
            os.chown(path, NOBODY, NOBODY)
    else:
        given = open_folder(tmp_path / "tmp", sticky=True) / "e1"
        given.symlink_to(env)
        os.lchown(given, NOBODY, NOBODY)
    proc = run_inproc("verify", "--env", str(given), "--json")
    error = last_json(proc)["error"]
    assert proc.returncode == 2 and error.startswith(f"the environment {given}: "), error
    assert f"(uid {NOBODY}) owns, and gc-wizard runs as root" in error and "nothing was run" in error, error
    assert "Traceback" not in proc.stderr and not marker.exists()
