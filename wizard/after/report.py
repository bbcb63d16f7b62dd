"""Provides the support report: one Markdown page a lab member can paste to an admin.

A typical help request is written by hand: the notebook cell, the error, a guess at the
fix. An admin then has to ask for the driver, the GPU, which cuDNN actually loads and from where,
the environment, `LD_LIBRARY_PATH`, and the full log. This report answers those questions up front:
the detected facts with the source of each, the current and previous recipes, the last install or
verify with its findings (root cause first) and fixes, the environment variables that decide which
CUDA libraries load, and the tail of the failing log.

Everything is passed through `redact()` before anyone sees it, the preview included: GPU UUIDs, the
host name, user names, the home folder (also inside paths and log lines) and credentials in URLs.
"""

from __future__ import annotations

import datetime as _dt
import getpass
import os
import platform
import re
import socket
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wizard import __version__, bounded, paths
from wizard.after.kernel import kernel_lines
from wizard.detect.environment import described_python, same_file
from wizard.detect.facts import Facts, gib
from wizard.detect.libpath import ld_library_path_entries, split_cuda_bin_dirs, split_cuda_dirs
from wizard.detect.preflight import WORDS, assess, needs_text
from wizard.detect.where import detect_where
from wizard.error_sentences import error_words
from wizard.errors import WizardError
from wizard.history.store import Entry, History, VerifySummary, load_history
from wizard.install.envs import read_marker
from wizard.install.indexes import index_settings
from wizard.security import known_home, one_line, shell_word
from wizard.verify.check import VerifyResult
from wizard.verify.diagnose import diagnose_text
from wizard.verify.protocol import Tier

if TYPE_CHECKING:
    from wizard.detect.slurm import SlurmTarget

#: What the report reads the machine from: the facts, or their `to_dict()` (a report of another machine's JSON).
ReportFacts = Facts | Mapping[str, Any] | None
#: What it reads the runs from: the history, its entries, or its JSON (`{"entries": [...]}`).
ReportHistory = History | Sequence[Entry] | Mapping[str, Any] | None

#: Variables shown in full when set (plus every XLA_*, JAX_*, TF_CPP_* one).
ENV_VARS = (
    "CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "CUDA_HOME", "CUDA_PATH", "CUDNN_HOME",
    "TF_CPP_MIN_LOG_LEVEL", "TF_CPP_MAX_VLOG_LEVEL", "LOADEDMODULES", "CONDA_PREFIX", "CONDA_DEFAULT_ENV",
    "VIRTUAL_ENV", "GC_WIZARD_ACTIVE_ENV", "PYTHONPATH", "PYTHONHOME", "HTTPS_PROXY", "https_proxy",
    "HTTP_PROXY", "http_proxy", "PIP_INDEX_URL", "UV_INDEX_URL",
)
_ENV_PREFIXES = ("XLA_", "JAX_", "TF_CPP_")
#: Always listed, "(not set)" when absent: an admin asks about these first.
_ALWAYS = ("LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "XLA_PYTHON_CLIENT_PREALLOCATE", "XLA_FLAGS",
           "JAX_PLATFORMS", "LOADEDMODULES", "CONDA_PREFIX")
_PACKAGES = re.compile(r"^(jax|jaxlib|jax-cuda.*|numpy|scipy|ml[-_]dtypes|nvidia-.*|dm-haiku|flax|chex|optax|"
                       r"graphcast|jraph|xarray|ipykernel|torch|tensorflow.*)$", re.IGNORECASE)
_NOT_PERSONAL = {"root", "user", "users", "admin", "ubuntu", "nobody", "jovyan", "runner", "home", "local"}
_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
LOG_TAIL_LINES = 60
DIAGNOSE_LINES = 400


# --------------------------------------------------------------------------- redaction


def _get(obj: Any, key: str, default: Any = None) -> Any:
    """A field of a history entry or marker; text as one line (`security.one_line`): the report is Markdown, and a
    newline in an edited entry's field made bullets of its own."""
    if obj is None:
        return default
    value = obj.get(key, default) if isinstance(obj, Mapping) else getattr(obj, key, default)
    return one_line(value) if isinstance(value, str) else value


def _word(literal: str) -> re.Pattern[str]:
    # Not part of a longer name: "hiskim1" matches in "hiskim1_graphcast" and "/home/hiskim1", not in "xhiskim1".
    return re.compile(r"(?<![A-Za-z0-9])" + re.escape(literal) + r"(?![A-Za-z0-9])")


