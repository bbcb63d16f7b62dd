"""The command-line face of gc-wizard: argument parsing and dispatch, nothing else.

Each subcommand lives in `wizard.commands.<name>`: its `configure(sub)` adds its parser and
arguments, and sets `run`. `--version` is answered before any parser is built, so it stays instant;
command modules keep their heavy imports inside `run`. This module must never import Textual (only
`run_tui` does, on the app's path): a test proves it in a subprocess.
"""

from __future__ import annotations

import argparse
import os
import sys

from wizard import __version__, children, paths
from wizard.commands import streams
from wizard.errors import ExitCode, UserError, WizardError, error_exit, left_words, say_on_stderr
from wizard.flows import early_detect

#: command -> the module in wizard.commands that owns it: its arguments (`configure(sub)`, which also
#: sets the handler as `run`). In `--help` order. Only the named command's module is imported (pip's
#: lazy `commands_dict`), so a light command never pays for another's imports; `--help` loads them all.
COMMANDS = {
    "detect": "detect", "recipes": "recipes", "plan": "recipes", "install": "install", "verify": "verify",
    "diagnose": "diagnose", "forecast": "forecast", "history": "history", "rollback": "history", "remove": "history",
    "activate": "post_install", "kernel": "post_install", "report": "post_install",
    "lock": "cluster", "bundle": "cluster", "module": "cluster",
}
#: Commands that begin by detecting this machine (unless `--slurm` sends them to a node): their probe child
#: starts before their modules load (`wizard.flows.early_detect`), so the two overlap.
DETECT_HERE = {"detect", "recipes", "plan", "install"}
#: The words that ask for help: every command's module is loaded to describe it.
_HELP = {"-h", "--help"}
#: Global options that take a value: the word after them is never the command.
_VALUED = {"--recipes-dir", "--color", "--graphcast-src", "--find-links", "--bundle", "--srun-arg", "--assets",
           "--slurm-wait"}

DESCRIPTION = ("Detect this machine, pick a JAX/CUDA/cuDNN recipe for GraphCast, install it into\n"
               "a new environment, check it with a real GraphCast jit init; roll back if needed.")
EPILOG = """examples:
  gc-wizard                        the app: detect, choose, install, check
  gc-wizard recipes                which recipe fits this machine, and why
  gc-wizard install jax0.4.23-cpu  install a recipe into a new env, check it
  gc-wizard diagnose notebook.log  name the root cause in a pasted log
run `gc-wizard COMMAND --help` for a command's options and an example."""


def _named_command(argv: list[str]) -> str | None:
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word in _VALUED:
            skip = True
        elif word == "--slurm":
            skip = True  # `--slurm COMMAND` was made `--slurm= COMMAND` already: the next word is a partition
        elif not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


class _Parser(argparse.ArgumentParser):
    """Usage errors exit 2 with argparse's sentence; with `--json` on the line the interface's failure
    JSON is the last stdout line too (subcommand parsers are of this class as well)."""

    def __init__(self, *args, **kwargs) -> None:
        from wizard.commands.options import HelpFormatter  # deferred: `--version` loads none of the commands

        if kwargs.get("formatter_class") in (None, argparse.HelpFormatter, argparse.RawDescriptionHelpFormatter):
            kwargs["formatter_class"] = HelpFormatter  # the terminal's width without `shutil` (issue 23)
        super().__init__(*args, **kwargs)

    def error(self, message: str):  # type: ignore[override]
        """One sentence for a usage error, written through `streams.say_usage_error` rather than argparse's own
        `print_usage`/`exit`, which pass over a failed write: with stderr unwritable the sentence goes to stdout
        (twenty-first hostile pass P7)."""
        message = _usage_sentence(self, message)
        json_line = "--json" in sys.argv[1:] or "--json" in _ARGV
        if json_line:
            from wizard.commands.guard import (
                emit_error_json,  # deferred: `--version` loads none of the commands
            )

            emit_error_json(f"{self.prog}: {message}", int(ExitCode.BAD_INPUT))
        # One sentence, the suggestion in it, and no usage block before it (walk 21 #6: eight lines of usage, then
        # every command on one long line, the useful "did you mean" last); `--help` has the usage.
        streams.say_usage_error(f"{self.prog}: {message}", json_line=json_line)
        self.exit(int(ExitCode.BAD_INPUT))


_ARGV: list[str] = []


