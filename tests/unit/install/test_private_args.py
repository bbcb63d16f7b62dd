"""Arguments holding a secret reach the installer through a private file, never its command line.

Real children through the real runner: a Python program reads its own `/proc/self/cmdline` (what every local user
can read, `ps aux`) and the requirements file it was given, so the test sees what another user would see.
"""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest

from wizard.install.plan import Step
from wizard.install.private_args import PrivateArguments
from wizard.install.runner import run_step

#: A child that writes its own command line and the lines of the file after `-r` (or its last argument) to
#: $REPORT_TO (not its output, which the runner masks as it does every channel).
SELF_REPORT = (
    "import json, os, sys; argv = sys.argv[1:]; f = argv[argv.index('-r') + 1] if '-r' in argv else argv[-1];"
    " st = os.stat(os.path.dirname(f)) if 'gc-wizard-private-' in f else None;"
    " open(os.environ['REPORT_TO'], 'w').write(json.dumps({'cmdline': open('/proc/self/cmdline', 'rb').read().decode(errors='replace'),"
    " 'file': open(f).read() if st else None, 'folder_mode': st.st_mode & 0o777 if st else None,"
    " 'file_mode': os.stat(f).st_mode & 0o777 if st else None}))")

SECRETS = {
    "find-links password": ["--find-links", "http://alice:SEKRETpw1@127.0.0.1:8/wheels/"],
    "find-links query token": ["--find-links=https://files.example.org/?private_token=SEKRETtok0123456789abc"],
    "index token": ["--extra-index-url", "https://__token__:SEKRETidx77@pypi.lab.example/simple"],
    "signed GraphCast URL": ["graphcast @ https://bucket.example/gc.whl?X-Amz-Signature=SEKRETsig0123456789abcdef"],
}


def _report(args: list[str], tmp_path: Path) -> dict:
    report = tmp_path / "report.json"
    step = Step(name="report", title="report", argv=(sys.executable, "-c", SELF_REPORT, *args),
                env={"REPORT_TO": str(report)})
    result = run_step(step, log=None)
    assert result.ok, result
    return json.loads(report.read_text())


@pytest.mark.parametrize("args", list(SECRETS.values()), ids=list(SECRETS))
def test_a_secret_is_in_the_private_file_and_not_on_the_command_line(args, tmp_path):
    report = _report([*args, "pkg-a==1.0"], tmp_path)
    assert "SEKRET" not in report["cmdline"], report["cmdline"]
    assert "pkg-a==1.0" in report["cmdline"]  # what holds no secret stays where it was
    assert "SEKRET" in report["file"]
    assert (report["folder_mode"], report["file_mode"]) == (0o700, 0o600)


def test_the_private_file_is_gone_once_the_child_is_done():
    with PrivateArguments(["uv", "pip", "install", "pkg @ https://bob:SEKRET2@h/pkg-1.0-py3-none-any.whl"]) as private:
        argv = private.argv
        folder = Path(argv[-1]).parent
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert not folder.exists()


@pytest.mark.parametrize(("argv", "positional"), [
    (["uv", "pip", "compile", "a.in", "-o", "b.txt"], True),
    (["uv", "pip", "sync", "--python", "/e/bin/python", "frozen.txt"], True),
    (["uv", "pip", "install", "--python", "/e/bin/python", "pkg-a==1.0"], False),
    (["/e/bin/python", "-m", "pip", "download", "--dest", "w", "-r", "lock.txt"], False),
])
def test_each_installer_command_gets_a_secret_requirement_the_way_it_reads_requirements(argv, positional):
    """`compile` and `sync` read requirement files as arguments; `install` and `download` after `-r`."""
    with PrivateArguments([*argv, "graphcast @ https://b.example/gc.whl?X-Amz-Signature=SEKRET0123456789ab"]) as private:
        moved = private.argv
        assert not any("SEKRET" in word for word in moved)
        if positional:
            assert moved[:len(argv)] == argv and "gc-wizard-private-" in moved[-1] and moved[-2] != "-r"
        else:
            assert moved[-2] == "-r" and "gc-wizard-private-" in moved[-1]


