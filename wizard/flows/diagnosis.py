"""Diagnosing a failure for `gc-wizard diagnose`: read a log of any size (keeping its last lines), read an
environment from its files, and summarise a failure nothing in the catalogue names.

The findings themselves come from `flows.session.findings_for` (the machine detected only when a finding
can use it); this module is the rest of the use case, so the face imports no stage.
"""

from __future__ import annotations

from wizard.after.target import resolve_env
from wizard.verify.diagnose import LogTail as LogTail
from wizard.verify.diagnose import scan_stream as scan_stream
from wizard.verify.diagnose import unrecognised as unrecognised
from wizard.verify.inspect_env import EnvReport, inspect_env
from wizard.verify.log_text import UnpackLimit as UnpackLimit
from wizard.verify.log_text import open_log_text as open_log_text


def inspect_env_folder(env: str) -> EnvReport:
    """What an environment folder holds (its Python need not run): the packages, their CUDA builds, the
    libraries they would load; its `context()` sharpens the log's findings."""
    return inspect_env(resolve_env(env, need_python=False).path)
