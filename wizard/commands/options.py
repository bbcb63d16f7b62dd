"""The options several commands share, each defined once (pip's `cmdoptions` idea).

Every command module adds its own arguments in `configure(sub)`; the ones that mean the same thing
everywhere (`--env`, `--json`, the install sources, `--installer`, `--level`) come from here, so their
spelling, choices and help never drift apart. Choices come from the core (`wizard.install.choices`).
"""

from __future__ import annotations

import argparse
import re

from wizard import paths
from wizard.commands.output import terminal_columns
from wizard.errors import UserError
from wizard.flows.options import (
    DEFAULT_INSTALLER,
    DEFAULT_LEVEL,
    DEFAULT_SRUN_WAIT,
    GRAPHCAST_VERSIONS,
    INSTALLERS,
    LEVELS,
    given_sources,
)
from wizard.patterns import decimal_number

#: A word with its backquoted spans (spaces inside them kept), or a plain word: `_filled`'s units.
_QUOTED_OR_WORD = re.compile(r"[^\s`]*(?:`[^`]+`[^\s`]*)+|\S+")

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing `typing` (start-up time, issue 23)
if TYPE_CHECKING:
    from wizard.flows.options import InstallOptions


def global_options(parser: argparse.ArgumentParser, *, top: bool) -> None:
    """Options accepted before and after the subcommand.

    On the subparsers the default is SUPPRESS, so a value given before the subcommand is kept.
    """
    suppress = argparse.SUPPRESS
    parser.add_argument("--recipes-dir", action="append", metavar="DIR", default=[] if top else suppress,
                        help="an extra folder of recipe files (repeatable); later folders override earlier ones")


def app_options(parser: argparse.ArgumentParser) -> None:
    """Options that only the terminal app has (bare `gc-wizard`) — and the cluster options, which mean the
    same before a command as after it (`apply_global_slurm`)."""
    slurm_options(parser, dest="global_")
    parser.add_argument("--no-tui", action="store_true", help="never draw the terminal app; run the plain flow")
    parser.add_argument("--color", choices=["auto", "16", "256", "truecolor"], default="auto",
                        help="colour depth for the terminal app (default: auto)")
    parser.add_argument("--no-mouse", action="store_true", help="do not capture the mouse in the terminal app")
    parser.add_argument("--assets", metavar="DIR|URL",
                        help="where the app's first forecast takes its files from (also GC_WIZARD_ASSETS; default: "
                        "the public GraphCast bucket)")


def json_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON value as the last line of stdout")


def yes_option(parser: argparse.ArgumentParser, help_text: str = "answer yes to every question") -> None:
    parser.add_argument("--yes", "-y", action="store_true", help=help_text)


def env_option(parser: argparse.ArgumentParser, help_text: str) -> None:
    parser.add_argument("--env", metavar="DIR", help=help_text)


def installer_choice_option(parser: argparse.ArgumentParser,
                            what: str = "the installer that builds the environment") -> None:
    """`--installer`, with the one default rule (`install.plan.default_installer`) said the same for each command."""
    parser.add_argument("--installer", choices=INSTALLERS, default=None,
                        help=f"{what} (default: {DEFAULT_INSTALLER}, or pip where pip trusts a proxy's certificate "
                             "that uv is not given)")


def installer_option(parser: argparse.ArgumentParser) -> None:
    installer_choice_option(parser)
    parser.add_argument("--python", metavar="X.Y|PATH",
                        help="the Python the new environment is built on: a version (looked up on PATH, in pyenv "
                             "and through uv, else downloaded by uv) or an interpreter's path (default: one that "
                             "fits the recipe)")


def level_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--level", choices=LEVELS, default=DEFAULT_LEVEL,
                        help="how big a GraphCast to check: the demo notebook's model and grid, or a quick "
                             f"smaller one (default: {DEFAULT_LEVEL})")


