"""The `recipes` and `plan` faces: render matches and plans; all decisions live in the core modules."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from wizard import bounded
from wizard.commands import options
from wizard.commands.cluster_options import facts_for, where_line
from wizard.commands.output import emit_json, say, warn, width, wrapped
from wizard.errors import UserError, current_folder_gone
from wizard.flows.describe_machine import machine_summary
from wizard.flows.describe_plan import PlanHints, plan_lines
from wizard.flows.history import installed_fields, installed_recipes, installed_words, last_failed_checks
from wizard.flows.install_line import SOURCE_PLACEHOLDER, install_to_run
from wizard.flows.machine import machine_facts, read_here
from wizard.flows.recipe_list import (
    fetched_from_words,
    graphcast_label,
    group_by_graphcast,
    unreachable_headline,
)
from wizard.flows.review import PlanReview, download_size, review
from wizard.flows.session import survey
from wizard.flows.types import DownloadSize, Facts, RecipeMatch
from wizard.paths import wizard_command
from wizard.security import expand_home, redact_secrets, unshowable_characters
from wizard.wrap import command, command_words

_WIDTH = 100
"""The widest line `plan` prints (its commands wrap between arguments, with `\\`)."""


def _load_facts(path: str | None) -> Facts:
    if not path:
        return machine_facts()
    try:
        text = bounded.read_text(Path(expand_home(path)), bounded.FACTS_BYTES, streams_ok=True)
    except bounded.ParseLimitError as exc:
        raise UserError(f"--facts {path}: {exc}.") from None
    except OSError as exc:
        raise UserError(f"--facts {path}: cannot be read ({exc.strerror})") from None
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        try:
            data = bounded.loads_json(text)
        except bounded.ParseLimitError:
            raise
        except ValueError:
            # Saved CLI output may carry other lines before its JSON; the JSON is the last line.
            data = bounded.loads_json(lines[-1])
        if not isinstance(data, dict):
            raise ValueError("it is not a JSON object")
        return _checked(Facts.from_dict(_plain(data)))
    except bounded.ParseLimitError as exc:
        raise UserError(f"--facts {path}: {exc}.") from None
    except (ValueError, IndexError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        raise UserError(f"--facts {path}: not the JSON that `gc-wizard detect --json` prints ({_facts_problem(exc, text)})."
                        ) from None


def _facts_problem(exc: Exception, text: str) -> str:
    """What is wrong with a facts file, in words: the key missing or not expected, or detect's text saved instead of
    its JSON (walk 22 #9: `('python')`, `Driver() missing required argument…`, `Expecting value: line 1 column 7`)."""
    if isinstance(exc, KeyError) and exc.args:
        return f"the key '{exc.args[0]}' is missing"
    said = str(exc)
    missing = re.match(r"(\w+)\(\) missing required argument: '(\w+)'", said)
    if missing:
        return f"a {missing.group(1)} entry has no '{missing.group(2)}'"
    unexpected = re.match(r"(\w+)\(\) got an unexpected keyword argument '(\w+)'", said)
    if unexpected:
        return f"a {unexpected.group(1)} entry has a key '{unexpected.group(2)}' detect does not write"
    if isinstance(exc, ValueError) and not text.lstrip().startswith(("{", "[")) and "Driver" in text:
        return "this is the text `gc-wizard detect` prints; save `gc-wizard detect --json > FILE` instead"
    return said


def _plain(value):
    """Saved facts with control characters (terminal escapes) taken out of every string."""
    if isinstance(value, str):
        return "".join(c for c in value if not unshowable_characters(c))  # escapes, bidi overrides, zero-width
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value


def _checked(facts: Facts) -> Facts:
    """TypeError unless every text field of the saved facts holds text (or nothing) and numbers are numbers:
    a list where a version belongs would otherwise fail deep inside the matching. The facts are records
    (`wizard.detect.record`): named tuples that keep their fields' annotations."""
    stack = [facts]
    while stack:
        item = stack.pop()
        for name, kind in type(item).__annotations__.items():
            value = getattr(item, name)
            kind = str(kind)
            if _is_record(value):
                stack.append(value)
            elif isinstance(value, tuple):
                stack.extend(v for v in value if _is_record(v))
            elif kind.startswith("str") and not isinstance(value, str) and not (value is None and "None" in kind):
                raise TypeError(f"'{name}' must be text, not {type(value).__name__}")
            elif kind.startswith(("int", "float")) and (isinstance(value, bool)
                                                          or not isinstance(value, (int, float))) \
                    and not (value is None and "None" in kind):
                raise TypeError(f"'{name}' must be a number, not {type(value).__name__}")
    return facts


def _is_record(value: object) -> bool:
    return isinstance(value, tuple) and hasattr(value, "_fields")


def _wrap(text: str, indent: str, columns: int = _WIDTH) -> str:
    return "\n".join(wrapped(text, columns, indent, indent + "  "))


def _short_title(title: str, room: int) -> str:
    """A title without its leading "JAX 0.4.23 · " when it does not fit: the id beside it and the group's
    heading both name the JAX version already."""
    if len(title) <= room:
        return title
    return re.sub(r"^JAX [\w.]+ · ", "", title)


def render_matches(matches: list[RecipeMatch], facts: Facts, graphcast_version: str | None = None,
                   columns: int | None = None, installed: dict[str, str] | None = None,
                   failed: dict[str, str] | None = None) -> str:
    """The recipes table, laid out for `columns` (default: the terminal's, 80 in a pipe): the id column is
    as wide as the longest id (ids are never cut: they are what the user copies), and a title that does
    not fit beside it wraps inside its own column. `installed` (`installed_recipes`): what the user has already,
    said under its row as the app's recipe list says it (walk 22 #10: the CLI did not mark the current one). `failed`
    (`last_failed_checks`): a recipe whose newest install failed its check, marked "!" and said under its row first
    (walk 28 #8)."""
    installed = installed or {}
    failed = failed or {}
    columns = columns or width()
    out = wrapped(machine_summary(facts), columns, "", "  ")
    if graphcast_version:
        out += wrapped(f"Only recipes for GraphCast v{graphcast_version} are recommended (--graphcast-version).",
                       columns)
    id_width = max((len(m.recipe.id) for m in matches), default=0)
    status_width = len("not compatible")
    title_at = 2 + id_width + 1 + status_width + 1
    for version, group in group_by_graphcast(matches):
        out += ["", f"{graphcast_label(version)}:"]
        fetched = fetched_from_words(group[0].recipe) if group else None  # walk 23 #3
        if fetched:
            out.append(_wrap(fetched, "  ", columns))
        for m in group:
            # A fitting recipe whose install needs a host that does not answer is not said "compatible" above the
            # "!" that says its install fails here (review): the app's "!" row and headline, in the CLI's words.
            unreachable = unreachable_headline(m)
            status = "RECOMMENDED" if m.recommended else ("needs download" if unreachable else "compatible"
                                                          if m.compatible else "not compatible")
            marker = "!" if m.recipe.id in failed else ("*" if m.recommended else " ")
            row = f"{marker} {m.recipe.id:<{id_width}} {status:<{status_width}} "
            if columns - title_at >= 20:
                title = wrapped(_short_title(m.recipe.title, columns - title_at), columns - title_at)
                out.append(row + title[0])
                out += [" " * title_at + line for line in title[1:]]
            else:  # too narrow for a title column: the title goes below
                out += [row.rstrip(), *wrapped(m.recipe.title, columns, "    ")]
            if m.recipe.id in failed:
                out.append(_wrap(f"! {failed[m.recipe.id]}", "    ", columns))
            if m.recipe.id in installed:
                out.append(_wrap(f"{installed_words(installed[m.recipe.id])}: a new install builds another "
                                 "environment beside it (`gc-wizard history` lists them all).", "    ", columns))
            if unreachable:
                out.append(_wrap(unreachable, "    ", columns))
            if m.compatible and not (unreachable and m.summary == "compatible"):
                out.append(_wrap(m.summary, "    ", columns))
            for reason in m.reasons:
                out.append(_wrap(f"- {reason}", "    ", columns))
            for warning in m.warnings if m.compatible else ():  # a caveat of a recipe that cannot run is noise
                out.append(_wrap(f"! {warning}", "    ", columns))  # (walk 19 #16); `--json` keeps them all
    if not any(m.recommended for m in matches):
        out += ["", "No recipe fits this machine; the reasons above say why."]
    else:
        best = next(m for m in matches if m.recommended)
        # Broken between its words with `\` when too long (walk 21 #17: `…/gc-wizard p` / `lan …` at 80 columns).
        out += ["", "Next, to see every command it would run (it runs nothing):",
                *command(command_words(f"{wizard_command()} plan {best.recipe.id}"), columns, "    ", "        ",
                         keep=2)]
    return "\n".join(out)


def run_recipes(args: argparse.Namespace) -> int:
    saved = getattr(args, "facts", None)
    version = getattr(args, "graphcast_version", None)
    if saved is None:
        def facts() -> Facts:  # detected once the recipes have loaded: a bad --recipes-dir waits for no srun job
            detected = facts_for(args, on_line=warn)
            where = where_line(detected)
            if where and not args.json:
                say(where)
            return detected
    else:
        if getattr(args, "slurm", None) is not None or getattr(args, "assume_driver", None):
            raise UserError("--facts describes a machine already; it cannot be combined with --slurm or "
                            "--assume-driver.")
        facts = _load_facts(saved)
    # Saved facts describe another machine, whose Pythons these are not, unless they were read here (`read_here`).
    local = saved is None or read_here(facts)
    surveyed = survey(args.recipes_dir or (), facts=facts, local=local, graphcast_version=version)
    matches, facts = list(surveyed.matches), surveyed.facts
    if args.json:
        # Grouped by the GraphCast version each recipe runs (oldest first), each group recommended-first.
        # What this user has, as the text's "Already installed" says it (walk 25 #8: the current recipe looked like
        # one never installed); null where the facts are another machine's, whose installs these are not.
        installed = installed_recipes() if local else None
        emit_json([{**m.to_dict(), **installed_fields(installed, m.recipe.id)}
                   for _, group in group_by_graphcast(matches) for m in group])
    else:
        # What this user has installed, only where the facts are this machine's (saved facts are another's).
        say(render_matches(matches, facts, version, installed=installed_recipes() if local else None,
                           failed=last_failed_checks(named=True) if local else None))
    return 0


#: How long `plan` waits for the index's file sizes before it prints (what is known by then, and how much):
#: the plan itself never waits on a slow index; sizes once read are cached for the next plan.
PLAN_SIZE_BUDGET = 1.0

#: Under a refused GraphCast source: the flag that goes on anyway (the app names its key instead).
_CLI_HINTS = PlanHints(refusal="  `gc-wizard install` refuses it (exit 2) without --force.")


def plan_text(review: PlanReview, download: DownloadSize | None = None, slurm=None, given=None) -> str:
    """The core's plan lines (`flows.describe_plan`), then the `install` line that runs it."""
    columns = width()  # the terminal's, as `recipes` and `detect` (walk 21 #1: 100 columns in an 80-column one)
    lines = plan_lines(review, download=download.describe() if download is not None else None, slurm=slurm,
                       hints=_CLI_HINTS, width=columns,
                       index_down=download.index_down if download is not None else None)
    laid_out: list[str] = []
    in_command = False
    for line in lines:  # a header line the core leaves whole wraps under its own indent; a command stays as laid
        command_row = in_command or line.rstrip().endswith("\\")  # out (its rows end in `\` and paste whole)
        in_command = line.rstrip().endswith("\\")
        if len(line) <= columns or command_row or " " not in line.strip():
            laid_out.append(line)
        else:
            indent = line[: len(line) - len(line.lstrip())]
            laid_out += wrapped(line.strip(), columns, indent, indent + "    ")
    # Broken between its words with ` \` at the terminal's width, as the "Next:" lines are: one row wider than the
    # terminal wrapped mid-path, and a copied piece no longer ran (a user's shell joins the rows again).
    plan, alternative = review.plan, None
    if plan.unreachable_links and plan.recipe.alternatives and not (given is not None and given.alternative):
        # Walk 24 #2: the plan's own words said this install fails here, and the line repeated it; the line to paste
        # is the one that can succeed: the recipe's alternative source (its wheels come from PyPI).
        import dataclasses  # deferred: only a plan whose wheel page did not answer needs them

        from wizard.flows.options import InstallOptions

        alternative = plan.recipe.alternatives[0]
        given = dataclasses.replace(given if given is not None else InstallOptions(), alternative=alternative.id)
    # The line install takes here: with the GraphCast source the plan's words name when its host does not answer
    # (walk 38 #3: it printed the line it then said install refuses), by the core's one choice of it.
    line, placeholder = install_to_run(plan, wizard_command(), slurm, given)
    run = command(command_words(line), columns, "To run it: ", "    ")
    if alternative is not None:
        run += wrapped(f"(with --alternative {alternative.id}: the recipe's own wheel page cannot be reached from "
                       f"here, as the Sources above say; {alternative.title}"
                       f"{'' if alternative.gpu_checked else ', which NEEDS A GPU CHECK'})", columns, "", "")
    if placeholder:  # walk 22 #2: pasted as it is, the line without a source was refused (exit 2) here
        run += wrapped(f"(put a local copy of GraphCast in place of {SOURCE_PLACEHOLDER}, as the GraphCast line above "
                       "says: install refuses this line here without one)", columns, "", "")
    return "\n".join([*laid_out, "", *run])


def run_plan(args: argparse.Namespace) -> int:
    # Asked before the plan's own check (its words are the install's): a plan is made for an install, which needs a
    # current folder whatever the paths, and `plan` builds nothing (walk 37 #5).
    gone = current_folder_gone(absolute_paths=False,
                               undone="nothing was planned: an install runs its tools in the current folder")
    if gone is not None:
        raise UserError(f"{gone}.")
    install = options.install_options(args)
    facts = None
    if install.slurm is not None:  # the recipe must fit the GPU node, read there (not this login node)
        facts = facts_for(args, on_line=warn)
        warn(where_line(facts) or "")
    checked = review(install, facts=facts)
    download = download_size(checked.plan, budget=PLAN_SIZE_BUDGET)
    # A private index's password in a --find-links URL or GraphCast source is needed to run the plan,
    # never to show it: printed plans (and saved JSON: `emit_json` masks every string) carry `user:***`.
    if args.json:
        emit_json({**checked.plan.to_dict(), "fits": not checked.reasons, "reasons": checked.reasons,
                   "graphcast_source": checked.verdict.to_dict(), "download": download.to_dict()})
    else:
        say(redact_secrets(plan_text(checked, download, install.slurm, install), keep_user=True))
    return 0


def configure(sub) -> list[argparse.ArgumentParser]:
    recipes = options.add_command(sub, "recipes", "every recipe, compatible or not with this machine, with reasons",
                                  "gc-wizard recipes --facts gpu-node-facts.json", run_recipes)
    recipes.add_argument("--facts", metavar="FILE",
                         help="match against a saved `detect --json` (from another machine) instead of this one")
    options.graphcast_version_option(recipes, "recommend only among recipes that run this GraphCast "
                                              "(0.1.1: the demo notebook; 0.2: with GenCast)")
    options.slurm_options(recipes)
    options.assume_options(recipes)
    options.json_option(recipes)
    plan = options.add_command(sub, "plan", "what install would run, touching nothing",
                               "gc-wizard plan jax0.4.23-cuda12-cudnn89 --graphcast-src ~/graphcast", run_plan)
    plan.add_argument("recipe", metavar="RECIPE", nargs="?",
                      help="a recipe id (see `gc-wizard recipes`); not needed with --graphcast-version")
    options.graphcast_version_option(plan, "plan the recipe recommended for this GraphCast (0.1.1 or 0.2), or check "
                                           "that RECIPE runs it")
    options.env_option(plan, "plan an install into this folder instead of a new managed environment")
    options.installer_option(plan)
    options.source_options(plan)
    options.alternative_option(plan)
    options.notebook_option(plan)
    options.lock_option(plan)
    options.slurm_options(plan)
    options.json_option(plan)
    return [recipes, plan]
