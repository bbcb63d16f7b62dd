"""A first real forecast in a verified environment: the demo notebook's cells, run by the environment itself.

Why: "jit init passed" is not what a lab member came for; the notebook's next cells — real weights, the
example ERA5 batch, the statistics, one rollout — are where they fail next (a missing `dask`, a NetCDF
reader, a model too big for the GPU). This runs exactly those cells (`forecast_probe.py`, by the
environment's own Python, under the same variables `gc-wizard activate` gives a shell), after checking
the model fits in memory and every file's checksum, and reports the figures a user compares with the
notebook: seconds to load, compile and roll out, peak memory, where the predictions were written.
A failure goes through the same diagnosis as a failed check, root cause first.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from wizard import bounded, paths
from wizard.after import assets
from wizard.after.assets import CLI_WORDS, SourceWords
from wizard.after.assets_memory import remember_assets, remembered_assets
from wizard.detect.facts import Facts
from wizard.detect.preflight import assess, load_needs
from wizard.detect.srun_errors import explain
from wizard.detect.srun_job import JobState, SrunJob, queue_sentence
from wizard.errors import UserError
from wizard.install.envs import Env
from wizard.install.runner import StepLog
from wizard.patterns import ascii_digits
from wizard.recipes.loader import load_recipes
from wizard.security import expand_home, make_folders, one_line, shell_word
from wizard.verify.check import ProbeListeners, ProbeStream, probe_environment, run_probe
from wizard.verify.diagnose import Finding, diagnose_text
from wizard.verify.probe import FORECAST_PROBE_PATH
from wizard.verify.shadow import probe_shadow
from wizard.verify.user_variables import with_behaviour_finding

STAGE_PREFIX = "gc-wizard-forecast: "
#: The fit table's verdicts that refuse a model on this backend (unless --force).
#: The stages in the order the forecast goes through them, with the words both faces show for each.
STAGES = (("fetch", "Fetch and check the files"), ("import", "Import JAX and GraphCast"),
          ("load_checkpoint", "Load the weights"), ("load_dataset", "Load the example batch"),
          ("load_stats", "Load the statistics"), ("rollout", "Compile and roll out"),
          ("check", "Check every value, write the predictions"))
STAGE_WORDS = dict(STAGES)

#: How the files were checked, in words.
CHECKED = {"sums": "verified against the source's SHA256SUMS", "recorded": "checked against their hashes at first "
           "download", "none": "not checked (the folder has no SHA256SUMS)"}
REFUSED = {"gpu": ("gpu_too_small", "host_too_small", "no"), "cpu": ("host_too_small", "no")}


@dataclass(frozen=True)
class ForecastRequest:
    """What the user asked for: the environment, where the files come from, which ones, how far."""

    env: Env
    assets: str | assets.Source | None = None
    """`--assets` as given, or the source already opened (a face checks it before anything else)."""
    model: str | None = None
    dataset: str | None = None
    steps: int = 1
    force: bool = False
    words: SourceWords = CLI_WORDS
    """How the face says to give another source, in the refusals (`assets.SourceWords`: the CLI's `--assets`)."""


@dataclass
class ForecastResult:
    """`gc-wizard forecast --json` (docs/interface.md), plus the log and findings of a failure."""

    ok: bool
    env: str
    graphcast_version: str | None
    model: str
    dataset: str
    steps: int
    backend: str
    devices: list[str] = field(default_factory=list)
    finite: bool = False
    seconds: dict[str, float] = field(default_factory=dict)
    peak_rss_mib: float | None = None
    peak_device_mib: float | None = None
    output: str | None = None
    assets: dict[str, Any] = field(default_factory=dict)
    log: str = ""
    error: str | None = None
    findings: list[Finding] = field(default_factory=list)
    cancelled: bool = False
    where: dict[str, Any] | None = None
    """Set when the forecast ran on a cluster node through srun: {"node", "via": "srun", "job_id", "srun"}."""
    failed_stage: str | None = None
    """The stage that failed before the rollout ran ("fetch"), for a face to mark; None otherwise."""
    note: str | None = None
    """Why the model is not the one announced, though none was asked for (`assets.Selection.model_note`)."""
    slurm: Any = None
    """The `SlurmTarget` it ran on (not in `to_dict`): its Next lines name it again (walk 24 #3)."""

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "env": self.env, "graphcast_version": self.graphcast_version, "model": self.model,
                "dataset": self.dataset, "steps": self.steps, "backend": self.backend, "devices": self.devices,
                "finite": self.finite, "seconds": self.seconds, "peak_rss_mib": self.peak_rss_mib,
                "peak_device_mib": self.peak_device_mib, "output": self.output, "assets": self.assets,
                "log": self.log, "error": self.error, "findings": [f.to_dict() for f in self.findings],
                "cancelled": self.cancelled, "where": self.where, "note": self.note}


