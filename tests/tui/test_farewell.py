"""What the app leaves on the terminal, and the status it leaves with, whichever way the user leaves."""

from __future__ import annotations

import json
import shlex
import venv

from tests.fixtures.cli import bare_program
from tests.fixtures.results import install_result
from wizard.errors import ExitCode
from wizard.install.envs import write_marker
from wizard.tui.app import WizardApp
from wizard.tui.leaving import farewell


def _status(lines: list[str]) -> str:
    """The status sentence the lines begin with, as one line (it is wrapped to 80 columns)."""
    said = []
    for line in lines:
        if line.startswith(("Next:", "Log:")):
            break
        said.append(line.strip())
    return " ".join(said)


def _unfolded(lines: list[str]) -> str:
    """The lines as one text, a command folded with ` \\` at 80 columns read whole again (the program's spelling is
    as long as the checkout's path: `PYTHONPATH=/work/wt/me … kernel \\` / `install`)."""
    return " ".join(line.strip().removesuffix("\\").strip() for line in lines)


def test_a_verified_install_leaves_the_activate_line_that_works_in_a_new_shell(tmp_path, monkeypatch):
    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "state dir"))
    lines = farewell(install_result(ok=True, recipe="jax0.4.23-cpu", env="/envs/a", log="/logs/a.log", verify={}))
    assert lines[0] == "gc-wizard: jax0.4.23-cpu is installed, checked and current: /envs/a"
    unchecked = farewell(install_result(ok=True, recipe="jax0.4.23-cpu", env="/envs/a", log="/logs/a.log"))
    assert _status(unchecked) == "gc-wizard: jax0.4.23-cpu is installed, not checked (--no-verify) and current: /envs/a"
    # A command whose comment would push it past 80 columns has the comment on the line above it, so the
    # command stays whole for copying.
    assert lines[1].startswith("Next: ") and all(len(line) <= 80 or "#" not in line for line in lines[1:-1])
    # The state folder is exported first, on a line of its own, as the Done screen does (walk 21 #17: the two
    # differed); it survives the shell's quoting (it has a space).
    export = next(line for line in lines if "export GC_WIZARD_HOME=" in line).removeprefix("Next:").strip()
    assert shlex.split(export) == ["export", f"GC_WIZARD_HOME={tmp_path / 'state dir'}"]
    command = next(line for line in lines if "activate)" in line and not line.lstrip().startswith(("Next: #", "#")))
    command = command.removeprefix("Next: ").split("    #")[0].strip()
    assert command.startswith('eval "$(') and command.endswith(' activate)"')
    assert "kernel install" in _unfolded(lines) and lines[-1] == "Log:  /logs/a.log"
    assert any(line.strip().endswith("forecast") or " forecast " in line for line in lines)


def test_the_lines_left_say_when_the_forecast_host_cannot_be_reached(tmp_path, monkeypatch):
    """Walk 21 #4: the quit text offered `gc-wizard forecast` on a server that cannot reach its files."""
    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "state"))
    result = install_result(ok=True, recipe="jax0.4.23-cpu", env="/envs/a", log="/logs/a.log", verify={})
    text = " ".join(line.strip().lstrip("# ") for line in farewell(result, None, "storage.googleapis.com"))
    assert "storage.googleapis.com cannot be reached from here" in " ".join(text.split())
    assert "gc-wizard bundle jax0.4.23-cpu --out DIR --with-assets" in text and "--assets DIR/assets" in text
    assert "cannot be reached" not in " ".join(farewell(result))


def test_after_a_rollback_the_lines_left_name_the_env_current_now(tmp_path, monkeypatch):
    """Walk 18: rolled back from History, then q: the terminal was told this install's env was current."""
    from wizard.history.store import Entry, load_history

    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "state"))
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    new.mkdir()
    history = load_history()
    history.entries += [Entry(id="e1", kind="install", recipe="jax0.4.23-cpu", env=str(old), status="verified"),
                        Entry(id="e2", kind="install", recipe="jax0.4.23-cpu", env=str(new), status="verified")]
    history.make_current(history.entries[0])
    history.save()
    result = install_result(ok=True, recipe="jax0.4.23-cpu", env=str(new), log="/logs/new.log", verify={})
    lines = farewell(result)
    assert _status(lines) == (f"gc-wizard: jax0.4.23-cpu in {old} is current now (rolled back to since this "
                              f"install, which stays at {new}, not current).")
    assert any(line.startswith("Next: ") for line in lines) and "/logs/new.log" not in "\n".join(lines)
    # walk 23 #8: deleted since (`gc-wizard remove` in another shell): not "stays at".
    new.rmdir()
    assert _status(farewell(result)) == (f"gc-wizard: jax0.4.23-cpu in {old} is current now (rolled back to since "
                                         f"this install, whose environment {new} has been deleted since).")


