"""Chooses uv's link mode when its cache and the new environment are on different filesystems.

Why: uv installs by hardlinking files from its cache, which only works within one filesystem. On a
cluster the cache is often in an NFS home and the environment on local or parallel scratch (or the
other way round); uv then falls back to copying — after printing "Failed to hardlink files; falling
back to full copy" warnings that flood the install log and bury the lines that matter. Deciding it
up front (`UV_LINK_MODE=copy`) gives the same result without the noise, and the plan says why. A
`UV_LINK_MODE` the user set is never overridden — but for `symlink` (`cache_linked`), which leaves every file of
the new environment in uv's cache.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from wizard.install.cache_trust import cache_off, uv_cache_dir


def _device(path: Path) -> int | None:
    """The filesystem of `path`, or of its nearest existing parent (the folder may not exist yet)."""
    for candidate in (path, *path.parents):
        try:
            return os.stat(candidate).st_dev
        except OSError:
            continue
    return None


def download_cache(uv: str, environ: Mapping[str, str] | None = None) -> Path | None:
    """The folder the uv steps download into (None: uv is told to use no cache, or cannot say). Named on the plan:
    on a shared server with a home quota, where gigabytes of wheels go matters (walk 17: they went to ~/.cache/uv
    while the plan spoke only of the state folder's disk)."""
    environ = dict(os.environ if environ is None else environ)
    if cache_off("uv", environ):
        return None
    return uv_cache_dir(uv, environ)


def same_filesystem(one: Path, other: Path) -> bool | None:
    """Whether two folders (or where they would be made) share a filesystem; None when either cannot be read."""
    first, second = _device(one), _device(other)
    return None if first is None or second is None else first == second


#: The uv link modes that leave an environment's files in uv's cache (the environment holds only links to them).
CACHE_LINKED_MODES = ("symlink",)


def cache_linked(environ: Mapping[str, str], cwd: str | os.PathLike[str] | None = None) -> str | None:
    """Where the user's uv is told to make an environment of links into its cache — `UV_LINK_MODE=symlink`, or a
    uv settings file's `link-mode = "symlink"` (its top level or `[pip]`) — in words; None when it is not.

    Why: 30th hostile pass (part B) P7 — with `UV_LINK_MODE=symlink` every package file of the new environment was a
    link into `UV_CACHE_DIR`, the install said "Installed", and after `uv cache clean` (which the wizard's own full-disk
    advice names) every import failed."""
    value = (environ.get("UV_LINK_MODE") or "").strip().lower()
    if value:
        return f"UV_LINK_MODE={value}" if value in CACHE_LINKED_MODES else None
    from wizard.installer_settings import uv_files, uv_settings  # deferred: only a uv install step asks

    for path in uv_files(environ, cwd):
        data = uv_settings(path)
        for table, where in ((data, ""), (data.get("pip") if isinstance(data.get("pip"), dict) else {}, "[pip] ")):
            mode = table.get("link-mode")
            if isinstance(mode, str) and mode.lower() in CACHE_LINKED_MODES:
                return f'`{where}link-mode = "{mode}"` in {path}'
    return None


def unlinked_words(linked: str, mode: str, cache: Path | str | None = None) -> str:
    """The one sentence for a cache-linked mode replaced by `mode` (`cache_linked`): the plan's note, a step's."""
    where = f" ({cache})" if cache else ""
    return (f"{linked} would make every file of the new environment a link into uv's cache{where}, and cleaning "
            f"that cache (`uv cache clean`, a purged scratch disk) would break it: this install uses "
            f"UV_LINK_MODE={mode} instead, so the environment holds its own files.")


def link_mode(uv: str, env_dir: Path, environ: Mapping[str, str] | None = None, *,
              cache: Path | None | str = "ask", cwd: str | os.PathLike[str] | None = None
              ) -> tuple[dict[str, str], str | None]:
    """(variables for the uv steps, a note for the plan) — empty when hardlinks can work and the user's own mode
    keeps the files in the environment. `cache`: uv's cache folder when the caller has asked already
    (`download_cache`), else it is asked here; `cwd`: the folder the steps run in (its uv settings files)."""
    environ = dict(os.environ if environ is None else environ)
    linked = cache_linked(environ, cwd)
    if linked is not None:
        cache = None if cache_off("uv", environ, cwd) else uv_cache_dir(uv, environ) if cache == "ask" else cache
        mode = "hardlink" if isinstance(cache, Path) and same_filesystem(cache, Path(env_dir)) else "copy"
        return {"UV_LINK_MODE": mode}, unlinked_words(linked, mode, cache if isinstance(cache, Path) else None)
    if environ.get("UV_LINK_MODE") or cache_off("uv", environ, cwd):
        return {}, None
    cache = uv_cache_dir(uv, environ) if cache == "ask" else cache
    if not isinstance(cache, Path):
        return {}, None
    cache_dev, env_dev = _device(cache), _device(Path(env_dir))
    if cache_dev is None or env_dev is None or cache_dev == env_dev:
        return {}, None
    return {"UV_LINK_MODE": "copy"}, (
        f"uv's cache ({cache}) and the environment ({env_dir}) are on different filesystems, so uv cannot "
        "hardlink from its cache: it copies the files instead (UV_LINK_MODE=copy), which takes more disk but "
        "spares the log a warning for every package.")