@dataclass(frozen=True)
class ForecastEvents:
    """The caller's live callbacks (each may come from a worker thread)."""

    on_stage: Callable[[str], None] | None = None
    on_download: assets.Progress | None = None
    on_line: Callable[[str], None] | None = None


def graphcast_version(env: Env) -> str | None:
    """The GraphCast version the environment was built for (its recipe), else what its metadata says."""
    marker = env.marker
    if marker is not None:
        recorded = (marker.extra or {}).get("graphcast_version")
        if recorded:
            return str(recorded)
        recipe = load_recipes().get(marker.recipe or "")
        if recipe is not None:
            return recipe.graphcast.version
    for meta in sorted(env.path.glob("lib/python3*/site-packages/graphcast-*.dist-info/METADATA")):
        try:
            text = bounded.read_lenient_text(meta, bounded.MARKER_BYTES)
        except (OSError, ValueError):
            continue
        for line in text.splitlines():
            if line.startswith("Version:"):
                return line.split(":", 1)[1].strip()
    return None


def env_backend(env: Env) -> str:
    marker = env.marker
    return marker.backend if marker is not None and marker.backend in ("gpu", "cpu") else "auto"


def check_memory(model_name: str, backend: str, facts: Facts, force: bool) -> str | None:
    """Refuse (UserError, exit 2) a model the fit table says will not fit here; None or a caution."""
    traits = assets.model_traits(model_name)
    if "res" not in traits:
        return None  # a model the table does not know (a mirror's own name): nothing to go on
    family = "gencast" if "gencast" in model_name.lower() else "graphcast"
    try:
        wanted = f"{family}-{float(traits['res']):g}deg".replace(".", "p")  # graphcast-1deg, graphcast-0p25deg
    except ValueError:
        return None
    fit = next((f for f in assess(facts, load_needs()) if f.need.id == wanted), None)
    if fit is None:
        return None
    if fit.verdict in REFUSED.get(backend, ()):
        if force:
            return f"{fit.need.name} may not fit here ({fit.message}); running anyway (--force)."
        raise UserError(f"{fit.need.name} will not fit here: {fit.message} (it needs about {fit.need.gpu_gb:g} GB "
                        f"of GPU memory and {fit.need.host_gb:g} GB of RAM). Choose a smaller --model, or run "
                        "with --force to try anyway.")
    return None


def prepare(request: ForecastRequest) -> tuple[assets.Source, assets.Selection]:
    """The source opened and the files chosen (UserError for a bad choice) — before anything downloads."""
    if request.steps < 1 or request.steps > 40:
        raise UserError(f"--steps {request.steps}: give 1 to 40 six-hour steps.")
    source = (request.assets if isinstance(request.assets, assets.Source)
              else assets.open_source(request.assets or default_assets(request.env), request.words))
    listing = assets.list_assets(source)
    hint = "gc-wizard forecast --list" + ("" if source.is_bucket else f" --assets {source.describe().rstrip('/')}")
    return source, assets.select(listing, model=request.model, dataset=request.dataset, steps=request.steps,
                                 hint=hint, words=request.words)


#: Why `assets_place` chose its place, as `forecast --list` says it beside the place.
PLACE_WORDS = {"variable": "from GC_WIZARD_ASSETS", "bundle": "the files of the bundle this environment came from",
               "remembered": "the folder your last forecast used", "bucket": "DeepMind's public bucket"}


def assets_place(env: Env | None) -> tuple[str | None, str]:
    """Where a forecast takes its files when the user names none, and why (a `PLACE_WORDS` key): GC_WIZARD_ASSETS,
    else the offline bundle `env` was installed from (`bundle --with-assets`), else the folder the last forecast that
    worked used (`assets_memory`), else the public bucket. The location is None for the variable and the bucket
    (`assets.open_source` reads those).

    The one resolver of that place for `forecast`, `forecast --list` and the app's f. Why: walk 26 #13 — `forecast
    --list` read only the bucket ("cannot reach storage.googleapis.com") while `forecast` took the bundle's files and
    f the lab folder remembered from the last forecast."""
    if os.environ.get("GC_WIZARD_ASSETS"):
        return None, "variable"
    bundled = bundle_assets(env) if env is not None else None
    if bundled:
        return bundled, "bundle"
    last = remembered_assets()
    return (last, "remembered") if last else (None, "bucket")


