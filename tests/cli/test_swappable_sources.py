"""Every command that reads an install source refuses one another local user could swap (twenty-first hostile
pass P1): a wheelhouse, a lock, a bundle, a GraphCast wheel, a recipe folder, a recipe's own find_links — read from
under a folder every user can write — each named with its folder and the fix, exit 2, before anything is made.

Before: `install --find-links` from such a folder exited 0, and another user's swapped wheel ran its `.pth` as
root. The real CLI in this process, on the tiny recipes' real wheels; nothing is installed."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.modes import NOBODY, need_root, open_folder
from tests.fixtures.state import last_json
from tests.fixtures.tiny import RECIPE
from wizard.paths import state_dir


@pytest.fixture
def shared(tiny, tmp_path):
    """/…/ww (0777, no sticky bit) holding a copy of the tiny wheelhouse, recipes, a lock and a bundle folder."""
    ww = open_folder(tmp_path / "ww")
    shutil.copytree(tiny.house.path, ww / "wh")
    shutil.copytree(tiny.recipes, ww / "rec")
    (ww / "pylock.txt").write_text("pkg-a==1.0 --hash=sha256:" + "0" * 64 + "\n")
    (ww / "bun").mkdir()
    return ww


def _cases(tiny, ww, tmp_path):
    wheel = f"{ww}/wh/{tiny.graphcast.name}"
    own = ["--recipes-dir", str(tiny.recipes), "--offline"]
    return {
        "install --find-links": (["install", "tiny-a", "--yes", "--no-verify", *own, "--find-links", f"{ww}/wh",
                                  "--graphcast-src", str(tiny.graphcast)], f"--find-links {ww}/wh"),
        "plan --graphcast-src": (["plan", "tiny-a", *own, "--find-links", str(tiny.house.path), "--graphcast-src",
                                  wheel], f"--graphcast-src {wheel}"),
        "install --lock": (["install", "tiny-a", "--yes", "--no-verify", *tiny.args()[:-1], "--lock",
                            f"{ww}/pylock.txt"], f"--lock {ww}/pylock.txt"),
        "install --bundle": (["install", "tiny-a", "--yes", "--no-verify", "--recipes-dir", str(tiny.recipes),
                              "--bundle", f"{ww}/bun"], f"--bundle {ww}/bun"),
        "plan --recipes-dir": (["plan", "tiny-a", "--recipes-dir", f"{ww}/rec", "--find-links", str(tiny.house.path),
                                "--offline", "--graphcast-src", str(tiny.graphcast)], f"--recipes-dir {ww}/rec"),
        "lock --find-links": (["lock", "tiny-a", *own, "--find-links", f"{ww}/wh", "--out",
                               str(tmp_path / "out.txt")], f"--find-links {ww}/wh"),
        "bundle --find-links": (["bundle", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", f"{ww}/wh",
                                 "--graphcast-src", str(tiny.graphcast), "--out", str(tmp_path / "bun")],
                                f"--find-links {ww}/wh"),
    }


@pytest.mark.parametrize("case", ["install --find-links", "plan --graphcast-src", "install --lock",
                                  "install --bundle", "plan --recipes-dir", "lock --find-links",
                                  "bundle --find-links"])
def test_a_source_under_a_folder_every_user_can_write_is_refused_by_every_command(tiny, shared, tmp_path, case):
    argv, named = _cases(tiny, shared, tmp_path)[case]
    proc = run_inproc(*argv, "--json")
    error = last_json(proc)["error"]
    assert proc.returncode == 2, proc.stderr
    assert error.startswith(f"{named}: ") and f"{shared}" in error and "every user can write" in error, error
    assert f"`chmod o-w {shared}`" in error and "to a folder only you can write" in error
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "bun").exists() and not (tmp_path / "out.txt").exists()
    assert not (state_dir() / "envs").exists() or not any((state_dir() / "envs").iterdir())


def test_a_recipes_own_find_links_folder_is_held_to_the_same_rule(tiny, shared):
    (tiny.recipes / "tiny-w.yaml").write_text(
        RECIPE.format(id="tiny-w", requirements="  - pkg-a==1.0").replace("find_links: []",
                                                                           f"find_links: [{shared}/wh]"))
    proc = run_inproc("plan", "tiny-w", "--recipes-dir", str(tiny.recipes), "--offline", "--graphcast-src",
                      str(tiny.graphcast), "--json")
    error = last_json(proc)["error"]
    assert proc.returncode == 2 and error.startswith(f"recipe tiny-w's find_links folder {shared}/wh: "), error


def test_the_same_sources_in_a_folder_only_you_can_write_are_read(tiny):
    proc = run_inproc("plan", "tiny-a", *tiny.args()[:-1], "--json")
    assert proc.returncode == 0, proc.stderr


def _nothing_made() -> bool:
    return not (state_dir() / "envs").exists() or not any((state_dir() / "envs").iterdir())


# Twenty-second hostile pass, part B.
# P1: a link another user owns in a sticky folder passed, and the link itself went to uv, so flipping it after the
# check installed their wheel as root. Now the link is their place, and every source goes on as where it led.

def _sticky(tmp_path):
    return open_folder(tmp_path / "tmp", sticky=True)


@pytest.mark.parametrize("option", ["--find-links", "--graphcast-src"])
def test_for_root_a_link_another_user_owns_in_a_sticky_folder_is_refused_naming_the_link(tiny, tmp_path, option):
    need_root("give a link to another user")
    link = _sticky(tmp_path) / "src"
    link.symlink_to(tiny.house.path if option == "--find-links" else tiny.graphcast)
    os.lchown(link, NOBODY, NOBODY)
    args = ["--recipes-dir", str(tiny.recipes), "--offline", "--find-links", str(tiny.house.path),
            "--graphcast-src", str(tiny.graphcast)]
    args[args.index(option) + 1] = str(link)
    proc = run_inproc("install", "tiny-a", "--yes", "--no-verify", *args, "--json")
    error = last_json(proc)["error"]
    assert proc.returncode == 2 and error.startswith(f"{option} {link}: it is a link that user "), error
    assert f"(uid {NOBODY}) owns, and gc-wizard runs as root" in error and f"`readlink -f {link}`" in error
    assert "Traceback" not in proc.stderr and _nothing_made()


def test_the_installer_is_given_where_a_link_led_at_the_check_never_the_link(tiny, tmp_path):
    """The user's wheelhouse and GraphCast wheel, and a recipe's own find_links and `file://` GraphCast source, each
    through a link of root's in a sticky folder: the plan (what uv runs) names where they led."""
    sticky = _sticky(tmp_path)
    for name, target in (("wh", tiny.house.path), ("gc.whl", tiny.graphcast)):
        (sticky / name).symlink_to(target)
    plan = last_json(run_inproc("plan", "tiny-a", "--recipes-dir", str(tiny.recipes), "--offline", "--find-links",
                                str(sticky / "wh"), "--graphcast-src", str(sticky / "gc.whl"), "--json"))
    assert plan["find_links"] == [str(tiny.house.path)] and plan["graphcast"]["install"] == str(tiny.graphcast)
    argv = " ".join(" ".join(step["argv"]) for step in plan["steps"])
    assert str(sticky) not in argv and f"--find-links {tiny.house.path}" in argv
    (tiny.recipes / "tiny-l.yaml").write_text(
        RECIPE.format(id="tiny-l", requirements="  - pkg-a==1.0")
        .replace("find_links: []", f"find_links: [{sticky}/wh]")
        .replace("source: graphcast @ git+https://github.com/google-deepmind/graphcast@",
                 f"source: graphcast @ file://{sticky}/gc.whl\n  # was @"))
    proc = run_inproc("plan", "tiny-l", "--recipes-dir", str(tiny.recipes), "--offline", "--json")
    plan = last_json(proc)
    assert proc.returncode == 0, proc.stderr
    assert plan["find_links"] == [str(tiny.house.path)], plan["find_links"]
    assert plan["graphcast"]["install"] == f"graphcast @ file://{tiny.graphcast}", plan["graphcast"]


