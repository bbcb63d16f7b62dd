"""Walk 25 #8: `gc-wizard kernel list` was "action 'list' is not one of install, remove", so a lab member could not
see what was registered; and kernel.json stored PATH and PYTHONPATH as they were at registration with no word that a
later `.bashrc` change would not reach the kernel. A real environment built by uv from the tests' wheelhouse."""

from __future__ import annotations

import re
import shutil

from tests.fixtures.cli import bare_program
from tests.fixtures.state import last_json, run_cli


def test_kernel_list_names_what_is_registered_and_install_says_what_it_froze(tiny, tmp_path):
    variables = {"JUPYTER_DATA_DIR": str(tmp_path / "jupyter"), "PATH": "/usr/bin:/bin"}
    empty = run_cli("kernel", "list", env=variables)
    assert empty.returncode == 0, empty.stderr
    assert f"No Jupyter kernel of gc-wizard's in {tmp_path}/jupyter/kernels" in empty.stdout
    env = tiny.env_with_ipykernel()
    made = run_cli("kernel", "install", "--env", str(env), "--name", "lab-k", env=variables)
    shown = " ".join(made.stdout.split())
    assert made.returncode == 0, made.stderr
    assert ("kernel.json keeps PATH, PYTHONPATH and LD_LIBRARY_PATH as they are now: a later change in your shell's "
            "start-up files does not reach the kernel; run `") in shown
    assert re.search(r"run `[^`]*(gc-wizard|-m wizard) kernel install` again to refresh it\.", shown), shown
    assert "frozen" in last_json(run_cli("kernel", "install", "--env", str(env), "--name", "lab-k", "--json",
                                         env=variables))
    listed = run_cli("kernel", "list", env=variables)
    assert listed.returncode == 0, listed.stderr
    assert "  lab-k  (tiny-k)" in listed.stdout and f"    env:  {env}\n" in listed.stdout
    data = last_json(run_cli("kernel", "list", "--json", env=variables))
    (kernel,) = data["kernels"]
    assert (kernel["name"], kernel["env"], kernel["env_exists"]) == ("lab-k", str(env), True)
    shutil.rmtree(env)
    gone = run_cli("kernel", "list", env=variables)
    assert "(gone: `gc-wizard kernel remove --name lab-k` takes the kernel away)" in bare_program(gone.stdout)
    wrong = run_cli("kernel", "list", "--name", "x", env=variables)
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr
