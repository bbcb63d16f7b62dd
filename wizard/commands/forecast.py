"""`gc-wizard forecast [--env DIR] [--assets DIR|URL] [--model M] [--dataset D] [--steps N] [--list] [--force] [--json]`.

The demo notebook's forecast in the current (or `--env`) environment: the files from `--assets` (a folder or
a URL laid out like the bucket; GC_WIZARD_ASSETS; else the public bucket through the cache), the model
checked against this machine's memory, the rollout run by the environment's own Python. Exit 0 when every
predicted value is finite, 1 when the forecast (or a download or checksum) failed, 2 for bad input, 130
when stopped.
"""

from __future__ import annotations

import argparse
import sys
import threading

from wizard.commands import options
from wizard.commands.cluster_options import job_reporter, slurm_target
from wizard.commands.diagnose import render_findings
from wizard.commands.output import emit_json, say, warn
from wizard.errors import ExitCode
from wizard.flows.check import env_to_check
from wizard.flows.forecast import (
    STAGE_WORDS,
    ForecastEvents,
    ForecastRequest,
    ProgressText,
    facts_for_forecast,
    list_assets,
    listing_lines,
    listing_source,
    open_assets,
    outcome_lines,
    run_forecast,
)
from wizard.paths import elsewhere_command
from wizard.patterns import whole_number
from wizard.security import one_line


def _progress_printer():
    """Bytes, share and rate on stderr for a terminal (never in --json output, never into a pipe's log)."""
    text = ProgressText()

    def show(name: str, done: int, total: int | None) -> None:
        if not sys.stderr.isatty():
            return
        # The row through the stream's own filter (a file name's controls escaped, `one_line` its newline and return:
        # 36th hostile pass (part A) P4), then the wizard's own erase-line code, written verbatim.
        sys.stderr.write(f"\r  {one_line(text(name, done, total))}")
        getattr(sys.stderr, "write_verbatim", sys.stderr.write)("\x1b[K")
        if total and done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def run(args: argparse.Namespace) -> int:
    as_json = bool(getattr(args, "json", False))
    # A bad --assets is said first, before the environment; without one, the environment may know its own
    # (an offline bundle's), so the source is opened with it.
    chosen = getattr(args, "assets", None)
    if args.list:  # the place `forecast` would read, said with why it is that one (walk 26 #13)
        source, why = listing_source(chosen, getattr(args, "env", None))
        listing = list_assets(source)
        if as_json:
            emit_json({"ok": True, "source": source.describe(),
                       "files": [{"path": a.relpath, "kind": a.kind, "size": a.size} for a in listing]})
        else:
            for line in listing_lines(listing, source, why):
                say(line)
        return ExitCode.OK
    source = open_assets(chosen) if chosen else None
    # Its python runs (the facts, the forecast): the guard of every such run, as verify's (24th pass (B) P7).
    env = env_to_check(getattr(args, "env", None))
    request = ForecastRequest(env=env, assets=source, model=args.model, dataset=args.dataset,
                              steps=args.steps, force=args.force)
    target = slurm_target(args)
    reporter = job_reporter(sys.stderr, "gc-wizard: ", as_json=as_json) if target is not None else None
    started: list[bool] = []

    def on_stage(stage: str) -> None:
        if not started:  # said once the files are chosen: a refusal before that is only its own sentence
            started.append(True)
            say(f"A first forecast in {env.path} …")
        say(f"  ▶ {STAGE_WORDS.get(stage, stage)}")

    events = ForecastEvents() if as_json else ForecastEvents(on_stage=on_stage, on_download=_progress_printer())
    cancel = threading.Event()
    try:
        # The machine is read once the files are listed: through srun that is a job, asked only when they can be had.
        result = run_forecast(request, events=events, cancel=cancel, slurm=target, on_job=reporter,
                              facts_for=lambda: facts_for_forecast(env, target, on_state=reporter))
    except KeyboardInterrupt:
        cancel.set()
        raise
    if as_json:
        if result.error and not result.cancelled:
            warn(result.error)  # errors go to stderr whatever the face (interface.md), as install's do beside --json
        emit_json(result.to_dict())
    else:
        say("")
        for line in outcome_lines(result):
            say(line)
        if result.findings:
            say("")
            say(render_findings(result.findings))
    if result.cancelled:
        return ExitCode.CANCELLED
    return ExitCode.OK if result.ok else ExitCode.FAILED


def _steps(value: str) -> int:
    steps = whole_number(value)  # 0-9 only: int('٣') is 3 (33rd hostile pass (part A) P5)
    if steps is None:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number of 6-hour steps (digits 0-9)") from None
    if not 1 <= steps <= 40:
        raise argparse.ArgumentTypeError(f"{steps} steps: give 1 to 40")
    return steps


#: `forecast --help`'s word on a server that cannot reach the bucket (walk 28 #17: --help said nothing of it). Short, and
#: without this machine's paths: the failed forecast's own fix names the five files and how gc-wizard gets elsewhere.
NO_BUCKET_HELP = (
    "Without storage.googleapis.com (the bucket) here: on a machine that reaches it, copy the five files a first "
    "forecast reads (a forecast run here names them) into DIR, keeping their folders params/, dataset/ and stats/, "
    "then give --assets DIR here. Or install gc-wizard there (it is not on PyPI: `pip install` a copy of this "
    f"checkout into a venv of its own) and run `{elsewhere_command('bundle RECIPE --out DIR --with-assets')}`, then "
    "--assets DIR/assets here.")


def configure(sub) -> list[argparse.ArgumentParser]:
    p = options.add_command(sub, "forecast", "run the demo notebook's first forecast (real weights, one rollout)",
                            "gc-wizard forecast --assets ~/graphcast-assets", run, more=NO_BUCKET_HELP)
    options.env_option(p, "forecast in this environment instead of the current one")
    # SUPPRESS: `gc-wizard --assets DIR forecast` (the app's global option, typed first) keeps its value.
    p.add_argument("--assets", metavar="DIR|URL", default=argparse.SUPPRESS,
                   help="a folder or URL laid out like the bucket (params/, dataset/, stats/, optional SHA256SUMS); "
                   "default: GC_WIZARD_ASSETS, else the public GraphCast bucket")
    p.add_argument("--model", metavar="PARAMS", help="a file under params/ (its name, or a part that matches one)")
    p.add_argument("--dataset", metavar="DATASET", help="a file under dataset/ (default: one that fits the model)")
    p.add_argument("--steps", type=_steps, default=1, metavar="N", help="6-hour steps to roll out (default: 1)")
    p.add_argument("--list", action="store_true", help="list what the source holds, and stop")
    p.add_argument("--force", action="store_true", help="run a model the memory check says will not fit")
    options.slurm_options(p, what="run the forecast on a GPU node through srun (the cluster's default partition, or "
                                  "PARTITION); its files are fetched here, into the shared state folder's assets/, "
                                  "and the predictions written to its forecasts/")
    options.json_option(p)
    return [p]
