"""The command line's own contract: every command owns its arguments, each has help and an example."""

from __future__ import annotations

import argparse
import ast
import os
import subprocess
import sys

import pytest

from tests.fixtures.cli import bare_program
from wizard.cli import COMMANDS, build_parser, main
from wizard.errors import ExitCode


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_help_lists_every_command_in_order():
    assert list(_subparsers(build_parser())) == list(COMMANDS)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_argument_has_help_and_every_command_an_example(name):
    command = _subparsers(build_parser())[name]
    assert command.description and command.epilog.startswith("example:\n  ") and "gc-wizard" in command.epilog
    assert command.get_default("run") is not None
    for action in command._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        assert action.help and action.help != argparse.SUPPRESS, f"{name}: {action.option_strings or action.dest}"


@pytest.mark.parametrize("name", ["", *COMMANDS])
def test_help_fits_an_80_column_terminal(name, monkeypatch):
    """`--help` in an 80-column SSH window: no line the terminal has to wrap (examples included)."""
    monkeypatch.setenv("COLUMNS", "80")
    parser = build_parser([name] if name else ["--help"])
    text = (_subparsers(parser)[name] if name else parser).format_help()
    too_long = [line for line in text.splitlines() if len(line) > 80]
    assert not too_long, too_long


@pytest.mark.parametrize("columns", ["60", "72", "80", "100"])
def test_help_never_breaks_a_backquoted_command(columns, monkeypatch):
    """Walk 37 #3: `--help` folded `gc-` / `wizard bundle` and `… --out DIR` / `--with-assets` (argparse's own wrap
    and the descriptions' fill), so a command copied from it ran as two. Every backquote closes on its own line."""
    monkeypatch.setenv("COLUMNS", columns)
    for name in ["", *COMMANDS]:
        parser = build_parser([name] if name else ["--help"])
        text = (_subparsers(parser)[name] if name else parser).format_help()
        assert not [line for line in text.splitlines() if line.count("`") % 2], (columns, name, text)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_naming_a_command_configures_only_its_module(name):
    """Lazy like pip's commands_dict: `gc-wizard detect` never loads install's module."""
    parser = build_parser(["--recipes-dir", "install", name, "--json"])
    named = set(_subparsers(parser))
    assert name in named
    assert named == {n for n, module in COMMANDS.items() if module == COMMANDS[name]}


def test_app_only_options_are_refused_after_a_command(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["detect", "--no-mouse"])
    assert exc.value.code == ExitCode.BAD_INPUT
    assert "--no-mouse" in capsys.readouterr().err


def test_exit_codes_have_the_interface_values():
    assert (ExitCode.OK, ExitCode.FAILED, ExitCode.BAD_INPUT) == (0, 1, 2)
    assert (ExitCode.HANGUP, ExitCode.CANCELLED, ExitCode.TERMINATED) == (129, 130, 143)


def test_diagnose_given_the_error_text_instead_of_a_file_says_how_to_paste_it(capsys):
    code = main(["diagnose", "Loaded runtime CuDNN library: 8.2.1 but source was compiled with: 8.6.0"])
    err = capsys.readouterr().err
    assert code == ExitCode.BAD_INPUT
    assert "gc-wizard diagnose -" in err and "Traceback" not in err


def test_report_to_a_folder_that_does_not_exist_creates_nothing(tmp_path, capsys):
    target = tmp_path / "no such folder" / "report.md"
    assert main(["report", "--out", str(target)]) == ExitCode.BAD_INPUT
    assert "does not exist" in capsys.readouterr().err and not target.parent.exists()


def test_the_app_refuses_a_bundle_instead_of_ignoring_it(capsys):
    """`gc-wizard --bundle DIR` (no command): said and refused, never a silent install from the network."""
    assert main(["--bundle", "/srv/gc-bundle"]) == ExitCode.BAD_INPUT
    err = bare_program(capsys.readouterr().err)
    assert "gc-wizard install RECIPE --bundle /srv/gc-bundle" in err and "Traceback" not in err


def test_a_bug_in_a_command_is_one_sentence_and_a_log_never_a_traceback(monkeypatch, isolated_state):
    from tests.fixtures.cli import run_inproc
    from wizard.commands import detect

    def broken(args):
        raise AttributeError("'NoneType' object has no attribute 'version'")

    monkeypatch.setattr(detect, "run", broken)
    proc = run_inproc("detect", "--json")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr + proc.stdout
    assert "an error of its own (AttributeError" in proc.stderr and "this is a bug" in proc.stderr
    (log,) = (isolated_state / "logs").glob("crash-*.log")
    assert "Traceback" in log.read_text()
    assert log.stat().st_mode & 0o777 == 0o600  # as every log (fifteenth hostile pass M1)


