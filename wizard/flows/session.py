"""The wizard's pipeline, once, for both faces: survey the machine, plan an install, diagnose a log.

Why a module of its own: the terminal app and the CLI used to assemble detect → match → plan
themselves and drifted apart (the app matched recipes without the machine's other Pythons, so it
warned "uv will download one" where the CLI said "the environment will use Python 3.11"). Both
faces now call these functions with the same inputs and only render what comes back:

- `survey(recipes_dirs)`: the facts, every recipe's verdict and the recommended one;
- `plan_for(options)`: the `Plan` for one `InstallOptions` — the value shown and then run
  (`wizard.flows.transaction.run_install(plan, options, …)`);
- `diagnose_log(log)` / `findings_for(scan)`: the findings, detecting the machine only when a finding
  can use it;
- (the machine alone — its facts, what fits, Slurm's partitions — is `wizard.flows.machine`);
- `recipe_for_graphcast(...)`: the recipe `--graphcast-version` names or recommends.
"""

from __future__ import annotations

import dataclasses
import io
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from wizard.detect.chain import detect
from wizard.detect.facts import Facts, PythonInfo
from wizard.errors import UserError
from wizard.flows.history import remembered_bundle, remembered_graphcast, unchecked_install, unchecked_words
from wizard.history.store import load_history, other_state_refusal
from wizard.install.options import InstallOptions
from wizard.install.plan import Plan, plan_install
from wizard.paths import wizard_command
from wizard.recipes.alternatives import with_python_reach
from wizard.recipes.loader import UnknownRecipe, get_recipe, load_recipes, recipes_dir_for
from wizard.recipes.match import RecipeMatch, match_recipes
from wizard.recipes.pythons import find_pythons
from wizard.security import expand_home, shell_word
from wizard.source_trust import refuse_swappable_source
from wizard.verify.causes import Context
from wizard.verify.diagnose import Finding, Scanner, scan_stream, uses_facts


class RecipesUnreadable(UserError):
    """A recipe file or `--recipes-dir` could not be loaded (the message names it); exit 2 like any
    bad input, and the terminal app says it is not a detection problem."""


@dataclass(frozen=True)
class Survey:
    """What this machine has, and what each recipe makes of it."""

    facts: Facts
    matches: tuple[RecipeMatch, ...]
    recommended: RecipeMatch | None
    pythons: tuple[PythonInfo, ...] | None = ()
    """The interpreters looked at (besides the wizard's own): a re-match (the app's `v`) reuses them, so
    every view of the recipes gives the same Python verdicts. None: the facts are another machine's, whose other
    Pythons are not known."""


def survey(recipes_dirs: Sequence[str] = (), *, facts: Facts | Callable[[], Facts] | None = None,
           local: bool | None = None, pythons: Sequence[PythonInfo] | None = None,
           graphcast_version: str | None = None) -> Survey:
    """Load the recipes, detect the machine (unless `facts` are given) and match them.

    The recipes load first, and `facts` may be the function that detects: a recipe folder that cannot be read is
    said at once, not after a detection that can take minutes (a Slurm job queued for a GPU node, a wedged driver).

    The interpreters on this machine are looked for only when the facts are this machine's (`local`,
    by default when they are detected here): saved facts describe another machine, whose Pythons
    these are not. `pythons` overrides that.
    """
    try:
        recipes = load_recipes(list(recipes_dirs))
    except UserError as exc:
        raise RecipesUnreadable(str(exc)) from None
    this_machine = (facts is None or callable(facts)) if local is None else local
    if facts is None:
        facts = detect()
    elif callable(facts):
        facts = facts()
    if pythons is None and this_machine:
        pythons = find_pythons()
    matches = match_recipes(recipes, facts, pythons=pythons, graphcast_version=graphcast_version)
    # A fitting recipe whose Python uv would download is flagged when the download's host does not answer, as a plan
    # flags an unreachable source (walk 25 #2); asked only of this machine's Pythons, once.
    matches = tuple(with_python_reach(matches) if this_machine else matches)
    matches = _bundle_first(matches, graphcast_version) if this_machine else matches
    return Survey(facts=facts, matches=matches, recommended=next((m for m in matches if m.recommended), None),
                  pythons=tuple(pythons) if pythons is not None else None)


