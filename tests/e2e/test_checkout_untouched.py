"""`install --graphcast-src CHECKOUT` leaves the user's checkout exactly as it was (fourteenth hostile pass Q2).

The build ran in the checkout, and setuptools wrote `build/` and `graphcast.egg-info/` there, which the next plan
counted as the user's local changes. The checkout here has a real PEP 517 backend of its own (in-tree, no build
dependencies, so uv builds it offline) that writes into the folder it builds exactly what setuptools writes; real
uv into a real venv from a local wheelhouse.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.fixtures.state import run_cli

#: An in-tree build backend that builds like setuptools: its build output (`build/`, `*.egg-info/`) lands in the
#: folder it is run in, then the wheel.
BACKEND = '''
import base64, hashlib, os, zipfile

def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"

def get_requires_for_build_wheel(config_settings=None):
    return []

def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    os.makedirs("build/lib/graphcast", exist_ok=True)
    os.makedirs("graphcast.egg-info", exist_ok=True)
    open("graphcast.egg-info/PKG-INFO", "w").write("Name: graphcast\\nVersion: 0.1.1\\n")
    files = {"graphcast/__init__.py": open("graphcast/__init__.py", "rb").read(),
             "graphcast-0.1.1.dist-info/METADATA": b"Metadata-Version: 2.1\\nName: graphcast\\nVersion: 0.1.1\\n",
             "graphcast-0.1.1.dist-info/WHEEL": b"Wheel-Version: 1.0\\nGenerator: t\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"}
    name = "graphcast-0.1.1-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w") as wheel:
        lines = []
        for path, data in files.items():
            wheel.writestr(path, data)
            lines.append(_record_line(path, data))
        lines.append("graphcast-0.1.1.dist-info/RECORD,,")
        wheel.writestr("graphcast-0.1.1.dist-info/RECORD", "\\n".join(lines) + "\\n")
    return name
'''


def _checkout(root: Path) -> Path:
    root.mkdir()
    (root / "graphcast").mkdir()
    (root / "graphcast" / "__init__.py").write_text('__version__ = "0.1.1"\n')
    (root / "setup.py").write_text('from setuptools import setup\nsetup(name="graphcast", version="0.1.1")\n')
    (root / "backend.py").write_text(BACKEND)
    (root / "pyproject.toml").write_text('[build-system]\nrequires = []\nbuild-backend = "backend"\n'
                                         'backend-path = ["."]\n')
    git = ["git", "-C", str(root), "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "v0.1.1"], check=True)
    return root


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(root).parts}


def test_the_checkout_is_built_from_a_copy_and_recorded_as_itself(tmp_path, tiny):
    checkout = _checkout(tmp_path / "graphcast")
    before = _tree(checkout)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    args = [str(checkout) if a == str(tiny.graphcast) else a for a in tiny.args()]
    proc = run_cli("install", "tiny-a", "--yes", "--json", *args, env={"TMPDIR": str(scratch)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert _tree(checkout) == before  # no build/, no graphcast.egg-info/, nothing changed
    status = subprocess.run(["git", "-C", str(checkout), "status", "--porcelain"], capture_output=True, text=True)
    assert status.stdout == ""
    assert [p.name for p in scratch.iterdir() if p.name.startswith("gc-wizard-source-")] == []  # the copy is gone
    (entry,) = tiny.history()
    line = next(p for p in entry["packages"] if p.startswith("graphcast"))
    assert line == f"graphcast @ {checkout.as_uri()}", line  # the user's folder, not the copy
    env = Path(json.loads(proc.stdout.splitlines()[-1])["env"])
    site = next(env.glob("lib/python3*/site-packages"))
    assert (site / "graphcast" / "__init__.py").read_text() == '__version__ = "0.1.1"\n'
    plan = run_cli("plan", "tiny-a", *args, "--json")
    assert "local change" not in plan.stdout + plan.stderr, plan.stdout


def test_a_rollback_that_rebuilds_from_the_checkout_builds_a_copy_too(tmp_path, tiny):
    """The same class on the rebuild path: an entry whose env is gone is rebuilt from its recorded set, which names
    the checkout (`graphcast @ file:///…`); the sync builds from a copy in its own temporary folder."""
    import shutil

    checkout = _checkout(tmp_path / "graphcast")
    args = [str(checkout) if a == str(tiny.graphcast) else a for a in tiny.args()]
    first = run_cli("install", "tiny-a", "--yes", "--json", *args)
    assert first.returncode == 0, first.stdout + first.stderr
    second = run_cli("install", "tiny-b", "--yes", "--json", *tiny.args())
    assert second.returncode == 0, second.stdout + second.stderr
    before = _tree(checkout)
    old = next(e for e in tiny.history() if e["recipe"] == "tiny-a")
    shutil.rmtree(old["env"])
    back = run_cli("rollback", old["id"], "--yes", "--no-verify", "--json", env={"GC_WIZARD_FIND_LINKS": str(tiny.house.path)})
    assert back.returncode == 0, back.stdout + back.stderr
    assert _tree(checkout) == before
    assert (Path(old["env"]) / "lib").is_dir()


def test_a_rollback_refuses_a_checkout_that_changed_since_the_install(tmp_path, tiny):
    """Fifteenth hostile pass P3: the entry recorded `graphcast @ file:///CHECKOUT` with nothing of what it held, and
    a rebuild installed the checkout as it was then — code added since ran in the "restored" env. The install now
    records the folder's digest; a rebuild from a changed checkout is refused, naming it, until it is put back."""
    import shutil

    checkout = _checkout(tmp_path / "graphcast")
    args = [str(checkout) if a == str(tiny.graphcast) else a for a in tiny.args()]
    assert run_cli("install", "tiny-a", "--yes", "--json", *args).returncode == 0
    assert run_cli("install", "tiny-b", "--yes", "--json", *tiny.args()).returncode == 0
    old = next(e for e in tiny.history() if e["recipe"] == "tiny-a")
    assert old["graphcast_source"]["requirement"] == f"graphcast @ {checkout.as_uri()}"
    assert len(old["graphcast_source"]["sha256"]) == 64
    shutil.rmtree(old["env"])
    module = checkout / "graphcast" / "__init__.py"
    module.write_text('__version__ = "0.1.1"\nprint("CHANGED SINCE INSTALL")\n')
    env = {"GC_WIZARD_FIND_LINKS": str(tiny.house.path)}
    back = run_cli("rollback", old["id"], "--yes", "--no-verify", "--json", env=env)
    error = json.loads(back.stdout.splitlines()[-1])["error"]
    assert back.returncode == 2 and "Traceback" not in back.stderr
    assert f"the checkout {checkout}" in error and "changed since the install" in error and "nothing changed" in error
    assert f"git -C {checkout} status" in error
    assert not Path(old["env"]).exists()
    assert next(e for e in tiny.history() if e["current"])["recipe"] == "tiny-b"
    # a link added inside it changes it too, even one pointing back at a file that is there
    module.write_text('__version__ = "0.1.1"\n')
    (checkout / "graphcast" / "alias.py").symlink_to("__init__.py")
    again = run_cli("rollback", old["id"], "--yes", "--no-verify", "--json", env=env)
    assert again.returncode == 2, again.stdout
    (checkout / "graphcast" / "alias.py").unlink()
    # put back as it was (git's own files and build output are not what a build reads): the rebuild goes ahead
    (checkout / "build").mkdir()
    fixed = run_cli("rollback", old["id"], "--yes", "--no-verify", "--json", env=env)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    site = next(Path(old["env"]).glob("lib/python3*/site-packages"))
    assert (site / "graphcast" / "__init__.py").read_text() == '__version__ = "0.1.1"\n'