def _identity(environ: Mapping[str, str]) -> tuple[set[str], set[str], set[str]]:
    """(home folders, user names, host names) of whoever runs this."""
    homes = {str(home) for home in [known_home()] if home is not None}
    if environ.get("HOME"):
        homes.add(environ["HOME"])
    homes |= {os.path.realpath(h) for h in list(homes)}
    users = {environ.get(k, "") for k in ("USER", "LOGNAME", "SUDO_USER")}
    try:
        users.add(getpass.getuser())
    except (KeyError, OSError):
        pass
    users |= {Path(h).name for h in homes if h.startswith("/home/")}
    hosts = {environ.get("HOSTNAME", "")}
    try:
        host = socket.gethostname()
        hosts |= {host, host.split(".")[0]}
    except OSError:
        pass
    users = {u for u in users if len(u) >= 3 and u.lower() not in _NOT_PERSONAL}
    hosts = {h for h in hosts if len(h) >= 2 and h.lower() not in ("localhost", "localhost.localdomain")}
    homes = {h.rstrip("/") for h in homes if h and h.rstrip("/") not in ("", "/")}
    return homes, users, hosts


def redact(text: str, *, facts: ReportFacts = None, environ: Mapping[str, str] | None = None,
           homes: Iterable[str] | None = None, users: Iterable[str] | None = None,
           hosts: Iterable[str] | None = None, extra: Iterable[str] = ()) -> str:
    """`text` with GPU UUIDs, home folders, user names, host names and URL credentials replaced.

    By default the home, user and host are this process's own; pass them to redact for someone else.
    `facts` adds its GPUs' UUIDs verbatim (whatever their format); `extra` adds more literals.
    """
    environ = os.environ if environ is None else environ
    my_homes, my_users, my_hosts = _identity(environ)
    homes = set(my_homes if homes is None else homes)
    users = set(my_users if users is None else users)
    hosts = set(my_hosts if hosts is None else hosts)

    # Credentials of every form people paste (URL userinfo, bearer headers, passwords, private keys,
    # *TOKEN*/*KEY*/*SECRET* values, HF/GitHub/AWS/W&B tokens): see wizard.security.redact_secrets.
    from wizard.security import mask_accounts, redact_secrets, reveal_format_characters

    # Control and invisible format characters shown as escapes: the report is pasted into a terminal, a chat,
    # an issue (a history entry's recipe holding ESC ] 0; set a window title, seventh hostile pass 5d).
    text = reveal_format_characters(redact_secrets(text))
    text = re.sub(r"\b(GPU|MIG)-(?:GPU-)?" + _UUID + r"(?:/[0-9]+/[0-9]+)?", r"\1-<redacted>", text)
    text = re.sub(r"\b" + _UUID + r"\b", "<uuid>", text)
    literal_uuids = [str(_get(g, "uuid")) for g in (_get(facts, "gpus") or ()) if _get(g, "uuid")]
    for value in sorted(literal_uuids + [e for e in extra if e], key=len, reverse=True):
        text = text.replace(value, "<redacted>")
    for home in sorted(homes, key=len, reverse=True):
        text = re.sub(re.escape(home) + r"(?![A-Za-z0-9._-])", "~", text)
    # Other people's home folders are nobody's business either.
    text = re.sub(r"(?<![A-Za-z0-9._-])/(home|Users)/(?!<user>)[A-Za-z0-9._-]+", r"/\1/<user>", text)
    # And their accounts, as the sentences that name a folder's owner name them (30th hostile pass (part B) P9).
    text = mask_accounts(text)
    for host in sorted(hosts, key=len, reverse=True):
        text = _word(host).sub("<host>", text)
    for user in sorted(users, key=len, reverse=True):
        text = _word(user).sub("<user>", text)
    return text


# --------------------------------------------------------------------------- pieces


def _cell(value: Any) -> str:
    text = "" if value is None else str(value)
    return text.replace("|", "\\|").replace("\n", " ") or "—"


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows]
    return lines


_RULE = re.compile(r"^\|(?:-{3,}\|)+$")


def preview_markdown(text: str, width: int = 80) -> str:
    """The report as a terminal of `width` columns shows it: each table row a list item (its first cell, then the
    others with their column's name), and a heading too long for a row split before its first `code` or
    parenthesis, which go on a line of their own. The saved file keeps its tables. Walk 21 #9: at 80 columns the tables were crushed to
    `Libr…`/`Versi…` and one word per line, and headings were cut (`…/envs/jax0.4.23-c`)."""
    out: list[str] = []
    lines = text.split("\n")
    fence = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            mark = line[:len(line) - len(line.lstrip("`"))]
            fence = "" if fence and mark.startswith(fence) else (fence or mark)
        if not fence and line.startswith("| ") and i + 1 < len(lines) and _RULE.match(lines[i + 1]):
            header = _cells(line)
            i += 2
            while i < len(lines) and lines[i].startswith("| "):
                out.append(_list_item(header, _cells(lines[i])))
                i += 1
            continue
        cut = min((at for at in (line.find("`"), line.find(" (")) if at > 0), default=-1)
        if not fence and line.startswith("#") and len(line) > width - 4 and cut > 0:
            out += [line[:cut].rstrip(), "", line[cut:].lstrip()]
        else:
            out.append(line)
        i += 1
    return "\n".join(out)


