"""The `recipes` and `plan` faces: render matches and plans; all decisions live in the core modules."""

from __future__ import annotations

import argparse
import re
import shlex
import textwrap
from pathlib import Path

from wizard import bounded
from wizard.commands import options
from wizard.commands.cluster_options import facts_for, where_line
from wizard.commands.output import emit_json, say, warn, width, wrapped
from wizard.detect.chain import detect
from wizard.detect.facts import Facts
from wizard.errors import UserError
from wizard.flows.session import plan_for, survey
from wizard.flows.transaction import unfit_reasons
from wizard.install.cost import plan_download
from wizard.install.plan import Plan
from wizard.install.sources import verdict_for
from wizard.paths import wizard_command
from wizard.recipes.match import RecipeMatch, graphcast_label, group_by_graphcast
from wizard.security import redact_secrets

_WIDTH = 100
"""The widest line `plan` prints (its commands wrap between arguments, with `\\`)."""


def _load_facts(path: str | None) -> Facts:
    if not path:
        return detect()
    try:
        text = bounded.read_text(Path(path).expanduser(), bounded.FACTS_BYTES)
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
        raise UserError(f"--facts {path}: not the JSON that `gc-wizard detect --json` prints ({exc})") from None


def _plain(value):
    """Saved facts with control characters (terminal escapes) taken out of every string."""
    if isinstance(value, str):
        return "".join(c for c in value if c >= " " and not 0x7f <= ord(c) < 0xa0)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value


def _checked(facts: Facts) -> Facts:
    """TypeError unless every text field of the saved facts holds text (or nothing) and numbers are numbers:
    a list where a version belongs would otherwise fail deep inside the matching."""
    import dataclasses

    stack = [facts]
    while stack:
        item = stack.pop()
        for f in dataclasses.fields(item):
            value = getattr(item, f.name)
            kind = str(f.type)
            if dataclasses.is_dataclass(value):
                stack.append(value)
            elif isinstance(value, tuple):
                stack.extend(v for v in value if dataclasses.is_dataclass(v))
            elif kind.startswith("str") and not isinstance(value, str) and not (value is None and "None" in kind):
                raise TypeError(f"'{f.name}' must be text, not {type(value).__name__}")
            elif kind.startswith(("int", "float")) and (isinstance(value, bool)
                                                          or not isinstance(value, (int, float))) \
                    and not (value is None and "None" in kind):
                raise TypeError(f"'{f.name}' must be a number, not {type(value).__name__}")
    return facts


def _machine_line(facts: Facts) -> str:
    broken = next((w for w in facts.warnings if w.id in ("driver_not_loaded", "driver_library_mismatch")), None)
    if facts.driver is None and broken is not None:
        gpu = ("an NVIDIA driver that is installed but not loaded" if broken.id == "driver_not_loaded"
               else "an NVIDIA driver whose library and kernel module differ (a reboot is due)")
    elif facts.driver is None:
        gpu = "no NVIDIA driver"
    else:
        gpu = f"NVIDIA driver {facts.driver.version or '?'} (CUDA {facts.driver.cuda_driver_version or '?'})"
    if facts.gpus:
        names = sorted({g.name for g in facts.gpus})
        gpu += f", {len(facts.gpus)} GPU{'s' if len(facts.gpus) != 1 else ''}: {', '.join(names)}"
    who = "This machine"
    if facts.slurm and facts.slurm.get("srun"):
        who = f"Node {facts.slurm.get('node') or '?'} (through srun)"
    elif facts.driver is not None and facts.driver.source == "assumed":
        gpu = "ASSUMED " + gpu
    return f"{who}: {gpu}; Python {facts.python.version}; {facts.platform.os}/{facts.platform.arch}"


def _wrap(text: str, indent: str, columns: int = _WIDTH) -> str:
    return textwrap.fill(text, width=columns, initial_indent=indent, subsequent_indent=indent + "  ")


def _short_title(title: str, room: int) -> str:
    """A title without its leading "JAX 0.4.23 · " when it does not fit: the id beside it and the group's
    heading both name the JAX version already."""
    if len(title) <= room:
        return title
    return re.sub(r"^JAX [\w.]+ · ", "", title)


