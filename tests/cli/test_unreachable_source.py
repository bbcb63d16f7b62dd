"""A GraphCast source whose host does not answer is said by `plan` before anything downloads (issue: a
server without GitHub learned it only after ~180 MB, at the GraphCast step)."""

from __future__ import annotations

import pytest

from tests.fixtures.cli import bare_program, run_inproc, shell_line
from tests.fixtures.state import last_json
from wizard.install.sources import source_host


@pytest.mark.parametrize("arg, host", [
    ("graphcast @ git+https://github.com/google-deepmind/graphcast@97d1ad5", "github.com"),
    ("git+https://user:secret@mirror.lab.example:8443/gc.git@v0.2", "mirror.lab.example:8443"),
    ("https://example.org/graphcast-0.2.tar.gz", "example.org"),
    ("/home/me/graphcast", None),
    ("graphcast-0.1.1-py3-none-any.whl", None),
])
def test_the_host_of_a_remote_source(arg, host):
    assert source_host(arg) == host


def test_plan_marks_an_unreachable_graphcast_host_and_says_the_fix(tiny, isolated_state):
    (tiny.recipes / "tiny-a.yaml").write_text((tiny.recipes / "tiny-a.yaml").read_text()
                                             .replace("github.com", "github.invalid"))
    args = ("plan", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path))
    text = " ".join(run_inproc(*args).stdout.split())
    # The plan marks it as the app's Plan screen does (one wording, flows.describe_plan): ✗ and the sentence.
    assert "GraphCast ✗" in text and "github.invalid cannot be reached from here" in text
    assert "--graphcast-src DIR" in text and "Plan screen" not in text  # walk 22 #10: no app key on the CLI
    # Walk 22 #2: the line without a source is refused here. Walk 38 #3: with none known, the line to paste is the
    # whole command with the placeholder DIR, and the plan says what goes there.
    run = bare_program(shell_line(run_inproc(*args).stdout, "To run it: ").removeprefix("To run it: "))
    assert run.endswith(f"gc-wizard install tiny-a --recipes-dir {tiny.recipes} --graphcast-src DIR "
                        f"--find-links {tiny.house.path}"), run
    assert "(put a local copy of GraphCast in place of DIR, as the GraphCast line above says: install refuses " \
           "this line here without one)" in text, text
    assert "then run `gc-wizard install tiny-a" in bare_program(text)  # the ✗ line's words give it too
    data = last_json(run_inproc(*args, "--json"))
    assert data["unreachable_source"].startswith("github.invalid cannot be reached")
    # Offline, nothing is asked of the network, and a local source has no host to ask.
    assert "GraphCast ✗" not in run_inproc(*args, "--offline").stdout
    assert "GraphCast ✗" not in run_inproc(*args, "--graphcast-src", str(tiny.graphcast)).stdout