def default_assets(env: Env | None) -> str | None:
    """The folder `assets_place` chose, or None for GC_WIZARD_ASSETS and the public bucket."""
    return assets_place(env)[0]


def bundle_assets(env: Env) -> str | None:
    """The forecast files of the offline bundle `env` was installed from, from its marker; None for any other env."""
    marker = env.marker
    folder = (marker.extra or {}).get("assets") if marker is not None else None
    return str(folder) if folder and Path(folder).is_dir() else None


def output_path(model_name: str) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    short = "".join(ch if ch.isalnum() else "-" for ch in model_name.removesuffix(".npz"))[:40].strip("-")
    folder = paths.ensure_state_dir() / "forecasts"
    make_folders(folder)
    return paths.unused_path(folder, f"{stamp}-{short}", ".nc")


def run_forecast(request: ForecastRequest, *, facts: Facts | None = None, events: ForecastEvents = ForecastEvents(),
                 cancel: threading.Event | None = None, timeout: float = 3600.0, slurm: Any = None,
                 on_job: Callable[[JobState], None] | None = None,
                 facts_for: Callable[[], Facts | None] | None = None) -> ForecastResult:
    """Fetch and check the files, then run the notebook's forecast in the environment (see the docstring).

    `facts_for`: where `facts` is not given, reads them once the files are listed — detection through srun is a
    Slurm job, asked only when the files can be had (walk 28 #12: `forecast --slurm` ran a job on a node, then said
    the bucket does not answer here).

    `slurm` (a `SlurmTarget`): the files are fetched here, into the shared state folder, and the forecast runs
    on a GPU node through srun; `on_job` follows its job (queued with the reason and the wait, then running),
    a wait longer than `slurm.wait` is given up, and a stop cancels the job."""
    env = request.env
    version = graphcast_version(env)
    backend = env_backend(env)
    recipe = env.marker.recipe if env.marker is not None else None
    try:
        source, chosen = prepare(request)
    except assets.AssetError as exc:
        # The files could not be listed (the bucket unreachable from here): a result like any failed forecast's,
        # with its finding, so `--json` has the documented shape and the screen marks the step (walk 18).
        # The files it would have read, by name (walk 19: `--json` had "model": "" and "dataset": "").
        result = ForecastResult(ok=False, env=str(env.path), graphcast_version=version,
                                model=request.model or assets.DEFAULT_MODEL,
                                dataset=request.dataset or assets.DEFAULT_DATASET, steps=request.steps, backend=backend)
        return _fetch_failed(result, exc, recipe, given=request.assets)
    if facts is None and facts_for is not None:
        facts = facts_for()
    if facts is not None:
        check_memory(chosen.model.name, "cpu" if backend == "cpu" else "gpu" if facts.gpus else "cpu", facts,
                     request.force)
    result = ForecastResult(ok=False, env=str(env.path), graphcast_version=version, model=chosen.model.name,
                            dataset=chosen.dataset.name, steps=request.steps, backend=backend, note=chosen.model_note,
                            slurm=slurm)
    # The forecast runs the env's python: the guard of every such run, before anything is fetched (24th hostile
    # pass (part B) P7: a bin/python leading to a script runs whatever Python that script starts).
    paths.guard_env_python(env.path)
    _stage(events, "fetch")
    try:
        fetched = [assets.fetch(source, asset, progress=events.on_download, cancel=cancel) for asset in chosen.all()]
    except assets.AssetError as exc:  # a broken download, a file that fails its checksum
        result.assets = {"source": source.describe(), "verified": False, "checked": "none", "downloaded": [],
                         "files": {}}
        return _fetch_failed(result, exc, recipe, given=request.assets)
    verified = all(f.verified for f in fetched)
    checked = "sums" if verified else "recorded" if not source.is_local else "none"
    result.assets = {"source": source.describe(), "verified": verified, "checked": checked,
                     "downloaded": [f.asset.name for f in fetched if f.downloaded],
                     "files": {f.asset.relpath: f.sha256 for f in fetched if f.sha256}}
    out = output_path(chosen.model.name)
    by_kind = {f.asset.relpath: f.path for f in fetched}
    launcher = slurm.srun("gc-wizard-forecast") if slurm is not None else []
    argv = [*launcher, str(env.python), str(paths.package_file(FORECAST_PROBE_PATH)), "--params", str(by_kind[chosen.model.relpath]),
            "--dataset", str(by_kind[chosen.dataset.relpath]), "--stats", str(by_kind[chosen.stats[0].relpath].parent),
            "--steps", str(request.steps), "--out", str(out), "--family", assets.family(chosen.model.name)]
    child_env, removed = probe_environment(env.path, backend, dict(env.marker.runtime_env) if env.marker else None)
    log_file = paths.new_log("forecast")
    make_folders(log_file.parent)
    result.log = str(log_file)
    log = StepLog(log_file)
    log.line(f"# gc-wizard forecast {datetime.now().isoformat(timespec='seconds')}: env={env.path} "
             f"model={chosen.model.name} dataset={chosen.dataset.name} steps={request.steps}")
    log.line("# argv: " + " ".join(argv))
    for item in removed:
        log.line(f"# removed from {item['variable']} for this run: {item['dir']} ({item['reason']})")
    stream = ProbeStream(job=SrunJob(on_job, wait=slurm.wait) if slurm is not None else None)
    run = run_probe(argv, child_env, env.path, stream, log, timeout=timeout, cancel=cancel,
                    listeners=ProbeListeners(on_line=lambda line: _line(events, line)))
    if stream.job is not None:
        job = stream.job.state
        result.where = {"node": job.node, "via": "srun", "job_id": job.job_id, "srun": launcher}
    cancelled = run.cancelled or run.timed_out
    stdout = list(stream.stdout)  # a bounded deque: joined with the stderr list below (t19 P5: a TypeError)
    stderr = [line for line in stream.stderr if not line.startswith(STAGE_PREFIX)]
    payload = _last_json(stdout)
    result.cancelled = cancelled
    if payload is not None and not cancelled:
        result.ok = bool(payload.get("ok"))
        result.finite = bool(payload.get("finite"))
        result.backend = str(payload.get("backend") or backend)
        result.devices = list(payload.get("devices") or [])
        result.seconds = dict(payload.get("seconds") or {})
        result.peak_rss_mib = payload.get("peak_rss_mib")
        result.peak_device_mib = payload.get("peak_device_mib")
        result.output = payload.get("output")
        if payload.get("not_finite"):
            counts = ", ".join(f"{k} ({v})" for k, v in sorted(payload["not_finite"].items())[:4])
            result.error = f"the forecast has values that are not finite: {counts}"
            stderr.append(f"gc-wizard-forecast: not finite: {counts}")
        elif payload.get("error"):
            err = payload["error"]
            result.error = f"{err.get('type', 'Error')} while {payload.get('stage', 'running')}: {err.get('message', '')}"
    elif run.queue_timeout and stream.job is not None:
        result.error = queue_sentence(stream.job, slurm.where())
    elif stream.job is not None and not stream.started and not cancelled and stream.job.state.phase != "running":
        result.error = explain("\n".join([*stream.srun, *stream.stderr]), partition=slurm.partition,
                               what="run the forecast").sentence
    elif cancelled:
        result.error = "the forecast was stopped; nothing was changed."
        log.line("# gc-wizard: the forecast was stopped (cancelled or out of time); its output was removed")
    else:
        result.error = "the forecast ended without a result (see the log for what it printed last)."
    if not result.ok and not cancelled and not run.queue_timeout:
        result.findings = diagnose_text("\n".join(stderr + stdout))
        if stream.started or stream.job is None:  # the user's PYTHONWARNINGS, JAX_*, XLA_* named (31B P12)
            result.findings = with_behaviour_finding(result.findings, child_env, os.environ,
                                                     failure=result.error or "no message",
                                                     text="\n".join(stderr + stdout), what="The forecast",
                                                     again="gc-wizard forecast")
    shadow = probe_shadow([], env.path, child_env)
    if shadow is not None and not cancelled:
        # What put a copy of jax first at every start of the env's Python (a .pth file, a sitecustomize.py, the user
        # site): the forecast imported it, so it is the root cause, as verify says (22nd hostile pass P6: the only
        # finding was "'graphcast' is not a package").
        result.findings = [shadow, *[f for f in result.findings if f.id != shadow.id]]
    if not result.ok:
        out.unlink(missing_ok=True)
        result.output = None
    elif source.is_local:
        remember_assets(source.location)  # named by the next failure and "Next:" lines (walk 23 #4)
    return result


