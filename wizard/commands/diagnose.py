"""`gc-wizard diagnose [LOGFILE|-] [--json]`: name the root cause in any pasted log.

Works on any log — a notebook cell's output, a job's stderr, the wizard's own verify log — not only
the wizard's. Exit 1 when something is found (the run it came from failed), 0 for a clean log, 2 when
the file cannot be read. Detection runs only when a finding could use it (to name the LD_LIBRARY_PATH
folder that shadows cuDNN, or the GPU recipe that fits the driver), and its failure never stops
the diagnosis.
"""

from __future__ import annotations

import argparse
import sys
import textwrap

from wizard.commands import options
from wizard.commands.output import emit_json, say
from wizard.errors import UserError


def read_log(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    try:
        with open(source, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError as exc:
        raise UserError(f"cannot read the log file {source}: {exc.strerror or exc}.") from None


def _facts_quietly():
    """This machine's facts, or None: diagnosis must never fail because detection did."""
    try:
        from wizard.detect.chain import detect

        return detect()
    except Exception:
        return None


def render_findings(findings, *, width: int = 100) -> str:
    """Plain text: per finding its title, explanation, fix and evidence lines."""
    lines: list[str] = []
    for number, finding in enumerate(findings, 1):
        lines.append(f"{number}. {finding.title}  [{finding.id}]")
        for paragraph in (finding.explanation, "Fix: " + finding.fix):
            lines.extend(textwrap.wrap(paragraph, width=width, initial_indent="   ", subsequent_indent="   "))
        if finding.explains:
            lines.append("   Also explains: " + ", ".join(finding.explains))
        if finding.evidence:
            lines.append("   Evidence:")
            lines.extend(f"     > {line}" for line in finding.evidence)
        lines.append("")
    return "\n".join(lines).rstrip("\n")


def run(args: argparse.Namespace) -> int:
    from wizard.verify.diagnose import diagnose_text, uses_facts

    source = getattr(args, "logfile", None) or "-"
    text = read_log(source)
    findings = diagnose_text(text)
    if findings and uses_facts(findings):
        facts = _facts_quietly()
        if facts is not None:
            findings = diagnose_text(text, facts)
    name = "standard input" if source == "-" else source
    if getattr(args, "json", False):
        emit_json({"findings": [f.to_dict() for f in findings], "log": name})
    elif not findings:
        say(f"No known problem found in {name}.")
    else:
        say(f"Found {len(findings)} problem{'s' if len(findings) != 1 else ''} in {name} (root cause first):")
        say("")
        say(render_findings(findings))
    return 1 if findings else 0


def configure(sub) -> list[argparse.ArgumentParser]:
    p = options.add_command(sub, "diagnose", "name the root cause in a log of a failed JAX/GraphCast run",
                            "gc-wizard diagnose notebook-error.txt", run)
    p.add_argument("logfile", metavar="LOGFILE", nargs="?", default="-",
                   help="the log to read; - or nothing reads standard input (paste, then Ctrl-D)")
    options.json_option(p)
    return [p]
