"""The `recipes` and `plan` faces: render matches and plans; all decisions live in the core modules."""

from __future__ import annotations

import argparse
import json
import shlex
import textwrap
from pathlib import Path

from wizard.commands import options
from wizard.commands.output import emit_json, say
from wizard.detect.facts import Facts
from wizard.errors import UserError
from wizard.install.plan import Plan, plan_install
from wizard.recipes.loader import get_recipe, load_recipes
from wizard.recipes.match import RecipeMatch, graphcast_label, group_by_graphcast, match_recipes
from wizard.recipes.pythons import find_pythons

_WIDTH = 100


def _load_facts(path: str | None) -> Facts:
    if not path:
        from wizard.detect.chain import detect

        return detect()
    try:
        text = Path(path).expanduser().read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"--facts {path}: cannot be read ({exc.strerror})") from None
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        try:
            data = json.loads(text)
        except ValueError:
            # Saved CLI output may carry other lines before its JSON; the JSON is the last line.
            data = json.loads(lines[-1])
        return Facts.from_dict(data)
    except (ValueError, IndexError, KeyError, TypeError) as exc:
        raise UserError(f"--facts {path}: not the JSON that `gc-wizard detect --json` prints ({exc})") from None


def _machine_line(facts: Facts) -> str:
    if facts.driver is None:
        gpu = "no NVIDIA driver"
    else:
        gpu = f"NVIDIA driver {facts.driver.version or '?'} (CUDA {facts.driver.cuda_driver_version or '?'})"
    if facts.gpus:
        names = sorted({g.name for g in facts.gpus})
        gpu += f", {len(facts.gpus)} GPU{'s' if len(facts.gpus) != 1 else ''}: {', '.join(names)}"
    return f"This machine: {gpu}; Python {facts.python.version}; {facts.platform.os}/{facts.platform.arch}"


def _wrap(text: str, indent: str) -> str:
    return textwrap.fill(text, width=_WIDTH, initial_indent=indent, subsequent_indent=indent + "  ")


def render_matches(matches: list[RecipeMatch], facts: Facts, graphcast_version: str | None = None) -> str:
    out = [_machine_line(facts)]
    if graphcast_version:
        out.append(f"Only recipes for GraphCast v{graphcast_version} are recommended (--graphcast-version).")
    for version, group in group_by_graphcast(matches):
        out += ["", f"{graphcast_label(version)}:"]
        for m in group:
            status = "RECOMMENDED" if m.recommended else ("compatible" if m.compatible else "not compatible")
            marker = "*" if m.recommended else " "
            out.append(f"{marker} {m.recipe.id:<28} {status:<15} {m.recipe.title}")
            if m.compatible:
                out.append(_wrap(m.summary, "    "))
            for reason in m.reasons:
                out.append(_wrap(f"- {reason}", "    "))
            for warning in m.warnings:
                out.append(_wrap(f"! {warning}", "    "))
    if not any(m.recommended for m in matches):
        out += ["", "No recipe fits this machine; the reasons above say why."]
    else:
        best = next(m for m in matches if m.recommended)
        out += ["", f"Next: gc-wizard plan {best.recipe.id}   (shows every command; runs nothing)"]
    return "\n".join(out)


def run_recipes(args: argparse.Namespace) -> int:
    recipes = load_recipes(args.recipes_dir)
    saved = getattr(args, "facts", None)
    facts = _load_facts(saved)
    version = getattr(args, "graphcast_version", None)
    # Saved facts describe another machine: this machine's interpreters say nothing about it.
    matches = match_recipes(recipes, facts, pythons=() if saved else find_pythons(), graphcast_version=version)
    if args.json:
        # Grouped by the GraphCast version each recipe runs (oldest first), each group recommended-first.
        emit_json([m.to_dict() for _, group in group_by_graphcast(matches) for m in group])
    else:
        say(render_matches(matches, facts, version))
    return 0