def _fetch_failed(result: ForecastResult, exc: assets.AssetError, recipe: str | None,
                  given: assets.Source | str | None = None) -> ForecastResult:
    """`result` for files that could not be had: the sentence (the gathering command given the env's recipe), the
    finding it reads as, and the stage that failed. `given`: the source asked for; when it is not the folder the
    last forecast that worked used, that folder is named first in the fix (walk 23 #4: the
    failure explained the bucket and the five files, not the lab folder used five minutes earlier)."""
    exc = _with_remembered_folder(exc, given)
    result.failed_stage = "fetch"
    result.findings = diagnose_text(assets.for_recipe(str(exc), recipe))  # its evidence quotes the sentence
    if exc.fix is not None and result.findings:
        # The cause is the error and the fix is said once, by the finding, in this sentence's own words (the files
        # by name, the command that works here).
        result.error = exc.cause
        # and its evidence is the cause alone: quoting the whole sentence said the fix a second time (walk 21 #3)
        result.findings = [replace(result.findings[0], fix=assets.for_recipe(exc.fix, recipe), evidence=(exc.cause,)),
                           *result.findings[1:]]
    else:
        result.error = assets.for_recipe(str(exc), recipe)
    # The gathering command names this environment's recipe, never the catalogue's `RECIPE`.
    result.findings = [replace(f, fix=assets.for_recipe(f.fix, recipe)) for f in result.findings]
    # A log like every other run's, so `report` and `diagnose` find this one too (walk 18: the report had no trace
    # of a forecast that never got its files).
    log_file = paths.new_log("forecast")
    with StepLog(log_file) as log:
        log.line(f"# gc-wizard forecast {datetime.now().isoformat(timespec='seconds')}: env={result.env}: "
                 "the files could not be had")
        log.line(f"gc-wizard-forecast: {result.error}")
    result.log = str(log_file)
    return result