# P3: `install --answers FILE` chose the sources (find_links, graphcast_src, offline) from a file another user
# could write, unchecked; a 0666 lab file sent root's install to their server.

def _answers(tiny, folder):
    path = folder / "lab-answers.json"
    path.write_text(json.dumps({"schema": "gc-wizard-answers", "version": 2, "recipe": "tiny-a", "env": None,
                                "options": {"find_links": [str(tiny.house.path)], "offline": True,
                                            "graphcast_src": str(tiny.graphcast)}}))
    path.chmod(0o644)
    return path


@pytest.mark.parametrize("how", ["0666", "in a 0777 folder", "another user's"])
def test_an_answers_file_another_user_could_change_is_refused_before_it_is_read(tiny, tmp_path, how):
    folder = open_folder(tmp_path / "ww") if how == "in a 0777 folder" else tmp_path
    path = _answers(tiny, folder)
    if how == "0666":
        path.chmod(0o666)
    if how == "another user's":
        need_root("give a file to another user")
        os.chown(path, NOBODY, NOBODY)
    proc = run_inproc("install", "--answers", str(path), "--yes", "--no-verify", "--recipes-dir", str(tiny.recipes),
                      "--json")
    error = last_json(proc)["error"]
    assert proc.returncode == 2 and error.startswith(f"--answers {path}: "), error
    assert "another user could change where the packages come from" in error, error
    assert {"0666": f"`chmod o-w {path}`", "in a 0777 folder": f"`chmod o-w {folder}`",
            "another user's": "Run gc-wizard as that user instead"}[how] in error
    assert "Traceback" not in proc.stderr and _nothing_made()


