"""`gc-wizard detect [--json]`: what this machine has, problems first."""

from __future__ import annotations

import argparse

from wizard.commands import options
from wizard.commands.cluster_options import facts_for, slurm_target, where_line
from wizard.commands.output import emit_json, say, warn
from wizard.detect.facts import Facts
from wizard.detect.preflight import assess, summary_lines


def render(facts: Facts) -> list[str]:
    """A short aligned summary: warnings first, then driver, GPUs, libraries, Python, disk."""
    lines: list[str] = []
    if facts.warnings:
        lines.append("Problems:")
        lines.extend(f"  ! [{w.id}] {w.message}" for w in facts.warnings)
        lines.append("")
    rows: list[tuple[str, str]] = []
    if facts.driver:
        d = facts.driver
        source = "ASSUMED, not detected" if d.source == "assumed" else f"from {d.source}"
        rows.append(("Driver", f"{d.version or 'unknown version'}  (supports CUDA up to {d.cuda_driver_version or '?'};"
                               f" {source})"))
    else:
        rows.append(("Driver", "none usable"))
    if facts.gpus:
        for gpu in facts.gpus:
            mem = f"{gpu.memory_total_mib / 1024:.0f} GiB" if gpu.memory_total_mib else "? GiB"
            rows.append((f"GPU {gpu.index}", f"{gpu.name}, {mem}, compute capability {gpu.compute_capability or '?'}"
                                             + (" (assumed)" if gpu.source == "assumed" else "")))
    else:
        rows.append(("GPUs", "none"))
    # The copies that matter: what loads first, and what LD_LIBRARY_PATH / a conda env put in the way.
    # A server with three toolkits has dozens of copies; the rest are counted, and listed by --json.
    shown = [lib for lib in facts.cuda_libraries if lib.loads_first or lib.found_via in ("LD_LIBRARY_PATH", "conda")]
    for lib in shown:
        mark = "  <- loads first" if lib.loads_first else ""
        rows.append((f"{lib.name} {lib.version or ''}".strip(), f"{lib.path} (via {lib.found_via}){mark}"))
    hidden = len(facts.cuda_libraries) - len(shown)
    if hidden:
        rows.append(("CUDA libs", f"{hidden} more {'copy' if hidden == 1 else 'copies'} off the search path "
                                  "(toolkits, wheels); see gc-wizard detect --json"))
    env = facts.environment
    jax = env.packages.get("jax")
    jaxlib = env.packages.get("jaxlib")
    rows.append(("Python", f"{facts.python.version}  {facts.python.executable}"))
    rows.append(("Environment", f"{env.kind}  {env.path}"))
    if jax or jaxlib:
        rows.append(("JAX", f"jax {jax or '-'}, jaxlib {jaxlib or '-'}"
                            + (f" ({env.jaxlib_cuda_tag})" if env.jaxlib_cuda_tag else "")))
    rows.append(("Platform", f"{facts.platform.os} {facts.platform.arch}, glibc {facts.platform.glibc or '?'}"))
    free = facts.disk.state_free_gib
    rows.append(("Free disk", f"{free if free is not None else '?'} GiB at {facts.disk.path}"))
    mem = facts.memory
    if mem and mem.total_mib:
        text = f"{mem.total_mib / 1024:.1f} GiB total"
        if mem.available_mib is not None:
            text += f", {mem.available_mib / 1024:.1f} GiB available"
        if mem.limit_mib:
            text += f", limited to {mem.limit_mib / 1024:.1f} GiB by a cgroup (a job or container limit)"
        rows.append(("Host RAM", text))
    else:
        rows.append(("Host RAM", "unknown"))
    width = max(len(k) for k, _ in rows)
    lines.extend(f"{k.ljust(width)}  {v}" for k, v in rows)
    lines += ["", "What fits in memory (GraphCast / GenCast, before you install):"]
    lines.extend(f"  {line}" for line in summary_lines(assess(facts)))
    return lines


def run(args: argparse.Namespace) -> int:
    target = slurm_target(args)
    if target is not None and not args.json:
        say(f"Detecting on a node of {('partition ' + target.partition) if target.partition else 'the default partition'}"
            " through srun …")
    facts = facts_for(args, on_line=warn)
    if args.json:
        data = facts.to_dict()
        data["preflight"] = [fit.to_dict() for fit in assess(facts)]
        emit_json(data)
    else:
        where = where_line(facts)
        if where:
            say(where)
            say("")
        for line in render(facts):
            say(line)
    return 0


def configure(sub) -> list[argparse.ArgumentParser]:
    p = options.add_command(sub, "detect", "what this machine has: driver, max CUDA, GPUs, CUDA/cuDNN libraries, "
                            "Python, disk", "gc-wizard detect --json > facts.json", run)
    options.slurm_options(p)
    options.assume_options(p)
    options.json_option(p)
    return [p]
