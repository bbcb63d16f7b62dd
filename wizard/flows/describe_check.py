"""The GraphCast check and a diagnosis in words, built once for `gc-wizard verify`/`diagnose`/`forecast` and the
app's Verify screen: one tier's detail, and the findings with their fixes.

Why here: the CLI (`commands/verify.tier_summary`, `commands/diagnose.render_findings`) and the Verify screen
(`tier_line`, `findings_text`) each had their own words for the same tier and the same finding, and the
screen's dropped the finding's id, ranked causes and evidence. A face lays a tier's row out (a status word
and the tier's id in the CLI's columns, a mark and the tier's title on the screen) around the same detail.
The tiers' titles (`TIER_TITLES`, in the check's order) and the GenCast tier's name are the core's too. Light on
purpose (only `verify.protocol`, which that path loads already): the Verify screen is loaded before the app's
first frame.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from wizard.paths import runnable
from wizard.security import cut
from wizard.verify.protocol import GENCAST_TIER, TIER_TITLES
from wizard.wrap import hanging, wrap

if TYPE_CHECKING:
    from wizard.flows.types import Finding, Tier
    from wizard.verify.check import VerifyResult

__all__ = ["CHECK_TITLE", "check_ran_words", "checked_where", "GENCAST_TIER", "TIER_TITLES", "check_estimate_words", "finding_lines", "running_estimate", "stopping_words", "tier_start_words",
           "tier_detail", "fix_words"]

#: The check as one step of an install or a rollback: the CLI's `==>` line and the app's step row.
CHECK_TITLE = "Checking that GraphCast runs (a real jit init)"


def checked_where(where: Mapping[str, Any] | None) -> str:
    """Where a check ran, to put after its outcome: " on node vm (Slurm job 12)" when it ran through srun, "" here.

    Why one wording: walk 28 #7 — a failed check said neither its node nor its job (only a passed one said "on node
    vm"), while its fix asks to look "in the same shell or job that runs JAX"; the CLI's verify, install and rollback,
    and the app's Verify and Not-done screens say it from here."""
    if not where:
        return ""
    node, job = where.get("node"), where.get("job_id")
    if not node and not job:
        return " through srun"
    return (f" on node {node}" if node else " on a node") + (f" (Slurm job {job})" if job else "")


def check_ran_words(verify: VerifyResult | None) -> str | None:
    """"The GraphCast check ran on node vm (Slurm job 12)." for a check that began on a node and did not pass (said
    beside its failure); None for one here, one that never started, a stopped one, or none."""
    if verify is None or verify.ok or verify.cancelled or not verify.started or not verify.where:
        return None
    return f"The GraphCast check ran{checked_where(verify.where)}."


def _graphcast_init(tier: Tier) -> str:
    d = tier.details
    parts = [f"{d.get('param_count', 0):,} parameters", f"init {d.get('init_seconds')} s"]
    if d.get("trace_seconds") is not None:
        parts[-1] += f" (trace {d.get('trace_seconds')} s, compile {d.get('compile_seconds')} s)"
    parts.append(f"peak RSS {d.get('peak_rss_mib')} MiB")
    return ", ".join(parts)


def _graphcast_found(tier: Tier) -> str:
    """What the import tier found of GraphCast: DeepMind's (which version), none, or another package."""
    graphcast = tier.details.get("graphcast")
    if not isinstance(graphcast, dict):
        return ""
    if graphcast.get("deepmind"):
        return f"; DeepMind's GraphCast {graphcast.get('version') or '?'}"
    return "; no GraphCast installed" if not graphcast.get("present") else "; not DeepMind's GraphCast"


def _jax_import(tier: Tier) -> str:
    d = tier.details
    versions = d.get("versions") or {}
    build = d.get("jaxlib_build_tag") or ("CUDA plugin" if d.get("cuda_plugins") else "CPU build")
    text = f"jax {d.get('jax')}, jaxlib {d.get('jaxlib')} ({build}), numpy {versions.get('numpy')}"
    if d.get("cudnn_build"):
        text += f", built for CUDA {d.get('cuda_build')} / cuDNN {d.get('cudnn_build')}"
    return text + _graphcast_found(tier)