def _with_remembered_folder(exc: assets.AssetError, given: assets.Source | str | None) -> assets.AssetError:
    """`exc` with the folder the last forecast that worked used named first in its fix, when that is not the source
    that just failed; `exc` as it is otherwise."""
    last = remembered_assets()
    location = given.location if isinstance(given, assets.Source) else given
    if not last or (location and "://" not in location and Path(expand_home(location)).resolve() == Path(last)):
        return exc
    words = (f"Your last forecast used --assets {last}: give it again (`{paths.program_command()} forecast --assets "
             f"{shell_word(last)}`).")
    if exc.fix is not None:
        fix = f"{words} {exc.fix}"
        return assets.AssetError(f"{exc.cause} {fix}", cause=exc.cause, fix=fix)
    return assets.AssetError(f"{exc} {words}")


def _stage(events: ForecastEvents, name: str) -> None:
    if events.on_stage is not None:
        events.on_stage(name)


def _line(events: ForecastEvents, line: str) -> None:
    """A line the probe printed: its stage lines move the stages on, the rest go to the caller as they are."""
    if line.startswith(STAGE_PREFIX):
        try:
            stage = bounded.loads_json(line[len(STAGE_PREFIX):]).get("stage")
        except (ValueError, AttributeError):
            stage = None
        if stage:
            _stage(events, str(stage))
    elif events.on_line is not None:
        events.on_line(line)


def _last_json(lines: list[str]) -> dict[str, Any] | None:
    for line in reversed(lines):
        if line.strip():
            try:
                value = bounded.loads_json(line)
            except ValueError:
                return None
            return value if isinstance(value, dict) else None
    return None


