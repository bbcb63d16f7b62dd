"""Prints the variables the runner gave it."""
import os

for key in ("LD_LIBRARY_PATH", "PYTHONUNBUFFERED", "SECRET_CONDA_THING", "STEP_VAR", "TERM", "LC_ALL",
            "NO_COLOR", "PYTHONPATH", "VIRTUAL_ENV", "UV_CACHE_DIR"):
    print(f"{key}={os.environ.get(key, '<unset>')}")