def graphcast_version_option(parser: argparse.ArgumentParser, help_text: str) -> None:
    parser.add_argument("--graphcast-version", choices=GRAPHCAST_VERSIONS, metavar="|".join(GRAPHCAST_VERSIONS),
                        help=help_text)


def notebook_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--with-notebook", action="store_true",
                        help="add what the demo notebook's imports cell needs beyond the stack (google-cloud-storage, "
                        "ipywidgets), pinned with the rest")


def alternative_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--alternative", metavar="ID",
                        help="take the recipe's alternative source of this id (e.g. pypi-plugin: JAX 0.4.23's CUDA "
                             "plugin from PyPI when JAX's wheel page cannot be reached; needs a GPU check)")


def source_options(parser: argparse.ArgumentParser, *, app: bool = False) -> None:
    """Where packages and GraphCast come from (docs/interface.md, SOURCES). `app`: the ones before any
    command (bare `gc-wizard`, where the Plan screen starts with them; g, w and o change them there), kept
    apart (`global_*`) so that `gc-wizard --graphcast-src X install R` reaches install: see
    `apply_global_sources`."""
    dest = "global_" if app else ""
    parser.add_argument("--graphcast-src", metavar="SRC", dest=f"{dest}graphcast_src",
                        help="GraphCast from a local checkout, a wheel/sdist or a pip URL (default: the "
                             "recipe's pin; also from GC_WIZARD_GRAPHCAST_SRC)")
    parser.add_argument("--find-links", action="append", default=[], metavar="DIR", dest=f"{dest}find_links",
                        help="a folder of wheels (a wheelhouse) to install from (repeatable; also from "
                             "GC_WIZARD_FIND_LINKS, ':'-separated)")
    parser.add_argument("--offline", action="store_true", dest=f"{dest}offline",
                        help="use only local wheels and the installer's cache; never reach an index")
    # Before a command (`gc-wizard --bundle DIR install R`) it reaches that command; the app itself refuses it
    # (`flows.cluster.app_bundle_refusal`), which its help says (walk 26 #13: listed for the app, then refused).
    parser.add_argument("--bundle", metavar="DIR", dest=f"{dest}bundle",
                        help="for `install`/`plan`: install everything from an offline bundle made by `gc-wizard "
                             "bundle` (no network); the app itself does not take it: `gc-wizard install RECIPE "
                             "--bundle DIR`" if app else
                        "install everything from an offline bundle made by `gc-wizard bundle` (no network)")


#: The sources that may come before the command: (namespace name, option as typed).
GLOBAL_SOURCES = (("graphcast_src", "--graphcast-src"), ("find_links", "--find-links"), ("offline", "--offline"),
                  ("bundle", "--bundle"))


def apply_global_sources(args: argparse.Namespace) -> None:
    """Sources given before the command count as if given after it: `gc-wizard --offline install R` is
    `gc-wizard install R --offline` (argparse would otherwise let the command's own defaults win, and
    drop them without a word). A command that takes no such option refuses it in one sentence (exit 2)
    instead of ignoring it; a value given on both sides must agree (wheelhouses add up)."""
    for name, flag in GLOBAL_SOURCES:
        given = getattr(args, f"global_{name}", None)
        if hasattr(args, f"global_{name}"):
            delattr(args, f"global_{name}")
        if args.command is None:
            setattr(args, name, given)
            continue
        if not given:
            continue
        if not hasattr(args, name):
            raise UserError(f"`gc-wizard {args.command}` does not take {flag} (it was given before the command); "
                            "leave it out.")
        own = getattr(args, name)
        if name == "find_links":
            setattr(args, name, [*given, *(own or [])])  # each place once: `merged_sources`
        elif name == "offline":
            setattr(args, name, True)
        elif own and own != given:
            raise UserError(f"{flag} is given twice, {given!r} before `{args.command}` and {own!r} after it; "
                            "give it once.")
        else:
            setattr(args, name, given)