def render_matches(matches: list[RecipeMatch], facts: Facts, graphcast_version: str | None = None,
                   columns: int | None = None) -> str:
    """The recipes table, laid out for `columns` (default: the terminal's, 80 in a pipe): the id column is
    as wide as the longest id (ids are never cut: they are what the user copies), and a title that does
    not fit beside it wraps inside its own column."""
    columns = columns or width()
    out = wrapped(_machine_line(facts), columns, "", "  ")
    if graphcast_version:
        out += wrapped(f"Only recipes for GraphCast v{graphcast_version} are recommended (--graphcast-version).",
                       columns)
    id_width = max((len(m.recipe.id) for m in matches), default=0)
    status_width = len("not compatible")
    title_at = 2 + id_width + 1 + status_width + 1
    for version, group in group_by_graphcast(matches):
        out += ["", f"{graphcast_label(version)}:"]
        for m in group:
            status = "RECOMMENDED" if m.recommended else ("compatible" if m.compatible else "not compatible")
            marker = "*" if m.recommended else " "
            row = f"{marker} {m.recipe.id:<{id_width}} {status:<{status_width}} "
            if columns - title_at >= 20:
                title = wrapped(_short_title(m.recipe.title, columns - title_at), columns - title_at)
                out.append(row + title[0])
                out += [" " * title_at + line for line in title[1:]]
            else:  # too narrow for a title column: the title goes below
                out += [row.rstrip(), *wrapped(m.recipe.title, columns, "    ")]
            if m.compatible:
                out.append(_wrap(m.summary, "    ", columns))
            for reason in m.reasons:
                out.append(_wrap(f"- {reason}", "    ", columns))
            for warning in m.warnings:
                out.append(_wrap(f"! {warning}", "    ", columns))
    if not any(m.recommended for m in matches):
        out += ["", "No recipe fits this machine; the reasons above say why."]
    else:
        best = next(m for m in matches if m.recommended)
        out += ["", "Next, to see every command it would run (it runs nothing):",
                f"    {wizard_command()} plan {best.recipe.id}"]
    return "\n".join(out)


def run_recipes(args: argparse.Namespace) -> int:
    saved = getattr(args, "facts", None)
    version = getattr(args, "graphcast_version", None)
    if saved is None:
        facts = facts_for(args, on_line=warn)
        where = where_line(facts)
        if where and not args.json:
            say(where)
    else:
        if getattr(args, "slurm", None) is not None or getattr(args, "assume_driver", None):
            raise UserError("--facts describes a machine already; it cannot be combined with --slurm or "
                            "--assume-driver.")
        facts = _load_facts(saved)
    # Saved facts describe another machine: this machine's interpreters say nothing about it.
    matches = list(survey(args.recipes_dir or (), facts=facts, local=saved is None, graphcast_version=version).matches)
    if args.json:
        # Grouped by the GraphCast version each recipe runs (oldest first), each group recommended-first.
        emit_json([m.to_dict() for _, group in group_by_graphcast(matches) for m in group])
    else:
        say(render_matches(matches, facts, version))
    return 0


def _command_lines(argv: tuple[str, ...], first: str = "     $ ", rest: str = "         ") -> str:
    """Shell-quoted for display, wrapped only between arguments with `\\` so it still pastes whole."""
    lines: list[str] = []
    current = first
    for word in (shlex.quote(a) for a in argv):
        if current.strip() not in ("", "$") and len(current) + 1 + len(word) > _WIDTH - 2:
            lines.append(current + " \\")
            current = rest + word
        else:
            current = current + word if current in (first, rest) else current + " " + word
    lines.append(current)
    return "\n".join(lines)


#: How long `plan` waits for the index's file sizes before it prints (what is known by then, and how much):
#: the plan itself never waits on a slow index; sizes once read are cached for the next plan.
PLAN_SIZE_BUDGET = 1.0


def plan_checks(plan: Plan, facts=None) -> dict:
    """What `plan` says before the steps: does the recipe fit, is the GraphCast source the recipe's, what
    it downloads. The same checks `install` makes before anything runs (it refuses without --force).
    `facts`: the machine the recipe must fit when it is not this one (a GPU node read through srun)."""

    marker = getattr(facts, "slurm", None) or {}
    return {"reasons": unfit_reasons(plan.recipe, facts), "verdict": verdict_for(plan),
            "download": plan_download(plan, budget=PLAN_SIZE_BUDGET),
            "machine": f"NODE {marker.get('node') or '?'}" if marker.get("srun") else "THIS MACHINE"}


