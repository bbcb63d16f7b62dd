"""`gc-wizard verify [--env DIR] [--graphcast-src SRC] [--level quick|notebook] [--json]`.

Which environment and what it is meant to run on: `--env DIR`, else the current environment from the
history (`wizard.after.target.resolve_env`, as for `activate` and `kernel install`). The environment's
marker (`<env>/gc-wizard-env.json`, written by install) says its backend and the recipe's
`runtime_env`; an environment without a marker (one the user built) is judged by its
jaxlib build, a `+cuda` jaxlib or a CUDA plugin meaning GPU. Exit 0 when every tier passed, 1 when one
failed, 2 for bad input, 130 when cancelled.
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from wizard.commands import options
from wizard.commands.cluster_options import job_reporter, slurm_target
from wizard.commands.diagnose import render_findings
from wizard.commands.output import emit_json, say, warn, width, wrapped
from wizard.errors import ExitCode
from wizard.flows.check import backend_of, check_env, env_to_check, record_or_why
from wizard.flows.describe_check import TIER_TITLES, checked_where, tier_detail
from wizard.flows.history import now

if TYPE_CHECKING:
    from wizard.flows.types import Tier, VerifyResult


def _record(env: Path, result: VerifyResult, started: str) -> str | None:
    """A history entry for this run (`flows.check.record_or_why`); why it was not recorded is warned on stderr, except
    for a cancelled check, and returned for `--json`'s "not_recorded": a lab script reads only the last line (walk 26
    #10)."""
    why = record_or_why(env, result, started)
    if why and not result.cancelled:
        warn(f"{why}.")
    return why


def _tier_line(tier: Tier, columns: int | None = None) -> str:
    """One tier as it finishes: status, name, seconds, and its detail — below, indented, when the
    detail does not fit beside them in the terminal's width (80 columns over SSH or in a pasted log)."""
    took = f"{tier.seconds:6.1f} s" if tier.seconds is not None else "      -"
    head = f"  {tier.status:<8} {tier.name:<19} {took}"
    detail = tier_detail(tier)
    columns = columns or width()
    if len(head) + 2 + len(detail) <= columns:
        return f"{head}  {detail}".rstrip()
    return "\n".join([head, *wrapped(detail, columns, indent=" " * 11)])


def run(args: argparse.Namespace) -> int:
    found = env_to_check(getattr(args, "env", None))
    env, backend = found.path, backend_of(found)
    level = getattr(args, "level", None) or "notebook"
    as_json = bool(getattr(args, "json", False))
    target = slurm_target(args)
    reporter = job_reporter(sys.stderr if as_json else sys.stdout, "gc-wizard: " if as_json else "",
                            as_json=as_json) if target is not None else None
    if not as_json:
        say(f"Verifying {env} (backend {backend}, level {level}) with a real GraphCast jit init"
            + (" on a GPU node through srun" if target is not None else "") + " …")
    cancel = threading.Event()
    started = now()  # the history entry's start: it is written only after the check (walk 23 #11)
    on_tier = None if as_json else (lambda tier: say(_tier_line(tier)))
    try:
        result = check_env(found, level=level, slurm=target, graphcast_src=getattr(args, "graphcast_src", None),
                           timeout=float(getattr(args, "timeout", None) or 900), cancel=cancel, on_tier=on_tier,
                           on_job=reporter)
    except KeyboardInterrupt:
        cancel.set()
        raise
    not_recorded = _record(env, result, started)
    if as_json:
        emit_json({**result.to_dict(), "recorded": not_recorded is None, "not_recorded": not_recorded})
    else:
        say("")
        for item in result.removed_paths:
            # Named whatever the outcome: the user's own shell still has it (`gc-wizard activate` leaves it out).
            say(f"Left out for the check, as `gc-wizard activate` does: {item['dir']} on {item['variable']} "
                f"({item['reason']}).")
        if result.ok:
            node = f" on node {result.node}" if result.node else ""
            say(f"GraphCast runs in this environment ({result.backend}{node}). Log: {result.log}")
        else:
            failed = result.failed_tier
            where = f" at {TIER_TITLES.get(failed.name, failed.name)}" if failed else ""
            if not result.started and not result.cancelled:
                say(f"The GraphCast check never ran: srun did not start it on a node. Log: {result.log}")
            else:
                where += checked_where(result.where)  # which node and job (walk 28 #7)
                say(f"Verification {'was cancelled' if result.cancelled else 'failed' + where}. Log: {result.log}")
            if result.findings:
                say("")
                say(render_findings(result.findings))
    if result.cancelled:
        return ExitCode.CANCELLED
    return 0 if result.ok else 1


def configure(sub) -> list[argparse.ArgumentParser]:
    p = options.add_command(sub, "verify", "run a real GraphCast jit init in an environment and diagnose what fails",
                            "gc-wizard verify --level quick", run)
    options.env_option(p, "check this environment instead of the current one")
    p.add_argument("--graphcast-src", metavar="SRC",
                   help="a GraphCast checkout to import when the environment has none installed")
    options.level_option(p)
    p.add_argument("--timeout", type=options.positive_seconds, default=900.0, metavar="SECONDS",
                   help="stop the check after this long (default: 900)")
    options.slurm_options(p)
    options.json_option(p)
    return [p]