def test_the_lines_left_say_what_the_session_did_from_the_history_now(tmp_path, monkeypatch):
    """walk 23 #8: two installs and a rollback, then a plan, then quit: "nothing was installed;
    your current environment is still …"; and a kept, unchecked environment removed since still "stays at"."""
    from wizard.history.store import Entry, load_history

    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "state"))
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    history = load_history()
    history.entries += [Entry(id="e1", kind="install", recipe="jax0.4.23-cpu", env=str(first), status="verified"),
                        Entry(id="e2", kind="install", recipe="jax0.12.0.1-cpu", env=str(second), status="verified")]
    history.make_current(history.entries[0])
    history.save()
    lines = farewell(None, installed=[("jax0.4.23-cpu", str(first)), ("jax0.12.0.1-cpu", str(second))],
                     rolled_back=1)
    assert _status(lines) == ("gc-wizard: this session installed 2 environments (jax0.4.23-cpu, jax0.12.0.1-cpu) "
                              f"and rolled back once; jax0.4.23-cpu in {first} is current now.")
    assert any(line.startswith("Next: ") for line in lines)
    assert _status(farewell(None)) == f"gc-wizard: nothing was installed; your current environment is still {first}."
    gone = tmp_path / "kept-then-removed"
    kept = install_result(ok=False, cancelled=True, status="installed", env=str(gone), mode="new", kept=True,
                          entry_id="e3", verify={"ok": False, "cancelled": True}, log="/logs/k.log")
    said = _status(farewell(kept))
    assert f"The new environment {gone} has been deleted since." in said and "stays at" not in said, said


def test_a_failed_or_stopped_install_says_so_and_names_the_log(monkeypatch):
    monkeypatch.setattr("wizard.tui.leaving.current_env", lambda: "/envs/a")
    failed = farewell(install_result(ok=False, error="cannot reach github.com\nmore", log="/logs/b.log"))
    assert failed == ["gc-wizard: the install failed; your current environment is untouched.",
                      "  cannot reach github.com", "Log:  /logs/b.log"]
    stopped = farewell(install_result(ok=False, cancelled=True, log="/logs/c.log"))
    assert stopped[0] == "gc-wizard: the install stopped; your current environment is untouched."
    # Walk 22 #10: a first install has no current environment to leave untouched.
    monkeypatch.setattr("wizard.tui.leaving.current_env", lambda: None)
    failed = farewell(install_result(ok=False, error="cannot reach github.com", log="/logs/b.log"))
    assert failed[0] == "gc-wizard: the install failed; no environment is current (there was none before either)."
    stopped = farewell(install_result(ok=False, cancelled=True, env="/envs/n", mode="new", kept=False,
                                     verify={"ok": False, "cancelled": True}, log="/logs/d.log"))
    assert _status(stopped) == ("gc-wizard: the check stopped. The new environment /envs/n was removed. No "
                                "environment is current (there was none before either).")
    assert farewell(install_result(ok=False, lock_held=True)) == []
    # left before installing (walk 20 #18): said, with what is current
    assert farewell(None) == ["gc-wizard: nothing was installed; no environment is current yet."]


def test_the_exit_status_follows_the_outcome_not_the_key():
    app = WizardApp()
    assert app.outcome_status() == ExitCode.OK
    app.install_result = install_result(ok=False, cancelled=True)
    assert app.outcome_status() == ExitCode.CANCELLED
    app.install_result = install_result(ok=False, cancelled=False)
    assert app.outcome_status() == ExitCode.FAILED
    app.install_result = install_result(ok=True)
    assert app.outcome_status() == ExitCode.OK