def _bundle_first(matches: tuple[RecipeMatch, ...], graphcast_version: str | None = None) -> tuple[RecipeMatch, ...]:
    """Where the package index does not answer and a bundle a fitting recipe was installed from is still here (the
    remembered bundle, `remembered_bundle`), that recipe is the one recommended, saying why: it is what installs here.
    Walk 26 #7: the offline machine's list recommended jax0.4.23-cpu, which needs the index, over the bundle's
    jax0.12.0.1-cpu. The index is asked only then (one HEAD, `cost.unreachable_index`), in the survey that already
    asks the Python download's host, never on a screen's first frame."""
    wanted = [m for m in matches if m.compatible and (not graphcast_version  # `v`, --graphcast-version: kept to
                                                      or m.recipe.graphcast.version.startswith(graphcast_version))]
    bundled = [(m, found[0]) for m in wanted for found in [remembered_bundle(m.recipe.id)] if found]
    if not bundled or bundled[0][0].recommended:  # none here, or the recommended one already: nothing to ask
        return matches
    # Deferred: its ssl and http imports stay off the survey unless a bundle is here.
    from wizard.flows.install_line import install_line
    from wizard.install.cost import unreachable_index

    index = unreachable_index()
    if index is None:
        return matches
    chosen, folder = bundled[0]  # the best ranked of those with a bundle here
    # The one builder of printed install lines, with the recipe's folder: 30th hostile pass (part B) P3, built here by
    # hand without `--recipes-dir`, this line failed as printed with "unknown recipe".
    line = install_line("gc-wizard", chosen.recipe.id, recipes_dir=recipes_dir_for(chosen.recipe), bundle=folder)
    why = (f"recommended: the package index {index} does not answer from here, and the bundle {folder} holds this "
           f"recipe: `{line}` installs it")
    unbundled = f"compatible, but its packages need the index {index}, which does not answer from here"
    # Every other fitting recipe needs the index (their words compared them with the old recommendation, now stale).
    return tuple(dataclasses.replace(m, recommended=True, summary=why) if m is chosen
                 else dataclasses.replace(m, recommended=False, summary=unbundled) if m in wanted
                 else m for m in matches)


def _bundle_recipe_folder(options: InstallOptions) -> str | None:
    """The recipe folder `--bundle` carries when it holds the recipe asked for (`bundle.RECIPES`), else None: said
    when the recipe is unknown here (27th hostile pass (part B) P2: a moved bundle's install line failed with "unknown
    recipe", not naming the recipe the bundle was made from)."""
    if not options.bundle or not options.recipe_id or "/" in options.recipe_id:
        return None
    from wizard.install.bundle import RECIPES  # deferred: only a refused recipe with --bundle needs it

    folder = Path(expand_home(options.bundle)).absolute() / RECIPES
    if not (folder / f"{options.recipe_id}.yaml").is_file():
        return None
    # Never advise an option with the value already given: the recipe is unknown in that folder, so the advice
    # would loop (28th hostile pass (part B) P3: "add --recipes-dir B/recipes", given, again and again).
    if any(os.path.realpath(Path(expand_home(given))) == os.path.realpath(folder) for given in options.recipes_dirs):
        return None
    # Held to the rule a --recipes-dir is held to, whose refusal comes through: advising the folder a link in it
    # leads out of into another user's folder would only meet that refusal next (P3).
    refuse_swappable_source(f"the recipe folder {folder} of --bundle {options.bundle}", folder, "its recipes")
    return str(folder)


def plan_for(options: InstallOptions) -> Plan:
    """The plan for `options`: target folder and mode, the Python, every step; runs nothing."""
    if not options.recipe_id:
        # no --answers here: `plan` has none (walk 20 #1); `install` says so itself before it plans
        raise UserError("Which recipe? Give one (see `gc-wizard recipes`).")
    try:
        recipe = get_recipe(options.recipe_id, list(options.recipes_dirs),
                            recommended=None if options.slurm is not None else lambda: _recommended_here(options))
    except UnknownRecipe:
        carried = _bundle_recipe_folder(options)
        if carried is None:
            raise
        raise UserError(f"unknown recipe '{options.recipe_id}' here, but the bundle {options.bundle} carries its "
                        f"recipe file: add `--recipes-dir {shell_word(carried)}`; nothing changed.") from None
    if options.with_notebook:
        if options.lock or options.bundle:
            raise UserError("--with-notebook adds packages to the recipe's pins; a --lock or --bundle fixes them. "
                            "Make the lock or bundle from an environment that has them, or leave --with-notebook out.")
        added = recipe.notebook
        recipe = recipe.with_notebook()
    plan = plan_install(recipe, env=options.env, installer=options.installer, find_links=options.find_links,
                        offline=options.offline, graphcast_src=options.graphcast_src, lock=options.lock,
                        bundle=options.bundle, alternative=options.alternative, python=options.python,
                        allow_extra_packages=options.allow_extra_packages, planned_at=options.planned_at)
    if plan.mode == "in-place":  # another state's environment is refused before the plan is shown (P6)
        refusal = other_state_refusal(load_history(), plan.env_dir)
        if refusal:
            raise UserError(refusal)
    plan = _with_remembered_source(plan, options)
    plan = _with_unchecked_install(plan)
    if options.with_notebook:
        note = (f"With the demo notebook's packages: {', '.join(r.split('==')[0] for r in added[:2])} and the "
                f"{len(added) - 2} they need, pinned with the rest (the notebook's imports cell runs).")
        plan = dataclasses.replace(plan, notes=(*plan.notes, note))
    return plan


