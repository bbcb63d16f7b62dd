"""A wheelhouse entry named like a package that is no file to read (a FIFO, a device through a link) is refused
before anything runs (eighteenth hostile pass P6: uv opened the FIFO and the install waited half an hour)."""

from __future__ import annotations

import os
import shutil

from tests.fixtures.state import last_json


def test_a_fifo_or_device_named_like_a_package_is_refused_by_name(tiny, tmp_path):
    for make in ("fifo", "device"):
        house = tmp_path / f"house-{make}"
        shutil.copytree(tiny.house.path, house)
        odd = house / "pkg_a-1.0-cp311-cp311-manylinux_2_17_x86_64.whl"
        if make == "fifo":
            os.mkfifo(odd)
        else:
            odd.symlink_to("/dev/zero")
        proc, _ = tiny.install("tiny-a", find_links=house, timeout=120)
        assert proc.returncode == 2, proc.stdout + proc.stderr
        error = last_json(proc)["error"]
        assert f"--find-links {house}: {odd.name} is named like a package but is no file" in error
        assert "Nothing was installed" in error and "Traceback" not in proc.stderr
    assert tiny.history() == []


def test_a_project_settings_file_above_the_state_folder_is_refused_before_anything_runs(tiny, tmp_path):
    """Eighteenth hostile pass P7: uv runs its steps in the state folder's envs/ and reads every uv.toml and
    pyproject.toml above it; under a project whose uv.toml is a FIFO (or pyproject.toml a link to /dev/zero) the
    install hung, or uv grew to a gigabyte. Both are named before anything runs, whatever the wizard's own folder."""
    import json

    from tests.fixtures.state import run_cli

    for name, make in (("uv.toml", "fifo"), ("pyproject.toml", "device")):
        project = tmp_path / f"proj-{make}"
        project.mkdir()
        if make == "fifo":
            os.mkfifo(project / name)
        else:
            (project / name).symlink_to("/dev/zero")
        state = project / "state"
        proc = run_cli("install", "tiny-a", "--yes", "--json", *tiny.args(),
                       env={"GC_WIZARD_HOME": str(state)}, cwd=tmp_path, timeout=120)
        assert proc.returncode == 2, proc.stdout + proc.stderr
        error = json.loads(proc.stdout.splitlines()[-1])["error"]
        assert error.startswith(f"uv reads its settings from {project / name}") and "UV_NO_CONFIG=1" in error
        assert not (state / "envs").exists() or not any((state / "envs").iterdir())


def test_a_newline_in_a_recipes_dir_path_is_escaped_in_the_sentence(tmp_path):
    """Eighteenth hostile pass P21: the folder's name started a stderr line of its own ("INJECTED: fake line")."""
    from tests.fixtures.state import run_cli

    folder = tmp_path / "rec\nINJECTED: fake line"
    folder.mkdir()
    (folder / "bad.yaml").write_text("id: bad\ntitle: [unclosed\n")
    for where in (folder, tmp_path / "nonexist\nINJ"):
        proc = run_cli("--recipes-dir", str(where), "recipes")
        assert proc.returncode == 2, proc.stderr
        assert not any(line.startswith(("INJECTED", "INJ")) for line in proc.stderr.splitlines()), proc.stderr
        assert "\\u000a" in proc.stderr
