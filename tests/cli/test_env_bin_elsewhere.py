"""`--env DIR` is the folder named, resolved as a path, never where its `bin/python` leads (25th hostile pass
(part B) P3): a `DIR` holding only `bin -> OTHER/bin` made the wizard install into the venv OTHER in place and make
it current, DIR never named; `--env /` (whose `bin` leads to /usr/bin) was refused as "--env /usr". A folder whose
`bin`, or a link in it, leads into another environment is refused with the value given (`paths.env_bin_elsewhere`),
and the other environment is left as it was."""

from __future__ import annotations

import venv

import pytest

from tests.fixtures.state import last_json, run_cli


@pytest.fixture
def other(tmp_path):
    """A real venv (no pip) that is not the one named."""
    root = tmp_path / "other"
    venv.create(root, with_pip=False)
    return root


def _site(env):
    return sorted(str(p) for p in env.glob("lib/python*/site-packages/*"))


def test_a_bin_link_into_another_venv_is_refused_and_that_venv_untouched(tiny, tmp_path, other):
    named = tmp_path / "named"
    named.mkdir()
    (named / "bin").symlink_to(other / "bin")
    before = _site(other)
    proc = run_cli("install", "tiny-a", "--env", str(named), "--yes", "--json", *tiny.args())
    assert proc.returncode == 2, proc.stdout + proc.stderr
    error = last_json(proc)["error"]
    assert error.startswith(f"--env {named}: its bin leads to {other / 'bin'}, outside {named}"), error
    assert "Nothing was changed" in error and "Traceback" not in proc.stderr
    assert _site(other) == before and tiny.history() == []


@pytest.mark.parametrize("name", ["python", "pip"])
def test_a_link_in_bin_through_another_venv_is_refused(tiny, tmp_path, other, name):
    named = tmp_path / "named"
    venv.create(named, with_pip=False)
    (named / "bin" / name).unlink(missing_ok=True)
    (named / "bin" / name).symlink_to(other / "bin" / "python")
    proc = run_cli("install", "tiny-a", "--env", str(named), "--yes", "--json", *tiny.args())
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert last_json(proc)["error"].startswith(
        f"--env {named}: its bin/{name} leads to {other / 'bin' / 'python'}, inside the environment {other}")
    assert tiny.history() == []


def test_the_venv_itself_and_a_link_to_it_are_still_taken_in_place(tiny, other, tmp_path):
    link = tmp_path / "link"
    link.symlink_to(other)
    for given in (other, link):
        proc = run_cli("plan", "tiny-a", "--env", str(given), "--json", "--recipes-dir", str(tiny.recipes),
                       "--find-links", str(tiny.house.path), "--offline", "--graphcast-src", str(tiny.graphcast))
        assert proc.returncode == 0, proc.stdout + proc.stderr
        plan = last_json(proc)
        assert (plan["env"], plan["mode"]) == (str(other), "in-place")


@pytest.mark.parametrize("given", ["/", "//", "/tmp/.."])
def test_the_refusal_of_the_root_folder_names_the_value_given(tiny, given):
    proc = run_cli("plan", "tiny-a", "--env", given, "--json", "--recipes-dir", str(tiny.recipes),
                   "--find-links", str(tiny.house.path), "--offline", "--graphcast-src", str(tiny.graphcast))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    error = last_json(proc)["error"]
    assert error.startswith(f"--env {given}"), error
    assert "--env /usr " not in error and "Traceback" not in proc.stderr
