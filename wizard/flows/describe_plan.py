"""A plan in words, built once for `gc-wizard plan`, the plain flow and the app's Plan screen.

Why here: the CLI's `render_plan` and the Plan screen's `plan_text` were two copies that had drifted
("Steps (nothing has been run)" / "(nothing has run yet)"; "from X, --no-deps" with the pinned revision /
"from X (--no-deps)" without it; the sources checked on one, a bare `graphcast:` line on the other). One
function lays the plan out now; a face adds only its own key or flag hints (`PlanHints`), in its own words
about its own keys, and never rewords a line.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

from wizard import paths
from wizard.flows.describe_check import check_estimate_words
from wizard.flows.install_line import install_command as install_command  # its home: a module of its own
from wizard.flows.install_line import install_line as install_line
from wizard.flows.review import PlanReview
from wizard.install.plan import Plan
from wizard.install.sources import SourceVerdict, Wheelhouse, source_name
from wizard.paths import state_dir, state_warning
from wizard.recipes.match import range_text
from wizard.security import redact_secrets, shell_word
from wizard.wrap import command, keep_together, wrap

__all__ = ["COMMANDS_HEADING", "STEPS_HEADING", "PlanHints", "install_command", "plan_lines", "with_keys"]

STEPS_HEADING = "Steps (nothing has run yet):"
COMMANDS_HEADING = "Exactly what runs:"


@dataclass(frozen=True)
class PlanHints:
    """What a face adds after the core's words: the keys (the app) or flags (the CLI) that change a part."""

    folder: str = ""
    installer: str = ""
    sources: str = ""
    refusal: str = ""
    """A line of its own under a refused GraphCast source: how to choose another or go on anyway."""
    keys: bool = False
    """The app: the words about a source name its key beside the flag (`with_keys`)."""


def with_keys(text: str) -> str:
    """The core's words about a source, with the Plan screen's key beside the flag that gives it: the app shows them
    so; the CLI's words name the flag alone (walk 22 #10: `install` said "(g on the Plan screen)" outside the app).
    A backquoted command is left whole: a key in it would break the line to paste (walk 38 #3)."""
    text = re.sub(r"\(`([^`]*--graphcast-src [^`]+)`\)", r"(`\1`, or g on the Plan screen)", text)
    text = re.sub(r"--alternative ([\w.-]+) \(", r"--alternative \1 (a on the Plan screen; ", text)  # walk 24 #1
    parts = text.split("`")
    for at in range(0, len(parts), 2):  # outside the backquotes only
        parts[at] = (parts[at].replace("--graphcast-src DIR", "--graphcast-src DIR (g on the Plan screen)")
                     .replace("--find-links DIR", "--find-links DIR (w on the Plan screen)"))
    return "`".join(parts)