def recipe_for_version(args: argparse.Namespace) -> str | None:
    """The recipe id for `plan`/`install` given `--graphcast-version`: the one named, checked to run that
    GraphCast, or — when none is named — the one recommended for that GraphCast on this machine."""
    version = getattr(args, "graphcast_version", None)
    if not version:
        return args.recipe
    if args.recipe:
        recipe = get_recipe(args.recipe, args.recipes_dir)
        if recipe.graphcast.version != version:
            raise UserError(f"recipe {recipe.id} runs GraphCast v{recipe.graphcast.version}, not v{version} "
                            f"(--graphcast-version); see `gc-wizard recipes --graphcast-version {version}`.")
        return recipe.id
    from wizard.detect.chain import detect

    matches = match_recipes(load_recipes(args.recipes_dir), detect(), pythons=find_pythons(), graphcast_version=version)
    best = next((m for m in matches if m.recommended), None)
    if best is None:
        raise UserError(f"no recipe for GraphCast v{version} fits this machine; "
                        f"`gc-wizard recipes --graphcast-version {version}` says why.")
    return best.recipe.id


def make_plan(args: argparse.Namespace) -> Plan:
    """The plan for `plan`/`install`-style arguments (recipe, env, installer, find_links, offline, graphcast_src)."""
    recipe_id = recipe_for_version(args)
    if not recipe_id:
        raise UserError("Which recipe? Give one (see `gc-wizard recipes`) or --graphcast-version.")
    recipe = get_recipe(recipe_id, args.recipes_dir)
    return plan_install(recipe, env=getattr(args, "env", None), installer=getattr(args, "installer", "uv"),
                        find_links=tuple(getattr(args, "find_links", None) or ()),
                        offline=bool(getattr(args, "offline", False)),
                        graphcast_src=getattr(args, "graphcast_src", None),
                        alternative=getattr(args, "alternative", None))


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


def render_plan(plan: Plan) -> str:
    r = plan.recipe
    where = "existing environment, in place" if plan.mode == "in-place" else "new environment"
    out = [
        f"Plan for {r.id} — {r.title}",
        f"  environment: {plan.env_dir} ({where})",
        f"  python:      {plan.python.describe()}",
        f"  installer:   {plan.installer}{' (offline)' if plan.offline else ''}",
        f"  disk needed: about {plan.disk_gib:g} GiB free (environment and download cache)",
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
    out.append(f"  GraphCast {r.graphcast.version} ({r.graphcast.revision[:12]}) from {plan.graphcast_src}, --no-deps")
    if r.runtime_env:
        out += ["", "Set when the environment is activated:"]
        out += [f"  {k}={v}" for k, v in r.runtime_env.items()]
    notes = list(plan.notes) + list(r.notes)
    if notes:
        out += ["", "Notes:"] + [_wrap(f"- {n}", "  ") for n in notes]
    out += ["", f"To run it: gc-wizard install {r.id}" + (f" --env {shlex.quote(str(plan.env_dir))}"
                                                          if plan.mode == "in-place" else "")]
    return "\n".join(out)


def run_plan(args: argparse.Namespace) -> int:
    plan = make_plan(args)
    if args.json:
        emit_json(plan.to_dict())
    else:
        say(render_plan(plan))
    return 0


def configure(sub) -> list[argparse.ArgumentParser]:
    recipes = options.add_command(sub, "recipes", "every recipe, compatible or not with this machine, with reasons",
                                  "gc-wizard recipes --facts gpu-node-facts.json", run_recipes)
    recipes.add_argument("--facts", metavar="FILE",
                         help="match against a saved `detect --json` (from another machine) instead of this one")
    options.graphcast_version_option(recipes, "recommend only among recipes that run this GraphCast "
                                              "(0.1.1: the demo notebook; 0.2: with GenCast)")
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
    options.json_option(plan)
    return [recipes, plan]
