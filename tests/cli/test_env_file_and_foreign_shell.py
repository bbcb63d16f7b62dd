"""Two small words (hostile pass 19): `diagnose --env FILE` called an existing file "does not exist" (P9), and
`activate` printed POSIX sh code for a fish or tcsh login shell without a word (P10)."""

from __future__ import annotations

from tests.fixtures.state import last_json, run_cli


def test_an_env_that_is_a_file_is_called_a_file(tmp_path):
    target = tmp_path / "notes.txt"
    target.write_text("x")
    proc = run_cli("diagnose", "--env", str(target), "--json")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert last_json(proc)["error"].startswith(f"{target} is a file, not an environment folder")
    missing = run_cli("diagnose", "--env", str(tmp_path / "nowhere"), "--json")
    assert "does not exist (no such folder)" in last_json(missing)["error"]


def test_activate_for_a_shell_it_does_not_write_for_says_so_on_stderr(tiny):
    installed, result = tiny.install("tiny-a")
    assert installed.returncode == 0, installed.stderr
    fish = run_cli("activate", "--env", result["env"], env={"SHELL": "/usr/bin/fish"})
    assert fish.returncode == 0 and "PATH=" in fish.stdout
    assert "your login shell is fish (from $SHELL)" in fish.stderr and "fish cannot run" in fish.stderr
    for quiet in ({"SHELL": "/bin/bash"}, {"SHELL": "/usr/bin/fish", "_": ""}):
        args = ("activate", "--env", result["env"]) + (("--shell", "bash") if quiet.get("_") == "" else ())
        assert "login shell" not in run_cli(*args, env=quiet).stderr  # bash, or a shell named with --shell
