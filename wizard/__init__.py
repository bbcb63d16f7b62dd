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
    `os` and `sys` are loaded by every interpreter's start already, so this costs no import.

    The folder this package itself was imported from stays where it is: gc-wizard installed with `pip install
    --target DIR` and run with `PYTHONPATH=DIR` has its dependencies there, and moved behind the system's
    dist-packages it ran on Debian's PyYAML and Pygments and `bundle` packed those (33rd hostile pass (part B) P2)."""
    value = os.environ.get("PYTHONPATH")
    if not value:
        return
    home = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    given = {os.path.abspath(entry) for entry in value.split(os.pathsep) if entry} - {home}
    moved = [entry for entry in sys.path if entry and os.path.abspath(entry) in given]
    if moved:
        sys.path[:] = [entry for entry in sys.path if entry not in moved] + moved


_pythonpath_last()


def _pythonhome_said() -> None:
    """With PYTHONHOME set, a standard-library module this interpreter cannot load from there ends the wizard with
    a sentence that names the variable, not a traceback from whichever import met it first.

    Why: PYTHONHOME makes Python read its standard library from another folder; `PYTHONHOME=/usr` with a pyenv or
    venv Python stopped in `import unicodedata` with a ModuleNotFoundError traceback (tenth hostile pass E5).
    A hook rather than a check: the import that fails is whichever comes first, anywhere in the wizard."""
    home = os.environ.get("PYTHONHOME")
    if not home:
        return
    default = sys.excepthook

    def said(kind, value, trace) -> None:
        if isinstance(value, ImportError):
            sys.stderr.write(f"gc-wizard: PYTHONHOME is set ({home}), and this Python ({sys.executable}) cannot load "
                             f"its standard library from there ({value}). Unset it (`unset PYTHONHOME`) and run "
                             "gc-wizard again.\n")
            sys.stderr.flush()
            os._exit(2)
        default(kind, value, trace)

    sys.excepthook = said


_pythonhome_said()

