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
from wizard.security import make_folders


def add_assets(bundle: Path, *, source: str | None, model: str | None, dataset: str | None, steps: int = 1,
               progress: assets.Progress | None = None, cancel: threading.Event | None = None) -> list[str]:
    """Fetch (through the cache) and copy the chosen files into `bundle/assets/`; returns their paths."""
    opened = assets.open_source(source)
    chosen = assets.select(assets.list_assets(opened), model=model, dataset=dataset, steps=steps)
    folder = bundle / ASSETS
    lines = []
    for asset in chosen.all():
        fetched = assets.fetch(opened, asset, progress=progress, cancel=cancel)
        relpath = asset.relpath.removeprefix(assets.PREFIXES[0])  # one layout in a bundle: the top level
        target = folder / relpath
        make_folders(target.parent)
        tmp = target.with_name(target.name + ".part")
        tmp.unlink(missing_ok=True)  # copyfile would write through a link left at that name (wizard.outputs)
        shutil.copyfile(fetched.path, tmp)
        os.replace(tmp, target)
        lines.append(f"{fetched.sha256 or assets.sha256_of(target)}  {relpath}")
    write_destination(folder / assets.SUMS_FILE, "\n".join(lines) + "\n", what="the bundle's asset sums",
                      mode=SHARED_MODE)  # never through a link (wizard.outputs)
    names = [f"{ASSETS}/{line.split('  ', 1)[1]}" for line in lines] + [f"{ASSETS}/{assets.SUMS_FILE}"]
    add_files(bundle, names)
    return names