def lock_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lock", metavar="FILE",
                        help="install the packages from a hashed lock made by `gc-wizard lock` (hashes checked)")
    parser.add_argument("--allow-extra-packages", action="store_true",
                        help="install a --lock's or --bundle's packages that no requirement of the recipe needs "
                             "(refused without it; every package beyond the recipe's is named in the plan)")


#: What `--slurm` does for most commands; `forecast` says its own (walk 22 #10: its help said "the install runs here").
SLURM_HELP = ("detect and verify on a GPU node through srun (the cluster's default partition, or PARTITION); the "
              "install runs here, into the shared state folder")


def slurm_options(parser: argparse.ArgumentParser, *, dest: str = "", what: str = SLURM_HELP) -> None:
    """`--slurm [PARTITION]`, `--srun-arg ARG` and `--slurm-wait SECONDS`: detection and the check on a GPU
    node through srun. `dest` "global_": the ones given before the command (`apply_global_slurm`); `what`: the
    command's own words for `--slurm`."""
    parser.add_argument("--slurm", nargs="?", const="", default=None, metavar="PARTITION", dest=f"{dest}slurm",
                        help=what)
    parser.add_argument("--srun-arg", action="append", default=[], metavar="ARG", dest=f"{dest}srun_arg",
                        help="an extra srun option such as --gpus=1 or --account=NAME (repeatable; needs --slurm)")
    parser.add_argument("--slurm-wait", type=positive_seconds, default=None, metavar="SECONDS",
                        dest=f"{dest}slurm_wait",
                        help=f"how long a job may wait in the queue for a node before it is cancelled and the step "
                             f"stops (default: {DEFAULT_SRUN_WAIT:g})")


#: Commands that run something on the GPU node, and so take the cluster options.
SLURM_FLAGS = (("slurm", "--slurm"), ("srun_arg", "--srun-arg"), ("slurm_wait", "--slurm-wait"))


def apply_global_slurm(args: argparse.Namespace) -> None:
    """`gc-wizard --slurm gpu detect` is `gc-wizard detect --slurm gpu`: the cluster options count wherever they
    stand (argparse would let the command's own defaults win and drop them without a word). A command that
    runs nothing on a node refuses them in one sentence; a partition given on both sides must agree."""
    given = {name: getattr(args, f"global_{name}", None) for name, _ in SLURM_FLAGS}
    for name, _ in SLURM_FLAGS:
        if hasattr(args, f"global_{name}"):
            delattr(args, f"global_{name}")
    if args.command is None:
        for name, value in given.items():
            setattr(args, name, value)
        return
    used = [(name, flag) for name, flag in SLURM_FLAGS if given[name] not in (None, [])]
    if not used:
        return
    if not hasattr(args, "slurm"):
        flags = " and ".join(flag for _, flag in used)
        raise UserError(f"`gc-wizard {args.command}` runs nothing on a GPU node, so it does not take {flags} "
                        "(given before the command); leave it out.")
    own = getattr(args, "slurm", None)
    if given["slurm"] is not None:
        if own is not None and own != given["slurm"]:
            raise UserError(f"--slurm is given twice, {given['slurm'] or '(default partition)'!r} before "
                            f"`{args.command}` and {own or '(default partition)'!r} after it; give it once.")
        args.slurm = given["slurm"]
    args.srun_arg = [*(given["srun_arg"] or []), *(getattr(args, "srun_arg", None) or [])]
    if given["slurm_wait"] is not None and getattr(args, "slurm_wait", None) is None:
        args.slurm_wait = given["slurm_wait"]


def assume_options(parser: argparse.ArgumentParser) -> None:
    """`--assume-driver VERSION [--assume-cc X.Y]`: plan for a GPU that is not here."""
    parser.add_argument("--assume-driver", metavar="VERSION",
                        help="plan for an NVIDIA driver that is not on this machine (e.g. 535.104.05); every "
                             "assumed fact is marked 'assumed'")
    parser.add_argument("--assume-cc", metavar="X.Y", help="the assumed GPU's compute capability (e.g. 8.0)")