def test_the_running_tier_shows_a_clock_so_a_long_jit_init_does_not_look_hung():
    from wizard.tui.screens.verify import running_line
    from wizard.verify.protocol import Tier

    assert running_line([], 42.4).endswith("(running, 42 s)")
    assert running_line([Tier("jax_import", "failed")], 3.0) is None  # the probe stopped there
    # GraphCast 0.1.1 has no GenCast: after its jit init nothing more is announced as running.
    old = [Tier("jax_import", "passed", details={"versions": {"graphcast": "0.1.1"}}),
           Tier("backend", "passed"), Tier("cudnn_op", "skipped"), Tier("graphcast_jit_init", "passed")]
    assert running_line(old, 1.0) is None
    new = [Tier("jax_import", "passed", details={"versions": {"graphcast": "0.2"}}), *old[1:]]
    assert running_line(new, 1.0).startswith("… GenCast jit init")


def test_stop_questions_say_what_becomes_of_the_environment_being_built():
    from wizard.flows.results import what_was_undone
    from wizard.tui.screens.install import stop_question

    assert stop_question(True, leaving=True) == ("Stop the check and leave gc-wizard? y removes the new environment; "
                                                 "k keeps it, installed but unchecked, to check later. Neither makes "
                                                 "it current; your current environment is untouched.")
    assert stop_question(False, leaving=True) == ("Stop the install and leave gc-wizard? The new environment will be "
                                                  "removed (it never becomes current); your current environment is "
                                                  "untouched.")
    assert stop_question(False, has_current=False).endswith("no other environment is touched.")
    in_place = stop_question(False, in_place_env="/home/u/.venvs/gc")
    assert in_place == "Stop the install? /home/u/.venvs/gc will be put back as it was before; nothing else is touched."
    assert what_was_undone("/e", "in-place", True) == "/e was put back as it was before."
    assert what_was_undone("/e", "new", True) == "The new environment stays at /e, not current."
    assert what_was_undone("/e", "new", False) == "The new environment /e was removed."


def test_leaving_after_k_does_not_ask_for_the_kernel_again(tmp_path, monkeypatch):
    """The exit "Next:" lines leave out a step the user took on the Done screen (newcomer walk)."""
    env = tmp_path / "env"
    venv.create(env, with_pip=False)
    write_marker(env, {"recipe": "jax0.4.23-cpu", "backend": "cpu"})
    result = install_result(ok=True, recipe="jax0.4.23-cpu", env=str(env), log="/logs/a.log")
    assert "kernel install" in _unfolded(farewell(result))
    # The kernel spec `k` writes (wizard.after.kernel), pointing at this env.
    spec = tmp_path / "jupyter-data" / "kernels" / "gc-wizard-jax0.4.23-cpu" / "kernel.json"
    spec.parent.mkdir(parents=True)
    spec.write_text(json.dumps({"argv": [str(env / "bin" / "python")], "metadata": {"gc_wizard": {"env": str(env)}}}))
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter-data"))
    lines = farewell(result)
    assert "kernel install" not in _unfolded(lines)
    assert any(line.startswith("Next: ") for line in lines) and "module install" in _unfolded(lines)
    # Walk 22 #10: the kernel lives outside the state folder, so the lines left name it and how it goes away.
    said = bare_program(" ".join(" ".join(lines).split()))
    assert (f"Jupyter kernel gc-wizard-jax0.4.23-cpu runs it: {spec} (outside the state folder; `gc-wizard kernel "
            "remove` takes it away).") in said, said


def test_the_status_line_left_wraps_between_words_and_keeps_a_long_path_whole(tmp_path, monkeypatch):
    """Walk 21 #17: `…: /tmp/walk21/state/en` / `vs/jax0.4.23-cpu-…` as the terminal wrapped the status line."""
    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "state"))
    env = "/tmp/walk21/state/envs/jax0.4.23-cpu-20261127-183400"
    lines = farewell(install_result(ok=True, recipe="jax0.4.23-cpu", env=env, log="/l", verify={}))
    assert lines[0] == "gc-wizard: jax0.4.23-cpu is installed, checked and current:" and lines[1] == f"  {env}"
    assert lines[2].startswith("Next:")


def test_the_app_keeps_each_good_install_of_the_session_for_the_lines_left():
    """walk 23 #8: a later plan clears `install_result`; the session's installs stay counted."""
    from wizard.tui.messages import InstallDone

    app = WizardApp()
    app._leaving = True  # the outcome only: no screen to show
    app.on_install_done(InstallDone(install_result(ok=True, recipe="jax0.4.23-cpu", env="/envs/a")))
    app.on_install_done(InstallDone(install_result(ok=False, recipe="jax0.12.0.1-cpu", env="/envs/b")))
    app.install_result = None  # planning again
    assert app.session_installs == [("jax0.4.23-cpu", "/envs/a")]
