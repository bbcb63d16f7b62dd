"""`gc-wizard diagnose [LOGFILE|-] [--env DIR] [--json]`: name the root cause in any pasted log, or check
an environment without running it.

Works on any log — a notebook cell's output, a job's stderr, the wizard's own verify log — not only
the wizard's, and of any size (it is streamed). Exit 1 when something is found (the run it came from
failed, or the log shows a failure nothing known explains), 0 for a clean log and for a stopped run (nothing in it
failed; the text says it was stopped and how to go again), 2 when the file cannot be read. Detection runs only when a finding could use it (to name the LD_LIBRARY_PATH folder that shadows
cuDNN, the GPU recipe that fits the driver, or to rank the causes of a symptom), and its failure never
stops the diagnosis. `--env DIR` reads an environment from disk (wizard/verify/inspect_env.py); with a
log as well, what it finds ranks the causes of a symptom-only log.
"""

from __future__ import annotations

import argparse
import io
import sys

from wizard.commands import options
from wizard.commands.output import emit_json, say, terminal_columns, warn
from wizard.commands.streams import STDIN_NAMES, stdin_problem
from wizard.errors import UserError
from wizard.flows.describe_check import finding_lines
from wizard.flows.diagnosis import (
    PASTE_CHARS,
    LogDiagnosis,
    LogTail,
    UnpackLimit,
    diagnose_file,
    inspect_env_folder,
    judge,
    open_log_text,
    scan_stream,
)
from wizard.wrap import hanging


def _width() -> int:
    """The terminal's width (also when stdout is piped, e.g. into less: stderr's or stdin's terminal), kept between
    60 and 100; COLUMNS is read by the one reader (`output.terminal_columns`)."""
    columns = terminal_columns(0, also=(2, 0))
    return min(100, max(60, (columns or 101) - 1))


def render_findings(findings, *, width: int | None = None) -> str:
    """The findings in the core's words (`flows.describe_check.finding_lines`), wrapped to the terminal."""
    return "\n".join(finding_lines(findings, width or _width()))


def _render_env(report) -> str:
    lines = [f"Environment {report.path} ({report.kind}" + (f", Python {report.python})" if report.python else ")")]
    pk = report.packages
    jax_line = ", ".join(f"{n} {pk[n]}" for n in pk if n == "jax" or n.startswith("jax")) or "no jax"
    lines.append(f"  JAX:        {jax_line}")
    build = report.jaxlib_build
    lines.append("  jaxlib is:  " + (f"built for CUDA {build.get('cuda') or '?'}, cuDNN {build.get('cudnn') or '?'} "
                                      f"({build['from']})" if build else "a CPU-only build" if "jaxlib" in pk else "absent"))
    if report.nvidia_wheels:
        lines.append("  wheels:     " + ", ".join(f"{n} {v}" for n, v in report.nvidia_wheels.items()))
    first = report.cudnn_loads_first
    lines.append("  cuDNN:      " + (f"{first['version']} loads first, from {first['path']} (via {first['via']})"
                                      if first else "none on the loader's path"))
    if report.ptxas:
        lines.append(f"  ptxas:      {report.ptxas['path']} (CUDA {report.ptxas['version']})")
    if report.graphcast:
        which = "DeepMind's" if report.graphcast["which"] == "deepmind" else "PyPI's unrelated package"
        lines.append(f"  graphcast:  {report.graphcast['version']} ({which})")
    if "numpy" in pk:
        lines.append(f"  numpy:      {pk['numpy']}")
    lines.append(f"  driver:     {report.driver or 'none found on this machine'}")
    return "\n".join(hanging(lines, _width()))  # a long value's further rows under its column (walk 28 #18)