def _filled(text: str, columns: int) -> str:
    """`text` wrapped between words to `columns` (a word longer than a line on a line of its own): what
    `textwrap.fill` did here, without importing it on every command's start (issue 23). A backquoted command is one
    word, as in `wizard.wrap` (walk 37 #3: broken, it pastes as two commands); that module is not imported here,
    where every command, `detect --json` too, builds its parser."""
    lines: list[str] = []
    for word in _QUOTED_OR_WORD.findall(text):
        word = " ".join(word.split())
        if lines and len(lines[-1]) + 1 + len(word) <= columns:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "\n".join(lines)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter (descriptions and epilogs kept as written), told the terminal's width: left to find it
    itself, argparse imports `shutil` each time it builds a parser, for every command (`output.terminal_columns`).
    An option's help is wrapped by the one wrap (`wizard.wrap`), so a backquoted command in it is never broken (walk
    37 #3: argparse's own cut `gc-` / `wizard bundle`); it is imported only when help is printed."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        from wizard.wrap import wrap  # deferred: only `--help` wraps an option's help

        return wrap(text, width)

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, terminal_columns() - 2 if width is None else width)


def add_command(sub, name: str, help_text: str, example: str, run, more: str = "") -> argparse.ArgumentParser:
    """One subcommand: its help, one example under `--help` (and `more`, a paragraph under it), and its handler as
    `args.run`. The description and `more` are wrapped to 79 columns here (the raw formatter keeps the example's own
    lines)."""
    epilog = f"example:\n  {example}" + (f"\n\n{_filled(more, 79)}" if more else "")
    parser = sub.add_parser(name, help=help_text, description=_filled(help_text, 79), epilog=epilog,
                            formatter_class=HelpFormatter)
    parser.set_defaults(run=run)
    return parser


def install_options(args: argparse.Namespace) -> InstallOptions:
    """The `install`/`plan` arguments as the core's one options value (what the TUI holds too); the
    GraphCast source and wheelhouses named in the environment (`GC_WIZARD_*`) are added here."""
    # Deferred for start-up time: every command and the app load this module for its parsers.
    from wizard.commands.cluster_options import slurm_target
    from wizard.flows.options import InstallOptions

    graphcast_src, find_links = given_sources(getattr(args, "graphcast_src", None), getattr(args, "find_links", None))
    return InstallOptions(
        recipe_id=recipe_for_version(args) or "", env=getattr(args, "env", None) or None,
        installer=getattr(args, "installer", None), find_links=tuple(find_links),
        offline=bool(getattr(args, "offline", False)), graphcast_src=graphcast_src,
        verify=not getattr(args, "no_verify", False), level=getattr(args, "level", None) or DEFAULT_LEVEL,
        assume_yes=bool(getattr(args, "yes", False)), recipes_dirs=tuple(getattr(args, "recipes_dir", None) or ()),
        lock=getattr(args, "lock", None), bundle=getattr(args, "bundle", None), slurm=slurm_target(args),
        force=bool(getattr(args, "force", False)), alternative=getattr(args, "alternative", None),
        with_notebook=bool(getattr(args, "with_notebook", False)), python=getattr(args, "python", None) or None,
        allow_extra_packages=bool(getattr(args, "allow_extra_packages", False)))


def recipe_for_version(args: argparse.Namespace) -> str | None:
    """The recipe for `plan`/`install` given `--graphcast-version` (`flows.session.recipe_for_graphcast`)."""
    # Deferred for start-up time: every command and the app load this module for its parsers.
    from wizard.flows.session import recipe_for_graphcast

    return recipe_for_graphcast(getattr(args, "recipe", None), getattr(args, "graphcast_version", None),
                                getattr(args, "recipes_dir", None) or ())