def test_install_refuses_an_unreachable_source_before_downloading_and_names_the_remembered_one(tiny, isolated_state):
    """Walk 18: `install --yes` downloaded every package, then failed at the GraphCast step the plan had warned of.
    It now refuses first (exit 2), naming the local source the last install of that GraphCast version used;
    --force installs anyway."""
    first = tiny.install("tiny-b")[0]  # remembered: this install's local GraphCast wheel
    assert first.returncode == 0, first.stderr
    (tiny.recipes / "tiny-a.yaml").write_text((tiny.recipes / "tiny-a.yaml").read_text()
                                             .replace("github.com", "github.invalid"))
    args = ("install", "tiny-a", "--yes", "--json", "--recipes-dir", str(tiny.recipes),
            "--find-links", str(tiny.house.path))
    refused = run_inproc(*args)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    error = last_json(refused)["error"]
    assert error.startswith("github.invalid cannot be reached from here")
    # Walk 38 #3: the whole line to paste, never a `--graphcast-src PATH` fragment to add by hand.
    assert (f"give it again (`gc-wizard install tiny-a --recipes-dir {tiny.recipes} --graphcast-src {tiny.graphcast} "
            f"--find-links {tiny.house.path}`)") in bare_program(" ".join(error.split())), error
    assert "Nothing was downloaded" in error
    assert "Plan screen" not in error  # walk 22 #10: the app's key is not for a user outside the app
    assert [e["recipe"] for e in tiny.history()] == ["tiny-b"]  # nothing started: no entry, no env
    # Walk 19 #3: the plan (both faces' words, the app's "Install anyway?" too) names the remembered source.
    planned = " ".join(run_inproc("plan", *args[1:2], *args[4:]).stdout.split())
    assert f"Your last install of GraphCast 0.1.1 used {tiny.graphcast}: give it again" in planned, planned
    assert planned.count("cannot be reached from here") == 1
    # Walk 38 #3: the plan's "To run it:" is that line too, not the one it said install refuses.
    run = bare_program(shell_line(run_inproc("plan", *args[1:2], *args[4:]).stdout, "To run it: ").removeprefix("To run it: "))
    assert run.endswith(f"gc-wizard install tiny-a --recipes-dir {tiny.recipes} --graphcast-src {tiny.graphcast} "
                        f"--find-links {tiny.house.path}"), run
    assert "install refuses this line" not in planned and "in place of DIR" not in planned
    assert refused.stderr.count("cannot be reached from here") == 1, refused.stderr  # said once, not twice
    assert "==> Installing" not in refused.stdout + refused.stderr  # nothing announced that did not begin
    forced = run_inproc(*args, "--force")
    assert forced.returncode == 1 and "Installing anyway, as asked" in forced.stderr + forced.stdout


def test_the_plain_flow_plans_with_the_remembered_source_and_its_command_carries_it(tiny, isolated_state):
    first = tiny.install("tiny-b")[0]
    assert first.returncode == 0, first.stderr
    (tiny.recipes / "tiny-a.yaml").write_text((tiny.recipes / "tiny-a.yaml").read_text()
                                             .replace("github.com", "github.invalid"))
    out = run_inproc("--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path)).stdout
    assert f"GraphCast from {tiny.graphcast}, which your last install of GraphCast 0.1.1 used" in out
    assert f"--graphcast-src {tiny.graphcast}" in out.split("== Next ==")[1]


def test_locks_install_line_carries_the_graphcast_source_the_install_will_need(tiny, isolated_state, tmp_path,
                                                                               monkeypatch):
    """Walk 24 #5: `lock`'s "Install from it:" line, pasted on a server without GitHub, was refused by the plan's
    GraphCast ✗. It now names the local source the last install used, or says --graphcast-src DIR is needed; a
    GC_WIZARD_GRAPHCAST_SRC the lock was made with is carried as it is."""
    (tiny.recipes / "tiny-a.yaml").write_text((tiny.recipes / "tiny-a.yaml").read_text()
                                             .replace("github.com", "github.invalid"))
    args = ("lock", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path), "--offline",
            "--out", str(tmp_path / "gc.lock.txt"))
    first = run_inproc(*args)
    assert first.returncode == 0, first.stderr
    words = " ".join(first.stdout.split())
    assert "(put a local copy of GraphCast in place of DIR: github.invalid cannot be reached" in words, words
    assert f"--lock {tmp_path / 'gc.lock.txt'} --graphcast-src DIR --find-links" in words, words  # walk 38 #3
    assert tiny.install("tiny-b")[0].returncode == 0  # remembered: this install's local GraphCast wheel
    line = next(row for row in run_inproc(*args).stdout.splitlines() if row.startswith("Install from it:"))
    assert line.endswith(f"install tiny-a --recipes-dir {tiny.recipes} --lock {tmp_path / 'gc.lock.txt'} "
                         f"--graphcast-src {tiny.graphcast} --find-links {tiny.house.path} --offline"), line
    monkeypatch.setenv("GC_WIZARD_GRAPHCAST_SRC", str(tiny.graphcast))
    assert f"--graphcast-src {tiny.graphcast}" in run_inproc(*args).stdout
