"""`walk`: `os.walk` (top-down, links to folders listed but never entered) without recursion.

Why: Python 3.11's `os.walk` and `Path.rglob` call themselves once per folder level, so a chain of about 1,000 nested
folders (made with relative `mkdir`s; PATH_MAX does not stop it) ends them with a RecursionError, which the wizard
can only call a bug. `plan`/`install` from a checkout holding one, `diagnose --env` of an env holding one and
`rollback` with one under the state's `modules/` all stopped that way (33rd hostile pass (part A) P1; the env-size
walk was fixed alone before, seventh hostile pass 11a). Every walk of a folder tree in the wizard comes here
(tests/unit/test_tree_walk.py forbids `os.walk` and `rglob` in the package).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator


def walk(top: str | os.PathLike, onerror: Callable[[OSError], object] | None = None
         ) -> Iterator[tuple[str, list[str], list[str]]]:
    """What `os.walk(top, onerror=onerror)` yields, in the same order, from a stack instead of recursion.

    As with `os.walk`, the caller may prune the folder list in place to leave a folder out; a link to a folder is
    listed among the folders but never entered; a folder that cannot be listed goes to `onerror` (if given) and is
    passed over."""
    stack = [os.fspath(top)]
    while stack:
        folder = stack.pop()
        try:
            entries = os.scandir(folder)
        except OSError as error:
            if onerror is not None:
                onerror(error)
            continue
        dirs: list[str] = []
        files: list[str] = []
        failed = False
        with entries:
            while True:
                try:
                    entry = next(entries)
                except StopIteration:
                    break
                except OSError as error:
                    if onerror is not None:
                        onerror(error)
                    failed = True
                    break
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                (dirs if is_dir else files).append(entry.name)
        if failed:
            continue
        yield folder, dirs, files
        for name in reversed(dirs):  # reversed: popped in the order os.walk would enter them
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                stack.append(path)


def remove_tree(path: str | os.PathLike) -> None:
    """`shutil.rmtree(path, ignore_errors=True)` that a deep tree cannot stop: Python 3.11's `rmtree` calls itself
    once per folder level, and `ignore_errors` does not catch the RecursionError a 1,000-deep chain gives, so the
    clean-up of a failed install, rollback or bundle would end as "a bug" (left by the 33rd hostile pass's P1 fix).
    Past that depth, files and links go first, then folders deepest first; links are removed, never followed."""
    try:
        shutil.rmtree(path, ignore_errors=True)
        return
    except RecursionError:
        pass
    folders: list[str] = []
    for top, dirs, files in walk(path):
        folders.append(top)
        for name in files + [d for d in dirs if os.path.islink(os.path.join(top, d))]:
            try:
                os.unlink(os.path.join(top, name))
            except OSError:
                continue
    for folder in reversed(folders):
        try:
            os.rmdir(folder)
        except OSError:
            continue
