"""GraphCast's demo-notebook forecast, run by the target environment's own Python (never imported by the wizard).

Why a separate program: the forecast loads the environment's jaxlib, CUDA libraries and GraphCast, which
must never enter the wizard's process (a broken cuDNN can abort it). It imports nothing from `wizard`.

It does what the notebook's cells do, in their order: `checkpoint.load(f, graphcast.CheckPoint)`, the
example batch and the three normalization files with `xarray.load_dataset` (the reader chosen from each
file's first bytes: `CDF` is NetCDF3 for scipy, `\\x89HDF` NetCDF4/HDF5 for h5netcdf), then
`data_utils.extract_inputs_targets_forcings`, the notebook's `construct_wrapped_graphcast`,
`hk.transform_with_state`, `jax.jit` and `rollout.chunked_prediction` for `--steps` 6-hour steps. With
`--family gencast` it runs the GenCast mini demo's cells instead (a `gencast.CheckPoint`, the fourth statistics
file `min_by_level`, the NaN cleaner, `xarray_jax.pmap`, `chunked_prediction_generator_multiple_runs`, one
ensemble member per local device, 12-hour steps), with the GPU-safe attention off a TPU. It checks
that every predicted value is finite, writes the predictions to `--out` (NetCDF), and prints one JSON line
last on stdout: the figures (`seconds`: load, compile, rollout; `peak_rss_mib`; `peak_device_mib`), the
backend and devices, or the error (`{"ok": false, "stage": ..., "error": {"type", "message"}}`). Progress
goes to stderr as `gc-wizard-forecast: {"stage": ...}` lines.
"""

import argparse
import dataclasses
import functools
import json
import sys
import time

# The check's own pieces: the layout-aware GraphCast imports, the notebook's wrapped predictors, and the memory
# figures, so the forecast runs exactly the model the check initialised.
if __package__:  # imported as wizard.verify.probe.forecast_probe (the wizard's own import checks)
    from . import graphcast_probe as check
else:  # run as a script by the environment's Python: this folder is first on sys.path
    import graphcast_probe as check

STAGE_PREFIX = "gc-wizard-forecast: "
#: Which xarray reader takes a file, by its first bytes.
MAGIC_ENGINES = ((b"CDF", "scipy"), (b"\x89HDF", "h5netcdf"))


_CURRENT = ["start"]


def _stage(name, **details):
    _CURRENT[0] = name
    sys.stderr.write(STAGE_PREFIX + json.dumps({"stage": name, **details}) + "\n")
    sys.stderr.flush()


def engine_for(path):
    """The xarray engine for a NetCDF file, from its first bytes; ValueError names a file that is neither."""
    with open(path, "rb") as handle:
        head = handle.read(8)
    for magic, engine in MAGIC_ENGINES:
        if head.startswith(magic):
            return engine
    # Never the bytes themselves (36th hostile pass (part B) P3): the file is named, and what it is not.
    raise ValueError(f"{path} is not a NetCDF file (it starts with neither 'CDF' nor '\\x89HDF')")


def load_dataset(path):
    import xarray

    return xarray.load_dataset(path, engine=engine_for(path)).compute()