def normalize_cluster_words(argv: list[str], commands) -> list[str]:
    """The cluster options' two spellings argparse cannot read, made plain before parsing:
    `--slurm detect` (no partition, then the command) is `--slurm= detect` — a command name is never taken
    as a partition (`--slurm=NAME` still names one); `--srun-arg --gpus=1` (a space) is `--srun-arg=--gpus=1`."""
    out: list[str] = []
    seen_command = False
    i = 0
    while i < len(argv):
        word = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        if word == "--":
            out.extend(argv[i:])
            break
        if word == "--slurm" and nxt in commands and not seen_command:
            out.append("--slurm=")
        elif word == "--srun-arg" and nxt is not None and nxt.startswith("-") and len(nxt) > 1:
            out.append(f"--srun-arg={nxt}")
            i += 1
        else:
            if not word.startswith("-") and word in commands and (not out or out[-1] not in _VALUED_WORDS):
                seen_command = True
            out.append(word)
        i += 1
    return out


#: Options whose next word is their value, never the command.
_VALUED_WORDS = {"--recipes-dir", "--color", "--graphcast-src", "--find-links", "--bundle", "--srun-arg", "--assets",
                 "--slurm-wait"}


def refuse_empty_values(parser: argparse.ArgumentParser) -> None:
    """Every option that takes a value (a folder, a file, a name), on this parser and its commands, refuses an
    empty one (exit 2 naming the option): `--env ''` was read as no --env at all and planned a new
    environment, and an empty --out or --find-links names no place either. Options with their own type
    (`positive_seconds`) or a fixed set of choices already refuse it; `--slurm`'s empty value means the
    default partition (`normalize_cluster_words` writes `--slurm=`), so optional values are left alone."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in dict.fromkeys(action.choices.values()):
                refuse_empty_values(command)
        elif (action.option_strings and action.nargs is None and action.type is None and action.choices is None
              and isinstance(action, (argparse._StoreAction, argparse._AppendAction))):
            bound = action.dest.removeprefix("global_") in INSTALLER_BOUND or (
                action.dest == "env" and parser.prog.split()[-1] in ("install", "plan"))  # the env uv builds; others run it
            action.type = _installer_value if bound else _given_value


#: Options whose values are handed to uv or pip as arguments (a folder, an interpreter, a requirement): both
#: refuse any argument that is not UTF-8, uv with "invalid UTF-8 was detected in one or more arguments" after the
#: plan and the resolve had run (thirteenth pass #48, `lock --find-links $'/tmp/wh\xff'`).
INSTALLER_BOUND = {"find_links", "graphcast_src", "python", "bundle"}


def _given_value(text: str) -> str:
    """An argparse type: any text but the empty one (see `refuse_empty_values`)."""
    if text == "":
        raise argparse.ArgumentTypeError("an empty value names nothing; give one, or leave the option out")
    return text


def _installer_value(text: str) -> str:
    """An argparse type for `INSTALLER_BOUND`: a given value whose bytes are UTF-8 (a byte that is not reaches Python
    as a lone surrogate), refused here, before anything runs, with the byte named."""
    text = _given_value(text)
    shown = paths.not_utf8(text)  # the project's one spelling of such a byte: \xNN
    if shown is not None:
        bad = paths.first_bad_byte(text)
        what = f"the byte {bad}" if bad is not None else "a character"
        raise argparse.ArgumentTypeError(
            f"'{shown}' has {what}, which is not UTF-8; "
            "uv and pip take only UTF-8 arguments, so rename it (or give a link to it whose name is UTF-8)")
    return text


def positive_seconds(text: str) -> float:
    """An argparse type: a finite number of seconds above zero (`nan`, `inf`, 0 and -5 cannot time anything)."""
    import math

    value = decimal_number(text)  # 0-9 only: float('٣٠') is 30 (33rd hostile pass (part A) P5)
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds (digits 0-9)") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be a number of seconds above zero") from None
    return value
