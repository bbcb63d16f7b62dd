"""A download cache the user turned off (`UV_NO_CACHE`, `PIP_NO_CACHE_DIR`, their settings-file keys) is named by the
plan — text and `--json` (the app prints the same lines, tests/tui/test_plan_words.py) — in one sentence: every
package is downloaded again, and the exact `unset` that keeps them (`install.cache_trust.no_cache_words`).

Before (leftovers of the 30th hostile pass, item 2): the plan showed no cache line and said nothing; and pip, which
turns its cache off for any value of `PIP_NO_CACHE_DIR` (`0` and `false` too), had the plan name a cache it never
used."""

from __future__ import annotations

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json


def _plan(tiny, installer: str, env: dict[str, str]) -> tuple[str, dict]:
    args = [a for a in tiny.args() if a != "--no-verify"]
    text = run_inproc("plan", "tiny-a", "--installer", installer, *args, env=env)
    as_json = run_inproc("plan", "tiny-a", "--installer", installer, *args, "--json", env=env)
    assert text.returncode == 0 and as_json.returncode == 0, (text.stderr, as_json.stderr)
    return " ".join(text.stdout.split()), last_json(as_json)  # the text is wrapped to the terminal's width


@pytest.mark.parametrize(("installer", "variable", "value"), [
    ("uv", "UV_NO_CACHE", "1"), ("pip", "PIP_NO_CACHE_DIR", "1"), ("pip", "PIP_NO_CACHE_DIR", "0"),
    ("pip", "PIP_NO_CACHE_DIR", "false")])
def test_a_cache_turned_off_is_said_with_the_unset_that_keeps_the_downloads(tiny, monkeypatch, installer, variable,
                                                                            value):
    monkeypatch.delenv("UV_NO_CACHE", raising=False)
    monkeypatch.delenv("PIP_NO_CACHE_DIR", raising=False)
    text, data = _plan(tiny, installer, {variable: value})
    said = (f"{variable}={value} turns {installer}'s download cache off, so this install downloads every package "
            f"again and keeps none for the next one; `unset {variable}` before starting gc-wizard keeps them.")
    assert f"Download cache: none. {said}" in text, text
    assert data["no_cache"] == said and data["download_cache"] is None


def test_a_settings_files_no_cache_is_named_by_its_file(tiny, tmp_path, monkeypatch):
    monkeypatch.delenv("UV_NO_CACHE", raising=False)
    settings = tmp_path / "uv.toml"
    settings.write_text("no-cache = true\n")
    _, data = _plan(tiny, "uv", {"UV_CONFIG_FILE": str(settings)})
    assert data["no_cache"].startswith(f"`no-cache = true` in {settings} turns uv's download cache off"), data
    assert data["no_cache"].endswith(f"take it out of {settings} to keep them.")


def test_a_cache_left_on_gets_no_such_sentence(tiny, tmp_path, monkeypatch):
    """`UV_NO_CACHE=0` is uv's "no": its cache is used and named."""
    monkeypatch.delenv("PIP_NO_CACHE_DIR", raising=False)
    text, data = _plan(tiny, "uv", {"UV_NO_CACHE": "0", "UV_CACHE_DIR": str(tmp_path / "uvc")})
    assert data["no_cache"] is None and data["download_cache"] == str(tmp_path / "uvc")
    assert "Download cache: none." not in text and f"Download cache: {tmp_path / 'uvc'}" in text