def _scan_stdin(tail: LogTail, limit: UnpackLimit):
    """The log from standard input: a terminal's paste up to the first Ctrl-D, else the stream, bounded."""
    if sys.stdin.isatty():  # otherwise it looks hung: say what it waits for
        sys.stderr.write("gc-wizard: paste the log, then press Ctrl-D on a new line (Ctrl-C cancels).\n")
        sys.stderr.flush()
        # One read to the first Ctrl-D: a chunked reader would wait for a second one. Bounded all the
        # same (PASTE_CHARS): a terminal can be fed by a program too.
        return scan_stream(io.StringIO(sys.stdin.read(PASTE_CHARS)), tail=tail)
    # Read as bytes: a UTF-16 or gzip'd log piped in is unpacked and decoded as a file's is (`open_log_text`).
    stream = (open_log_text(sys.stdin.buffer, "the log on standard input", limit) if hasattr(sys.stdin, "buffer")
              else sys.stdin)
    return scan_stream(stream, tail=tail)


def _diagnose_stdin(context) -> LogDiagnosis:
    """Standard input's log, judged as a file's is (`flows.diagnosis.judge`)."""
    why = stdin_problem()  # /dev/stdin too: with descriptor 0 closed it read whatever holds it now
    if why:
        raise UserError(f"{why}, so there is no log to read; give a LOGFILE, or pipe the log in: "
                        "`gc-wizard diagnose - < run.log`.")
    tail, limit = LogTail(), UnpackLimit()
    try:
        scan = _scan_stdin(tail, limit)
    except OSError as exc:
        raise UserError(f"cannot read the log from standard input: {exc.strerror or exc}.") from None
    return judge(scan, "".join(tail), "the log on standard input", limit, context, name="standard input")


def run(args: argparse.Namespace) -> int:
    env_dir = getattr(args, "env", None)
    source = getattr(args, "logfile", None)
    report = None
    if env_dir:
        report = inspect_env_folder(env_dir)
        if source is None:
            return _emit_env(args, report)
    source = source or "-"
    context = report.context() if report is not None else None
    # The reading and judging are the core's (`flows.diagnosis`), shared with the app's "Diagnose a log" (walk 26 #12).
    found = (_diagnose_stdin(context) if source in STDIN_NAMES
             else diagnose_file(source, context=context, on_note=warn))
    if found.partial:
        warn(f"{found.partial}.")
    if getattr(args, "json", False):
        data = found.to_dict()
        if report is not None:
            data["environment"] = report.to_dict()
        emit_json(data)
    else:
        say("\n".join(found.lines(_width())))
    if report is not None and not getattr(args, "json", False):
        say("")
        _say_env(report)
    return 1 if found.found else 0


def _say_env(report) -> None:
    say(_render_env(report))
    say("")
    if report.findings:
        count = len(report.findings)
        say(f"Found {count} problem{'s' if count != 1 else ''} in this environment (most serious first):")
        say("")
        say(render_findings(report.findings))
    else:
        say("No known problem found in this environment.")


def _emit_env(args: argparse.Namespace, report) -> int:
    if getattr(args, "json", False):
        emit_json(report.to_dict())
    else:
        _say_env(report)
    return 1 if report.findings else 0


def _log_name(text: str) -> str:
    """An argparse type for LOGFILE: an empty name is no file (it used to fall back to standard input and
    report "no known problem" about a log nobody gave); `-` is how standard input is named."""
    if text == "":
        raise argparse.ArgumentTypeError("there is no file named ''; give the log's file name, or - to read "
                                         "standard input")
    return text


def configure(sub) -> list[argparse.ArgumentParser]:
    p = options.add_command(sub, "diagnose", "name the root cause in a log of a failed JAX/GraphCast run",
                            "gc-wizard diagnose notebook-error.txt\n  gc-wizard diagnose --env ~/.conda/envs/gc",
                            run)
    p.add_argument("logfile", metavar="LOGFILE", nargs="?", default=None, type=_log_name,
                   help="the log to read (any size, streamed); - or nothing reads standard input (paste, then "
                   "Ctrl-D); with --env and no LOGFILE only the environment is checked")
    p.add_argument("--env", metavar="DIR",
                   help="check this environment (venv or conda) from disk without running it: jax/jaxlib "
                   "builds, nvidia-* wheels, the cuDNN the loader picks first, ptxas, numpy, graphcast")
    options.json_option(p)
    return [p]
