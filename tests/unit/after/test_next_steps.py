"""The activate command a user copies off the Done screen: each line a whole command, so a copied block
runs in a new shell even with the terminal's padding spaces kept."""

from __future__ import annotations

import subprocess

from wizard.after.next_steps import activate_lines


def _stand_in_wizard(folder):
    """A `gc-wizard` that prints, as `activate` would, a line for the shell to eval: here, an echo of
    the state folder it was given."""
    script = folder / "gc-wizard"
    script.write_text('#!/bin/sh\necho "echo home=$GC_WIZARD_HOME args=$*"\n')
    script.chmod(0o755)
    return script


def test_copied_lines_with_padding_run_in_a_new_shell(tmp_path, monkeypatch):
    program = _stand_in_wizard(tmp_path)
    home = tmp_path / "a state folder" / "with spaces"
    monkeypatch.setenv("GC_WIZARD_HOME", str(home))
    monkeypatch.setattr("wizard.after.next_steps.program_command", lambda: str(program))
    lines = activate_lines()
    assert lines[0].startswith("export GC_WIZARD_HOME=") and lines[1].startswith('eval "$(')
    pasted = "\n".join(f"    {line}" + " " * (80 - 4 - len(line)) for line in lines)  # as a selection copies it
    out = subprocess.run(["env", "-i", "bash", "--norc", "-c", pasted], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout == f"home={home} args=activate\n", (out.stdout, out.stderr)


def test_without_a_chosen_state_folder_it_is_one_line(monkeypatch):
    monkeypatch.delenv("GC_WIZARD_HOME", raising=False)
    monkeypatch.setattr("wizard.after.next_steps.program_command", lambda: "gc-wizard")
    assert activate_lines() == ['eval "$(gc-wizard activate)"']


def test_the_module_lines_work_in_a_new_shell_without_lmod_knowing_the_folder(monkeypatch, tmp_path):
    """`module load` alone fails in a new shell ("module(s) are unknown"): every "Next:" block and the
    Done screen give `module use <state>/modules` first, then the load line."""
    from wizard.after.next_steps import next_step_lines, use_lines

    home = tmp_path / "state with space"
    monkeypatch.setenv("GC_WIZARD_HOME", str(home))
    assert use_lines("jax0.4.23-cpu") == [f"module use '{home}/modules'", "module load graphcast/jax0.4.23-cpu"]
    lines = [line.strip() for line in next_step_lines("jax0.4.23-cpu")]
    use, load = lines.index(f"module use '{home}/modules'"), lines.index("module load graphcast/jax0.4.23-cpu")
    assert use + 1 == load
