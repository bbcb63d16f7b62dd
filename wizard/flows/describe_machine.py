"""The machine's facts in words, built once for `gc-wizard detect`, the plain flow and the app's Machine screen.

Why here: there were three renderings of the same `Facts` (`commands/detect.py`, `commands/plain.py`,
`tui/screens/machine.py`) and they had drifted ("none usable" / "no usable NVIDIA driver" / "NVIDIA
driver: none usable"; one listed every CUDA library copy, one only those that matter). Each function returns
plain text; a face may lay the lines out (a box, a colour) but never rewords them.
"""

from __future__ import annotations

from wizard.detect.facts import DRIVER_IN_TROUBLE, Facts, gib
from wizard.detect.preflight import WORDS, assess, summary_lines
from wizard.paths import state_dir, state_warning


def where_sentence(facts: Facts) -> str | None:
    """"Detected on node gpu07 (through srun, job 12, partition gpu)." — or the ASSUMED warning, or None
    for this machine's own facts."""
    marker = getattr(facts, "slurm", None)
    if marker and marker.get("srun"):
        part = f", partition {marker['partition']}" if marker.get("partition") else ""
        return f"Detected on node {marker.get('node') or '?'} (through srun, job {marker.get('job_id') or '?'}{part})."
    if facts.driver is not None and facts.driver.source == "assumed":
        return (f"ASSUMED: driver {facts.driver.version} (CUDA {facts.driver.cuda_driver_version}) — not read from "
                f"a GPU; {facts.host or 'this machine'} has none.")
    return None


#: The driver in a few words, for a driver that is there but cannot be used (`DRIVER_IN_TROUBLE`): never "no driver".
_TROUBLE_WORDS = {
    "driver_not_loaded": "an NVIDIA driver that is installed but not loaded",
    "driver_library_mismatch": "an NVIDIA driver whose library and kernel module differ (a reboot is due)",
    "driver_not_answering": "an NVIDIA driver that does not answer (hung; ask the admins)",
}


def machine_summary(facts: Facts) -> str:
    """One line over the recipes list: whose facts they are, the driver, the GPUs, Python and platform."""
    broken = next((w for w in facts.warnings if w.id in DRIVER_IN_TROUBLE), None)
    if facts.driver is None and broken is not None:
        gpu = _TROUBLE_WORDS[broken.id]
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


def problem_lines(facts: Facts) -> list[str]:
    """Detection's warnings, with their ids: shown first, because they decide the recipe.

    A warning whose whole text another one already says (a `probe_timeout` quoted by `driver_not_answering`) is
    not shown twice; `--json` keeps both ids for the scripts that look for either."""
    shown = [w for w in facts.warnings
             if not any(o is not w and w.message.split(": ", 1)[-1] in o.message and len(o.message) > len(w.message)
                        for o in facts.warnings)]
    return [f"! [{w.id}] {w.message}" for w in shown]


def _driver_rows(facts: Facts) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    driver = facts.driver
    if driver:
        source = "ASSUMED, not detected" if driver.source == "assumed" else f"from {driver.source}"
        rows.append(("Driver", f"{driver.version or 'unknown version'}  (supports CUDA up to "
                               f"{driver.cuda_driver_version or '?'}; {source})"))
    else:
        broken = next((w.id for w in facts.warnings if w.id in DRIVER_IN_TROUBLE), None)
        rows.append(("Driver", f"none usable: {_TROUBLE_WORDS[broken]}" if broken else "none usable"))
    for gpu in facts.gpus:
        memory = gib(gpu.memory_total_mib, 0) if gpu.memory_total_mib else "? GiB"
        rows.append((f"GPU {gpu.index}", f"{gpu.name}, {memory}, compute capability {gpu.compute_capability or '?'}"
                                         + (" (assumed)" if gpu.source == "assumed" else "")))
    if not facts.gpus:
        rows.append(("GPUs", "none"))
    return rows


#: The mark on the copy of a library that loads first; wrapped as one word (`aligned`).
LOADS_FIRST = "<- loads first"


def _major_minor(version: str | None) -> tuple[int, ...] | None:
    try:
        return tuple(int(part) for part in (version or "").split(".")[:2])
    except ValueError:
        return None


def _newer_than_driver(lib, facts: Facts) -> str:
    """For a CUDA runtime that loads first but is newer than the driver supports: whether it matters. Every GPU
    recipe pins its own CUDA runtime as a pip wheel (nvidia-cuda-runtime*), which loads first in its environment, so
    the system copy does not; only a program outside those environments would fail with it. Walk 24 #9: "cudart 13.0
    <- loads first" beside "supports CUDA up to 12.2", with no word on whether the CUDA 12 recipe cared."""
    driver = facts.driver
    have, most = _major_minor(lib.version), _major_minor(driver.cuda_driver_version if driver else None)
    if lib.name != "cudart" or not lib.loads_first or not have or not most or have <= most:
        return ""
    return (f"\n  newer than CUDA {driver.cuda_driver_version}, the most this driver supports; the GPU recipes bring "
            "their own CUDA runtime as pip wheels, which load first in their environment, so it does not affect them")