def _cells(row: str) -> list[str]:
    """A table row's cells, their `\\|` back to `|`."""
    return [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", row.strip()[1:-1])]


def _list_item(header: list[str], cells: list[str]) -> str:
    rest = [value if name in ("", "Value") else f"{name}: {value}"
            for name, value in zip(header[1:], cells[1:], strict=False) if value and value != "—"]
    return f"- **{cells[0]}**" + (" — " + " · ".join(rest) if rest else "")


def _code(text: str, lang: str = "text") -> list[str]:
    fence = "````" if "```" in text else "```"
    return [f"{fence}{lang}", text.rstrip("\n"), fence]


def _entries(history: ReportHistory) -> list[Any]:
    if history is None:
        return []
    if isinstance(history, Mapping):
        return list(history.get("entries") or [])
    if isinstance(history, (list, tuple)):
        return list(history)
    return list(_get(history, "entries") or [])


def _current(history: ReportHistory, entries: list[Any]) -> Any:
    current = getattr(history, "current", None)
    if callable(current):
        try:
            return current()
        except Exception:  # a broken history must not stop the report
            pass
    for entry in entries:
        if _get(entry, "current"):
            return entry
    return None


def _finding_dicts(findings: Iterable[Any]) -> list[dict[str, Any]]:
    out = []
    for f in findings or ():
        out.append(f.to_dict() if hasattr(f, "to_dict") else dict(f) if isinstance(f, Mapping) else {"title": str(f)})
    return out


def read_tail(path: str | os.PathLike[str] | None, lines: int) -> str | None:
    """The last `lines` lines of a log file (None when it cannot be read)."""
    if not path:
        return None
    # history.json is data, not a pointer to anything on the machine: only a regular file among the
    # wizard's own logs is read (never /etc/shadow, a FIFO or a link out of logs/), and only its end.
    if not bounded.is_regular_file_under(path, paths.logs_dir()):
        return None
    try:
        text = bounded.read_tail(path)
    except OSError:
        return None
    return "\n".join(text.splitlines()[-lines:])


def unread_words(path: str | os.PathLike[str] | None) -> str:
    """Why `read_tail` gave None for `path`, one parenthesised line for the report (the true reason, never a guess)."""
    if not path:
        return "(no log file is recorded for it)"
    why = bounded.why_not_regular_file_under(path, paths.logs_dir())
    return f"(not shown: {why})" if why else "(the log file could not be read)"


def _recorded_check(entry: Any) -> VerifySummary | VerifyResult | None:
    """An entry's GraphCast check, typed: history's summary; in entries given as JSON, the summary, or
    the whole result as older versions kept it (its tiers, for the tier table)."""
    verify = _get(entry, "verify")
    if isinstance(verify, (VerifySummary, VerifyResult)):
        return verify
    if isinstance(verify, Mapping):
        return VerifyResult.from_dict(verify) if isinstance(verify.get("tiers"), list) else \
            VerifySummary.from_dict(verify)
    return None


def _summary(check: VerifySummary | VerifyResult | None) -> VerifySummary | None:
    return check.summary() if isinstance(check, VerifyResult) else check


def _check_findings(check: VerifySummary | VerifyResult | None) -> list[dict[str, Any]]:
    """The findings a check recorded: in full from a whole result, else the summary's titles and fixes."""
    if isinstance(check, VerifyResult):
        return _finding_dicts(check.findings)
    if check is None:
        return []
    return [dict(d) for d in check.finding_details] or [{"id": f, "title": f} for f in check.findings]


def _is_failure(entry: Any) -> bool:
    """A run that failed, or whose check failed. Not a cancelled one: somebody chose to stop it (a Ctrl-C, scancel),
    and the report called a newcomer's own Ctrl-C "the most recent failure" with "no known failure signature"
    (walk 22 #4). A run that died unasked is recorded "failed" (`history.store`)."""
    status = str(_get(entry, "status") or "")
    check = _recorded_check(entry)
    return status == "failed" or (check is not None and check.ok is False and not _stopped_by_user(entry))


def _stopped_by_user(entry: Any) -> bool:
    """Whether the entry's GraphCast check was stopped by the user (Ctrl-C, the app's stop question) rather than
    failed. walk 23 #7: a check stopped and kept unchecked ("installed") made the report say
    "No known failure signature found" and print a "Failing log", while History said "stopped by you"; a stopped
    check is `VerifySummary.stopped` (a whole older result: a `cancelled` tier), and every part of the report
    that decides "failed" asks here."""
    summary = _summary(_recorded_check(entry)) if entry is not None else None
    return summary is not None and summary.stopped


def _preflight_section(facts: ReportFacts) -> list[str]:
    """What fits in memory: GraphCast and GenCast at 1° and 0.25° against the GPUs and host RAM."""
    try:
        typed = facts if isinstance(facts, Facts) else Facts.from_dict(dict(facts))
        fits = assess(typed)
    except Exception as exc:  # a report must never fail on a partial or foreign facts dict
        return ["### What fits in memory", "", f"Not assessed ({error_words(exc)}).", ""]
    rows = [(f.need.name, WORDS[f.verdict], f.message, needs_text(f.need)) for f in fits]
    return ["### What fits in memory", ""] + _table(("Model", "Fits", "Why", "Needs"), rows) + [""]


def _machine_heading(facts: ReportFacts) -> str:
    """Which machine the facts are: a GPU node read through srun says so (node, partition, job)."""
    marker = _get(facts, "slurm") if facts is not None else None
    if marker and _get(marker, "srun"):
        part = f", partition {_get(marker, 'partition')}" if _get(marker, "partition") else ""
        return (f"## GPU node {_get(marker, 'node') or '?'} (detected through srun{part}, job "
                f"{_get(marker, 'job_id') or '?'})")
    return "## Machine (what gc-wizard detected)"


def _machine_section(facts: ReportFacts, environ: Mapping[str, str] | None = None) -> list[str]:
    lines = [_machine_heading(facts), ""]
    if facts is None:
        return lines + ["Detection did not run.", ""]
    rows: list[Sequence[Any]] = []
    driver = _get(facts, "driver")
    if driver is None:
        rows.append(("NVIDIA driver", "none usable (see warnings)", ""))
    else:
        rows.append(("NVIDIA driver", _get(driver, "version") or "unknown", _get(driver, "source")))
        rows.append(("Max CUDA the driver supports", _get(driver, "cuda_driver_version") or "unknown",
                     _get(driver, "source")))
    for gpu in _get(facts, "gpus") or ():
        mem = _get(gpu, "memory_total_mib")
        details = [str(_get(gpu, "name"))]
        if mem:
            details.append(gib(mem, 0))
        if _get(gpu, "compute_capability"):
            details.append(f"compute capability {_get(gpu, 'compute_capability')}")
        rows.append((f"GPU {_get(gpu, 'index')}", ", ".join(details), _get(gpu, "source")))
    if not (_get(facts, "gpus") or ()):
        rows.append(("GPUs", "none found", ""))
    py = _get(facts, "python")
    if py is not None:
        executable = _get(py, "executable")
        shown, words = described_python(dict(os.environ if environ is None else environ))
        label = words if _get(facts, "slurm") is None and same_file(executable, shown) else \
            "the Python detection described"
        rows.append(("Python", f"{_get(py, 'version')} ({executable})", label))
        if not same_file(executable, sys.executable):
            rows.append(("gc-wizard's own Python", f"{platform.python_version()} ({sys.executable})",
                         "the running interpreter; a new environment is built on it when it fits the recipe"))
    env = _get(facts, "environment")
    if env is not None:
        rows.append(("Environment", f"{_get(env, 'kind')}: {_get(env, 'path')}", "sys.prefix / CONDA_PREFIX"))
        if _get(env, "jaxlib_cuda_tag"):
            rows.append(("jaxlib build", _get(env, "jaxlib_cuda_tag"), "jaxlib's version"))
    plat = _get(facts, "platform")
    if plat is not None:
        glibc = f", glibc {_get(plat, 'glibc')}" if _get(plat, "glibc") else ""
        rows.append(("Platform", f"{_get(plat, 'os')} {_get(plat, 'arch')}{glibc}", ""))
    disk = _get(facts, "disk")
    if disk is not None and _get(disk, "state_free_gib") is not None:
        rows.append(("Free disk (state folder)", f"{_get(disk, 'state_free_gib'):.1f} GiB", _get(disk, "path") or ""))
    memory = _get(facts, "memory")
    if memory is not None and _get(memory, "total_mib"):
        limit = _get(memory, "limit_mib")
        rows.append(("Host RAM", gib(_get(memory, "total_mib")) + (f", cgroup limit {gib(limit)}" if limit else ""),
                     _get(memory, "source") or ""))
    lines += _table(("", "Value", "Source"), rows) + [""]
    lines += _preflight_section(facts)

    packages = dict(_get(env, "packages") or {}) if env is not None else {}
    shown = {k: v for k, v in packages.items() if _PACKAGES.match(k)} if len(packages) > 30 else packages
    if shown:
        # The environment detection read (an active conda env or venv, else the python3 first on PATH), which is
        # neither the GraphCast environment (its own section says that one's) nor, necessarily, the Python running
        # gc-wizard: walk 18's report called a pyenv Python that, while the wizard ran from a venv.
        lines += [f"### Packages in the detected Python environment ({_get(env, 'kind') or '?'} "
                  f"{_get(env, 'path') or '?'}: the active one, else python3 on PATH)", ""]
        lines += _table(("Package", "Version"), sorted(shown.items())) + [""]

    libs = list(_get(facts, "cuda_libraries") or ())
    lines += ["### CUDA and cuDNN libraries the loader can see", ""]
    if libs:
        lines += _table(("Library", "Version", "Path", "Found via", "Loads first"),
                        [(_get(c, "name"), _get(c, "version") or "?", _get(c, "path"), _get(c, "found_via"),
                          "yes" if _get(c, "loads_first") else "") for c in libs]) + [""]
    else:
        lines += ["None outside the environment's own wheels.", ""]

    warnings = list(_get(facts, "warnings") or ())
    if warnings:
        lines += ["### Warnings from detection", ""]
        lines += [f"- `{_get(w, 'id')}`: {_get(w, 'message')}" for w in warnings] + [""]
    return lines


def _verify_section(entries: list[Any]) -> list[str]:
    """The last `gc-wizard verify` (history records every one): when, which env, the result, its findings."""
    last = next((e for e in reversed(entries) if _get(e, "kind") == "verify"), None)
    lines = ["## Last verify", ""]
    if last is None:
        # Walk 21 #10: "has not been run" first read as "nothing was checked".
        return lines + ["No separate `gc-wizard verify` run; each install's own GraphCast check is in its status "
                        "(\"verified\" below) and under \"Last install / verify\".", ""]
    summary = _summary(_recorded_check(last)) or VerifySummary(ok=None)
    result = ("passed" if summary.ok else f"stopped by you at `{summary.failed_tier or '?'}` (not failed)"
              if summary.stopped else f"FAILED at `{summary.failed_tier or '?'}`")
    lines.append(f"- `{_get(last, 'finished') or _get(last, 'started')}`: environment `{_get(last, 'env')}` "
                 f"({summary.backend or '?'} backend): **{result}**; log `{_get(last, 'log') or '—'}`")
    if summary.finding_details:
        lines += ["", "Findings of that verify (root cause first):", ""]
        lines += [f"{i}. **{d.get('title') or d.get('id')}** (`{d.get('id')}`)"
                  + (f" — Fix: {d['fix']}" if d.get("fix") else "") for i, d in enumerate(summary.finding_details, 1)]
    elif summary.findings:
        lines += ["", "Findings of that verify: " + ", ".join(f"`{f}`" for f in summary.findings)]
    return lines + [""]


def _built_lines(entry: Any, environ: Mapping[str, str]) -> list[str]:
    """How the current environment was built: the installer, the GraphCast source, the wheelhouses, lock or bundle,
    and the indexes and find-links pages that installer's settings add (read now, from the variables and settings
    files). Walk 21 #10: an admin debugging a no-GitHub install needs exactly these, and the report named none."""
    # Every value from the history file on one line: an edited entry's newline must not start a line of its own
    # (tenth hostile pass T10).
    installer = _get(entry, "installer")
    given = _get(entry, "graphcast_given")
    lines = [f"- **Installer:** {one_line(str(installer)) if installer else 'unknown (an older wizard did not record it)'}",
             f"- **GraphCast source:** `{one_line(str(given))}` (a local copy)" if given
             else "- **GraphCast source:** the recipe's own (its pinned GitHub commit)"]
    links = list(_get(entry, "find_links") or ())
    if links:
        lines.append("- **Find-links given:** " + ", ".join(f"`{one_line(str(link))}`" for link in links))
    if isinstance(_get(entry, "lock"), dict):
        lines.append(f"- **Lock:** `{one_line(str(_get(entry, 'lock').get('path')))}`")
    if _get(entry, "bundle"):
        lines.append(f"- **Bundle:** `{one_line(str(_get(entry, 'bundle')))}`")
    try:
        settings = index_settings(installer, environ) if installer in ("uv", "pip") else []
    except Exception:  # settings files that cannot be read now: the rest of the report still comes out
        settings = []
    if settings:
        lines.append(f"- **{installer}'s settings add (now):** " + "; ".join(s.describe() for s in settings))
    return lines


def _history_section(entries: list[Any], current: Any, read: bool = True,
                     environ: Mapping[str, str] | None = None) -> list[str]:
    lines = ["## Environments (history)", ""]
    if not read:  # not "none made current yet": nothing is known of it (thirteenth hostile pass #33)
        return [*lines, "- **Current:** unknown: the history could not be read (see the summary)", ""]
    if current is not None:
        env = _get(current, "env")
        found = read_marker(env) if env else None
        marker = found.to_dict() if found else {}
        lines.append(f"- **Current:** recipe `{_get(current, 'recipe')}`, status {_get(current, 'status')}, "
                     f"entry `{_get(current, 'id')}`, environment `{env}`")
        if marker:
            lines.append(f"- **Recipe title:** {marker.get('title') or '—'}; backend {marker.get('backend') or '—'}; "
                         f"created {marker.get('created') or '—'}; verified {marker.get('verified') or 'never'}")
            runtime = marker.get("runtime_env") or {}
            if runtime:
                lines.append("- **Runtime variables:** " + ", ".join(f"`{k}={v}`" for k, v in runtime.items()))
        lines += _built_lines(current, os.environ if environ is None else environ)
        lines += [f"- **Jupyter kernel:** {line}" for line in kernel_lines(env)]  # outside the state folder
    else:
        lines.append("- **Current:** none (no environment has been made current yet)")
    lines.append("")
    if entries:
        recent = list(reversed(entries))[:12]
        lines += _table(("Entry", "Kind", "Recipe", "Status", "Current", "Started", "Finished", "Environment"),
                        [(_get(e, "id"), _get(e, "kind"), _get(e, "recipe"), _get(e, "status"),
                          "yes" if _get(e, "current") else "", _get(e, "started"), _get(e, "finished"), _get(e, "env"))
                         for e in recent])
        if len(entries) > len(recent):
            lines.append(f"\n({len(entries) - len(recent)} older entries not shown.)")
    else:
        lines.append(f"No installs yet in {paths.state_words()}.")  # which folder, and why that one (walk 25 #4)
    return lines + [""]


def _findings_lines(findings: list[dict[str, Any]]) -> list[str]:
    lines: list[str] = []
    for i, f in enumerate(findings, 1):
        lines.append(f"{i}. **{f.get('title') or f.get('id')}** (`{f.get('id')}`)")
        if f.get("explanation"):
            lines.append(f"   {f['explanation']}")
        if f.get("fix"):
            lines.append(f"   **Fix:** {f['fix']}")
        evidence = f.get("evidence")
        if evidence:
            items = evidence if isinstance(evidence, (list, tuple)) else [evidence]
            for item in items[:3]:
                lines.append(f"   Evidence: `{str(item).strip()[:300].replace('`', chr(39))}`")
    return lines


def _tier_row(tier: Tier) -> tuple[Any, ...]:
    detail = ", ".join(f"{k}={v}" for k, v in tier.details.items())[:200]
    if tier.error:
        message = str(tier.error.get("message") or "")
        text = f"{tier.error['type']}: {message}" if tier.error.get("type") else message
        detail = (text.splitlines() or [""])[-1][:200]
    result = {"passed": "ok", "skipped": "skipped", "failed": "FAILED"}.get(tier.status, tier.status)
    return tier.name, result, tier.seconds, detail


def _last_run_section(last: Any, findings: list[dict[str, Any]], diagnose_error: str | None) -> list[str]:
    lines = ["## Last install / verify", ""]
    if last is None:
        return lines + ["Nothing has run yet.", ""]
    lines.append(f"- **Entry:** `{_get(last, 'id')}` ({_get(last, 'kind') or 'install'}), recipe "
                 f"`{_get(last, 'recipe')}`, status **{_get(last, 'status')}**")
    lines.append(f"- **When:** {_get(last, 'started')} → {_get(last, 'finished') or '—'}")
    lines.append(f"- **Log:** `{_get(last, 'log') or '—'}`")
    check = _recorded_check(last)
    lines.append("")
    if isinstance(check, VerifyResult) and check.tiers:
        result = "passed" if check.ok else "stopped by you" if _stopped_by_user(last) else "FAILED"
        lines += [f"Verify ({check.backend} backend): {result}", ""]
        lines += _table(("Tier", "Result", "Seconds", "Details"), [_tier_row(t) for t in check.tiers]) + [""]
    elif check is None:
        lines += ["Not verified.", ""]
    stopped = _stopped_by_user(last)
    if stopped:
        tier = _summary(check).failed_tier if check is not None else None
        lines += [f"The GraphCast check was stopped by you{f' at `{tier}`' if tier else ''}; "
                  f"{'installed, unchecked' if str(_get(last, 'status')) == 'installed' else 'not checked'}.", ""]
    lines += ["### Findings (root cause first)", ""]
    if findings:
        lines += _findings_lines(findings)
    elif diagnose_error:
        lines.append(f"Diagnosis could not run: {diagnose_error}")
    else:
        lines.append("No known failure signature found." if _is_failure(last)
                     else "None: the GraphCast check was stopped by you, not failed." if stopped
                     else "None: the last run was stopped on purpose (cancelled), not failed."
                     if str(_get(last, "status") or "") == "cancelled" else "None: the last run did not fail.")
    return lines + [""]


def _last_forecast_section(tail_lines: int = 30) -> list[str]:
    """The newest forecast's log, its end and what diagnosis reads in it: a forecast has no history entry, and the
    report left a failed one out altogether (walk 18). Empty when no forecast ever ran here."""
    try:
        logs = [(path.stat().st_mtime, path) for path in paths.logs_dir().glob("forecast-*.log")]
    except OSError:
        return []
    if not logs:
        return []
    newest = max(logs)[1]
    tail = read_tail(newest, tail_lines)
    lines = ["## Last forecast", "", f"- **Log:** `{newest}`", ""]
    if tail is None:
        return lines + [unread_words(newest), ""]
    found = _finding_dicts(diagnose_text(tail))
    if found:
        lines += ["### Findings (root cause first)", "", *_findings_lines(found), ""]
    return lines + [f"Its last {tail_lines} lines:", "", *_code(tail), ""]


def _env_section(environ: Mapping[str, str]) -> list[str]:
    out: list[str] = []
    ld = environ.get("LD_LIBRARY_PATH")
    if ld is None:
        out.append("LD_LIBRARY_PATH  (not set)")
    else:
        _, removed = split_cuda_dirs(ld)
        why = dict(removed)
        out.append("LD_LIBRARY_PATH  (in order; ← marks folders with CUDA/cuDNN libraries)")
        for folder in ld_library_path_entries(ld) or [""]:  # split as ld.so does, `;` too
            out.append(f"  {folder or '(empty: the current folder)'}" + (f"   ← {why[folder]}" if folder in why else ""))
    path = environ.get("PATH", "")
    _, removed_bins = split_cuda_bin_dirs(path) if path else ([], [])
    if removed_bins:
        out.append("PATH, CUDA toolkit folders only (in PATH order)")
        out += [f"  {folder}   ← {reason}" for folder, reason in removed_bins]
    else:
        out.append("PATH  (no CUDA toolkit folders on it)")
    names = list(dict.fromkeys(list(_ALWAYS[1:]) + list(ENV_VARS)
                               + sorted(k for k in environ if k.startswith(_ENV_PREFIXES))))
    for name in names:
        if name in environ:
            out.append(f"{name}={environ[name]}")
        elif name in _ALWAYS:
            out.append(f"{name}  (not set)")
    return ["## Environment variables", "", *_code("\n".join(out)), ""]


# --------------------------------------------------------------------------- the report


def _env_packages_section(current: Any) -> list[str]:
    """The current GraphCast environment's own packages (frozen when it was installed), the key ones."""
    if current is None:
        return []
    frozen = [str(p) for p in (_get(current, "packages") or ())]
    pairs = [p.split("==", 1) for p in frozen if "==" in p]
    key = [(name, version) for name, version in pairs if _PACKAGES.match(name.strip().lower())]
    if not key:
        return []
    return [f"### Packages in the GraphCast environment `{_get(current, 'env')}` (frozen at install, key ones of "
            f"{len(frozen)})", "", *_table(("Package", "Version"), sorted(key)), ""]


def build_report(facts: ReportFacts, history: ReportHistory, *, environ: Mapping[str, str] | None = None,
                 log_tail_lines: int = LOG_TAIL_LINES, now: _dt.datetime | None = None,
                 problems: Sequence[str] = (), redacted: bool = True) -> str:
    """The Markdown support report. `facts`: a `wizard.detect.facts.Facts` (or its dict) or None; `history`:
    a `History` (or its entries) or None; `problems`: sentences about parts that could not be collected.
    The result is passed through `redact()` unless `redacted=False`.
    """
    environ = dict(os.environ if environ is None else environ)
    now = now or _dt.datetime.now(_dt.timezone.utc)
    entries = _entries(history)
    current = _current(history, entries)
    last = entries[-1] if entries else None
    failing = next((e for e in reversed(entries) if _is_failure(e)), None)

    # Findings: the ones verify recorded; else a diagnosis of the failing log's tail.
    diagnose_error = None
    focus = last if last is not None and _is_failure(last) else None
    findings = _check_findings(_recorded_check(focus))
    fail_log = _get(failing, "log") if failing is not None else None
    tail_for_diagnosis = read_tail(fail_log, DIAGNOSE_LINES)
    if focus is not None and not findings and tail_for_diagnosis:
        try:
            findings = _finding_dicts(diagnose_text(tail_for_diagnosis, facts if not isinstance(facts, Mapping) else None))
        except Exception as exc:  # the report is what people send when things are broken; it must still come out
            diagnose_error = error_words(exc)

    lines = ["# gc-wizard support report", "",
             f"Made by gc-wizard {__version__} on {now.strftime('%Y-%m-%d %H:%M UTC')}. The host name, user names, "
             "home folder, GPU UUIDs and any credentials in URLs are replaced by `<host>`, `<user>`, `~`, "
             "`<redacted>`.", ""]

    # Summary first: what an admin reads before anything else.
    lines += ["## Summary", ""]
    if current is not None:
        lines.append(f"- Current environment: recipe `{_get(current, 'recipe')}` in `{_get(current, 'env')}` "
                     f"({_get(current, 'status')}).")
    elif history is None:
        lines.append("- Current environment: unknown (the history could not be read).")
    else:
        lines.append(f"- No current environment in {paths.state_words()}.")
    if last is not None:
        lines.append(f"- Last run: {_get(last, 'kind') or 'install'} of `{_get(last, 'recipe')}` — "
                     f"**{_get(last, 'status')}**"
                     f"{' (its GraphCast check was stopped by you, so it is unchecked)' if _stopped_by_user(last) else ''}.")
    if findings:
        top = findings[0]
        lines.append(f"- Likely cause: **{top.get('title')}** (`{top.get('id')}`). Fix: {top.get('fix') or '—'}")
    driver = _get(facts, "driver")
    gpus = list(_get(facts, "gpus") or ())
    if facts is not None:
        names = sorted({str(_get(g, 'name')) for g in gpus})
        gpu_text = f"{len(gpus)} × {', '.join(names)}" if gpus else "no GPU found"
        drv = (f"driver {_get(driver, 'version') or '?'} (CUDA ≤ {_get(driver, 'cuda_driver_version') or '?'})"
               if driver is not None else "no usable NVIDIA driver")
        marker = _get(facts, "slurm")
        what = (f"GPU node {_get(marker, 'node') or '?'} (through srun)" if marker and _get(marker, "srun")
                else "Machine")
        lines.append(f"- {what}: {gpu_text}; {drv}.")
    for problem in problems:
        lines.append(f"- Could not collect: {problem}")
    lines.append("")

    lines += _machine_section(facts, environ)
    lines += _env_packages_section(current)
    lines += _verify_section(entries)
    lines += _history_section(entries, current, read=history is not None, environ=environ)
    lines += _last_run_section(last, findings, diagnose_error)
    lines += _last_forecast_section()
    lines += _env_section(environ)

    if failing is not None:
        tail = read_tail(fail_log, log_tail_lines)
        which = "the last run" if failing is last else f"the most recent failure (entry `{_get(failing, 'id')}`)"
        lines += [f"## Failing log: last {log_tail_lines} lines of {which}", "", f"`{fail_log or '—'}`", ""]
        lines += _code(tail) if tail else [unread_words(fail_log) if tail is None else "(the log file is empty)"]
        lines.append("")

    lines += ["## Reproduce", "",
              "- `gc-wizard detect --json` — the facts above as JSON",
              f"- `gc-wizard verify{' --env ' + shell_word(str(_get(current, 'env'))) if current is not None else ''} --json` "
              "— re-run the GraphCast check",
              "- `gc-wizard diagnose LOGFILE` — name the root cause in any log", ""]
    # Text that cannot be written as UTF-8 (a lone surrogate from an edited history, a path's stray byte)
    # is shown as its escape: the report is what people send when things are broken, so it must come out. A path's
    # byte is spelled as every sentence and `--json` line spells it, `\xff` (`paths.as_shown`; review).
    text = paths.as_shown("\n".join(lines))
    return redact(text, facts=facts, environ=environ) if redacted else text


def collect_and_build(*, environ: Mapping[str, str] | None = None, facts: Facts | None = None,
                      slurm: SlurmTarget | None = None) -> str:
    """Detect, load history and build the redacted report; a part that fails is named, not fatal.

    `facts`: facts already detected (the app's, which after --slurm are the GPU node's); else `slurm` (a
    `SlurmTarget`) detects on a GPU node through srun, and without either this machine is detected."""
    problems: list[str] = []
    history = None
    if facts is None:
        try:
            facts = detect_where(slurm)
        except Exception as exc:  # a support report must come out even when detection is what is broken
            where = " on the GPU node through srun" if slurm is not None else ""
            problems.append(f"detection{where} failed ({error_words(exc)})")
    try:
        history = load_history()
    except FileExistsError as exc:  # paths.refuse_state_not_folder: the state path is a file or a device
        problems.append(f"history could not be read: the state folder {exc.filename} is not a folder")
    except WizardError as exc:  # the state refused (another user's, an open folder): its own sentence says why
        problems.append(f"history could not be read: {exc}")
    except Exception as exc:
        problems.append(f"history could not be read ({error_words(exc)})")
    return build_report(facts, history, environ=environ, problems=problems)
