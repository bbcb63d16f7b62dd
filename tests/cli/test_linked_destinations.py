"""A symlink at the path of a file the wizard writes — a module file, a kernel spec, a report, a lock — is refused
with one sentence naming it (exit 2), and the file it points to is never written (eleventh hostile pass #188,
#189: a group member's link in a shared module folder had `module install` overwrite a victim's file).

The real CLI in this process, on a real venv carrying the wizard's marker (ipykernel reached through a .pth)."""

from __future__ import annotations

import json
import os
import sysconfig
import venv
from pathlib import Path

import ipykernel
import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from wizard.install.envs import write_marker


@pytest.fixture
def env(tmp_path) -> Path:
    root = tmp_path / "env"
    venv.create(root, with_pip=False)
    write_marker(root, {"recipe": "tiny-k", "title": "tiny", "backend": "cpu"})
    purelib = sysconfig.get_path("purelib", vars={"base": str(root), "platbase": str(root)})
    Path(purelib, "test-ipykernel.pth").write_text(str(Path(ipykernel.__file__).parents[1]) + "\n")
    return root


@pytest.fixture
def victim(tmp_path) -> Path:
    path = tmp_path / "victim" / "notes.txt"
    path.parent.mkdir()
    path.write_text("my own precious notes\n")
    return path


def _refused(proc, link: Path, victim: Path, before: str) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    error = last_json(proc)["error"] if "--json" in proc.args else proc.stderr
    assert f"{link}: it is a symbolic link (to " in error and "never writes through a link" in error
    assert victim.read_text() == before and link.is_symlink()


def test_module_install_refuses_a_module_file_that_links_outside(env, victim, tmp_path):
    mods = tmp_path / "mods"
    (mods / "graphcast").mkdir(parents=True)
    link = mods / "graphcast" / "tiny-k.lua"  # the module is named after the recipe
    link.symlink_to(os.path.relpath(victim, link.parent))
    _refused(run_inproc("module", "install", "--env", str(env), "--dir", str(mods), "--json"), link, victim,
             "my own precious notes\n")


def test_kernel_install_refuses_a_kernel_json_that_links_outside_even_with_the_mark(env, victim, tmp_path):
    jupyter = tmp_path / "jk"
    folder = jupyter / "kernels" / "gcw-linked"
    folder.mkdir(parents=True)
    marked = json.dumps({"argv": ["x"], "metadata": {"gc_wizard": {"env": "elsewhere"}}})
    victim.write_text(marked)  # the mark gc-wizard looks for before replacing its own spec
    (folder / "kernel.json").symlink_to(victim)
    proc = run_inproc("kernel", "install", "--env", str(env), "--name", "gcw-linked", "--json",
                      env={"JUPYTER_DATA_DIR": str(jupyter)})
    _refused(proc, folder / "kernel.json", victim, marked)


def test_a_folder_the_wizard_makes_that_is_a_link_is_refused_and_nothing_lands_where_it_points(env, tmp_path):
    """Thirteenth hostile pass #4/#7: `DIR/graphcast -> elsewhere` had `module install` write into elsewhere, and a
    linked `kernels/` folder took a kernel spec, while a linked `kernels/NAME` was refused. The place the user names
    may be a link; a folder the wizard makes inside it may not."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    mods = tmp_path / "mods"
    mods.mkdir()
    (mods / "graphcast").symlink_to(elsewhere)
    proc = run_inproc("module", "install", "--env", str(env), "--dir", str(mods), "--json")
    jupyter = tmp_path / "jk"
    jupyter.mkdir()
    (jupyter / "kernels").symlink_to(elsewhere)
    kernel = run_inproc("kernel", "install", "--env", str(env), "--name", "gcw-x", "--json",
                        env={"JUPYTER_DATA_DIR": str(jupyter)})
    for result, link in ((proc, mods / "graphcast"), (kernel, jupyter / "kernels")):
        assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
        assert f"{link} is a symbolic link" in last_json(result)["error"]
    assert list(elsewhere.iterdir()) == []
    (tmp_path / "named").symlink_to(mods.resolve(), target_is_directory=True)  # the place itself a link: fine
    (mods / "graphcast").unlink()
    named = run_inproc("module", "install", "--env", str(env), "--dir", str(tmp_path / "named"), "--json")
    assert named.returncode == 0, named.stderr


def test_report_out_and_lock_out_refuse_a_link_before_any_work(victim, tmp_path):
    report = tmp_path / "report.md"
    report.symlink_to(victim)
    _refused(run_inproc("report", "--out", str(report)), report, victim, "my own precious notes\n")
    lock = tmp_path / "pylock.toml"
    lock.symlink_to(tmp_path / "nowhere.toml")  # dangling: it would have created a file where it points
    proc = run_inproc("lock", "jax0.4.23-cpu", "--out", str(lock), "--offline", "--find-links", str(tmp_path),
                      "--json")
    assert proc.returncode == 2 and "it is a symbolic link" in last_json(proc)["error"]
    assert not (tmp_path / "nowhere.toml").exists()


@pytest.mark.parametrize("out", ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"])
@pytest.mark.parametrize("into", ["file", "pipe"])
def test_the_commands_own_stdout_is_written_into_through_its_links(tmp_path, isolated_state, out, into):
    """Thirteenth hostile pass #9-#11: with the link rule, `report --out /dev/stdout` was refused as "a symbolic
    link (to /proc/self/fd/pipe:[…])" or to the file the shell's `>` opened. A link to one of the command's own
    descriptors names the stream the user gave it: written into, whatever it is."""
    import subprocess
    import sys

    from tests.fixtures.state import REPO

    argv = [sys.executable, "-m", "wizard", "report", "--out", out]
    if into == "file":
        with open(tmp_path / "report.md", "w") as sink:
            proc = subprocess.run(argv, stdout=sink, stderr=subprocess.PIPE, text=True, cwd=REPO, timeout=120)
        written = (tmp_path / "report.md").read_text()
    else:
        proc = subprocess.run(argv, capture_output=True, text=True, cwd=REPO, timeout=120)
        written = proc.stdout
    assert proc.returncode == 0, proc.stderr
    assert written.startswith("# gc-wizard support report") and written.count("# gc-wizard support report") == 1
