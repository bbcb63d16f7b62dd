"""Prints the variables the runner gave it."""
import os

for key in ("LD_LIBRARY_PATH", "PYTHONUNBUFFERED", "SECRET_CONDA_THING", "STEP_VAR"):
    print(f"{key}={os.environ.get(key, '<unset>')}")