def tier_detail(tier: Tier) -> str:
    """One line of detail for a finished tier: why it did not run, what failed, or what it found."""
    d = tier.details
    if tier.status == "cancelled":
        return "cancelled"
    if tier.status in ("not_run", "skipped"):
        return tier.reason or tier.status.replace("_", " ")
    if tier.status == "failed":
        error = tier.error or {}
        message = str(error.get("message", "")).splitlines()[0] if error.get("message") else ""
        return cut(f"{error.get('type', 'failed')}: {message}", 160)
    if tier.name == "jax_import":
        return _jax_import(tier)
    if tier.name == "backend":
        devices = d.get("devices") or []
        kinds = sorted({str(device.get("kind")) for device in devices})
        return f"{d.get('default_backend')}: {len(devices)} device(s) ({', '.join(kinds)})"
    if tier.name == "cudnn_op":
        return f"convolution ok on {(d.get('device') or {}).get('kind')}, cuDNN {d.get('cudnn_loaded')} loaded"
    if tier.name in ("graphcast_jit_init", "gencast_jit_init"):
        return _graphcast_init(tier)
    return ""


def fix_words(text: str) -> str:
    """A finding's fix (or explanation, or a cause's check) as it is shown: on one line, and each `gc-wizard …` it
    quotes as a new login shell runs it (`paths.runnable`, the program the Next lines name).

    Why here, once: walk 33 #4 — the catalogue's and the check's ~200 fix texts say `gc-wizard install …`,
    `gc-wizard diagnose --env DIR`, …, and printed that bare name where the user's shell cannot find it, while the
    Next lines beside them named `/home/lab/gc-wizard/.venv/bin/gc-wizard`. The texts stay as written (and in history
    and `--json` as such); every place that shows one to the user asks this."""
    return runnable(" ".join(text.split()))


def finding_lines(findings: Sequence[Finding], width: int) -> list[str]:
    """Per finding, numbered: its title and id, explanation, fix, what else it explains, how to tell its
    ranked causes apart, and the log lines that show it; wrapped to `width`, each paragraph's and quoted line's further
    rows under its own start (`wizard.wrap.hanging`: "Fix: " and "> " hang, walk 28 #18)."""
    lines: list[str] = []
    for number, finding in enumerate(findings, 1):
        head = f"{number}. {finding.title}  [{finding.id}]"
        if len(head) > width:
            lines.extend(wrap(f"{number}. {finding.title}", width, "", "   "))
            lines.append(f"   [{finding.id}]")
        else:
            lines.append(head)
        # Between words only: a fix holds commands and options, and `--with-` / `assets` on two rows pasted as two
        # words (walk 21 #3); a path or URL longer than a row stays whole on a row of its own.
        lines += hanging([f"   {fix_words(finding.explanation)}", f"   Fix: {fix_words(finding.fix)}"], width)
        if finding.explains:
            lines += hanging(["   Also explains: " + ", ".join(finding.explains)], width)
        if getattr(finding, "causes", ()):
            lines.append("   How to tell the causes apart:")
            lines += hanging([f"     - {cause['title']}: check {fix_words(cause['check'])}" for cause in finding.causes],
                             width)
        if finding.evidence:
            lines.append("   Evidence:")
            lines += hanging([f"     > {line}" for line in finding.evidence], width)
        lines.append("")
    while lines and not lines[-1]:
        lines.pop()
    return lines


