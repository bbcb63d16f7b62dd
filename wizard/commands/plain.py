"""Renders the plain flow: what bare `gc-wizard` does when it cannot draw (no TTY, `TERM=dumb`, `--no-tui`).

Over a pipe, in a batch job or under `ssh host gc-wizard > out.txt` there is nobody to answer and no
screen to draw on, so this flow walks the same path as the terminal app — machine, recipes with the
recommended one and why, the plan of that recipe — as plain text, and ends with the exact commands to
run next. It never asks anything, never waits for input and never writes escape codes, and it exits 0:
it only reports; the install is the separate, explicit `gc-wizard install RECIPE --yes`.
"""

from __future__ import annotations

import argparse

from wizard.commands.cluster_options import facts_for, slurm_target, where_line
from wizard.commands.options import install_options
from wizard.commands.output import say, warn
from wizard.commands.recipes import PLAN_SIZE_BUDGET, plan_text, render_matches
from wizard.errors import WizardError
from wizard.flows.describe_machine import fact_lines, problem_lines
from wizard.flows.history import installed_recipes, last_failed_checks, read_history, remembered_graphcast
from wizard.flows.machine import slurm_offer
from wizard.flows.options import unique_links
from wizard.flows.review import download_size, review
from wizard.flows.session import survey
from wizard.paths import wizard_command
from wizard.security import shell_word


def _current_lines() -> list[str]:
    try:
        current = read_history().current()
    except WizardError as exc:
        return [f"(history could not be read: {exc})"]
    if current is None:
        return []
    return ["", f"Current environment: {current.env} (recipe {current.recipe}); use it with:  "
            f'eval "$({wizard_command()} activate)"']


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    recipes_dir = getattr(args, "recipes_dir", None) or []
    # Walk 22 #10: asked for with --no-tui, the flow still said it had found no terminal to draw on.
    why = ("as asked (--no-tui), this is" if getattr(args, "no_tui", False)
           else "no terminal to draw on (output is not a terminal, or TERM=dumb), so this is")
    say(f"gc-wizard: {why} the plain walk-through; nothing is installed.")
    say("")
    target = slurm_target(args)
    surveyed = survey(recipes_dir, facts=facts_for(args, on_line=warn) if target is not None else None,
                      local=True)
    facts = surveyed.facts
    if target is not None:
        say(where_line(facts) or "")
    else:
        found = slurm_offer(facts)
        if found:
            say(f"This node has no GPU, but Slurm is here (partitions: {', '.join(found[:5])}): run "
                "`gc-wizard --slurm` to detect on a GPU node through srun.")
            say("")
    # The same facts, in the same words, as `gc-wizard detect` and the app's Machine screen.
    for line in ["== This machine ==", *fact_lines(facts), *problem_lines(facts)]:
        say(line)
    for line in _current_lines():
        say(line)

    say("")
    say("== Recipes ==")
    say(render_matches(list(surveyed.matches), facts, installed=installed_recipes(), failed=last_failed_checks(named=True)))
    best = surveyed.recommended
    if best is None:
        say("")
        say(f"No recipe fits this machine; the reasons above say why. `{wizard_command()} report --out report.md` writes "
            "a report to send to your admin.")
        return 0

    say("")
    say(f"== Plan for the recommended recipe: {best.recipe.id} ==")
    extra = "".join(f" --recipes-dir {shell_word(d)}" for d in recipes_dir)
    src = getattr(args, "graphcast_src", None)
    found = None if src else remembered_graphcast(best.recipe.graphcast.version)
    remembered, install = found if found else (None, "")
    links = unique_links(getattr(args, "find_links", None) or [])
    offline = bool(getattr(args, "offline", False))
    plan_options = replace(install_options(args), recipe_id=best.recipe.id, env=None)
    if remembered:
        # As the app starts from it: the source the last install of this GraphCast used, so the plan and the
        # command below do not fall back to a GitHub pin this server cannot reach (walk 18).
        src = remembered
        plan_options = replace(plan_options, graphcast_src=src)
        say(f"GraphCast from {src}, which {install[0].lower()}{install[1:]} used (--graphcast-src DIR gives another).")
    # The sources go after the command: that is where `install` reads them.
    sources = f" --graphcast-src {shell_word(src)}" if src else ""
    sources += "".join(f" --find-links {shell_word(link)}" for link in links)
    sources += " --offline" if offline else ""
    try:
        checked = review(plan_options)
        say(plan_text(checked, download_size(checked.plan, budget=PLAN_SIZE_BUDGET)))
        if checked.plan.unreachable_links and best.recipe.alternatives:
            # Walk 24 #2: the line below takes the source that can install here, as the plan's "To run it:" does.
            sources = f" --alternative {shell_word(best.recipe.alternatives[0].id)}{sources}"
    except WizardError as exc:
        say(f"The plan cannot be made yet: {exc}")

    say("")
    say("== Next ==")
    me = wizard_command()
    # After the recipe: a partition right after --slurm would swallow the command. The one builder (walk 24 #3).
    after = target.flags() if target is not None else ""
    say(f"  {me}{extra} install {best.recipe.id} --yes{sources}{after}   # build a new environment, verify GraphCast, "
        "make it current")
    say(f'  eval "$({me} activate)"    # use it in this shell (stale CUDA folders left out)')
    say(f"  {me} kernel install    # use it from Jupyter notebooks")
    say(f"  {me} report --out report.md    # if anything fails: a redacted report for your admin")
    say("Run `gc-wizard` in an interactive terminal for the guided version.")
    return 0