def test_an_answers_file_only_you_can_write_is_replayed(tiny, tmp_path):
    path = _answers(tiny, tmp_path)
    proc = run_inproc("plan", "tiny-a", "--recipes-dir", str(tiny.recipes), "--json")  # the recipe loads
    assert proc.returncode == 0, proc.stderr
    from wizard.after.answers import load_answers

    assert load_answers(path).options.find_links == (str(tiny.house.path),)


# P4: `--python` naming another user's interpreter, or one reached through a folder or link they can change, ran
# it as root (three times) during plan and install.

def _wrapper(folder, marker):
    """An interpreter that notes each run in `marker`, then is the wizard's own Python."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "python3"
    script.write_text(f"#!/bin/sh\necho ran >> {marker}\nexec {sys.executable} \"$@\"\n")
    script.chmod(0o755)
    return script


@pytest.mark.parametrize("how", ["another user's file", "their link in a sticky folder", "in a 0777 folder"])
def test_a_python_another_user_could_change_is_refused_and_never_run(tiny, tmp_path, how):
    marker = tmp_path / "ran"
    if how == "in a 0777 folder":
        given = _wrapper(open_folder(tmp_path / "ww") / "py", marker)
    else:
        need_root("give a file or a link to another user")
        script = _wrapper(tmp_path / "py", marker)
        given = script
        if how == "another user's file":
            os.chown(script, NOBODY, NOBODY)
        else:
            given = _sticky(tmp_path) / "py3"
            given.symlink_to(script)
            os.lchown(given, NOBODY, NOBODY)
    for command in ("plan", "install"):
        extra = ("--yes", "--no-verify") if command == "install" else ()
        proc = run_inproc(command, "tiny-a", *extra, *tiny.args()[:-1], "--python", str(given), "--json")
        error = last_json(proc)["error"]
        assert proc.returncode == 2 and error.startswith(f"--python {given}: "), error
        assert "another user could swap the interpreter for their own and gc-wizard would run their code" in error
        assert error.endswith("or give an interpreter only you can change; it was not run."), error
        assert "Traceback" not in proc.stderr and _nothing_made()
    assert not marker.exists()


def test_a_python_only_you_can_change_is_run_as_given_through_your_own_link(tiny, tmp_path):
    """As given, not where the link leads: a venv's `bin/python` is a link, and only through it is it the venv's."""
    marker = tmp_path / "ran"
    script = _wrapper(tmp_path / "py", marker)
    link = _sticky(tmp_path) / "py3"
    link.symlink_to(script)
    plan = last_json(run_inproc("plan", "tiny-a", *tiny.args()[:-1], "--python", str(link), "--json"))
    assert plan["python"]["executable"] == str(link) and plan["python"]["source"] == "given"
    assert marker.exists()


# Twenty-third hostile pass, part B, P3: `--python X.Y` ran the python3.X first on PATH, in a folder another user
# owns or every user can write, as root, to tell its version; the same file as `--python PATH` was refused.
@pytest.mark.parametrize("how", ["another user's folder", "a 0777 folder"])
def test_a_python_found_on_path_another_user_could_change_is_never_run(tiny, tmp_path, monkeypatch, how):
    marker = tmp_path / "ran"
    if how == "a 0777 folder":
        folder = open_folder(tmp_path / "ww") / "bin"
        folder.mkdir()
    else:
        need_root("give a folder to another user")
        folder = tmp_path / "tu" / "bin"
        folder.mkdir(parents=True)
        os.chown(folder.parent, NOBODY, NOBODY)
        os.chown(folder, NOBODY, NOBODY)
    minor = ".".join(map(str, sys.version_info[:2]))
    script = folder / f"python{minor}"
    script.write_text(f"#!/bin/sh\necho ran >> {marker}\nexec {sys.executable} \"$@\"\n")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ.get('PATH', '')}")
    proc = run_inproc("plan", "tiny-a", *tiny.args()[:-1], "--python", minor, "--json")
    assert "Traceback" not in proc.stderr and not marker.exists(), proc.stderr
    if proc.returncode == 0:
        assert last_json(proc)["python"]["executable"] != str(script)
    else:
        error = last_json(proc)["error"]
        assert error.startswith(f"--python {minor}: skipped {script}, ") and "it was not run" in error, error


# 27th hostile pass (part B) P7: `--graphcast-src git+file:///DIR` was taken for a remote URL, so a repository every
# user could write skipped the rule the same folder meets as a path, and root built another user's commit.

def _repository(folder):
    import subprocess

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "setup.py").write_text("from setuptools import setup\nsetup(name='graphcast', version='0.1.1')\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(folder)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "setup.py"], check=True)
    subprocess.run([*git, "commit", "-qm", "x"], check=True)
    return folder


@pytest.mark.parametrize("form", ["git+file://{r}", "GIT+FILE://localhost{r}@HEAD", "graphcast @ git+file://{r}",
                                  "env:git+file://{r}"])
@pytest.mark.parametrize("command", ["plan", "install", "bundle"])
def test_a_local_git_url_is_held_to_the_rule_of_its_folder(tiny, shared, tmp_path, form, command):
    repo = _repository(shared / "gcrepo")
    for place in [repo, *repo.rglob("*")]:
        place.chmod(place.stat().st_mode | 0o777 if place.is_dir() else place.stat().st_mode | 0o666)
    source = form.removeprefix("env:").format(r=repo)
    given = [] if form.startswith("env:") else ["--graphcast-src", source]
    extra = {"install": ["--yes", "--no-verify"], "bundle": ["--out", str(tmp_path / "bun")]}.get(command, [])
    os.environ["GC_WIZARD_GRAPHCAST_SRC"] = source if form.startswith("env:") else ""
    try:
        proc = run_inproc(command, "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links",
                          str(tiny.house.path), *given, *extra, "--json")
    finally:
        os.environ.pop("GC_WIZARD_GRAPHCAST_SRC", None)
    error = last_json(proc)["error"]
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert str(repo) in error and "every user can write" in error and "Traceback" not in proc.stderr, error
    assert _nothing_made() and not (tmp_path / "bun").exists()


def test_a_local_git_url_of_your_own_is_planned_with_the_caution_a_checkout_gets(tiny, tmp_path):
    repo = _repository(tmp_path / "own" / "gcrepo")
    proc = run_inproc("plan", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                      "--graphcast-src", f"git+file://{repo}", "--json")
    assert proc.returncode == 0, proc.stderr
    caution = json.loads(proc.stdout.splitlines()[-1])["graphcast_source"]["caution"]
    assert caution and str(repo) in caution and "runs its setup.py" in caution, caution


def test_gits_safe_directory_advice_is_never_passed_on():
    """The install's failure quotes the installer's last lines; git's way round its owner check is not one of them."""
    from types import SimpleNamespace

    from wizard.flows.transaction import _failure_message

    tail = ["  error: Git operation failed", "fatal: detected dubious ownership in repository at '/home/u/gcrepo'",
            "To add an exception for this directory, call:", "",
            "\tgit config --global --add safe.directory /home/u/gcrepo"]
    result = SimpleNamespace(tail=tail, error=None, exit_status=1, signal=None)
    step = SimpleNamespace(title="Install GraphCast", name="install-graphcast")
    said = _failure_message(step, result, Path("/nonexistent/log"))
    assert "config --global" not in said and "add an exception" not in said
    assert "/home/u/gcrepo because another user owns it" in said and "dubious ownership" in said
    # the one copy command the checkout refusals give: a clone (never `cp`, which carries the repository's config)
    command = said.split("clone it to a folder of your own, `", 1)[1].split("`", 1)[0]
    assert command.startswith("git clone --no-local -u 'git -c safe.directory=/home/u/gcrepo upload-pack' "
                              "/home/u/gcrepo "), command


