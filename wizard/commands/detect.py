"""`gc-wizard detect [--json]`: what this machine has, problems first."""

from __future__ import annotations

import argparse

from wizard.commands import options
from wizard.commands.cluster_options import facts_for, slurm_target, where_line
from wizard.commands.output import emit_json, say, warn, width
from wizard.flows.describe_machine import machine_lines
from wizard.flows.machine import PythonSearch, preflight


def run(args: argparse.Namespace) -> int:
    target = slurm_target(args)
    if target is not None and not args.json:
        say(f"Detecting on a node of {('partition ' + target.partition) if target.partition else 'the default partition'}"
            " through srun …")
    # This machine's other Pythons, looked for while it is detected: saved facts then give the verdicts `recipes`
    # gives here (walk 21 #8). Not for a GPU node (its own `detect --json` looks there) or an assumed GPU.
    search = PythonSearch() if args.json and target is None else None
    facts = facts_for(args, on_line=warn)
    if args.json:
        data = facts.to_dict()
        if search is not None and facts.pythons is None:
            found = search.result()
            if found is not None:
                data["pythons"] = found
        data["preflight"] = [fit.to_dict() for fit in preflight(facts)]
        emit_json(data)
    else:
        where = where_line(facts)
        if where:
            say(where)
            say("")
        for line in machine_lines(facts, columns=width()):
            say(line)
    return 0


def configure(sub) -> list[argparse.ArgumentParser]:
    p = options.add_command(sub, "detect", "what this machine has: driver, max CUDA, GPUs, CUDA/cuDNN libraries, "
                            "Python, disk", "gc-wizard detect --json > facts.json", run)
    options.slurm_options(p)
    options.assume_options(p)
    options.json_option(p)
    return [p]
