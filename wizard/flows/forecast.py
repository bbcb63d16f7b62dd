"""The first forecast, for both faces: the files it takes (listed and checked), the memory check against
the machine that runs it, the run in stages, and the words that describe its outcome.

The stages live in `wizard.after` (`forecast`, `assets`); this is the use case the faces call, including
which facts the memory check reads (the GPU node's through srun, else this machine's, else none).
"""

from __future__ import annotations

from wizard.after import assets
from wizard.after.assets import ProgressText as ProgressText
from wizard.after.assets import SourceWords as SourceWords
from wizard.after.assets_memory import remembered_assets as remembered_assets
from wizard.after.forecast import STAGE_WORDS as STAGE_WORDS
from wizard.after.forecast import STAGES as STAGES
from wizard.after.forecast import ForecastEvents as ForecastEvents
from wizard.after.forecast import ForecastRequest as ForecastRequest
from wizard.after.forecast import assets_place, prepare
from wizard.after.forecast import describe as outcome_lines
from wizard.after.forecast import describe_listing as listing_lines
from wizard.after.forecast import run_forecast as run_forecast
from wizard.detect.chain import detect
from wizard.detect.facts import Facts
from wizard.detect.where import detect_where
from wizard.errors import UserError
from wizard.install.envs import Env

__all__ = ["STAGES", "STAGE_WORDS", "ForecastEvents", "ForecastRequest", "ProgressText", "SourceWords", "check_assets",
           "check_assets_for", "env_at", "remembered_assets",
           "facts_for_forecast", "list_assets", "listing_lines", "listing_source", "open_assets", "outcome_lines", "run_forecast"]


def open_assets(location: str | None) -> assets.Source:
    """Where the forecast's files come from (a folder, a URL, DeepMind's bucket by default)."""
    return assets.open_source(location)


def listing_source(location: str | None, env: str | None = None) -> tuple[assets.Source, str | None]:
    """`forecast --list`'s source and, for one the user did not name, why it is that one (`PLACE_WORDS`'s key): the
    place `forecast` would take its files from (`assets_place`) for `env` (its --env, else the current environment,
    if any). Why: walk 26 #13 — `--list` read the bucket while `forecast` and f used the lab's folder."""
    if location:
        return assets.open_source(location), None
    from wizard.flows.history import current_env  # deferred: only a --list without --assets reads the history

    folder = env if env else current_env()
    place, why = assets_place(Env.at(folder) if folder else None)
    return assets.open_source(place), why


def list_assets(source: assets.Source) -> list[assets.Asset]:
    """Every file the source offers (models, statistics, example datasets)."""
    return assets.list_assets(source)


def check_assets(location: str | None, *, model: str | None, dataset: str | None) -> None:
    """Refuse now (AssetError) a source, model or dataset that a one-step forecast could not use."""
    source = assets.open_source(location)
    assets.select(assets.list_assets(source), model=model, dataset=dataset, steps=1)


def check_assets_for(env: Env, location: str, words: assets.SourceWords = assets.CLI_WORDS) -> str:
    """`location` (a folder, or an http(s) URL) checked as `forecast --assets` checks it before anything downloads
    (`prepare`: the source opened, the files a forecast in `env` reads chosen from it); the location, stripped, when a
    forecast can take its files from there, else the refusal (UserError, AssetError) in the face's `words`
    (`assets.SourceWords`: the app's dialog names no `--assets`, walk 33 #13). For the app, whose forecast took its
    files only from `--assets` at start-up (walk 22 #5)."""
    location = location.strip()
    if not location:
        raise UserError("No folder given: give the folder that holds the forecast's files (params/, dataset/, "
                        "stats/).")
    prepare(ForecastRequest(env=env, assets=location, words=words))
    return location


def env_at(folder: str) -> Env:
    """The environment in `folder` (its name as the user gave it, `~` expanded)."""
    return Env.at(folder)


def facts_for_forecast(env: Env, slurm=None, *, on_state=None) -> Facts | None:
    """The machine the memory check reads: the GPU node through srun (a partition Slurm refuses is
    said), else this machine as `env` sees it; None when detection fails here (the check is a guard,
    not a gate: no facts, no refusal)."""
    if slurm is not None:
        return detect_where(slurm, on_state=on_state)
    try:
        return detect(env.path)
    except Exception:
        return None