def test_an_untouched_env_built_from_a_checkout_is_switched_to_even_after_the_checkout_moved_on(tmp_path, tiny):
    """Walk 18: the env held GraphCast under the address of the install's private copy (long gone), its record
    the checkout's, so a rollback the next day took the untouched env for a changed one: it rebuilt GraphCast
    ("packages restored") and, once the checkout had been edited, refused to roll back at all. The copy's
    address is now read as the folder it copied; an intact env is a switch, whatever the checkout holds now."""
    checkout = _checkout(tmp_path / "graphcast")
    args = [str(checkout) if a == str(tiny.graphcast) else a for a in tiny.args()]
    assert run_cli("install", "tiny-a", "--yes", "--json", *args).returncode == 0
    assert run_cli("install", "tiny-b", "--yes", "--json", *args).returncode == 0
    old = next(e for e in tiny.history() if e["recipe"] == "tiny-a")
    site = next(Path(old["env"]).glob("lib/python3*/site-packages"))
    direct = json.loads(next(site.glob("graphcast-*.dist-info/direct_url.json")).read_text())
    assert "gc-wizard-source-" in direct["url"]  # what the env itself says: the copy it was built from
    (checkout / "graphcast" / "__init__.py").write_text('__version__ = "0.1.1"\n# a git pull since\n')
    back = run_cli("rollback", old["id"], "--yes", "--no-verify", "--json")
    assert back.returncode == 0, back.stdout + back.stderr
    result = json.loads(back.stdout.splitlines()[-1])
    assert result["ok"] and not result["restored"] and not result["rebuilt"], result
    assert "has changed since" not in back.stdout + back.stderr
    assert next(e for e in tiny.history() if e["current"])["id"] == old["id"]
    assert (site / "graphcast" / "__init__.py").read_text() == '__version__ = "0.1.1"\n'  # as installed, untouched