def describe(result: ForecastResult) -> list[str]:
    """The result in plain lines, the one wording both faces print. Paths and file names stand on lines of
    their own, whole, so they can be copied from an 80-column terminal."""
    lines = []
    steps = f"{result.steps} step" + ("s" if result.steps != 1 else "")
    where = "the CPU" if result.backend == "cpu" else f"the GPU ({', '.join(result.devices)})" \
        if result.devices else "the GPU"
    if result.ok:
        took = result.seconds
        model = "GenCast" if "gencast" in (result.model or "").lower() else "GraphCast"
        node = (result.where or {}).get("node")
        here = f"on node {node} (through srun)" if result.where else "here"
        lines.append(f"{model} forecasts {here}: {steps} on {where}, every value finite.")
        if result.note:  # walk 23 #5: another model than the one announced ran without a word
            lines.append(f"  note      {result.note[0].upper()}{result.note[1:]}.")
        lines.append(f"  model     {result.model}")
        lines.append(f"  dataset   {result.dataset}")
        lines.append(f"  seconds   load {took.get('load', 0):.1f} · compile {took.get('compile', 0):.1f} · "
                     f"rollout {took.get('rollout', 0):.1f}")
        memory = f"  memory    peak {result.peak_rss_mib} MiB host"
        if result.peak_device_mib is not None:
            memory += f", {result.peak_device_mib} MiB device"
        lines.append(memory)
        lines.append(f"  files     {CHECKED[result.assets.get('checked', 'none')]}")
        lines.append(f"  from      {result.assets.get('source')}")
        lines.append("  output")
        lines.append(f"    {result.output}")
        lines += _next_after_forecast(result)
    elif result.cancelled:
        lines.append("The forecast was stopped; the environment is untouched.")
    else:
        lines.append(f"The forecast failed: {result.error}")
    lines.append("  log")
    lines.append(f"    {result.log}")
    return lines


def _next_after_forecast(result: ForecastResult) -> list[str]:
    """What to do after a forecast that worked: more steps, what the source holds, how to read the predictions.
    walk 23 #5: the output path was the last word, with no next step. Each command stands on a
    line of its own, whole, to be copied (the source's folder and the output path quoted for a shell).
    The gc-wizard lines come from the one builder of Next lines (`next_steps.wizard_lines`): a chosen state folder
    exported first, as install's are (walk 24 #4: pasted in a new shell, "there is no current environment yet"), and
    a forecast that ran through srun runs there again (`SlurmTarget.flags`, walk 24 #3)."""
    from wizard.after.next_steps import wizard_lines  # deferred: only after a forecast that worked

    source = str(result.assets.get("source") or "")
    given = f" --assets {shell_word(source)}" if source.startswith("/") else ""
    env = "" if result.env == _current_env_path() else f" --env {shell_word(result.env)}"
    read = f"import xarray; print(xarray.open_dataset({result.output!r}))"
    python = Path(result.env) / "bin" / "python"
    held = assets.file_parts(result.dataset).get("steps", "")
    most = int(held) if ascii_digits(held) else 0
    more = ([f"  all {most} steps this example dataset holds:",
             *(f"    {line}" for line in wizard_lines(f"forecast{env}{given} --steps {most}", result.slurm))]
            if most > result.steps else
            ["  more 6-hour steps need a longer example dataset; what the source holds:",
             *(f"    {line}" for line in wizard_lines(f"forecast --list{given}"))])
    return ["Next:", *more,
            "  read the predictions (NetCDF) with xarray, in the environment's Python:",
            f"    {shell_word(str(python))} -c {shell_word(read)}"]


def _current_env_path() -> str | None:
    """The current environment's folder (history's), None when there is none or it cannot be read."""
    try:
        from wizard.history.store import load_history  # deferred: only after a forecast that worked

        current = load_history().current()
    except Exception:  # the words are a convenience; a history that cannot be read leaves --env in
        return None
    return current.env if current is not None else None


def _size(size: int | None) -> str:
    if size is None:
        return "      ?   "
    return f"{size / 2**20:7.1f} MiB" if size >= 2**20 else f"{size / 2**10:7.1f} KiB"


def describe_listing(listing: list[assets.Asset], source: assets.Source, why: str | None = None) -> list[str]:
    """`forecast --list`: what the source holds, by kind, with sizes where known; `why`: the `assets_place` key of a
    source the user did not name, said beside it (walk 26 #13: which folder was listed, and why that one)."""
    # Each name as one row (`one_line`: a file's `\n` or `\r` escaped; 36th hostile pass (part A) P4).
    lines = [f"In {one_line(source.describe())}{f' ({PLACE_WORDS[why]})' if why in PLACE_WORDS else ''}:"]
    for kind in assets.KINDS:
        lines.append(f"  {kind}/")
        for asset in (a for a in listing if a.kind == kind):
            lines.append(f"    {_size(asset.size)}  {one_line(asset.relpath)}")
    held = {a.relpath.split("/", 1)[-1] if a.relpath.startswith(assets.PREFIXES[:2]) else a.relpath for a in listing}
    missing = [name for name in assets.first_forecast_files() if name not in held]
    if missing and not any(a.kind == "params" for a in listing):  # a first forecast cannot start from it
        lines.append(f"A first forecast needs {len(missing)} file(s) it does not hold. {assets.local_copy_words()}")
    return lines
