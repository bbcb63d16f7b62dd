"""`gc-wizard bundle --with-assets`: the forecast's files put into an offline bundle, checksummed.

Why: a firewalled GPU node reaches neither PyPI nor the bucket. The bundle already carries every wheel;
with its assets (the model, an example batch that fits it, the three statistics files) under `assets/`,
laid out like the bucket with a SHA256SUMS, the same node runs `gc-wizard install RECIPE --bundle DIR` and
then `gc-wizard forecast` with every index and host closed: the install records the bundle's assets in the
environment's marker, and the forecast takes them from there (checking every file against the sums).
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

from wizard.after import assets
from wizard.install.bundle import ASSETS, add_files
from wizard.outputs import SHARED_MODE, write_destination
from wizard.security import make_folders, shell_word, writing


def bundle_files_words() -> str:
    """What `bundle --with-assets` says when the bucket does not answer: give the files with `--assets DIR|URL`,
    naming the folder the last forecast that worked used (`assets_memory`), if any, and the five files for a copy by
    hand. The one builder of that advice. Why: walk 26 #5 — the refusal told the user to run, "on a machine that can
    reach it", `bundle --with-assets`: the very command just run; `--assets` (in `--help`) and the lab folder the
    wizard remembered went unsaid."""
    from wizard.after.assets_memory import remembered_assets  # deferred: read only on this refusal

    last = remembered_assets()
    files = "; ".join(f"'{name}'" for name in assets.first_forecast_files())
    mine = (f"Your last forecast used {last}: add `--assets {shell_word(last)}` to the same command. "
            if last else "")
    return (f"{mine}Give the files with `--assets DIR` (a folder laid out like the bucket: params/, dataset/, "
            f"stats/) or `--assets URL` (an http(s) mirror); a folder can be made by copying these five files from "
            f"{assets.BUCKET_URL}{assets.PREFIXES[0]}, keeping their folders: {files}.")


def _bundle_words(exc: assets.AssetError) -> assets.AssetError:
    """`exc` with the bundle's advice (`bundle_files_words`) in place of the forecast's gather-elsewhere words, and the
    bundle's own command in place of "run the forecast again" after a broken download (`assets.resume_words`: the
    bundle said "run the forecast again to resume it", 38th hostile pass (part A) P1)."""
    if exc.fix == assets.resume_words():
        fix = assets.resume_words("the same `bundle` command")
        return assets.AssetError(f"{exc.cause} {fix}", cause=exc.cause, fix=fix)
    if not exc.fix or assets.local_copy_words() not in exc.fix:
        return exc
    fix = bundle_files_words()
    return assets.AssetError(f"{exc.cause} {fix}", cause=exc.cause, fix=fix)


def check_bundle_assets(source: str | None, *, model: str | None, dataset: str | None) -> None:
    """Refuse now (AssetError, UserError) a source, model or dataset `add_assets` could not use, before gigabytes
    of wheels are downloaded; an unreachable bucket in the bundle's words (`bundle_files_words`)."""
    try:
        assets.select(assets.list_assets(assets.open_source(source)), model=model, dataset=dataset, steps=1)
    except assets.AssetError as exc:
        raise _bundle_words(exc) from None


def add_assets(bundle: Path, *, source: str | None, model: str | None, dataset: str | None, steps: int = 1,
               progress: assets.Progress | None = None, cancel: threading.Event | None = None) -> list[str]:
    """Fetch (through the cache) and copy the chosen files into `bundle/assets/`; returns their paths."""
    try:
        opened = assets.open_source(source)
        chosen = assets.select(assets.list_assets(opened), model=model, dataset=dataset, steps=steps)
    except assets.AssetError as exc:
        raise _bundle_words(exc) from None
    folder = bundle / ASSETS
    lines = []
    for asset in chosen.all():
        try:
            fetched = assets.fetch(opened, asset, progress=progress, cancel=cancel)
        except assets.AssetError as exc:
            raise _bundle_words(exc) from None
        relpath = asset.relpath.removeprefix(assets.PREFIXES[0])  # one layout in a bundle: the top level
        target = folder / relpath
        make_folders(target.parent)
        tmp = target.with_name(target.name + ".part")
        tmp.unlink(missing_ok=True)  # copyfile would write through a link left at that name (wizard.outputs)
        with writing(tmp):  # a full disk said of the bundle's file, not the source's (38th pass (A) P4)
            shutil.copyfile(fetched.path, tmp)
        os.replace(tmp, target)
        lines.append(f"{fetched.sha256 or assets.sha256_of(target)}  {relpath}")
    write_destination(folder / assets.SUMS_FILE, "\n".join(lines) + "\n", what="the bundle's asset sums",
                      mode=SHARED_MODE)  # never through a link (wizard.outputs)
    names = [f"{ASSETS}/{line.split('  ', 1)[1]}" for line in lines] + [f"{ASSETS}/{assets.SUMS_FILE}"]
    add_files(bundle, names)
    return names
