"""Settings that make the installer put packages outside the new environment (hostile pass 19 P1): the user's
`PIP_TARGET` sent pip's packages into the user's own folder, where a failed install left them, and with
`--no-verify` the empty environment was recorded "installed" and made current. Every such setting, a variable or a
settings file's key, is refused by name before anything runs; the folder it names stays untouched."""

from __future__ import annotations

import pytest

from tests.fixtures.state import last_json, run_cli


@pytest.mark.parametrize("variable", ["PIP_TARGET", "PIP_PREFIX", "PIP_ROOT"])
def test_a_pip_placement_variable_is_refused_before_anything_runs(tiny, tmp_path, variable):
    mine = tmp_path / "mylibs"
    mine.mkdir()
    proc = run_cli("install", "tiny-a", "--installer", "pip", "--yes", "--json", "--no-verify", *tiny.args(),
                   env={variable: str(mine)})
    assert proc.returncode == 2, proc.stdout + proc.stderr
    error = last_json(proc)["error"]
    assert error.startswith(f"{variable}={mine} in the environment would make pip install the recipe's packages "
                            "outside the new environment"), error
    assert f"env -u {variable}" in error and "Traceback" not in proc.stderr
    assert list(mine.iterdir()) == [] and tiny.history() == []


def test_pip_user_off_is_no_placement_and_uv_ignores_pip_variables(tiny, tmp_path):
    ok = run_cli("install", "tiny-a", "--installer", "pip", "--yes", "--json", "--no-verify", *tiny.args(),
                 env={"PIP_USER": "false"})
    assert ok.returncode == 0, ok.stdout + ok.stderr
    uv = run_cli("install", "tiny-b", "--yes", "--json", "--no-verify", *tiny.args(),
                 env={"PIP_TARGET": str(tmp_path / "x")})
    assert uv.returncode == 0, uv.stdout + uv.stderr  # uv reads no PIP_* setting


def test_a_settings_file_key_is_refused_naming_the_file(tiny, tmp_path):
    conf = tmp_path / "pip.conf"
    conf.write_text(f"[install]\ntarget = {tmp_path / 'mylibs'}\n")
    proc = run_cli("install", "tiny-a", "--installer", "pip", "--yes", "--json", *tiny.args(),
                   env={"PIP_CONFIG_FILE": str(conf)})
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert last_json(proc)["error"].startswith(f"`target = …` in {conf} would make pip install")
    home = tmp_path / "home"
    (home / ".config" / "uv").mkdir(parents=True)
    (home / ".config" / "uv" / "uv.toml").write_text(f'[pip]\nprefix = "{tmp_path / "p"}"\n')
    proc = run_cli("install", "tiny-a", "--yes", "--json", *tiny.args(), env={"HOME": str(home),
                                                                               "XDG_CONFIG_HOME": str(home / ".config")})
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "`[pip] prefix = …` in " in last_json(proc)["error"]