def _usage_sentence(parser: argparse.ArgumentParser, message: str) -> str:
    """argparse's complaint as one or two sentences: a mistyped command, choice or option with the one it was probably
    meant to be, and the full list left to `--help`; anything else with where the usage is."""
    import re  # deferred: needed only on a usage error, never on a normal start

    close = _suggestion(parser, message)
    guess = f"; did you mean {close}?" if close else ""
    choice = re.search(r"argument (\S+): invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if choice and choice.group(1) == "COMMAND":
        return paths.runnable(f"unknown command '{choice.group(2)}'{guess} (`{parser.prog} --help` lists them)")
    if choice:
        allowed = ", ".join(re.findall(r"'([^']*)'", choice.group(3)))
        return f"{choice.group(1)} '{choice.group(2)}' is not one of {allowed}{guess}"
    # The program as a new login shell runs it, as every printed command names it (walk 38 #2: a bare `gc-wizard
    # install --help`, which the shell that pasted the failed line could not run).
    return paths.runnable(f"{message}{guess} (`{parser.prog} --help` shows the usage)")


def _suggestion(parser: argparse.ArgumentParser, message: str) -> str | None:
    """The word a mistyped option argparse did not recognise (`--slrum gpu`) was probably meant to be (`--slurm`),
    or a mistyped command or choice (`instal`: `install`); None when nothing is close."""
    import difflib  # deferred: needed only on a usage error, never on a normal start
    import re

    choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if choice:  # a misspelt command (`instal`): argparse lists them all but names none
        options = re.findall(r"'([^']*)'", choice.group(2))
        close = difflib.get_close_matches(choice.group(1), options, n=1, cutoff=0.6)
        return close[0] if close else None
    match = re.search(r"unrecognized arguments: (.*)", message)
    if not match:
        return None
    known = set(parser._option_string_actions)
    for action in parser._actions:  # the commands' own options too (the error comes from the top parser)
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                known.update(command._option_string_actions)
    for word in match.group(1).split():
        flag = word.split("=", 1)[0]
        if flag.startswith("--") and flag not in known:
            close = difflib.get_close_matches(flag, sorted(k for k in known if k.startswith("--")), n=1, cutoff=0.7)
            if close:
                return close[0]
    return None


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; with `argv`, only the named command's module is configured (none for the app's own
    start); without it, every command's (what `--help` and the tests read)."""
    from wizard.commands import options  # deferred: `--version` answers before any parser is built

    parser = _Parser(prog="gc-wizard", description=DESCRIPTION, epilog=EPILOG,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"gc-wizard {__version__}")
    options.global_options(parser, top=True)
    options.app_options(parser)
    options.source_options(parser, app=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    named = _named_command(argv or [])
    if named:
        modules = [COMMANDS[named]]
    elif argv is None or _HELP & set(argv):
        modules = list(dict.fromkeys(COMMANDS.values()))
    else:
        # The app's own start (no command, no --help): no command module is loaded, so the first frame
        # pays for none of their imports. A bare name per command keeps argparse's "invalid choice
        # (choose from …)" for a misspelt command.
        for name in COMMANDS:
            sub.add_parser(name)
        options.refuse_empty_values(parser)
        return parser
    for name in modules:
        # `__import__` with a from-list gives the command's own module (`importlib` is not imported for it).
        for command in __import__(f"wizard.commands.{name}", fromlist=["configure"]).configure(sub):
            options.global_options(command, top=False)
    options.refuse_empty_values(parser)
    return parser


def _wants_tui(args: argparse.Namespace) -> bool:
    if args.no_tui:
        return False
    if os.environ.get("TERM", "") in ("", "dumb"):
        return False
    return sys.stdin.isatty() and sys.stdout.isatty()


_NOT_FOREGROUND = ("gc-wizard: the app needs the terminal in the foreground, and this run is not (started through "
                   "`timeout` or with `&`?): run it in the foreground, with `timeout --foreground`, or with --no-tui.")


def _terminal_is_ours() -> bool:
    """Whether this process is in the terminal's foreground process group, as the app needs: Textual sets the
    terminal's modes, and a background group (`timeout 25 gc-wizard`, `gc-wizard 2>err.log &`) is stopped by
    SIGTTOU on the first one, so the app hung on a blank screen that q and Ctrl-C never reached (32nd hostile pass
    (part A) P9). A terminal that cannot say counts as ours: nothing changes where the question has no answer."""
    try:
        return os.tcgetpgrp(sys.stdin.fileno()) == os.getpgrp()
    except (AttributeError, ValueError, OSError):
        return True


def main(argv: list[str] | None = None) -> int:
    """Runs one command inside the one output layer (`wizard.commands.streams`): every write redacted,
    a closed or failing stream a sentence that names it."""
    argv = sys.argv[1:] if argv is None else argv
    unencodable = streams.unencodable_problem()  # before anything runs: no sentence could say what it did
    if unencodable:
        streams.say_raw(unencodable, json_line="--json" in argv)
        return ExitCode.FAILED
    old_umask = paths.restrict_umask()  # envs and markers never group/other-writable, whatever the umask
    paths.TIGHTENED.clear()
    paths.ENV_WARNINGS.clear()
    children.SKIPPED_PROGRAMS.clear()
    children.guard_inherited_environ()
    outlive = _named_command(argv) not in END_WITH_READER and not _only_prints(argv)
    try:
        with streams.guarded_streams(outlive_reader=outlive):
            try:
                code = _main(argv)
            except streams.OutputFailed as exc:  # `--version`/`--help` print before any command's guard
                say_on_stderr(str(exc))
                return ExitCode.FAILED
            except BrokenPipeError:  # their reader went away (`--help | head -1`): done, as `ls | head` is
                return ExitCode.OK
            # Looked at once the command is done, off the start-up path (27th hostile pass (part B) P6).
            children.note_own_installation()
            notes = paths.end_notes()  # modes this run changed, or found loose, said once at the end
            notes += children.SKIPPED_PROGRAMS  # programs on PATH not run (25th hostile pass (part B) P5)
            if notes:
                from wizard.commands.output import warn  # deferred: only a run that changed a mode needs it

                for changed in notes:
                    warn(changed)
            note = streams.reader_gone_note()
            lost = streams.lost_output_note()
            if note or lost:
                # The exit status stays the command's own: a write that failed after the work began is said here,
                # but an install that made its env current and then exited 1 said it had failed (25th hostile pass
                # (part A) P2). What the result was decides the status; the sentence says what output was lost.
                streams.say_error(lost[0] if lost else note, json_line="--json" in argv)
            return code
    finally:
        early_detect.drop()  # a probe child the command never adopted (it ended before detecting)
        os.umask(old_umask)


#: Commands that only read and print: when the reader of their output goes away (`| head -1`) they end
#: quietly with exit 0, as `ls | head` does. Every other command changes something (an env, the history, a
#: file) and goes on to the end without that reader (`streams.guarded_streams(outlive_reader=True)`): an
#: install that stopped at its first line and exited 0 had done nothing, and said it had succeeded.
END_WITH_READER = {"detect", "recipes", "plan", "history", "diagnose", "activate"}


def _only_prints(argv: list[str]) -> bool:
    """`--version`, or a `--help` anywhere: it prints and changes nothing, so a failing stdout ends it as a reading
    command ends ("nothing was done"), not with the changing commands' "what it changed is in `gc-wizard history`"
    (fifteenth hostile pass P12)."""
    return argv == ["--version"] or "-h" in argv or "--help" in argv


#: Commands that only read and print: once they return, nothing is left for the interpreter to finish
#: (no temporary files, no threads of their own, output flushed below).
READ_ONLY = {"detect", "recipes", "plan"}


def run() -> int:
    """The `gc-wizard` program (and `python -m wizard`): `main`, then leave without the interpreter's
    shutdown when a background thread is still alive (download-size look-ups past their budget are left to
    finish on their own): a daemon thread inside a TLS call while Python finalises can crash the process
    (seen: `plan --json` ending with SIGSEGV after printing its plan). A `READ_ONLY` command leaves the same
    way: freeing every object of every module it imported was a seventh of `detect`'s time."""
    try:
        code = main()
    except SystemExit as exc:  # argparse's --help and usage errors
        if not _inspect_mode():
            raise
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else ExitCode.BAD_INPUT)
    if _inspect_mode():
        _leave_without_inspect(int(code or 0))
    if _named_command(sys.argv[1:]) in READ_ONLY or any(t.daemon and t.is_alive() for t in _threads()):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(int(code or 0))
    return code


