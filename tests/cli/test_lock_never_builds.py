"""A hand-edited lock that names a source archive (hostile pass 19 P2): `install --lock` built it, and its setup.py
ran. A pylock's `sdist` (or a non-wheel `archive`) is refused by name before anything runs, and the lock's install
step takes wheels only, so a requirements-format lock whose hash is a source archive's never builds it either."""

from __future__ import annotations

import hashlib
import io
import tarfile

from tests.fixtures.state import last_json, run_cli
from wizard.install.lockfile import PYLOCK, unhashed_entry


def _sdist(folder, marker):
    """pkg-a 1.0 as a source archive whose setup.py would leave `marker` behind if it ever ran."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "pkg_a-1.0.tar.gz"
    files = {"pkg_a-1.0/setup.py": (f"import pathlib\npathlib.Path({str(marker)!r}).write_text('setup.py ran')\n"
                                    "from setuptools import setup\nsetup(name='pkg-a', version='1.0')\n").encode(),
             "pkg_a-1.0/PKG-INFO": b"Metadata-Version: 2.1\nName: pkg-a\nVersion: 1.0\n"}
    with tarfile.open(path, "w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path, hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_pylock_naming_a_source_archive_is_refused_by_name(tmp_path):
    path, digest = _sdist(tmp_path, tmp_path / "RAN")
    text = (f'lock-version = "1.0"\ncreated-by = "uv"\n\n[[packages]]\nname = "pkg-a"\nversion = "1.0"\n'
            f'sdist = {{ url = "file://{path}", hashes = {{ sha256 = "{digest}" }} }}\n')
    assert unhashed_entry(text, PYLOCK) == ("package 'pkg-a' ([[packages]] entry 1) is a source archive only (`sdist = "
                                            "…`, no wheel), which the installer would build, running its setup.py; a "
                                            "lock gc-wizard writes names a wheel for every package")
    with_wheel = text + f'wheels = [{{ url = "file://{path.parent}/pkg_a-1.0-py3-none-any.whl", hashes = {{ sha256 = "{digest}" }} }}]\n'
    assert unhashed_entry(with_wheel, PYLOCK) is None  # uv's own locks list the sdist beside the wheels
    wheel = text.replace("sdist = ", "archive = ").replace(".tar.gz", "-py3-none-any.whl")
    assert unhashed_entry(wheel, PYLOCK) is None  # an archive that is a wheel is a wheel


def test_a_requirements_lock_hashing_a_source_archive_never_builds_it(tiny, tmp_path):
    ran = tmp_path / "RAN"
    path, digest = _sdist(tmp_path / "sdists", ran)
    lock = tmp_path / "tiny.lock.txt"
    lock.write_text(f"pkg-a==1.0 --hash=sha256:{digest}\n")
    proc = run_cli("install", "tiny-a", "--lock", str(lock), "--yes", "--json", "--no-verify",
                   *tiny.args(), "--find-links", str(path.parent))
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert not ran.exists(), "the lock's source archive was built: its setup.py ran"
    assert last_json(proc)["ok"] is False and "Traceback" not in proc.stderr
