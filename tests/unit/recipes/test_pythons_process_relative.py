"""37th hostile pass (part B) P4: an interpreter's path that means another file to each process that opens it
(`/proc/self/exe`, `/proc/<pid>/…`, `/dev/fd/N`, a link leading there) is refused before it is run, and a path is
handed to the steps as the absolute path the check ran.

Why: `--python /proc/self/exe` was probed as "Python 3.11.7" (the wizard's own Python, in the probe), then handed to
uv, where it was uv: the plan approved a step that could not run."""

from __future__ import annotations

import dataclasses
import platform
import sys

import pytest

from wizard import paths
from wizard.errors import UserError
from wizard.recipes import pythons
from wizard.recipes.loader import get_recipe

HERE = platform.python_version()


def _recipe():
    recipe = get_recipe("jax0.4.23-cpu")
    return dataclasses.replace(recipe, machine=dataclasses.replace(recipe.machine, python=f"=={HERE}"))


@pytest.fixture
def nothing_runs(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError(f"ran {args[0]!r}")

    monkeypatch.setattr(pythons, "run_capture", refuse)


@pytest.mark.parametrize("given", ["/proc/self/exe", "/proc/1/exe", "/dev/fd/0", "/dev/stdin",
                                   f"/proc/self/root{sys.executable}", "link"])
def test_a_path_that_leads_into_proc_is_refused_unrun(given, tmp_path, monkeypatch, nothing_runs):
    (tmp_path / "link").symlink_to("/proc/self/exe")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UserError) as info:
        pythons.requested_python(_recipe(), given if given != "link" else "./link")
    assert "leads into /proc" in str(info.value) and "it was not run" in str(info.value)


def test_a_found_interpreter_that_leads_into_proc_is_passed_over(nothing_runs):
    assert pythons.probe_python("/proc/self/exe", "path") is None


@pytest.mark.parametrize("path, through", [
    ("/proc/self/exe", True), ("/dev/fd/3", True), ("/proc/self/root/usr", True),
    (sys.executable, False), ("/proc/../usr/bin", False), ("/no/such/file", False), ("/dev/null", False),
])
def test_process_relative_follows_links_as_the_kernel_does(path, through):
    assert (paths.process_relative(path) is not None) is through


def test_a_relative_path_is_absolute_for_every_step(tmp_path, monkeypatch):
    (tmp_path / "py").symlink_to(sys.executable)
    monkeypatch.chdir(tmp_path)
    choice = pythons.requested_python(_recipe(), "./py")
    assert choice.executable == str(tmp_path / "py") and choice.source == "given"


def test_a_given_path_is_walked_for_proc_once(monkeypatch):
    """Review leftover: `requested_python` refused a path through proc, then `probe_python` walked the same value's
    links again; the checked value is now passed on (`proc_checked`), so one command walks it once."""
    walked: list[str] = []
    real = pythons.process_relative

    def counting(path):
        walked.append(str(path))
        return real(path)

    monkeypatch.setattr(pythons, "process_relative", counting)
    choice = pythons.requested_python(_recipe(), sys.executable)
    assert walked.count(choice.executable) == 1, walked