@pytest.mark.parametrize(("argv", "variables"), [
    (["uv", "pip", "install", "--find-links", "/srv/wheels", "-f", "http://carol:SEKRET3@h/", "-r", "pylock.toml"],
     {"UV_FIND_LINKS": "/srv/wheels,http://carol:SEKRET3@h/"}),
    (["/e/bin/python", "-m", "pip", "install", "--extra-index-url=https://t:SEKRET4@idx/simple", "pkg-a==1.0"],
     {"PIP_EXTRA_INDEX_URL": "https://t:SEKRET4@idx/simple"}),
    (["uv", "pip", "compile", "--index-url", "https://__token__:SEKRET5@pypi.lab/simple", "a.in"],
     {"UV_INDEX_URL": "https://__token__:SEKRET5@pypi.lab/simple"}),
])
def test_an_option_holding_a_secret_goes_with_its_kind_into_the_installers_variable(argv, variables):
    """Twelfth hostile pass #11: a requirements file of options beside a pylock.toml is refused by uv ("Cannot
    specify additional requirements alongside a pylock.toml file"), so an authenticated lock install could never
    run. Options go through the installer's own variables (the environment is the owner's alone), every value of
    that option with them: the installer reads its variable only when the option is not on the command line."""
    with PrivateArguments(argv) as private:
        assert private.env == variables and private.folder is None
        assert not any("SEKRET" in word for word in private.argv)
        assert [w for w in private.argv if w in ("-r", "pylock.toml", "pkg-a==1.0", "a.in")] == \
            [w for w in argv if w in ("-r", "pylock.toml", "pkg-a==1.0", "a.in")]


@pytest.mark.parametrize("argv", [
    ["uv", "pip", "install", "--find-links", "/srv/wheels", "pkg-a==1.0"],  # nothing secret: nothing moves
    ["uv", "pip", "install", "--find-links", "https://h/${LAB_TOKEN}/"],  # `${…}` a requirements file would expand
])
def test_what_cannot_or_need_not_move_stays_as_it_was(argv):
    arguments = PrivateArguments(argv)
    assert arguments.argv == argv and arguments.folder is None


def test_a_git_login_leaves_the_url_and_is_answered_through_askpass_for_its_host_only():
    """A `git+https://user:token@host/…` requirement cannot hide in a file: uv runs `git fetch URL`. Its login leaves
    the URL, and git asks for it through GIT_ASKPASS, which answers for that host alone."""
    import subprocess

    word = "graphcast @ git+https://alice:SEKRET%40x@git.lab.example:8443/dm/graphcast@v0.1.1"
    with PrivateArguments(["uv", "pip", "install", word, "pkg-a==1.0"]) as private:
        assert private.argv == ["uv", "pip", "install",
                                "graphcast @ git+https://git.lab.example:8443/dm/graphcast@v0.1.1", "pkg-a==1.0"]
        askpass = private.env["GIT_ASKPASS"]
        assert stat.S_IMODE(Path(askpass).stat().st_mode) == 0o700

        def answer(prompt: str) -> str | None:
            done = subprocess.run([askpass, prompt], capture_output=True, text=True)
            return done.stdout.rstrip("\n") if done.returncode == 0 else None

        assert answer("Username for 'https://git.lab.example:8443': ") == "alice"
        assert answer("Password for 'https://alice@git.lab.example:8443': ") == "SEKRET@x"  # decoded, as git does
        assert answer("Username for 'https://git.lab.example:84430': ") is None
        assert answer("Username for 'https://git.lab.example.evil': ") is None
    assert not Path(askpass).exists()


