"""Walk 27 (pip's cache): with `--installer pip`, the installs use pip's usual cache (no `--no-cache-dir`, no cache of the
wizard's own that each install throws away), and the plan says where it is, as it does for uv's:
"Download cache: DIR (pip's; PIP_CACHE_DIR=DIR moves it)". A cache turned off by the user stays off,
and the plan says so."""

from __future__ import annotations

from tests.fixtures.cli import run_inproc


def _plan(tiny, env: dict[str, str]) -> str:
    args = [a for a in tiny.args() if a != "--no-verify"]
    proc = run_inproc("plan", "tiny-a", "--installer", "pip", *args, env=env)
    assert proc.returncode == 0, proc.stderr
    return " ".join(proc.stdout.split())  # the plan is wrapped to the terminal's width


def test_the_pip_plan_names_pip_s_own_cache_and_never_turns_it_off(tiny, tmp_path, monkeypatch):
    monkeypatch.delenv("PIP_NO_CACHE_DIR", raising=False)
    cache = tmp_path / "pip-cache"
    text = _plan(tiny, {"PIP_CACHE_DIR": str(cache)})
    assert f"Download cache: {cache} (pip's; PIP_CACHE_DIR=DIR moves it)" in text, text
    assert "--no-cache-dir" not in text and "PIP_NO_CACHE_DIR" not in text and "--cache-dir" not in text


def test_a_cache_the_user_turned_off_is_said_so_not_named_as_a_folder(tiny):
    """Its sentence, for every installer and spelling: tests/cli/test_no_download_cache.py."""
    text = _plan(tiny, {"PIP_NO_CACHE_DIR": "1"})
    assert "Download cache: none. PIP_NO_CACHE_DIR=1 turns pip's download cache off" in text, text
    assert "(pip's; PIP_CACHE_DIR=DIR moves it)" not in text
