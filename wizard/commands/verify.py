"""`gc-wizard verify [--env DIR] [--graphcast-src SRC] [--level quick|notebook] [--json]`.

Which environment and what it is meant to run on: `--env DIR`, else the current environment from the
history. The environment's marker (`<env>/gc-wizard-env.json`, written by install) says its backend and
the recipe's `runtime_env`; an environment without a marker (one the user built) is judged by its
jaxlib build, a `+cuda` jaxlib or a CUDA plugin meaning GPU. Exit 0 when every tier passed, 1 when one
failed, 2 for bad input, 130 when cancelled.
"""

from __future__ import annotations

import argparse
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from wizard.commands import options
from wizard.commands.output import emit_json, say, warn
from wizard.errors import ExitCode, UserError, WizardError
from wizard.install.envs import Env, current_env


def resolve_target(env_arg: str | None) -> tuple[Path, str, dict[str, str]]:
    """(environment, expected backend, runtime_env) for `verify`."""
    from wizard.history.store import load_history

    if env_arg:
        from wizard.paths import unusable_env_path

        why = unusable_env_path(str(env_arg))
        if why:
            raise UserError(f"--env: {why}.")
        env = Env.at(env_arg)
        if not env.path.is_dir():
            raise UserError(f"--env {env_arg} is not a folder.")
    else:
        env = current_env(load_history())
    marker = env.marker
    if marker is None:
        return env.path, "auto", {}
    return env.path, marker.backend, dict(marker.runtime_env)


def _record(env: Path, result) -> None:
    """A history entry for this run, and the marker's `verified` date when it passed (best effort:
    another wizard holding the state lock must not turn a finished check into an error)."""
    from wizard.history.store import now, record_verify
    from wizard.install import envs

    if result.cancelled:
        return
    try:
        if record_verify(env, result.to_dict(), log=result.log) is None:
            warn("another gc-wizard holds the state folder, so this verify is not in `gc-wizard history`.")
        marker = envs.read_marker(env)
        if result.ok and marker:
            envs.write_marker(env, replace(marker, verified=now()))
    except (OSError, WizardError) as exc:  # a finished check is still worth its result
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        warn(f"this verify could not be recorded in the history ({detail}).")


def tier_summary(tier: dict[str, Any]) -> str:
    """One line of detail per tier, for people."""
    name = tier.get("name")
    if tier.get("status") == "not_run":
        return tier.get("reason", "not run")
    if tier.get("status") == "failed":
        error = tier.get("error") or {}
        message = str(error.get("message", "")).splitlines()[0] if error.get("message") else ""
        return f"{error.get('type', 'failed')}: {message}"[:160]
    if name == "jax_import":
        versions = tier.get("versions") or {}
        build = tier.get("jaxlib_build_tag") or ("CUDA plugin" if tier.get("cuda_plugins") else "CPU build")
        text = f"jax {tier.get('jax')}, jaxlib {tier.get('jaxlib')} ({build}), numpy {versions.get('numpy')}"
        if tier.get("cudnn_build"):
            text += f", built for CUDA {tier.get('cuda_build')} / cuDNN {tier.get('cudnn_build')}"
        return text
    if name == "backend":
        devices = tier.get("devices") or []
        kinds = sorted({str(d.get("kind")) for d in devices})
        return f"{tier.get('default_backend')}: {len(devices)} device(s) ({', '.join(kinds)})"
    if name == "cudnn_op":
        if tier.get("skipped"):
            return tier.get("reason", "skipped")
        return f"convolution ok on {tier.get('device', {}).get('kind')}, cuDNN {tier.get('cudnn_loaded')} loaded"
    if name in ("graphcast_jit_init", "gencast_jit_init"):
        parts = [f"{tier.get('param_count', 0):,} parameters", f"init {tier.get('init_seconds')} s"]
        if tier.get("trace_seconds") is not None:
            parts[-1] += f" (trace {tier.get('trace_seconds')} s, compile {tier.get('compile_seconds')} s)"
        parts.append(f"peak RSS {tier.get('peak_rss_mib')} MiB")
        return ", ".join(parts)
    return ""


def _tier_line(tier: dict[str, Any]) -> str:
    status = tier.get("status") or ("passed" if tier.get("ok") else "failed")
    seconds = tier.get("seconds")
    took = f"{seconds:6.1f} s" if isinstance(seconds, (int, float)) else "      -"
    return f"  {status:<8} {tier.get('name', '?'):<19} {took}  {tier_summary(tier)}"


def run(args: argparse.Namespace) -> int:
    from wizard.commands.cluster_options import slurm_target
    from wizard.verify.check import verify_env

    env, backend, runtime_env = resolve_target(getattr(args, "env", None))
    level = getattr(args, "level", None) or "notebook"
    as_json = bool(getattr(args, "json", False))
    target = slurm_target(args)
    launcher = target.srun("gc-wizard-verify") if target is not None else []
    if not as_json:
        say(f"Verifying {env} (backend {backend}, level {level}) with a real GraphCast jit init"
            + (" on a GPU node through srun" if launcher else "") + " …")
    cancel = threading.Event()
    on_tier = None if as_json else (lambda tier: say(_tier_line(tier)))
    try:
        result = verify_env(env, backend=backend, level=level, graphcast_src=getattr(args, "graphcast_src", None),
                            timeout=float(getattr(args, "timeout", None) or 900), runtime_env=runtime_env,
                            cancel=cancel, on_tier=on_tier, launcher=launcher)
    except KeyboardInterrupt:
        cancel.set()
        raise
    _record(env, result)
    if as_json:
        emit_json(result.to_dict())
    else:
        say("")
        if result.ok:
            node = f" on node {result.where.get('node')}" if result.where and result.where.get("node") else ""
            say(f"GraphCast runs in this environment ({result.backend}{node}). Log: {result.log}")
        else:
            from wizard.commands.diagnose import render_findings

            failed = result.failed_tier
            where = f" at {failed['name']}" if failed else ""
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
