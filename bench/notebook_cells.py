"""The demo notebook's forecast cells, as the notebook writes them, run by a GraphCast environment's Python.

`python notebook_cells.py ASSETS MODEL_FILE DATASET_FILE STEPS` — the baseline `bench/forecast.py` times
`gc-wizard forecast` against: the imports cell, "Load the model" (checkpoint from an open file), "Load weather
data" and "Load normalization data" (`xarray.load_dataset(f).compute()` from open files), "Extract training and
eval data", "Build jitted functions" (`construct_wrapped_graphcast`, `hk.transform_with_state`, `jax.jit`) and
"Autoregressive rollout (loop in python)" (`rollout.chunked_prediction`). No widgets, no plots, no bucket: the
files come from a local folder laid out like it.
"""

import dataclasses
import functools
import sys

import haiku as hk
import jax
import numpy as np
import xarray
from graphcast import autoregressive, casting, checkpoint, data_utils, graphcast, normalization, rollout

root, params_file, dataset_file, steps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

with open(f"{root}/params/{params_file}", "rb") as f:
    ckpt = checkpoint.load(f, graphcast.CheckPoint)
params = ckpt.params
state = {}
model_config = ckpt.model_config
task_config = ckpt.task_config

with open(f"{root}/dataset/{dataset_file}", "rb") as f:
    example_batch = xarray.load_dataset(f).compute()

eval_inputs, eval_targets, eval_forcings = data_utils.extract_inputs_targets_forcings(
    example_batch, target_lead_times=slice("6h", f"{steps * 6}h"), **dataclasses.asdict(task_config))

with open(f"{root}/stats/diffs_stddev_by_level.nc", "rb") as f:
    diffs_stddev_by_level = xarray.load_dataset(f).compute()
with open(f"{root}/stats/mean_by_level.nc", "rb") as f:
    mean_by_level = xarray.load_dataset(f).compute()
with open(f"{root}/stats/stddev_by_level.nc", "rb") as f:
    stddev_by_level = xarray.load_dataset(f).compute()


def construct_wrapped_graphcast(model_config, task_config):
    predictor = graphcast.GraphCast(model_config, task_config)
    predictor = casting.Bfloat16Cast(predictor)
    predictor = normalization.InputsAndResiduals(predictor, diffs_stddev_by_level=diffs_stddev_by_level,
                                                 mean_by_level=mean_by_level, stddev_by_level=stddev_by_level)
    predictor = autoregressive.Predictor(predictor, gradient_checkpointing=True)
    return predictor


@hk.transform_with_state
def run_forward(model_config, task_config, inputs, targets_template, forcings):
    predictor = construct_wrapped_graphcast(model_config, task_config)
    return predictor(inputs, targets_template=targets_template, forcings=forcings)


def with_configs(fn):
    return functools.partial(fn, model_config=model_config, task_config=task_config)


def with_params(fn):
    return functools.partial(fn, params=params, state=state)


def drop_state(fn):
    return lambda **kw: fn(**kw)[0]


run_forward_jitted = drop_state(with_params(jax.jit(with_configs(run_forward.apply))))

predictions = rollout.chunked_prediction(run_forward_jitted, rng=jax.random.PRNGKey(0), inputs=eval_inputs,
                                         targets_template=eval_targets * np.nan, forcings=eval_forcings)
print(float(np.isfinite(predictions.to_array().values).mean()))