def render_plan(plan: Plan, checks: dict | None = None) -> str:
    r = plan.recipe
    where = "existing environment, in place" if plan.mode == "in-place" else "new environment"
    checks = checks or {}
    out: list[str] = []
    reasons = checks.get("reasons") or []
    verdict = checks.get("verdict")
    if reasons:
        out.append(f"! {r.id} DOES NOT FIT {checks.get('machine') or 'THIS MACHINE'}; `gc-wizard install {r.id}` "
                   "refuses it (exit 2) without --force:")
        out += [_wrap(f"- {reason}", "  ") for reason in reasons]
    if verdict is not None and not verdict.ok:
        out.append(_wrap(f"! GraphCast source refused (install exits 2 without --force): {verdict.problem}", ""))
    if out:
        out.append("")
    out += [
        f"Plan for {r.id} — {r.title}",
        f"  environment: {plan.env_dir} ({where})",
        f"  python:      {plan.python.describe()}",
        f"  installer:   {plan.installer}{' (offline)' if plan.offline else ''}",
        f"  disk needed: about {plan.disk_gib:g} GiB free (environment and download cache)",
    ]
    if checks.get("download") is not None:
        out.append(f"  download:    {checks['download'].describe()}")
    if verdict is not None:
        mark = {"✓": "ok", "?": "unchecked", "✗": "UNREACHABLE" if verdict.ok else "REFUSED"}[verdict.mark()]
        out.append(f"  graphcast:   {verdict.identity.describe()} [{mark}]")
        if verdict.caution:
            out.append(_wrap(f"! {verdict.caution}", "               "))
    out += [
        "",
        "Steps (nothing has been run):",
    ]
    for i, step in enumerate(plan.steps, 1):
        out.append(f"  {i}. {step.title}")
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in step.env.items())
        if env:
            out.append(f"     with {env}")
        out.append(_command_lines(step.argv))
    out += ["", "Pins:"] + [f"  {req}" for req in r.requirements]
    # The recipe's revision only where the source is the recipe's own pin: a checkout or a wheel given
    # instead is whatever it is (its commit and changes are on the graphcast line above).
    pinned = f" ({r.graphcast.revision[:12]})" if verdict is None or verdict.identity.kind == "recipe" else ""
    out.append(f"  GraphCast {r.graphcast.version}{pinned} from {plan.graphcast_src}, --no-deps")
    if r.runtime_env:
        out += ["", "Set when the environment is activated:"]
        out += [f"  {k}={v}" for k, v in r.runtime_env.items()]
    notes = list(plan.notes) + list(r.notes)
    if notes:
        out += ["", "Notes:"] + [_wrap(f"- {n}", "  ") for n in notes]
    run_it = f"{wizard_command()} install {r.id}"
    if plan.mode == "in-place":
        run_it += f" --env {shlex.quote(str(plan.env_dir))}"
    if plan.graphcast_src != r.graphcast.source:
        run_it += f" --graphcast-src {shlex.quote(plan.graphcast_src)}"
    run_it += "".join(f" --find-links {shlex.quote(link)}" for link in plan.find_links if link not in r.find_links)
    run_it += " --offline" if plan.offline else ""
    if checks.get("slurm"):
        run_it += checks["slurm"]
    out += ["", f"To run it: {run_it}"]
    return "\n".join(out)


def run_plan(args: argparse.Namespace) -> int:
    install = options.install_options(args)
    facts = None
    if install.slurm is not None:  # the recipe must fit the GPU node, read there (not this login node)
        from wizard.commands.output import warn

        facts = facts_for(args, on_line=warn)
        warn(where_line(facts) or "")
    plan = plan_for(install)
    checks = plan_checks(plan, facts)
    if install.slurm is not None:
        target = install.slurm
        checks["slurm"] = (" --slurm" + (f" {shlex.quote(target.partition)}" if target.partition else "")
                           + "".join(f" --srun-arg={shlex.quote(arg)}" for arg in target.srun_args))
    # A private index's password in a --find-links URL or GraphCast source is needed to run the plan,
    # never to show it: printed plans (and saved JSON) carry `user:***`.
    if args.json:
        emit_json(_redacted({**plan.to_dict(), "fits": not checks["reasons"], "reasons": checks["reasons"],
                             "graphcast_source": checks["verdict"].to_dict(), "download": checks["download"].to_dict()}))
    else:
        say(redact_secrets(render_plan(plan, checks), keep_user=True))
    return 0


def _redacted(value):
    if isinstance(value, str):
        return redact_secrets(value, keep_user=True)
    if isinstance(value, list):
        return [_redacted(v) for v in value]
    if isinstance(value, dict):
        return {k: _redacted(v) for k, v in value.items()}
    return value


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
