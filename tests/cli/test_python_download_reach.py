"""Walk 25 #2: a recipe whose Python is not on the machine (uv would download it from github.com's
python-build-standalone) was "fits this machine", the plan said "to be downloaded by uv" beside a github.com it knew
did not answer, and the install's failure on that download was blamed on GraphCast's source, already given locally.

The Python download is now one more host a recipe's install needs, checked and flagged by the walk-24 mechanism
(`unreachable_links`, `Plan.unreachable_reasons`): the recipe list and `recipes --json`, the plan (✗, `--json`), the
install's refusal, and the failure's words all name it, with the fix: install python3.X or give `--python PATH`.
Real parts: a PATH with no Python 3.13 (`only_the_wizards_python`), the real uv, and uv's own mirror setting
(`UV_PYTHON_INSTALL_MIRROR`) at a host no resolver knows, so no test depends on whether github.com answers."""

from __future__ import annotations

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json

MIRROR = "https://py.invalid/releases"


@pytest.fixture
def tiny313(tiny, only_the_wizards_python, monkeypatch):
    """tiny-313: the tiny stack, but only a Python 3.13 fits it (none is on PATH), uv's downloads at py.invalid."""
    (tiny.recipes / "tiny-313.yaml").write_text(
        (tiny.recipes / "tiny-a.yaml").read_text().replace("id: tiny-a", "id: tiny-313")
        .replace('">=3.10,<3.13"', '">=3.13,<3.14"'))
    monkeypatch.setenv("UV_PYTHON_INSTALL_MIRROR", MIRROR)
    return tiny


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_recipe_list_flags_the_python_download_that_does_not_answer(tiny313, isolated_state):
    args = ("recipes", "--recipes-dir", str(tiny313.recipes))
    text = _flat(run_inproc(*args).stdout)
    row = text.split("tiny-313")[1]
    assert "! No fitting Python is on this machine (the recipe needs Python 3.13), and uv downloads Python 3.13 from " \
           "py.invalid" in row, row
    assert "Install python3.13" in row and "`--python PATH`" in row
    # Review: the row said "compatible" above the "!" that says the install fails here; now the app's words.
    assert row.split()[:2] == ["needs", "download"], row  # the status column, where it said "compatible"
    assert "Fits this machine, but needs Python 3.13, which uv would download from py.invalid (not reachable here)." \
        in row.split("!")[0], row
    entry = next(e for e in last_json(run_inproc(*args, "--json")) if e["id"] == "tiny-313")
    assert entry["unreachable"] == ["py.invalid"] and entry["python_download"] == "3.13"
    other = next(e for e in last_json(run_inproc(*args, "--json")) if e["id"] == "tiny-a")
    assert other["unreachable"] == [] and other["python_download"] is None  # its Python is here: nothing asked


def test_the_plan_marks_it_and_install_refuses_it(tiny313, isolated_state):
    args = ("--recipes-dir", str(tiny313.recipes), "--graphcast-src", str(tiny313.graphcast))
    text = _flat(run_inproc("plan", "tiny-313", *args).stdout)
    assert "Python 3.13 (3.13; to be downloaded by uv) ✗ ! No fitting Python" in text, text
    data = last_json(run_inproc("plan", "tiny-313", *args, "--json"))
    assert MIRROR in data["unreachable_links"] and "py.invalid" in data["unreachable_python"]
    refused = run_inproc("install", "tiny-313", "--yes", "--json", "--no-verify", *args)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    error = last_json(refused)["error"]
    assert "uv downloads Python 3.13 from py.invalid" in error and "Nothing was downloaded" in error, error
    # Given a Python, nothing is downloaded and nothing is flagged.
    offline = _flat(run_inproc("plan", "tiny-313", *args, "--offline", "--find-links",
                                        str(tiny313.house.path)).stdout)
    assert "py.invalid" not in offline


def test_the_failed_download_is_named_as_the_python_not_graphcast(tiny313, isolated_state):
    """With --force the real uv tries the download: the failure names the Python download and its fix, never
    GraphCast's source (which was given locally)."""
    args = ("--recipes-dir", str(tiny313.recipes), "--graphcast-src", str(tiny313.graphcast))
    failed = run_inproc("install", "tiny-313", "--yes", "--json", "--no-verify", "--force", *args)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    error = last_json(failed)["error"]
    advice = error.split("The installer said:")[0]
    assert advice.startswith("step 'Create the environment (Python 3.13)' failed."), error
    assert "uv downloads Python 3.13 from py.invalid" in advice and "`--python PATH`" in advice, advice
    assert "GraphCast" not in advice and "--graphcast-src" not in advice, advice
    # diagnose on the same log says the same, and names the recipe the log installed
    log = last_json(failed)["log"]
    found = last_json(run_inproc("diagnose", log, "--json"))["findings"][0]
    assert found["id"] == "host_unreachable" and "uv downloads Python 3.13 from py.invalid" in found["fix"]
    assert "GraphCast" not in found["fix"], found["fix"]
