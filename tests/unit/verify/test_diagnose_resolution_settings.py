"""`diagnose LOG` of a resolver's failure names the user's installer settings that may cause it, read as the failed
install step reads them (`install.resolution_settings`, the one reader): a variable or a settings file's key.

Why (fixers' leftover: diagnose LOG and resolution settings): under UV_EXCLUDE_NEWER, UV_RESOLUTION=lowest or
PIP_REQUIRE_HASHES the failed step named the setting, but `gc-wizard diagnose` of the same log only said to install a
recipe, which failed the same way under it."""

from __future__ import annotations

import pytest

from wizard.install.resolution_settings import SETTINGS
from wizard.verify.diagnose import diagnose_text

UV_LOG = ("Resolving dependencies...\n  × No solution found when resolving dependencies:\n"
          "  ╰─▶ Because there is no version of jaxlib==0.4.23 and you require jaxlib==0.4.23, we can conclude "
          "that your requirements are unsatisfiable.\n")
PIP_LOG = ("ERROR: Cannot install jax==0.4.23 and jaxlib==0.4.20 because these package versions have conflicting "
           "dependencies.\nERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/"
           "dependency-resolution/#dealing-with-dependency-conflicts\n")


@pytest.fixture
def no_settings(monkeypatch, tmp_path):
    """No installer setting from the variables or the user's settings files."""
    for setting in SETTINGS:
        if setting.variable:
            monkeypatch.delenv(setting.variable, raising=False)
    for name in ("UV_CONFIG_FILE", "PIP_CONFIG_FILE", "UV_NO_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _fix(text: str) -> str:
    findings = diagnose_text(text)
    assert findings
    return findings[0].fix


@pytest.mark.parametrize("variable, value, log", [
    ("UV_EXCLUDE_NEWER", "2020-01-01", UV_LOG),
    ("UV_RESOLUTION", "lowest", UV_LOG),
    ("PIP_REQUIRE_HASHES", "1", PIP_LOG),
])
def test_a_resolver_failure_names_the_setting_that_is_set(no_settings, monkeypatch, variable, value, log):
    assert variable not in _fix(log)
    monkeypatch.setenv(variable, value)
    fix = _fix(log)
    assert f"{variable}={value}" in fix and f"`env -u {variable} gc-wizard …`" in fix, fix


def test_a_settings_file_key_is_named_too(no_settings, monkeypatch):
    config = no_settings / "uv.toml"
    config.write_text('exclude-newer = "2020-01-01T00:00:00Z"\n')
    monkeypatch.setenv("UV_CONFIG_FILE", str(config))
    assert f'`exclude-newer = 2020-01-01T00:00:00Z` in {config}' in _fix(UV_LOG)


def test_another_installers_setting_is_not_named(no_settings, monkeypatch):
    monkeypatch.setenv("PIP_REQUIRE_HASHES", "1")
    monkeypatch.setenv("UV_RESOLUTION", "lowest")
    assert "PIP_REQUIRE_HASHES" not in _fix(UV_LOG) and "UV_RESOLUTION" not in _fix(PIP_LOG)