def _threads() -> list:
    """Every thread alive; none but this one when nothing imported `threading` (a thread cannot be started without
    it): `detect --json` never does, and importing it only to ask was a millisecond of its start-up (issue 23)."""
    threading = sys.modules.get("threading")
    return threading.enumerate() if threading is not None else []


def _inspect_mode() -> bool:
    """Whether CPython would end in its inspect mode (`-i`, or PYTHONINSPECT set now or at start, unless -E/-I):
    then the exit status became a `SystemExit` traceback and a `>>>` prompt after every command (eleventh hostile
    pass #65). CPython reads the variable again at exit, so it is looked at here as well as `sys.flags`."""
    return bool(sys.flags.inspect or (os.environ.get("PYTHONINSPECT") and not sys.flags.ignore_environment))


def _leave_without_inspect(code: int) -> None:
    """End the process with `code` the way a normal exit would — other threads joined, exit handlers run (temporary
    folders, logging), streams flushed — but without the interpreter's inspect mode, which no command wants."""
    import atexit
    import threading

    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon and thread.is_alive():
            thread.join()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _main(argv: list[str]) -> int:
    closed = streams.closed_stdout_problem()
    if closed:
        say_on_stderr(closed)
        return ExitCode.FAILED
    if argv == ["--version"]:
        print(f"gc-wizard {__version__}")
        return ExitCode.OK
    # Deferred for start-up time: `--version` (answered above) loads none of the commands.
    from wizard.commands.options import normalize_cluster_words

    argv = normalize_cluster_words(argv, COMMANDS)
    if _named_command(argv) in DETECT_HERE and not any(w.startswith("--slurm") for w in argv):
        early_detect.begin()
    parser = build_parser(argv)
    _ARGV[:] = argv
    args = parser.parse_args(argv)
    from wizard.commands import guard  # signals and faults -> exit status, one sentence, one JSON line

    try:
        from wizard.commands.options import (  # loaded by build_parser already
            apply_global_slurm,
            apply_global_sources,
        )

        apply_global_sources(args)  # `gc-wizard --offline install R`: the sources reach the command
        apply_global_slurm(args)  # `gc-wizard --slurm gpu detect`: the cluster options too
        if args.command is None:
            if getattr(args, "bundle", None):
                # The app builds from the index, a wheelhouse or a GraphCast source; a bundle's hashed,
                # offline install is the CLI's (`install --bundle`), and ignoring the flag would
                # silently install from the network instead. The words, with the bundle's recipe, are the core's.
                from wizard.flows.cluster import app_bundle_refusal  # deferred: only on this refusal

                raise UserError(app_bundle_refusal(args.bundle))
            if _wants_tui(args):
                if not _terminal_is_ours():
                    print(_NOT_FOREGROUND, flush=True)
                    return ExitCode.BAD_INPUT
                from wizard.tui import run_tui  # the only path that imports Textual

                # The app draws on the terminal itself, on descriptor 2: the terminal even when stderr is not.
                with streams.plain_streams(), streams.app_terminal():
                    return run_tui(args)
            _refuse_unwritable_streams()
            guard.install_handlers()
            from wizard.commands.plain import run as run_plain  # deferred: only the no-terminal path needs it

            return run_plain(args)
        if args.command not in END_WITH_READER:
            _refuse_unwritable_streams()
        guard.install_handlers()
        return args.run(args)
    except WizardError as exc:
        # every command's error, as the CLI's lines say theirs (`commands.output.runnable`, walk 37 #6)
        code, message = exc.exit_code, paths.runnable(str(exc))
    except guard.Stopped as exc:
        # what the stop kept on purpose is said (a download's `.part`, 38th hostile pass (part A) P1)
        code, message = exc.exit_code, f"stopped by {exc.what}; {left_words(exc) or 'nothing was left half-done'}."
    except KeyboardInterrupt as exc:
        code, message = guard.signal_exit(), f"cancelled{f'; {left_words(exc)}' if left_words(exc) else ''}."
    except BrokenPipeError:
        # `gc-wizard | head`: the reader has all it wanted; that is not an error, and Python must not
        # complain again when it flushes stdout at exit.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        return ExitCode.OK
    except OSError as exc:
        code, message = error_exit(exc), guard.describe_os_error(exc)
    except MemoryError:  # the user's memory limit (`ulimit -v`), not a bug (24th hostile pass (part A) P3)
        code, message = ExitCode.FAILED, guard.memory_limit_sentence()
    except Exception as exc:  # noqa: BLE001 - a bug in gc-wizard itself: one sentence and a log, never a traceback
        code, message = ExitCode.FAILED, _internal_error(exc)
    guard.ignore_further_signals()
    streams.say_error(message, json_line=bool(getattr(args, "json", False)), shell_code=args.command == "activate")
    if getattr(args, "json", False):
        guard.emit_error_json(message, int(code))
    return guard.exit_quietly(code)


def _refuse_unwritable_streams() -> None:
    """A command that changes something starts only where its streams can take what it will say: it goes on
    when one fails mid-way (it must not stop half-done), so a stream known to fail (`> /dev/full`, `1<FILE`, a
    full disk) is refused before anything runs, with a sentence that names it and where it goes."""
    problem = streams.unwritable_problem()
    if problem:
        raise streams.OutputFailed(problem)


def _internal_error(exc: Exception) -> str:
    """The sentence for an error gc-wizard did not expect (its own bug), with the traceback kept in a log."""
    from wizard.error_sentences import internal_error  # one wording for both faces (the app ends with it too)

    return internal_error(exc)


if __name__ == "__main__":
    raise SystemExit(main())