def forecast(args):
    timings = {}
    _stage("import")
    import jax

    gencast = args.family == "gencast"
    gc = check.graphcast_modules(None, check.GRAPHCAST_NAMES + (check.GENCAST_MODULES if gencast else ()))
    data_utils = gc["data_utils"]

    started = time.perf_counter()
    _stage("load_checkpoint")
    with open(args.params, "rb") as handle:
        ckpt = gc["checkpoint"].load(handle, (gc["gencast"] if gencast else gc["graphcast"]).CheckPoint)
    task_config = ckpt.task_config
    hours = 12 if gencast else 6  # GenCast steps 12 h, GraphCast 6 h
    _stage("load_dataset")
    example_batch = load_dataset(args.dataset)
    if example_batch.sizes.get("time", 0) < 2 + args.steps:
        raise ValueError(f"{args.dataset} holds {example_batch.sizes.get('time', 0)} times: {args.steps} steps "
                         f"need {2 + args.steps} (2 inputs and one per step)")
    _stage("load_stats")
    names = ("diffs_stddev_by_level", "mean_by_level", "stddev_by_level") + (("min_by_level",) if gencast else ())
    stats = {name: load_dataset(f"{args.stats}/{name}.nc") for name in names}
    eval_inputs, eval_targets, eval_forcings = data_utils.extract_inputs_targets_forcings(
        example_batch, target_lead_times=slice(f"{hours}h", f"{args.steps * hours}h"),
        **dataclasses.asdict(task_config))
    timings["load"] = time.perf_counter() - started

    calls = []

    def timed(fn):
        # Timed per call, so compilation (inside the first call, as in the notebook) is told apart from the
        # steps themselves without running anything the notebook does not.
        def call(*args, **kw):
            began = time.perf_counter()
            out = fn(*args, **kw)
            jax.block_until_ready(jax.tree_util.tree_leaves(out))
            calls.append(time.perf_counter() - began)
            return out
        return call

    _stage("rollout", steps=args.steps)
    started = time.perf_counter()
    if gencast:
        predictions = _gencast_rollout(gc, ckpt, stats, eval_inputs, eval_targets, eval_forcings, timed)
    else:
        predictions = _graphcast_rollout(gc, ckpt, stats, eval_inputs, eval_targets, eval_forcings, timed,
                                         args.dataset)
    total = time.perf_counter() - started
    later = sorted(calls[1:])
    step = later[len(later) // 2] if later else 0.0
    timings["compile"] = max(0.0, calls[0] - step) if calls else 0.0
    timings["rollout"] = total - timings["compile"]

    _stage("check")
    not_finite = _not_finite(predictions, eval_inputs)
    # Written in the example batch's own format, by the reader that read it (no third library needed).
    predictions.to_netcdf(args.out, engine=engine_for(args.dataset))
    devices = [d.device_kind if d.platform == "gpu" else d.platform for d in jax.devices()]
    return {
        "ok": not not_finite, "finite": not not_finite, "not_finite": not_finite,
        "backend": "gpu" if jax.default_backend() == "gpu" else "cpu", "devices": devices,
        "seconds": {k: round(v, 3) for k, v in timings.items()}, "peak_rss_mib": check.peak_rss_mib(),
        "peak_device_mib": check.gpu_peak_mib(jax), "output": args.out,
        "variables": sorted(predictions.data_vars), "steps": args.steps, "family": args.family,
        "description": str(getattr(ckpt, "description", ""))[:500],
    }


def _not_finite(predictions, inputs):
    """Variables with values that are not finite, and how many. Sea-surface temperature is NaN over land in
    the inputs and GenCast puts those NaNs back (NaNCleaner): only its values over the sea count."""
    import numpy as np

    counts = {}
    for name, var in predictions.data_vars.items():
        bad = ~np.isfinite(var.values)
        if name == "sea_surface_temperature" and name in inputs:
            land = np.isnan(inputs[name].isel(time=-1, drop=True)).broadcast_like(var).values
            bad &= ~land
        if int(bad.sum()):
            counts[name] = int(bad.sum())
    return counts


def _graphcast_rollout(gc, ckpt, stats, eval_inputs, eval_targets, eval_forcings, timed, dataset):
    """The GraphCast notebook's cells: the check's `run_forward` applied under jit, rollout.chunked_prediction."""
    import jax
    import numpy as np

    params, state = ckpt.params, {}
    model_config, task_config = ckpt.model_config, ckpt.task_config
    if model_config.resolution not in (0, 360.0 / eval_inputs.sizes["lon"]):
        raise ValueError(f"the model is for a {model_config.resolution}° grid but {dataset} is on a "
                         f"{360.0 / eval_inputs.sizes['lon']}° grid")
    run_forward = check.graphcast_run_forward(gc, stats)
    jitted = jax.jit(functools.partial(run_forward.apply, model_config=model_config, task_config=task_config))
    one_step = timed(lambda **kw: jitted(params=params, state=state, **kw)[0])
    return gc["rollout"].chunked_prediction(one_step, rng=jax.random.PRNGKey(0), inputs=eval_inputs,
                                            targets_template=eval_targets * np.nan, forcings=eval_forcings)


def _gencast_rollout(gc, ckpt, stats, eval_inputs, eval_targets, eval_forcings, timed):
    """The GenCast mini demo's cells, one ensemble member per local device, with the attention GenCast's GPU
    guide prescribes off TPUs (splash attention runs only on a TPU)."""
    import haiku as hk
    import jax
    import numpy as np
    import xarray

    params, state = ckpt.params, {}
    architecture = ckpt.denoiser_architecture_config
    if jax.default_backend() != "tpu":
        transformer = dataclasses.replace(architecture.sparse_transformer_config, **check.GENCAST_ATTENTION)
        architecture = dataclasses.replace(architecture, sparse_transformer_config=transformer)
    configs = {"sampler_config": ckpt.sampler_config, "task_config": ckpt.task_config,
               "denoiser_architecture_config": architecture, "noise_config": ckpt.noise_config,
               "noise_encoder_config": ckpt.noise_encoder_config}
    construct_wrapped_gencast = check.gencast_constructor(gc, configs, stats)

    @hk.transform_with_state
    def run_forward(inputs, targets_template, forcings):
        predictor = construct_wrapped_gencast()
        return predictor(inputs, targets_template=targets_template, forcings=forcings)

    run_forward_jitted = jax.jit(lambda rng, i, t, f: run_forward.apply(params, state, rng, i, t, f)[0])
    run_forward_pmap = timed(gc["xarray_jax"].pmap(run_forward_jitted, dim="sample"))
    members = len(jax.local_devices())
    rng = jax.random.PRNGKey(0)
    rngs = np.stack([jax.random.fold_in(rng, i) for i in range(members)], axis=0)
    chunks = list(gc["rollout"].chunked_prediction_generator_multiple_runs(
        predictor_fn=run_forward_pmap, rngs=rngs, inputs=eval_inputs, targets_template=eval_targets * np.nan,
        forcings=eval_forcings, num_steps_per_chunk=1, num_samples=members, pmap_devices=jax.local_devices()))
    return xarray.combine_by_coords(chunks)


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", required=True)
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--stats", required=True, help="the folder with the three *_by_level.nc files")
    parser.add_argument("--steps", type=int, default=1)
    parser.add_argument("--out", required=True)
    parser.add_argument("--family", choices=("graphcast", "gencast"), default="graphcast")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        result = forecast(args)
    except BaseException as exc:  # noqa: BLE001 - every failure becomes the one JSON line the wizard reads
        if isinstance(exc, KeyboardInterrupt):
            raise
        import traceback

        traceback.print_exc()
        result = {"ok": False, "stage": _CURRENT[0], "error": {"type": type(exc).__name__, "message": str(exc)[:2000]},
                  "peak_rss_mib": check.peak_rss_mib()}
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
    return 0 if result.get("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