# 27th hostile pass (part B) P10: a checkout whose `.git` is a file (`gitdir: …`) naming another user's git folder
# was taken, its commit read from their folder; the same folder as `.git/` was refused.

@pytest.mark.parametrize("owner", ["every-user", "second-user"])
def test_the_git_folder_a_gitfile_names_is_held_to_the_rule_of_a_git_folder(tiny, tmp_path, owner, request):
    import subprocess

    checkout = _repository(tmp_path / "own" / "gc")
    if owner == "every-user":
        gitdir = open_folder(tmp_path / "ww") / "gitK"
    else:
        user = request.getfixturevalue("second_user")
        gitdir = tmp_path / "theirs" / "gitK"
        gitdir.parent.mkdir()
    shutil.move(checkout / ".git", gitdir)
    (checkout / ".git").write_text(f"gitdir: {gitdir}\n")
    if owner == "second-user":
        subprocess.run(["chown", "-R", user, str(gitdir.parent)], check=True)
    proc = run_inproc("plan", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                      "--graphcast-src", str(checkout), "--json")
    error = last_json(proc)["error"]
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert error.startswith(f"--graphcast-src {checkout}: ") and str(gitdir.parent) in error, error


def test_a_gitfile_naming_a_git_folder_of_your_own_is_read(tiny, tmp_path):
    checkout = _repository(tmp_path / "own" / "gc")
    gitdir = tmp_path / "own" / "gitK"
    shutil.move(checkout / ".git", gitdir)
    (checkout / ".git").write_text("gitdir: ../gitK\n")
    proc = run_inproc("plan", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                      "--graphcast-src", str(checkout), "--json")
    assert proc.returncode == 0, proc.stderr