def _fit(text: str, width: int = 74) -> str:
    """A long path or URL shortened in the middle, so it stays one row; its secrets are masked first, since
    a cut URL (`https://me:pw@host…sig=…`) no longer has the shape the redaction knows."""
    text = redact_secrets(text)
    if len(text) > width:  # a full commit hash first goes to its 12 characters, as git shows it: cut in the middle
        text = re.sub(r"@([0-9a-f]{40})$", lambda m: "@" + m.group(1)[:12], text)  # the host's owner went (walk 20 #14)
    return text if len(text) <= width else text[: width // 2 - 1] + "…" + text[-(width // 2):]


def _wrap(text: str, indent: str, width: int) -> list[str]:
    """`text` wrapped between words, never inside one (a URL or path stays whole, to copy it), and masked
    first: a URL cut across two rows no longer has the shape the redaction knows."""
    return wrap(redact_secrets(text), width, indent, indent + "  ")


def command_lines(argv: tuple[str, ...], width: int, first: str = "     $ ", rest: str = "         ") -> list[str]:
    """Shell-quoted for display, wrapped only between arguments with `\\` so it still pastes whole."""
    return command([shell_word(a) for a in argv], width, first, rest)


def index_down_words(plan: Plan, index: str) -> str:
    """Why the packages' step would fail here when the index did not answer the plan's download measurement, and the
    way that works: the bundle this recipe's last install came from when it is still here, else a bundle or a
    wheelhouse. Marked as GraphCast's unreachable host is (walk 26 #7: the index had only "download size unknown")."""
    from wizard.flows.history import (  # deferred: read only when the index did not answer
        in_sentence,
        remembered_bundle,
    )

    recipe = plan.recipe.id
    bundled = remembered_bundle(recipe)
    bundle = bundled[0] if bundled else None
    # The whole line to paste, never a `--bundle` fragment to add by hand (walk 38 #3), by the one builder of it.
    again = install_command(replace(plan, bundle=bundle or "DIR"), paths.wizard_command())
    way = (f"{in_sentence(bundled[1])} came from the bundle {bundle}: install from it again (`{again}`)" if bundled else
           f"where an index answers, `{paths.elsewhere_command(f'bundle {recipe} --out DIR')}` gathers everything; copy DIR here and run "
           f"`{again}` (or give a wheelhouse: --find-links DIR --offline)")
    return f"the index {index} cannot be reached from here, so the packages step would fail: {way}."


def sources_lines(plan: Plan, verdict: SourceVerdict | None, wheelhouses: list[Wheelhouse], hint: str = "",
                  width: int = 100, keys: bool = False, index_down: str | None = None) -> list[str]:
    """Where GraphCast and the packages come from, each checked; `keys`: the app's (`with_keys`); `index_down`: the
    index the download measurement found not answering (`DownloadSize.index_down`), marked ✗ with the way that
    works, as an unreachable GraphCast host is."""
    lines = [f"Sources{hint}:"]
    if verdict is not None:
        identity = verdict.identity
        lines.append(f"  GraphCast {verdict.mark()} {identity.short()} · {identity.kind_text()}")
        lines.append(f"    from {_fit(plan.graphcast_src.split(' @ ', 1)[-1], 64)}")
        for text, mark in ((verdict.unreachable, "! "), (verdict.caution, verdict.caution_mark())):
            lines += _wrap(f"{mark}{with_keys(text) if keys else text}", "    ", width) if text else []
    for house in wheelhouses:
        lines += [f"  Wheelhouse {house.summary()}", f"    in {_fit(house.folder, 64)}"]
        lines += _wrap(f"! {house.caution()}", "    ", width) if house.caution() else []
    web = _web_wheelhouses(plan)
    for link in web:
        # Named as the steps show it (masked, user kept): only the argv said where packages came from (#141).
        state = "not read offline" if plan.offline else "a web page the installer reads"
        lines += _wrap(f"Wheelhouse {redact_secrets(link, keep_user=True)} ({state})", "  ", width)
    settings = plan.installer_settings()
    refused = plan.settings_refusal()  # the install refuses it before anything runs: said here with "!"
    if plan.offline:
        lines.append("  Packages: offline: only the wheelhouse and the installer's cache")
        for setting in settings:
            lines += _wrap(f"and {setting.describe()}", "    ", width)
        lines += _wrap(f"! {refused}", "    ", width) if refused else []
        return lines + _recipe_indexes(plan, width)
    default = next((s.describe() for s in settings if not s.extra), "the package index (PyPI)")
    mark = "✗ " if index_down else ""
    lines += _wrap(f"Packages: {mark}" + default + (" and the wheelhouse" if wheelhouses or web else ""), "  ", width)
    down = index_down_words(plan, index_down) if index_down and not plan.bundle else None
    lines += _wrap(f"! {with_keys(down) if keys else down}", "    ", width) if down else []
    for setting in settings:
        lines += _wrap(f"and {setting.describe()}", "    ", width) if setting.extra else []
    lines += _wrap(f"! {refused}", "    ", width) if refused else []
    lines += _recipe_indexes(plan, width)
    pages = plan.links_sentence()  # marked as GraphCast's host is: ✗ on the page, "!" with the way that works
    lines += _wrap(f"! {with_keys(pages) if keys else pages}", "    ", width) if pages else []
    return lines


def _web_wheelhouses(plan: Plan) -> list[str]:
    """The find-links pages the user gave (a flag, GC_WIZARD_FIND_LINKS, an answers file) that are URLs: a local
    folder is looked at and summed up above; a page is the installer's to read (the recipe's own are named by
    `_recipe_indexes`)."""
    recipe_links = set(getattr(plan.recipe, "find_links", ()))
    return [link for link in dict.fromkeys(plan.find_links)
            if "://" in link and not link.startswith("file:") and link not in recipe_links]


def _recipe_indexes(plan: Plan, width: int) -> list[str]:
    """The indexes and find-links pages the recipe itself sends packages through, each named (masked): the
    summary said "the package index (PyPI)" while the steps passed a recipe's `--extra-index-url` and
    `--find-links` to another host (fifth hostile pass 1g). Offline, an index is not asked, a folder is."""
    recipe = plan.recipe
    out = []
    for label, places in (("the recipe's extra index", getattr(recipe, "extra_index_urls", ())),
                          ("the recipe's find-links", getattr(recipe, "find_links", ()))):
        for place in places:
            remote = "://" in place and not place.startswith("file:")
            if plan.offline and remote:
                continue
            # whole (wrapped between words, to copy it), masked with its user name kept, as the steps show it
            mark = " ✗" if place in getattr(plan, "unreachable_links", ()) else ""
            out += _wrap(f"and {label}{mark} {redact_secrets(place, keep_user=True)}", "    ", width)
    return out


def _refusals(review: PlanReview, hints: PlanHints, width: int) -> list[str]:
    recipe, verdict = review.plan.recipe, review.verdict
    out: list[str] = []
    if review.reasons:
        out.append(f"! {recipe.id} DOES NOT FIT {review.machine}; `gc-wizard install {recipe.id}` refuses it (exit 2) "
                   "without --force:")
        for reason in review.reasons:
            out += _wrap(f"- {reason}", "  ", width)
    if verdict is not None and not verdict.ok:
        found = verdict.identity
        # The right package, in an archive no installer unpacks, or a wheel that would overwrite another pinned
        # package's files (31st hostile pass (part B) P8): the refusal's own sentence, not "needs DeepMind's …".
        if (found.tree is not None and found.tree.unusable) or verdict.overwrites:
            lines = _wrap(f"✗ Refused: {verdict.problem}", "  ", width)
            out += [lines[0].lstrip(), *lines[1:]]
        else:
            out += [f"✗ Refused: this GraphCast source is {found.short()},",
                    f"  {found.kind_text()}; the recipe needs DeepMind's {source_name(recipe.graphcast.source)} "
                    f"{recipe.graphcast.version}."]
        out += [hints.refusal] if hints.refusal else []
    return [*out, ""] if out else []


def _step_commands(step, width: int) -> list[str]:
    env = " ".join(f"{k}={shell_word(v)}" for k, v in step.env.items())
    return ([f"     with {env}"] if env else []) + command_lines(step.argv, width)


def _steps(plan: Plan, slurm, width: int, inline: bool) -> list[str]:
    out = [STEPS_HEADING]
    for i, step in enumerate(plan.steps, 1):
        out.append(f"  {i}. {step.title}")
        out += _step_commands(step, width) if inline else []
    if slurm is not None:
        part = f"partition {slurm.partition}" if slurm.partition else "the default partition"
        out.append(f"  then the GraphCast check on a GPU node of {part}, through srun")
    # How long the check takes here, as data (walk 25 #7): the plan said nothing of GenCast's two minutes on a CPU.
    estimate = check_estimate_words("gpu" if slurm is not None else plan.recipe.backend, plan.recipe.graphcast.version)
    if estimate:
        out += _wrap(estimate, "    ", width) if slurm is not None else _wrap(f"then the GraphCast check: {estimate}",
                                                                                 "  ", width)
    return out


def _commands_after(plan: Plan, width: int) -> list[str]:
    out = ["", COMMANDS_HEADING]
    for i, step in enumerate(plan.steps, 1):
        out += [f"  {i}. {step.title}", *_step_commands(step, width)]
    return out


def _pins(review: PlanReview, width: int) -> list[str]:
    plan, recipe, verdict = review.plan, review.plan.recipe, review.verdict
    out = [f"Pins ({len(recipe.requirements)}):", *(f"  {req}" for req in recipe.requirements)]
    # The recipe's revision only where the source is the recipe's own pin: a checkout or a wheel given
    # instead is whatever it is (its commit and changes are in the sources above).
    pinned = f" ({recipe.graphcast.revision[:12]})" if verdict is None or verdict.identity.kind == "recipe" else ""
    out.append(f"  GraphCast {recipe.graphcast.version}{pinned} from {plan.graphcast_src}, --no-deps")
    if recipe.runtime_env:
        out += ["", "Set when the environment is activated:", *(f"  {k}={v}" for k, v in recipe.runtime_env.items())]
    notes = [note for note in plan.notes if note != plan.installer_reason] + list(recipe.notes)  # said above
    if notes:
        out += ["", "Notes:"]
        for note in notes:
            out += _wrap(f"- {note}", "  ", width)
    return out


def _installer_caution(plan: Plan, width: int) -> list[str]:
    """Under the installer's line, with "!": uv would fail on TLS where pip's own settings make pip work (walk 25 #1),
    said before anything runs, with the switch that works; or why the plan picked pip (walk 28 #5)."""
    caution = plan.installer_caution()
    if caution:
        return _wrap(f"! {caution}", "  ", width)
    return _wrap(f"  {plan.installer_reason}", "  ", width) if plan.installer_reason else []


#: The variable that moves each installer's download cache, named beside it in the plan.
_CACHE_VARIABLE = {"uv": "UV_CACHE_DIR", "pip": "PIP_CACHE_DIR"}


def _noexec_line(plan: Plan, width: int) -> list[str]:
    """The environment's folder on a noexec mount, with "!" under the disk line it qualifies (`Plan.noexec_sentence`;
    31st hostile pass (part A) P2)."""
    sentence = plan.noexec_sentence()
    return _wrap(f"! {sentence}", "  ", width) if sentence else []


def _cache_line(review: PlanReview, width: int = 100) -> list[str]:
    """Where the installer downloads to: often ~/.cache/uv or ~/.cache/pip, a home folder with a quota, not the state
    folder's disk the line above speaks of (walk 17); its free space when that is another filesystem. pip's too (walk
    27, pip's cache): kept between installs, so a second install does not download the gigabytes again."""
    plan = review.plan
    cache = plan.download_cache
    if not cache:  # turned off by the user: every package is downloaded again, said with the way back
        if not plan.no_cache:
            return []
        pasted = re.sub(r"`unset [^`]+`", lambda m: keep_together(m.group(0)), plan.no_cache)  # each stays whole
        return _wrap(f"Download cache: none. {pasted}", "", width)
    free = f"; {review.cache_free_gib:.0f} GiB free there" if review.cache_free_gib is not None else ""
    tool = plan.installer
    # The state's private cache, used where the installer's own failed the swap rule (25th hostile pass (part B) P1).
    whose = (f"this install's own: {tool}'s is not used, see the notes" if Path(cache).parent.name == "cache"
             and Path(cache).parent.parent == state_dir()
             else f"{tool}'s; {_CACHE_VARIABLE.get(tool, 'its setting')}=DIR moves it")
    return [f"Download cache: {cache} ({whose}){free}"]


def _state_problem(width: int) -> list[str]:
    """The state folder this user cannot make or write in, with "!", and the `export`/`unset` that works: said by
    the plan, not first by the install's refusal (walk 27 #5)."""
    problem = state_warning()
    if not problem:
        return []
    pasted = re.sub(r"`(?:export|unset) [^`]+`", lambda m: keep_together(m.group(0)), problem)  # each line stays whole
    return _wrap(f"! {pasted}", "", width)


def python_lines(plan: Plan, environ: dict[str, str] | None = None, width: int = 100) -> list[str]:
    """The Python the environment is built on and, when it is not the one `detect` and `recipes`' "This machine"
    line describe, why. walk 23 #12: `recipes` said "Python 3.11.7" (pyenv's python3 on PATH)
    and the plan "Python 3.11.2 (/usr/bin/python3.11; the wizard's own)", two Pythons with no word between them.
    Two sentences, which Python and why, then which one `python3` is (walk 26 #13: one line "not python3 on PATH (…),
    which `detect` and `recipes` describe: …" was hard to parse)."""
    from wizard.detect.environment import described_python, same_file

    chosen = plan.python
    lines = [chosen.describe()]
    missing = plan.python_sentence()  # its download's host does not answer: marked as a source is (walk 25 #2)
    if missing:
        lines = [f"{chosen.describe()} ✗", *_wrap(f"! {missing}", "  ", width)]
    shown, words = described_python(dict(os.environ if environ is None else environ))
    if shown and not same_file(shown, chosen.executable) and chosen.source != "uv-download":
        takes = range_text(plan.recipe.machine.python)
        why = {"wizard": "it is gc-wizard's own Python, which fits the recipe and is known to work",
               "given": "you gave it with --python"}.get(chosen.source,
                                                         f"it is the newest Python here that the recipe takes ({takes})")
        lines += _wrap(f"The environment uses this Python because {why}.", "  ", width)
        lines += _wrap(f"{_OTHER_PYTHON.get(words, words[:1].upper() + words[1:])} is another one, {shown}: the one "
                       "`detect` and `recipes` describe. --python PATH picks another.", "  ", width)
    return lines


#: How the plan names the Python `detect` describes when the environment is built on another (walk 26 #13: "not
#: python3 on PATH (/root/.pyenv/shims/python3), which `detect` and `recipes` describe: …" was hard to parse):
#: what a newcomer types, not where detection looked.
_OTHER_PYTHON = {"python3 on PATH": "`python3` in your shell"}


def plan_lines(review: PlanReview, *, download: str | None = None, slurm=None, hints: PlanHints = PlanHints(),
               width: int = 100, commands_last: bool = False, index_down: str | None = None) -> list[str]:
    """The plan: what refuses it first, then where, which Python and installer, disk and download, the
    sources, every step with its exact command, every pin, what activation sets, the notes.

    `commands_last`: the step titles stay together and the exact commands come last, under their own
    heading (a screen of 24 rows shows every step at once); else each command stands under its step."""
    plan, recipe = review.plan, review.plan.recipe
    where = "existing environment, changed in place" if plan.mode == "in-place" else "a new environment"
    free = f"; {review.free_gib:.0f} GiB free there" if review.free_gib is not None else ""
    return [
        *_refusals(review, hints, width),
        f"Plan for {recipe.id} — {recipe.title}",
        *(_wrap(f"! {plan.unchecked}", "", width) if plan.unchecked else []),  # walk 26 #9: before a second build
        *_state_problem(width),
        *(_wrap(f"! {temporary}", "", width) if (temporary := plan.temporary_refusal()) else []),
        f"Into {where}{hints.folder}:",
        f"  {plan.env_dir}",
        *python_lines(plan, width=width),
        f"Installer {plan.installer}{' (offline)' if plan.offline else ''}{hints.installer} · "
        f"disk: about {plan.disk_gib:g} GiB needed (environment and download cache){free}",
        *_installer_caution(plan, width),
        *_noexec_line(plan, width),
        *_cache_line(review, width),
        f"Download: {download or 'checking the size…'}",
        "",
        *sources_lines(plan, review.verdict, review.wheelhouses, hints.sources, width, hints.keys, index_down),
        "",
        *_steps(plan, slurm, width, inline=not commands_last),
        "",
        *_pins(review, width),
        *(_commands_after(plan, width) if commands_last else []),
    ]