def test_a_url_with_any_query_or_login_is_kept_off_the_command_line():
    """Whatever a service calls its token (`?tok=`, `?t=`, a name no rule knows), a find-links URL with a query
    or a login travels privately: nothing is lost by it."""
    for url in ("https://files.lab/w/?x=TOKqq77zz", "https://me@files.lab/w/"):
        with PrivateArguments(["uv", "pip", "install", "--find-links", url, "pkg-a==1.0"]) as private:
            assert private.argv == ["uv", "pip", "install", "pkg-a==1.0"] and private.env == {"UV_FIND_LINKS": url}
    with PrivateArguments(["uv", "pip", "install", "--find-links", "https://files.lab/w/", "pkg-a==1.0"]) as private:
        assert private.env == {} and "https://files.lab/w/" in private.argv


def test_a_private_folder_left_by_a_killed_wizard_is_cleared_by_the_next(tmp_path, monkeypatch):
    """Twelfth pass #11: a wizard killed outright (SIGKILL) while its installer ran left its private folder, with the
    signed URL in it, in /tmp. A real child makes one and is killed; the next private folder made clears it, and
    keeps one whose wizard is still alive."""
    import os
    import signal
    import subprocess
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from wizard.install.private_args import PrivateArguments;"
         " p = PrivateArguments(['uv', 'pip', 'install', 'g @ https://h/g.whl?X-Amz-Signature=SEKRET0123456789ab']);"
         " print(p.folder, flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "TMPDIR": str(tmp_path)})
    left = Path(child.stdout.readline().strip())
    assert left.parent == tmp_path and "SEKRET" in (left / "arguments.txt").read_text()
    child.send_signal(signal.SIGKILL)
    child.wait()
    alive = tmp_path / f"gc-wizard-private-{os.getppid()}-x"  # a running process's (the test runner's parent)
    alive.mkdir()
    stranger = tmp_path / "gc-wizard-private-notapid"
    stranger.mkdir()
    with PrivateArguments(["uv", "pip", "install", "g @ https://h/g.whl?X-Amz-Signature=SEKRET0123456789ab"]) as mine:
        assert not left.exists()
        assert alive.is_dir() and stranger.is_dir() and mine.folder.is_dir()
        assert mine.folder.name.startswith(f"gc-wizard-private-{os.getpid()}-")


def test_every_kind_of_temporary_folder_a_killed_wizard_left_is_cleared_by_the_next(tmp_path, monkeypatch):
    """Fifteenth hostile pass P4: a rollback killed outright left `gc-wizard-sync-XXXX/` (a whole copy of the user's
    checkout and the requirements file), which nothing swept. Every temporary folder of the wizard's is named
    `gc-wizard-<kind>-<pid>-…`, and the next one made, of any kind, clears those whose wizard is gone."""
    import os
    import subprocess
    import tempfile

    from wizard.install.private_args import temporary_folder

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # a pid that was a process and is no more
    left = [tmp_path / f"gc-wizard-{kind}-{dead.pid}-abc" for kind in ("sync", "source", "lock", "freeze", "step")]
    for folder in left:
        (folder / "copy").mkdir(parents=True)
        (folder / "copy" / "requirements.txt").write_text("graphcast @ file:///home/u/gc\n")
    alive = tmp_path / f"gc-wizard-sync-{os.getppid()}-x"
    alive.mkdir()
    others = [tmp_path / "gc-wizard-sync-abcdefgh", tmp_path / "gc-wizardry-1-x", tmp_path / f"gc-wizard-{dead.pid}-x"]
    for folder in others:
        folder.mkdir()
    with temporary_folder("lock") as mine:
        assert mine.name.startswith(f"gc-wizard-lock-{os.getpid()}-") and (mine.stat().st_mode & 0o777) == 0o700
        assert not any(folder.exists() for folder in left)
        assert alive.is_dir() and all(folder.is_dir() for folder in others)
    assert not mine.exists()