def failed_check_lines(error: str, findings: Sequence[Finding]) -> list[str]:
    """A failed install's error, then each finding as "▶ title" and "  Fix: …", every one said once: a finding whose
    fix the error already says (the transaction's "installed, but TITLE. Fix: FIX", `flows.transaction`) is not
    repeated below it. Walk 33 #11: the Not-done screen printed the same Fix twice, word for word."""
    said = fix_words(error)
    lines = [runnable(error)]
    for finding in findings:
        fix = fix_words(finding.fix)
        if fix and f"Fix: {fix}" in said:
            continue
        lines += ["", f"▶ {finding.title}", f"  Fix: {fix}"]
    return lines


def _has_gencast(graphcast_version: str) -> bool:
    """Whether a GraphCast of this version has GenCast, so the check runs its tier too (0.2 and later)."""
    return not str(graphcast_version).startswith("0.1")


def check_estimate_words(backend: str, graphcast_version: str) -> str | None:
    """How long the plan's GraphCast check takes here, from the check's data (`verify.check_time`): "its GraphCast
    jit init takes about 50 s and GenCast's about 2 min on the CPU (measured on 2 CPU cores)". Both faces' plans print it (walk 25 #7: nothing said v0.2 recipes check GenCast too, nor for how
    long); None when the data has no time for this backend."""
    # Deferred: the Verify screen loads this module before the app's first frame; only a plan reads the table.
    from wizard.verify.check_time import tier_time

    graphcast = tier_time("graphcast_jit_init", backend)
    gencast = tier_time(GENCAST_TIER, backend) if _has_gencast(graphcast_version) else None
    if graphcast is None:
        return None
    where = "on the CPU" if graphcast.backend == "cpu" else "on a GPU"
    bases = sorted({t.basis_words() for t in (graphcast, gencast) if t is not None})
    if gencast is None:
        return f"its GraphCast jit init takes {graphcast.about()} {where} ({bases[0]})"
    return (f"its GraphCast jit init takes {graphcast.about()} and GenCast's "
            f"{gencast.about()} {where} ({'; '.join(bases)})")


def running_estimate(tier_name: str, done: Sequence[Tier]) -> str:
    """" of about 2 min": what the running tier usually takes on the backend the check found (its `backend` tier),
    said beside its clock on the Verify screen (walk 25 #7); "" when unknown."""
    from wizard.verify.check_time import tier_time  # deferred: see `check_estimate_words`

    backend_tier = next((t for t in done if t.name == "backend"), None)
    backend = (backend_tier.details.get("default_backend") if backend_tier is not None else None) or None
    known = tier_time(tier_name, str(backend)) if backend else None
    return f" of {known.about()}" if known is not None else ""


def tier_start_words(tier_name: str, backend: str | None) -> str | None:
    """"GenCast jit init: started (about 2 min on the CPU; Ctrl-C stops it)": said when a slow tier of the check
    starts, for a tier the check-time data gives a time for (None for the quick ones). Walk 26 #8: the CLI printed
    nothing between GraphCast's init and GenCast's two silent minutes, where the app's Verify screen shows a clock."""
    from wizard.verify.check_time import tier_time  # deferred: see `check_estimate_words`

    known = tier_time(tier_name, backend)
    if known is None:
        return None
    where = "on the CPU" if known.backend == "cpu" else "on a GPU"
    return f"{TIER_TITLES.get(tier_name, tier_name)}: started ({known.about()} {where}; Ctrl-C stops it)"


def stopping_words(in_check: bool, keep: bool) -> str:
    """What a stop is doing, said the moment it is asked (walk 26 #8: the CLI showed `^C` and nothing else for 8 s
    while it ended GenCast's init), and where the installed environment goes: kept unchecked (the app's "k", the
    CLI's `--keep-unchecked`) or removed. One wording for the faces; the decision is `errors.keeps_install`'s."""
    if in_check and keep:
        return ("stopping the GraphCast check…; the installed environment is kept, unchecked and not current "
                "(a `verify --env` line follows)")
    if in_check:
        return ("stopping the GraphCast check…; the unfinished environment is then removed (`install "
                "--keep-unchecked` keeps it, unchecked, when the check is stopped)")
    return "stopping…: ending the installer's processes; the unfinished environment is then removed"
