"""gc-wizard: get GraphCast running on a shared GPU server.

Kept import-free on purpose (`os` and `sys` are already loaded when any Python starts): `gc-wizard --version` and every CLI command must not pay for
Textual, Rich or pexpect unless they use them.
"""

import os
import sys

__version__ = "0.1.0"


def _pythonpath_last() -> None:
    """Move the folders PYTHONPATH put on `sys.path` behind everything else, for the wizard's own process.

    Why: Python searches PYTHONPATH before the standard library and the wizard's own packages, so a stale `yaml/`
    or a `json/` left there by another project was imported by the wizard itself — a traceback from
    `yaml.SafeLoader` missing, or that folder's code run inside the wizard (seventh hostile pass 9a/9b). Behind
    the rest they still serve what nothing else provides. The environments the wizard runs get their own
    decision (`wizard.install.activation.stray_pythonpath`); this touches only this interpreter's search path.
    `os` and `sys` are loaded by every interpreter's start already, so this costs no import."""
    value = os.environ.get("PYTHONPATH")
    if not value:
        return
    given = {os.path.abspath(entry) for entry in value.split(os.pathsep) if entry}
    moved = [entry for entry in sys.path if entry and os.path.abspath(entry) in given]
    if moved:
        sys.path[:] = [entry for entry in sys.path if entry not in moved] + moved


_pythonpath_last()
