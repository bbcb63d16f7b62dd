"""Walk 24 #7: a kernel and a module file the user wrote with `--env` for one environment follow the recipe's next
install (the default-named ones follow the current environment, as documented; `--name`/`--dir` give ones that
stay), and the install's outcome says so, from → to, where the user reads it — not only in the log."""

from __future__ import annotations

from pathlib import Path

from tests.fixtures.state import run_cli


def test_the_outcome_says_which_kernel_and_module_file_moved_from_which_environment(tiny, tmp_path):
    jupyter = {"JUPYTER_DATA_DIR": str(tmp_path / "jupyter")}
    tiny.house.add("ipykernel", "6.0")
    tiny.write("tiny-k", ["pkg-a==1.0", "ipykernel==6.0"])
    first, result = tiny.install("tiny-k", env=jupyter)
    assert first.returncode == 0, first.stderr
    old = result["env"]
    for what in ("kernel", "module"):
        proc = run_cli(what, "install", "--env", old, env=jupyter)
        assert proc.returncode == 0, proc.stderr
    proc = run_cli("install", "tiny-k", "--yes", *tiny.args(), env=jupyter)
    assert proc.returncode == 0, proc.stderr
    whole = " ".join(proc.stdout.split())  # the CLI folds its sentences between words, where the paths put the fold
    said = whole[whole.index("it is now the current environment."):]
    new = tiny.history()[-1]["env"] if "env" in tiny.history()[-1] else None
    assert new and new != old
    assert f"The Jupyter kernel gc-wizard-tiny-k now runs {new} (it ran {old})." in said, said
    assert f"now loads {new} (it loaded {old})." in said, said
    assert new in Path(tmp_path / "jupyter" / "kernels" / "gc-wizard-tiny-k" / "kernel.json").read_text()