def test_a_temporary_folder_another_user_could_swap_is_refused(tmp_path, monkeypatch):
    """Sixteenth hostile pass P4: with TMPDIR a folder every user can write without the sticky bit, another user
    renamed `gc-wizard-private-*` away and put their own `askpass` there, which git ran as the owner. Such a
    TMPDIR (or one under such a folder) is refused by name before any private file is made."""
    import tempfile

    from wizard.errors import OperationFailed
    from wizard.install.private_args import new_temporary_folder

    for shared, root in ((tmp_path / "open", tmp_path / "open"), (tmp_path / "above", tmp_path / "above" / "mine")):
        root.mkdir(parents=True)
        shared.chmod(0o777)
        monkeypatch.setattr(tempfile, "tempdir", str(root))
        with pytest.raises(OperationFailed) as info:
            new_temporary_folder("private")
        assert f"the temporary folder (TMPDIR) {root}" in str(info.value) and "sticky bit" in str(info.value)
        assert "export TMPDIR=$HOME/tmp" in str(info.value) and list(root.iterdir()) == []
        shared.chmod(0o1777)  # the sticky bit, as /tmp has: nobody renames another's folder
        assert new_temporary_folder("private").parent == root


def test_for_root_a_temporary_folder_another_user_owns_reaches_or_sits_in_is_refused(tmp_path, monkeypatch):
    """29th hostile pass (part B) P1: only "writable by every user" was refused. With TMPDIR a folder another user
    owned (or could write through an ACL entry, or a root folder inside their folder), they swapped root's copy of
    the GraphCast checkout while it was built and their setup.py ran as root. The swap rule every source passes now
    judges TMPDIR and every folder on its way, before any scratch folder is made; a sticky /tmp-like folder passes."""
    import os
    import tempfile

    from tests.fixtures.modes import ACL_USER, NOBODY, need_root, set_acl
    from wizard.errors import OperationFailed
    from wizard.install.private_args import new_temporary_folder

    need_root("give a folder to another user (chown) and judge it as root's rule does")
    theirs = tmp_path / "theirs"
    inside = theirs / "root-made"
    inside.mkdir(parents=True)
    os.chown(theirs, NOBODY, NOBODY)
    by_acl = tmp_path / "acl"
    by_acl.mkdir(mode=0o755)
    set_acl(by_acl, (ACL_USER, 7, NOBODY))
    for root, named in ((theirs, f"{theirs} is a folder that"), (inside, f"{inside}, in {theirs}, which"),
                        (by_acl, "through an ACL entry")):
        monkeypatch.setattr(tempfile, "tempdir", str(root))
        with pytest.raises(OperationFailed) as info:
            new_temporary_folder("source")
        said = str(info.value)
        assert said.startswith("the temporary folder (TMPDIR)") and named in said, said
        assert "export TMPDIR=$HOME/tmp" in said and not [p for p in root.iterdir() if p.name.startswith("gc-")]
    sticky = tmp_path / "sticky"
    sticky.mkdir()
    sticky.chmod(0o1777)
    monkeypatch.setattr(tempfile, "tempdir", str(sticky))
    assert new_temporary_folder("source").parent == sticky


@pytest.mark.parametrize("kind", ["full", "no inodes", "missing", "a file"])
def test_a_temporary_folder_installers_cannot_write_in_is_refused_before_anything_is_made(tmp_path, monkeypatch,
                                                                                        request, kind):
    """29th hostile pass (part A) P2: with TMPDIR full, out of inodes or read-only, every install ran all its steps,
    then failed at listing the packages ("No space left on device … .tmpXXXX") and threw the finished environment
    away; nothing named TMPDIR. TMPDIR as set (Python's tempfile silently passes over a full one for /tmp, uv and
    pip do not) gets the installer caches' probe before any scratch folder, and an install asks before it begins."""
    from wizard.errors import UserError
    from wizard.install.private_args import check_temporary_root

    if kind == "full":
        place = request.getfixturevalue("full_tmpfs")
        why = "its disk is full"
    elif kind == "no inodes":
        place = request.getfixturevalue("no_inodes_tmpfs")
        why = "no free files (inodes)"
    elif kind == "missing":
        place, why = tmp_path / "gone", "no such folder"
    else:
        place, why = tmp_path / "afile", "it is a file, not a folder"
        place.write_text("")
    monkeypatch.setenv("TMPDIR", str(place))
    with pytest.raises(UserError) as info:
        check_temporary_root()
    said = str(info.value)
    assert said.startswith(f"the temporary folder (TMPDIR) {place} cannot be used: ") and why in said, said
    assert "nothing was done" in said and "export TMPDIR=" in said


@pytest.mark.parametrize("variable", ["TEMP", "TMP"])
def test_the_refusal_names_the_variable_the_temporary_folder_came_from(tmp_path, monkeypatch, variable):
    """32nd hostile pass (part B) P5: with TMPDIR unset and TEMP (or TMP) naming the folder, as Python's tempfile
    reads them, the refusal said "(TMPDIR)" and "Point TMPDIR at …", and never named the variable to change."""
    import tempfile

    from wizard.errors import UserError
    from wizard.install.private_args import check_temporary_root, new_temporary_folder

    monkeypatch.delenv("TMPDIR", raising=False)
    for other in {"TEMP", "TMP"} - {variable}:
        monkeypatch.delenv(other, raising=False)
    monkeypatch.setenv(variable, str(tmp_path / "gone"))
    with pytest.raises(UserError) as info:
        check_temporary_root()
    said = str(info.value)
    assert said.startswith(f"the temporary folder ({variable}) {tmp_path / 'gone'} cannot be used"), said
    assert f"export {variable}=" in said and "TMPDIR" not in said, said
    shared = tmp_path / "open"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv(variable, str(shared))
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    with pytest.raises(Exception) as info:
        new_temporary_folder("private")
    said = str(info.value)
    assert f"the temporary folder ({variable}) {shared}" in said and f"Point {variable} at" in said, said
    assert "TMPDIR" not in said, said


@pytest.mark.parametrize("kind", ["a file", "missing"])
def test_with_tmpdir_unset_the_folder_uv_writes_in_is_checked_not_pythons_fallback(tmp_path, monkeypatch, kind):
    """33rd hostile pass (part A) P4: with TMPDIR, TEMP and TMP unset and /tmp read-only or full, the check asked
    Python's `tempfile.gettempdir()`, which passes over /tmp to /var/tmp, while uv writes in /tmp: the plan was silent
    and the install ran every step, then failed and threw the environment away. The installers' own folder (TMPDIR,
    else /tmp) is checked, by the plan and before the install's first step, and the sentence names /tmp and TMPDIR."""
    from wizard.errors import UserError
    from wizard.install import private_args

    uvs = tmp_path / "tmp"
    if kind == "a file":
        uvs.write_text("")
    good = tmp_path / "var-tmp"
    good.mkdir()
    for name in ("TMPDIR", "TEMP", "TMP"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(private_args, "INSTALLERS_DEFAULT_TEMPORARY", str(uvs))
    monkeypatch.setattr(private_args.tempfile, "tempdir", str(good))  # Python's fallback, which is usable
    with pytest.raises(UserError) as info:
        private_args.check_temporary_root()
    said = str(info.value)
    assert said.startswith(f"{uvs}, where uv writes its temporary files when TMPDIR is not set, cannot be used"), said
    assert "nothing was done" in said and "export TMPDIR=" in said
    planned = private_args.temporary_root_refusal(done="`install` would stop before its first step")
    assert planned is not None and str(uvs) in planned[0] and not planned[1]
    monkeypatch.setenv("TMPDIR", str(good))  # uv then writes where TMPDIR says, and /tmp is no matter
    assert private_args.check_temporary_root() == str(good) and private_args.temporary_root_refusal() is None
