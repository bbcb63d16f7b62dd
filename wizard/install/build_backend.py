"""What building a GraphCast source runs, read from its `pyproject.toml`'s `[build-system]` as data (never imported,
never run): its `setup.py` under setuptools, or the build backend the file names — from a folder inside the source
(`backend-path`) or from the packages `requires` installs.

Why: 32nd hostile pass (part B) P6 — a v0.1.1 checkout with a new `pyproject.toml` (`build-backend = "be"`,
`backend-path = ["_be"]`) was said to run "its setup.py", which was unchanged; the install ran `_be/be.py`. The
caution (`sources.checkout_caution`) names what runs, so the user looks at the right file.
"""

from __future__ import annotations

from pathlib import Path

from wizard import bounded

#: The backends that build by running the source's setup.py (setuptools' own, its legacy one included).
_SETUPTOOLS = ("setuptools.build_meta", "setuptools.build_meta:__legacy__")


def build_runs(pyproject: str | None, root: Path | None = None) -> str:
    """What a build of the source runs, with whose code it is: "its setup.py (its own code, with your rights)", or
    "the build backend `be` its pyproject.toml names, from its own _be/be.py (its own code, with your rights)", or a
    backend from the packages its `[build-system]` requires. `pyproject`: the file's text (None: no such file);
    `root`: the source's folder, where a `backend-path` module is looked for (None: an archive's, not unpacked)."""
    system = _build_system(pyproject)
    backend = system.get("build-backend")
    if not isinstance(backend, str) or not backend.strip() or backend.strip() in _SETUPTOOLS:
        return "its setup.py (its own code, with your rights)"
    backend = backend.strip()
    paths = [p for p in system.get("backend-path") or () if isinstance(p, str)] \
        if isinstance(system.get("backend-path"), list) else []
    if paths:
        found = _module_file(root, paths, backend.split(":", 1)[0]) if root is not None else None
        where = found or " or ".join(f"{p.rstrip('/')}/" for p in paths)
        return (f"the build backend `{backend}` its pyproject.toml names, from its own {where} (its own code, "
                "with your rights)")
    requires = [r for r in system.get("requires") or () if isinstance(r, str)] \
        if isinstance(system.get("requires"), list) else []
    from_where = f" ([build-system] requires {', '.join(requires)})" if requires else ""
    return (f"the build backend `{backend}` its pyproject.toml names{from_where} (code its pyproject.toml chooses, "
            "with your rights)")


def _build_system(text: str | None) -> dict:
    """The `[build-system]` table, or {} for no file, a file that is not TOML, or no such table."""
    if not text:
        return {}
    try:
        data = bounded.loads_toml(text)
    except (ValueError, ImportError):  # not TOML (or Python 3.10 without tomli): the setuptools default stands
        return {}
    system = data.get("build-system") if isinstance(data, dict) else None
    return system if isinstance(system, dict) else {}


def _module_file(root: Path, paths: list[str], module: str) -> str | None:
    """`_be/be.py` (or `_be/be/__init__.py`): the backend module's file under the first `backend-path` folder that
    has it, relative to `root`; None when none does (the build then fails to import it)."""
    parts = [part for part in module.strip().split(".") if part]
    if not parts:
        return None
    for folder in paths:
        for candidate in (Path(folder, *parts[:-1], parts[-1] + ".py"), Path(folder, *parts, "__init__.py")):
            try:
                if (root / candidate).is_file():
                    return candidate.as_posix()
            except (OSError, ValueError):
                continue
    return None