def test_the_apps_own_start_loads_no_command_module():
    """`gc-wizard` with no command starts the app: its first frame pays for no command's imports, and a
    misspelt command still gets argparse's list of the real ones."""
    probe = ("import sys; from wizard.cli import build_parser; build_parser([]); "
             "print(sorted(m for m in sys.modules if m.startswith('wizard.commands.')))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    loaded = set(ast.literal_eval(out.strip()))
    assert "wizard.commands.options" in loaded
    assert not loaded & {f"wizard.commands.{module}" for module in COMMANDS.values()}, loaded
    with pytest.raises(SystemExit) as exc:
        build_parser(["detcet"]).parse_args(["detcet"])
    assert exc.value.code == ExitCode.BAD_INPUT


def test_the_program_leaves_with_its_status_and_output_while_a_background_thread_lingers():
    """Size look-ups past their budget are left running; the program then leaves without the interpreter's
    shutdown (a daemon thread in a TLS call while Python finalises crashed `plan --json` with SIGSEGV), its
    output flushed and its exit status kept."""
    code = ("import sys, threading, time; threading.Thread(target=time.sleep, args=(60,), daemon=True).start(); "
            "sys.argv = ['gc-wizard', 'diagnose', '-']; from wizard.cli import run; sys.exit(run())")
    proc = subprocess.run([sys.executable, "-c", code], input="E0000 jax: Unknown backend gpu\n", capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 1 and proc.stdout.strip(), (proc.returncode, proc.stdout, proc.stderr)


def test_a_usage_error_is_one_sentence_with_the_suggestion_and_no_usage_block():
    """Walk 21 #6: `gc-wizard instal` printed eight lines of usage, then every command on one long line, with
    "did you mean install?" last."""
    from tests.fixtures.cli import run_inproc

    proc = run_inproc("instal")
    assert proc.returncode == 2
    assert bare_program(proc.stderr) == ("gc-wizard: unknown command 'instal'; did you mean install? (`gc-wizard --help` lists "
                                         "them)\n")
    for argv in (("plan", "jax0.4.23-cpu", "--installer", "pipp"), ("detect", "--slrum", "gpu"), ("plan", "--installer")):
        proc = run_inproc(*argv)
        assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1 and "usage:" not in proc.stderr, proc.stderr
    assert run_inproc("plan", "x", "--installer", "pipp").stderr == (
        "gc-wizard plan: --installer 'pipp' is not one of uv, pip; did you mean pip?\n")


def test_a_memory_limit_is_named_as_the_users_limit_not_called_a_bug(isolated_state):
    """24th hostile pass (part A) P3: under `ulimit -v` 250000, `install` ended as "an error of its own (MemoryError:);
    this is a bug". A real MemoryError, under a real address-space limit, in a command (wherever it comes from) is
    one sentence naming `ulimit -v` and its value, exit 1 and the JSON failure line; the app's words are the same."""
    import json

    from tests.fixtures.state import REPO

    code = ("import re, resource, sys\n"
            "from wizard import cli\n"
            "from wizard.commands import detect\n"
            "from wizard.error_sentences import describe_error\n"
            "detect.run = lambda args: bytearray(8 << 30)\n"
            "size = int(re.search(r'VmSize:\\s+(\\d+)', open('/proc/self/status').read()).group(1)) * 1024\n"
            "resource.setrlimit(resource.RLIMIT_AS, (size + (200 << 20), resource.getrlimit(resource.RLIMIT_AS)[1]))\n"
            "app = describe_error(MemoryError())\n"
            "code = cli.main(['detect', '--json'])\n"
            "print('APP:' + app)\n"
            "sys.exit(code)\n")
    proc = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=str(REPO), env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.returncode == 1 and "Traceback" not in proc.stderr + proc.stdout, proc.stderr[-1500:]
    assert "bug" not in proc.stderr and not list((isolated_state / "logs").glob("crash-*.log"))
    assert "ran out of memory under this process's limit (its address-space limit, `ulimit -v`, is " in proc.stderr
    line = json.loads(proc.stdout.splitlines()[0])
    assert line["ok"] is False and "`ulimit -v`" in line["error"]
    app = proc.stdout.splitlines()[-1]
    assert app.startswith("APP:gc-wizard ran out of memory under this process's limit") and "`ulimit -v`" in app
