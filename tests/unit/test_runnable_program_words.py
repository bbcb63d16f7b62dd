"""Every hint line built from a sentence names the program a new login shell runs (`paths.runnable`, by
`paths.wizard_command`, the helper the Next lines use), never a bare `gc-wizard` that shell cannot find.

Walk 33 #4: the Next lines said `/home/lab/gc-wizard/.venv/bin/gc-wizard`, as README promises, while the stopped log's
"run it again", the recipe lists' "diagnose its log", the failed check's ranked causes and `kernel install`'s notes
said `gc-wizard`, which lab's shell could not run."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from wizard import paths

ME = "/home/lab/gc-wizard/.venv/bin/gc-wizard"


@pytest.fixture
def program(monkeypatch):
    monkeypatch.setattr(paths, "wizard_command", lambda: ME)


def test_runnable_names_the_program_in_every_quoted_command_only(program):
    text = "run `gc-wizard install x --y` again; `gc-wizard` alone; gc-wizard-env and `gc-wizard-kernel` stay"
    assert paths.runnable(text) == (f"run `{ME} install x --y` again; `{ME}` alone; gc-wizard-env and "
                                    "`gc-wizard-kernel` stay")
    assert paths.runnable("`gc-wizard verify`", "gc-wizard") == "`gc-wizard verify`"


def test_the_ranked_causes_and_the_stopped_line_name_the_program(program):
    from wizard.verify.causes import Context
    from wizard.verify.diagnose import Stopped, diagnose_text

    (found, *_) = diagnose_text("RuntimeError: no CUDA-capable device is detected",
                                context=Context(driver_present=True, slurm_login_node=True))
    assert f"`{ME} verify --env DIR --slurm`" in found.explanation and "`gc-wizard" not in found.explanation
    assert all("`gc-wizard" not in value for cause in found.causes for value in cause.values())
    said = Stopped(step=None, why="cancelled", recipe="jax0.4.23-cpu").next_step
    assert f"`{ME} install jax0.4.23-cpu` with the same options" in said


def test_the_kernel_notes_name_the_program(program):
    from wizard.after.kernel import frozen_words, notebook_cautions

    assert f"`{ME} kernel install` again" in frozen_words({"PATH": "/usr/bin"})
    marker = SimpleNamespace(extra={"notebook": True, "graphcast_version": "0.1.1"})
    for unreachable in ("storage.googleapis.com", True):
        notes = " ".join(notebook_cautions(marker, unreachable))
        assert f"`{ME} forecast --assets DIR`" in notes and "`gc-wizard" not in notes, notes


def _finding(fix, explanation="It broke.", causes=()):
    return SimpleNamespace(id="some_failure", title="Something failed", explanation=explanation, fix=fix, explains=(),
                           causes=causes, evidence=())


def test_every_shown_fix_names_the_program_once_where_findings_become_lines(program):
    """The catalogue's and the check's fix texts stay as written; `finding_lines` (diagnose, verify, forecast, the
    Verify screen) and `failed_check_lines` (the Not-done screen) name the program, without saying a fix twice."""
    from wizard.flows.describe_check import failed_check_lines, finding_lines

    finding = _finding("Run `gc-wizard install jax0.4.23-cpu` into a new environment.",
                       "`gc-wizard diagnose --env DIR` names it.",
                       ({"title": "a login node", "check": "`gc-wizard detect --slurm` shows the GPUs"},))
    text = " ".join(finding_lines([finding], 200))
    assert f"Fix: Run `{ME} install jax0.4.23-cpu` into" in text and f"`{ME} diagnose --env DIR` names" in text
    assert f"check `{ME} detect --slurm` shows" in text and "`gc-wizard" not in text
    error = f"installed, but something failed. Fix: Run `{ME} install jax0.4.23-cpu` into a new environment."
    lines = failed_check_lines(error, [finding, _finding("`gc-wizard verify --env DIR` again")])
    assert lines == [error, "", "▶ Something failed", f"  Fix: `{ME} verify --env DIR` again"]


def test_the_recipe_lists_name_the_program_for_a_failed_check_and_the_first_screen_keeps_it_bare(program):
    from wizard.flows.history import failed_check_words, last_failed_checks

    check = SimpleNamespace(node=None, finding_details=({"title": "CUDA found no usable GPU"},), findings=(),
                            failed_tier="backend", log="/tmp/install-1.log", ok=False, stopped=False)
    entry = SimpleNamespace(verify=check, log=None, id="20261129-004501-9d5f", kind="install", status="failed",
                            recipe="jax0.4.23-cpu")
    assert "`gc-wizard diagnose /tmp/install-1.log` names the cause" in failed_check_words(entry)
    history = SimpleNamespace(entries=[entry])
    named = last_failed_checks(history, named=True)["jax0.4.23-cpu"]
    assert f"`{ME} diagnose /tmp/install-1.log` names the cause" in named and "`gc-wizard" not in named
    assert "`gc-wizard diagnose /tmp/install-1.log`" in last_failed_checks(history)["jax0.4.23-cpu"]


def test_every_cli_line_and_error_names_the_program(program, capsys):
    """Walk 37 #6: rollback's unknown-id error (`history.store`), the errors of `commands.options` and `install.bundle`
    printed `gc-wizard history` bare. The CLI's one way out for lines and errors (`commands.output.say`/`warn`, and the
    error line `cli.main` ends with) names the program; a command for another machine is left as it is."""
    from wizard.commands.output import say, warn

    say(f"see `gc-wizard history`; there, `{paths.elsewhere_command('bundle r')}`")
    warn("There is no history entry '[ID]'; see `gc-wizard history`.")
    out, err = capsys.readouterr()
    assert out == f"see `{ME} history`; there, `.venv/bin/gc-wizard bundle r`\n"
    assert err == f"gc-wizard: There is no history entry '[ID]'; see `{ME} history`.\n"


def test_the_error_line_of_a_command_names_the_program(program, isolated_state):
    from tests.fixtures.cli import run_inproc

    proc = run_inproc("rollback", "[ID]")
    err = " ".join(proc.stderr.split())
    assert proc.returncode != 0
    assert "no history entry" in err and f"`{ME} history`" in err and "`gc-wizard history`" not in err, err


def test_the_kernel_lines_left_after_the_app_name_the_program(program, monkeypatch):
    from wizard.after import kernel

    monkeypatch.setattr(kernel, "gc_wizard_kernels", lambda: [{"name": "gc-x", "path": "/k/gc-x", "env": "/e"}])
    assert kernel.kernel_lines("/e") == [f"Jupyter kernel gc-x runs it: /k/gc-x (outside the state folder; `{ME} "
                                         "kernel remove` takes it away)."]
    assert f"`{ME} kernel remove` takes it away." in kernel.kernel_question()


def test_the_logged_run_it_again_line_is_read_back_whatever_program_it_names():
    """The install log's "to run this install again" line names the program a new shell runs (walk 37 #6), and
    `diagnose` still reads it back (an older log's bare `gc-wizard` too)."""
    from wizard.verify.diagnose import again_words

    expected = ("gc-wizard", "install", "jax0.4.23-cpu", "--graphcast-src", "/src")
    for program_words in ("gc-wizard", ME, f"GC_WIZARD_HOME=/s {ME}", "PYTHONPATH=/w /v/bin/python -m wizard"):
        assert again_words(f"{program_words} install jax0.4.23-cpu --graphcast-src /src") == expected
    assert again_words(f"{ME} install jax0.4.23-cpu --rm-rf /") is None