# 28th hostile pass (part B) P1: an index variable (`UV_INDEX` with or without `NAME=`, `UV_DEFAULT_INDEX`,
# `UV_INDEX_URL`, `UV_EXTRA_INDEX_URL`, `PIP_INDEX_URL`, `PIP_EXTRA_INDEX_URL`) or a recipe's `extra_index_urls`
# naming a local index in a folder another user could swap was installed from, locked and bundled — its `.pth` ran
# as root — while the same folder as `UV_FIND_LINKS` was refused. Every way uv or pip learns of a package source is
# now one list held to the one rule (`installer_files.variable_sources`, `source_places.refuse_swappable_sources`).

@pytest.mark.parametrize("variable, value, installer", [
    ("UV_INDEX", "file://{}", "uv"), ("UV_INDEX", "evil=file://{}", "uv"), ("UV_INDEX", "evil={}", "uv"),
    ("UV_INDEX", "{}", "uv"), ("UV_DEFAULT_INDEX", "file://{}", "uv"), ("UV_INDEX_URL", "file://{}", "uv"),
    ("UV_EXTRA_INDEX_URL", "https://pypi.org/simple file://{}", "uv"), ("PIP_INDEX_URL", "file://{}", "pip"),
    ("PIP_EXTRA_INDEX_URL", "file://{}", "pip"), ("UV_FIND_LINKS", "{}", "uv"), ("PIP_FIND_LINKS", "{}", "pip")])
@pytest.mark.parametrize("command", ["plan", "install", "lock", "bundle"])
def test_an_index_variable_naming_a_swappable_local_index_is_refused_by_every_command(
        tiny, shared, tmp_path, monkeypatch, variable, value, installer, command):
    index = shared / "simple"
    index.mkdir()
    monkeypatch.setenv(variable, value.format(index))
    argv = {"plan": ["plan", "tiny-a", *tiny.args()[:-1], "--installer", installer],
            "install": ["install", "tiny-a", "--yes", "--no-verify", *tiny.args()[:-1], "--installer", installer],
            "lock": ["lock", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                     "--out", str(tmp_path / "out.txt")],
            "bundle": ["bundle", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                       "--graphcast-src", str(tiny.graphcast), "--out", str(tmp_path / "bun")]}[command]
    if command == "lock" and installer == "pip":
        pytest.skip("lock resolves with uv alone")
    proc = run_inproc(*argv, "--json")
    # The plan refuses it as the install does, for pip as for uv (review: a pip plan only marked it "!", exit 0)
    error = last_json(proc).get("error") or proc.stderr
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert f"the package source {index} (from {variable})" in error and "every user can write" in error, error
    assert "Traceback" not in proc.stderr and _nothing_made()
    assert not (tmp_path / "bun").exists() and not (tmp_path / "out.txt").exists()