def _recommended_here(options: InstallOptions) -> str | None:
    """The recipe recommended on this machine, for the words refusing an unknown recipe id (walk 21 #7: they
    should put it first, marked): asked only then, from this machine's facts without its interpreters (a
    fraction of a second); None when detection fails. A plan for a GPU node (`--slurm`) does not ask: this
    machine's answer would be the wrong one."""
    try:
        facts = detect()
        matches = match_recipes(load_recipes(list(options.recipes_dirs)), facts)
    except Exception:
        return None
    return next((m.recipe.id for m in matches if m.recommended), None)


def _with_unchecked_install(plan: Plan) -> Plan:
    """A plan for a new environment of a recipe the user already has installed but never checked, with that install
    named (walk 26 #9): its check is minutes, a new build is more, and the kept one was easy to forget."""
    if plan.mode != "new":
        return plan
    found = unchecked_install(plan.recipe.id)
    if found is None:
        return plan
    return dataclasses.replace(plan, unchecked=unchecked_words(plan.recipe.id, found, wizard_command()))


def _with_remembered_source(plan: Plan, options: InstallOptions) -> Plan:
    """A plan whose GraphCast host does not answer, with the local source the history remembers for this GraphCast
    version named in its words (the source's ✗ line, "Install anyway?", install's refusal): walk 19 #3,
    the app's plan only said "give a local checkout" where the last install had used one. The words give the whole
    line to paste (`install_to_run`, as the plan's "To run it:"), never a fragment to add by hand (walk 38 #3)."""
    if not plan.unreachable_source:
        return plan
    # Deferred as the survey's: its ssl and http imports stay off every plan whose GraphCast host answers.
    from wizard.flows.install_line import SOURCE_PLACEHOLDER, install_to_run

    line, placeholder = install_to_run(plan, wizard_command(), options.slurm, options)
    said = plan.unreachable_source.removesuffix(".")
    bundled = remembered_bundle(plan.recipe.id) if not plan.bundle else None
    if bundled:  # walk 26 #7: the bundle, never its GraphCast wheel alone, which installs nothing with no index
        bundle, install = bundled  # named as the history says that install went (30th pass leftovers, item 3)
        words = f"{said}. {install} came from the bundle {bundle}: install from it again (`{line}`)."
        return dataclasses.replace(plan, unreachable_source=words)
    found = remembered_graphcast(plan.recipe.graphcast.version)
    if placeholder or not found:
        words = f"{said}; then run `{line}` with that copy in place of {SOURCE_PLACEHOLDER}."
        return dataclasses.replace(plan, unreachable_source=words)
    remembered, install = found
    words = f"{said}. {install} used {remembered}: give it again (`{line}`)."
    return dataclasses.replace(plan, unreachable_source=words)


def _facts_quietly() -> Facts | None:
    """This machine's facts, or None: diagnosis must never fail because detection did."""
    try:
        return detect()
    except Exception:
        return None


def findings_for(scan: Scanner, *, context: Context | None = None) -> list[Finding]:
    """A scanned log's findings, root cause first. The machine is detected only when a finding can use
    it: to name the folder that shadows cuDNN or the recipe that fits the driver, or to rank the
    causes of a symptom (as the GPU memory a log reported can)."""
    findings = scan.findings(context=context)
    if findings and (uses_facts(findings) or findings[0].causes or scan.gpu_memory):
        facts = _facts_quietly()
        if facts is not None:
            findings = scan.findings(facts, context)
    return findings


def diagnose_log(log: str | IO[str], *, context: Context | None = None) -> list[Finding]:
    """The known failures in a log (its text, or a stream of any size), as `findings_for` gives them."""
    return findings_for(scan_stream(io.StringIO(log) if isinstance(log, str) else log), context=context)


def recipe_for_graphcast(recipe_id: str | None, version: str | None, recipes_dirs: Sequence[str] = ()) -> str | None:
    """The recipe for `plan`/`install` given `--graphcast-version`: the one named, checked to run that
    GraphCast, or — when none is named — the one recommended for that GraphCast on this machine."""
    if not version:
        return recipe_id
    dirs = list(recipes_dirs)
    if recipe_id:
        recipe = get_recipe(recipe_id, dirs)
        if recipe.graphcast.version != version:
            raise UserError(f"recipe {recipe.id} runs GraphCast v{recipe.graphcast.version}, not v{version} "
                            f"(--graphcast-version); see `gc-wizard recipes --graphcast-version {version}`.")
        return recipe.id
    best = next((m for m in survey(dirs, graphcast_version=version).matches if m.recommended), None)
    if best is None:
        raise UserError(f"no recipe for GraphCast v{version} fits this machine; "
                        f"`gc-wizard recipes --graphcast-version {version}` says why.")
    return best.recipe.id