def _library_rows(facts: Facts) -> list[tuple[str, str]]:
    """The copies that matter: what loads first, and what LD_LIBRARY_PATH / a conda env put in the way. A
    server with three toolkits has dozens of copies; the rest are counted, and listed by --json."""
    shown = [lib for lib in facts.cuda_libraries if lib.loads_first or lib.found_via in ("LD_LIBRARY_PATH", "conda")]
    rows = [(f"{lib.name} {lib.version or ''}".strip(),
             f"{lib.path} (via {lib.found_via}){'  ' + LOADS_FIRST if lib.loads_first else ''}"
             + _newer_than_driver(lib, facts)) for lib in shown]
    hidden = len(facts.cuda_libraries) - len(shown)
    if hidden:
        rows.append(("CUDA libs", f"{hidden} more {'copy' if hidden == 1 else 'copies'} off the search path "
                                  "(toolkits, wheels); see gc-wizard detect --json"))
    elif not facts.cuda_libraries:
        rows.append(("CUDA libs", "none on the loader's path (the recipes bring their own)"))
    return rows


def _state_note(facts: Facts) -> str:
    """Under the disk row, when the folder it measures is this run's state folder and this user cannot make or write
    in it: the words the plan and the install's refusal say (walk 27 #5: only `install` said it, with root's fix)."""
    if facts.disk.path != str(state_dir()):
        return ""
    problem = state_warning()
    return f"\n! {problem}" if problem else ""


def _host_rows(facts: Facts) -> list[tuple[str, str]]:
    env = facts.environment
    jax, jaxlib = env.packages.get("jax"), env.packages.get("jaxlib")
    rows = [("Python", f"{facts.python.version}  {facts.python.executable}"),
            ("Environment", f"{env.kind}  {env.path}")]
    if jax or jaxlib:
        rows.append(("JAX", f"jax {jax or '-'}, jaxlib {jaxlib or '-'}"
                            + (f" ({env.jaxlib_cuda_tag})" if env.jaxlib_cuda_tag else "")))
    rows.append(("Platform", f"{facts.platform.os} {facts.platform.arch}, glibc {facts.platform.glibc or '?'}"))
    free = facts.disk.state_free_gib
    rows.append(("Free disk", f"{free if free is not None else '?'} GiB at {facts.disk.path}" + _state_note(facts)))
    memory = facts.memory
    if memory and memory.total_mib:
        text = f"{gib(memory.total_mib)} total"
        if memory.available_mib is not None:
            text += f", {gib(memory.available_mib)} available"
        if memory.limit_mib:
            text += f", limited to {gib(memory.limit_mib)} by a cgroup (a job or container limit)"
        rows.append(("Host RAM", text))
    else:
        rows.append(("Host RAM", "unknown"))
    return rows


def fact_rows(facts: Facts, current_env: str | None = None) -> list[tuple[str, str]]:
    """Label/value rows: driver, GPUs, the CUDA libraries that matter, the GraphCast environment the wizard
    made current (`current_env`, when the face shows it), Python, environment, platform, disk, RAM."""
    rows = _driver_rows(facts) + _library_rows(facts)
    if current_env is not None:
        rows.append(("GraphCast env", current_env))
    return rows + _host_rows(facts)


def aligned(rows: list[tuple[str, str]], columns: int | None = None) -> list[str]:
    """Rows with their labels padded to one width; a value's further lines are indented under it. With
    `columns` (a screen's width) a long value wraps between words under its own column, never under the
    labels (`wizard.wrap.hanging`, the wrap every laid-out text gets); a path is never broken."""
    from wizard.wrap import hanging, keep_together  # deferred: `detect --json` loads this, never wraps

    width = max((len(label) for label, _ in rows), default=0)
    lines: list[str] = []
    for label, value in rows:
        parts = value.split("\n")
        lines.append(f"{label.ljust(width)}  {parts[0]}")
        lines += [" " * (width + 2) + part for part in parts[1:]]
    if not columns:
        return lines
    # "<- loads first" stays whole on one line: the arrow points at the words after it (walk 21 #15: "loads" and
    # "first" were split).
    return hanging([line.replace(LOADS_FIRST, keep_together(LOADS_FIRST)) for line in lines], columns)


def recommended_line(match, installed: str | None = None, unreachable: str | None = None,
                     lead: str = "Recommended") -> str:
    """"Recommended: <recipe> — why", or, when that recipe is installed already (`installed`: "current" or
    "installed", `flows.history.installed_recipes`), that instead of the why. Walk 21 #12: a returning user read
    "your environment: jax0.4.23-cpu, current" and then "Recommended: jax0.4.23-cpu — no NVIDIA GPU was found…",
    unlinked, as if it were a new install to make."""
    if installed:
        return f"{lead}: {match.recipe.id} — already installed ({installed})"
    if unreachable and match.recipe.alternatives:
        # Walk 24 #1 (`history.unreachable_page_seen`): the way that installs here, said with why.
        alt = match.recipe.alternatives[0]
        return (f"{lead}: {match.recipe.id} from its alternative source {alt.id} (a on the Plan screen) — its "
                f"last install here could not reach {unreachable}, where its own wheels come from; {alt.title}"
                f"{'' if alt.gpu_checked else ' needs the GraphCast check on a GPU'}")
    why = match.summary
    for prefix in ("recommended: ", "recommended, "):
        why = why[len(prefix):] if why.startswith(prefix) else why
    why = f", {why}" if why.startswith("but") else (f" — {why}" if why else "")
    return f"{lead}: {match.recipe.id}{why}"


