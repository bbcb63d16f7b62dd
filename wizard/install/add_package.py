"""The one command a user is told to run to add a package to an environment.

Why one function: `kernel install` told a uv-built environment's user to run `python -m pip install ipykernel`,
which fails there ("No module named pip"; fifth hostile pass 2f), while the install's own note gave the uv command.
Both now ask this: `ENV/bin/python -m pip install PACKAGE` where the environment has pip, else
`uv pip install --python ENV/bin/python PACKAGE` (a uv-built environment has no pip of its own).
"""

from __future__ import annotations

import os
from pathlib import Path

from wizard.errors import OperationFailed
from wizard.paths import in_uv_cache, lasting_uv
from wizard.security import shell_line
from wizard.uv_tool import uv_bin


def has_pip(env: str | os.PathLike[str]) -> bool:
    """Whether the environment's own site-packages holds pip (read from its folders, nothing run)."""
    return any(Path(env).glob("lib/python3*/site-packages/pip/__init__.py"))


def add_package_command(env: str | os.PathLike[str], package: str = "PACKAGE", *, pip: bool | None = None) -> str:
    """Shell text that installs `package` into `env`; `pip` says whether the env has pip (default: look)."""
    python = str(Path(env) / "bin" / "python")
    if has_pip(env) if pip is None else pip:
        return shell_line([python, "-m", "pip", "install", package])
    try:
        uv = uv_bin()
    except OperationFailed:  # a wizard without its uv: the name still tells the user what to fetch
        uv = "uv"
    if in_uv_cache(Path(uv)):  # a `uvx` run's own uv goes with `uv cache clean` (33rd hostile pass (part B) P6)
        return f"{lasting_uv()} {shell_line(['pip', 'install', '--python', python, package])}"
    return shell_line([uv, "pip", "install", "--python", python, package])
