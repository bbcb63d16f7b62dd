"""The command-line face of gc-wizard: argument parsing and dispatch, nothing else.

Every subcommand's handler lives in `wizard.commands.<name>` and is imported only when that
subcommand runs, so `gc-wizard --version` and the light commands never pay for pexpect, Rich or
Textual. This module must never import Textual: a test proves it in a subprocess.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from wizard import __version__
from wizard.errors import WizardError

#: subcommand -> "module:function" in wizard.commands; each returns an exit status.
HANDLERS = {
    "detect": "detect:run",
    "recipes": "recipes:run_recipes",
    "plan": "recipes:run_plan",
    "install": "install:run",
    "verify": "verify:run",
    "diagnose": "diagnose:run",
    "history": "history:run_history",
    "rollback": "history:run_rollback",
    "remove": "history:run_remove",
    "activate": "post_install:run_activate",
    "kernel": "post_install:run_kernel",
    "report": "post_install:run_report",
}


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors exit 2 with a plain sentence (its default already does)."""


def _global_options(parser: argparse.ArgumentParser, *, top: bool) -> None:
    # The global options are accepted before and after the subcommand. On the subparsers the
    # default is SUPPRESS so a value given before the subcommand is not overwritten.
    default = None if top else argparse.SUPPRESS
    parser.add_argument(
        "--recipes-dir", action="append", metavar="DIR", default=[] if top else argparse.SUPPRESS,
        help="an extra folder of recipe files (repeatable); later folders override earlier ones",
    )
    parser.add_argument("--no-tui", action="store_true", default=False if top else argparse.SUPPRESS,
                        help="never draw the terminal app; run the plain flow")
    parser.add_argument("--color", choices=["auto", "16", "256", "truecolor"], default="auto" if top else default,
                        help="colour depth for the terminal app (default: auto)")
    parser.add_argument("--no-mouse", action="store_true", default=False if top else argparse.SUPPRESS,
                        help="do not capture the mouse in the terminal app")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="gc-wizard",
        description="Detect this machine, pick a JAX/CUDA/cuDNN recipe for GraphCast, install it into a "
        "new environment, verify it with a real GraphCast jit init, and roll back when needed.",
    )
    parser.add_argument("--version", action="version", version=f"gc-wizard {__version__}")
    _global_options(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        _global_options(p, top=False)
        return p

    def json_flag(p: argparse.ArgumentParser) -> None:
        p.add_argument("--json", action="store_true", help="print one JSON value as the last line of stdout")

    p = add("detect", "what this machine has: driver, max CUDA, GPUs, CUDA/cuDNN libraries, Python, disk")
    json_flag(p)

    p = add("recipes", "every recipe, compatible or not with this machine, with reasons")
    p.add_argument("--facts", metavar="FILE", help="match against a saved `detect --json` instead of this machine")
    json_flag(p)

    p = add("plan", "what install would run, touching nothing")
    p.add_argument("recipe", metavar="RECIPE")
    p.add_argument("--env", metavar="DIR")
    p.add_argument("--installer", choices=["uv", "pip"], default="uv")
    p.add_argument("--graphcast-src", metavar="SRC")
    p.add_argument("--find-links", action="append", default=[], metavar="DIR")
    p.add_argument("--offline", action="store_true")
    json_flag(p)

    p = add("install", "install a recipe into a new environment; it becomes current once verified")
    p.add_argument("recipe", metavar="RECIPE", nargs="?")
    p.add_argument("--env", metavar="DIR", help="build here instead of a new managed environment")
    p.add_argument("--yes", "-y", action="store_true", help="answer yes; fail on any unknown prompt")
    p.add_argument("--no-verify", action="store_true", help="skip the GraphCast check")
    p.add_argument("--graphcast-src", metavar="SRC", help="a local checkout, wheel/sdist or pip URL")
    p.add_argument("--installer", choices=["uv", "pip"], default="uv")
    p.add_argument("--find-links", action="append", default=[], metavar="DIR")
    p.add_argument("--offline", action="store_true", help="use only local wheels and the installer's cache")
    p.add_argument("--level", choices=["quick", "notebook"], default="notebook", help="verify level")
    p.add_argument("--answers", metavar="FILE", help="replay a saved answers file")
    p.add_argument("--save-answers", metavar="FILE", help="save this run's answers for replay")
    json_flag(p)

    p = add("verify", "run a real GraphCast jit init in an environment and diagnose what fails")
    p.add_argument("--env", metavar="DIR")
    p.add_argument("--graphcast-src", metavar="SRC")
    p.add_argument("--level", choices=["quick", "notebook"], default="notebook")
    p.add_argument("--timeout", type=float, default=900.0, metavar="SECONDS")
    json_flag(p)

    p = add("diagnose", "name the root cause in a log of a failed JAX/GraphCast run")
    p.add_argument("logfile", metavar="LOGFILE", nargs="?", default=None)
    p.add_argument("--env", metavar="DIR", help="check this environment (venv or conda) without running it")
    json_flag(p)

    p = add("history", "every install, verify and rollback, with the current environment marked")
    json_flag(p)

    p = add("rollback", "make a previous working environment current again, then verify it")
    p.add_argument("entry_id", metavar="ENTRY_ID", nargs="?")
    p.add_argument("--yes", "-y", action="store_true")
    p.add_argument("--no-verify", action="store_true")
    p.add_argument("--level", choices=["quick", "notebook"], default="notebook", help="verify level")
    json_flag(p)

    p = add("remove", "delete a managed environment that is not current (asks first)")
    p.add_argument("entry_id", metavar="ENTRY_ID")
    p.add_argument("--yes", "-y", action="store_true")
    json_flag(p)

    p = add("activate", 'print shell code for: eval "$(gc-wizard activate)"')
    p.add_argument("--env", metavar="DIR")
    p.add_argument("--shell", choices=["bash", "zsh", "sh"], default=None)

    p = add("kernel", "register the environment as a Jupyter kernel")
    p.add_argument("action", choices=["install"])
    p.add_argument("--env", metavar="DIR")
    p.add_argument("--name", metavar="NAME")
    json_flag(p)

    p = add("report", "a redacted Markdown support report to paste to an admin")
    p.add_argument("--out", metavar="FILE")
    return parser


def _wants_tui(args: argparse.Namespace) -> bool:
    if args.no_tui:
        return False
    if os.environ.get("TERM", "") in ("", "dumb"):
        return False
    return sys.stdin.isatty() and sys.stdout.isatty()


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command is None:
            if _wants_tui(args):
                from wizard.tui import run_tui  # the only path that imports Textual

                return run_tui(args)
            from wizard.commands.plain import run as run_plain

            return run_plain(args)
        module_name, func_name = HANDLERS[args.command].split(":")
        module = importlib.import_module(f"wizard.commands.{module_name}")
        return getattr(module, func_name)(args)
    except WizardError as exc:
        print(f"gc-wizard: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("gc-wizard: cancelled.", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