#: The first screen's last line when nothing comes before a recipe: Enter, the key next to it in the footer.
PRESS_ENTER = "Press Enter to choose a recipe."

#: The recommendation's lead where a GPU node is offered: the recipe fits this node only, not the GPU work.
HERE_ONLY = "Without a GPU node, for this node itself"


def slurm_offer_text(partitions: list[str]) -> str:
    """The offer of a GPU node on a node without a GPU where Slurm answers (the app's key g), as its first step."""
    return (f"This node has no GPU, but Slurm is here (partitions: {', '.join(partitions[:5])}). Press g to detect on "
            "a GPU node through srun: the first step for GraphCast on a GPU. The install then runs here and the "
            "GraphCast check on the node.")


def next_step_text(facts: Facts, recommended, *, offer: list[str] | None = None, through_srun: bool = False,
                   returning: str | None = None, installed: str | None = None,
                   unreachable: str | None = None, failed: str | None = None) -> str:
    """The Machine screen's closing words: what to do first, built once here whatever way the screen is reached.

    `recommended`: the recommended match (or None); `offer`: Slurm's partitions where this node has no GPU and the app
    offers g; `through_srun`: `facts` were read on a node through srun; `returning`: the returning user's line;
    `failed`: the recommended recipe's newest install failed its check (`history.last_failed_checks`), said under it.
    Why the order: walk 28 #3 — on a login node the screen said "Recommended: jax0.4.23-cpu" and "Press Enter" under
    the offer of g, so a newcomer's Enter led to the CPU stack; where a GPU node is offered, g comes first and the
    recipe that fits this node is named as what it is, the choice without one."""
    if offer:
        text = slurm_offer_text(offer) + "\n\n"
        if recommended is not None:
            text += recommended_line(recommended, installed, unreachable, lead=HERE_ONLY).rstrip(".") + ".\n"
            text += f"! {failed}\n" if failed else ""
        text += "Enter chooses a recipe for this node instead."
    else:
        text = PRESS_ENTER
        if recommended is not None:
            warned = f"! {failed}\n" if failed else ""
            text = f"{recommended_line(recommended, installed, unreachable)}\n{warned}{text}"
        if through_srun:
            node = (facts.slurm or {}).get("node") or "?"
            where = "a GPU node" if facts.gpus else f"a node like {node} (no GPU there: see above; o changes it)"
            text = ("Detected through srun: the install runs here, into the shared state folder; the "
                    f"GraphCast check runs on {where}.\n\n" + text)
    return f"{returning}\n{text}" if returning else text


def fact_lines(facts: Facts, current_env: str | None = None, columns: int | None = None) -> list[str]:
    """`fact_rows`, aligned (wrapped to `columns` if given): the block every face prints under its heading."""
    return aligned(fact_rows(facts, current_env), columns)


def machine_lines(facts: Facts, columns: int | None = None) -> list[str]:
    """`gc-wizard detect`'s text: problems first, the facts, then what fits in memory; with `columns` each line wraps
    between words, under its own indent (walk 20 #16: lines of 110 to 170 characters where `recipes` wraps at 80)."""
    lines: list[str] = []
    if facts.warnings:
        lines += ["Problems:", *(row for line in problem_lines(facts) for row in _indented(line, "  ", columns)), ""]
    lines += fact_lines(facts, columns=columns)
    lines += ["", "What fits in memory (GraphCast / GenCast, before you install):"]
    lines += [row for line in summary_lines(assess(facts)) for row in _indented(line, "  ", columns)]
    return lines


def _indented(line: str, indent: str, columns: int | None) -> list[str]:
    if not columns or len(indent) + len(line) <= columns:
        return [indent + line]
    from wizard.wrap import wrap  # deferred: `detect --json` loads this module and never wraps

    return wrap(line, columns, indent, indent + "    ")


def memory_table_lines(facts: Facts, width: int = 80) -> list[str]:
    """What fits in memory, one short line per model (the full figures are in `gc-wizard detect`); narrower
    than 80 columns only the verdict and the figures (the facts above need the rows)."""
    try:
        fits = assess(facts)
    except Exception as exc:  # a broken data file is named, never a crash
        return [f"What fits in memory: not assessed ({exc})"]
    lines = ["What fits in memory (needs: GB of GPU memory / host RAM):"]
    for fit in fits:
        n = fit.need
        label = f"{n.model} {float(n.resolution):g}°"
        row = f" {label:<16}{WORDS[fit.verdict]:<9}{n.gpu_gb:g}/{n.host_gb:g}"
        lines.append(row.ljust(33) + fit.message if width >= 80 else row)
    return lines