def test_a_pip_plan_refuses_a_swappable_pip_source_in_the_installs_own_sentence(tiny, shared, monkeypatch):
    """Review: `plan --installer pip` marked a `PIP_FIND_LINKS` folder every user can write "!" and exited 0, and
    `install --installer pip` then refused it; the plan now refuses it, exit 2, with the install's sentence."""
    house = shared / "house"
    house.mkdir()
    monkeypatch.setenv("PIP_FIND_LINKS", str(house))
    given = [*tiny.args()[:-1], "--installer", "pip", "--json"]
    plan = run_inproc("plan", "tiny-a", *given)
    install = run_inproc("install", "tiny-a", "--yes", "--no-verify", *given)
    assert plan.returncode == install.returncode == 2, (plan.stdout, install.stdout)
    assert last_json(plan)["error"] == last_json(install)["error"], (plan.stdout, install.stdout)
    assert f"the package source {house} (from PIP_FIND_LINKS)" in last_json(plan)["error"]
    assert "Traceback" not in plan.stderr + install.stderr and _nothing_made()


def test_a_recipes_own_local_extra_index_is_held_to_the_same_rule(tiny, shared):
    (shared / "simple").mkdir()
    (tiny.recipes / "tiny-x.yaml").write_text(
        RECIPE.format(id="tiny-x", requirements="  - pkg-a==1.0").replace(
            "extra_index_urls: []", f'extra_index_urls: ["file://{shared}/simple"]'))
    proc = run_inproc("plan", "tiny-x", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                      "--graphcast-src", str(tiny.graphcast), "--json")
    error = last_json(proc)["error"]
    assert proc.returncode == 2 and error.startswith(f"recipe tiny-x's extra_index_urls index {shared}/simple: "), \
        error
    assert "every user can write" in error and "Traceback" not in proc.stderr


# 28th hostile pass (part B) P4: `--find-links file:/DIR` was "no such folder" for a folder that exists (uv reads that
# form as the folder); now it is read, or refused by the swap rule with its own sentence.

def test_find_links_in_the_one_slash_form_is_read_or_refused_by_the_swap_rule(tiny, shared):
    proc = run_inproc("plan", "tiny-a", "--recipes-dir", str(tiny.recipes), "--offline", "--find-links",
                      f"file:{tiny.house.path}", "--graphcast-src", str(tiny.graphcast), "--json")
    assert proc.returncode == 0, proc.stderr
    proc = run_inproc("plan", "tiny-a", "--recipes-dir", str(tiny.recipes), "--offline", "--find-links",
                      f"file:{shared}/wh", "--graphcast-src", str(tiny.graphcast), "--json")
    error = last_json(proc)["error"]
    assert proc.returncode == 2 and error.startswith(f"--find-links {shared}/wh: "), error
    assert "every user can write" in error and "no such folder" not in error


@pytest.mark.parametrize("command", ["plan", "bundle"])
@pytest.mark.parametrize("variable", ["GC_WIZARD_FIND_LINKS", "GC_WIZARD_GRAPHCAST_SRC"])
def test_a_swappable_source_from_a_variable_is_refused_naming_the_variable_and_its_fix(
        tiny, shared, tmp_path, monkeypatch, variable, command):
    """38th hostile pass (part B) P3: such a source was refused as `--find-links DIR`/`--graphcast-src SRC`, options
    the user never gave, and the copy-it fix left the variable naming the refused place."""
    value = f"{shared}/wh" if variable == "GC_WIZARD_FIND_LINKS" else f"{shared}/wh/{tiny.graphcast.name}"
    monkeypatch.setenv(variable, value)
    given = (["--graphcast-src", str(tiny.graphcast)] if variable == "GC_WIZARD_FIND_LINKS"
             else ["--find-links", str(tiny.house.path)])
    more = ["--out", str(tmp_path / "bun")] if command == "bundle" else ["--offline"]
    proc = run_inproc(command, "tiny-a", "--recipes-dir", str(tiny.recipes), *given, *more, "--json")
    error = last_json(proc)["error"]
    assert proc.returncode == 2, proc.stderr
    named = f"{variable} entry {value}" if variable == "GC_WIZARD_FIND_LINKS" else f"{variable}={value}"
    assert error.startswith(f"{named}: ") and f"and point {variable} at it" in error, error
    assert "--find-links" not in error and "--graphcast-src" not in error, error
    assert not (tmp_path / "bun").exists()
