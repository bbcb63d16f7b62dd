"""The CLI as a new lab member meets it in an 80-column SSH window: tables that fit, and source options that
count wherever they are typed. Real `python -m wizard` subprocesses, real uv installs of tiny local wheels."""

from __future__ import annotations

import json
from pathlib import Path

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from tests.standins import standin_env


def _too_wide(text: str, columns: int = 80) -> list[str]:
    return [line for line in text.splitlines() if len(line) > columns]


def test_recipes_fit_80_columns_with_every_id_whole(tmp_path):
    for profile in ("no-nvidia", "b200x2-580", "version-mismatch"):
        env = {**standin_env(profile, tmp_path / profile), "COLUMNS": "80"}
        proc = run_inproc("recipes", env=env)
        assert proc.returncode == 0, proc.stderr
        ids = [r["id"] for r in last_json(run_inproc("recipes", "--json", env=env))]
        body = proc.stdout.split("\nNext,")[0]  # the last lines are a command to copy: whole, not cut
        assert not _too_wide(body), (profile, _too_wide(body))
        rows = {line.split()[0 if line[0] == " " else 1]: line for line in body.splitlines()
                if line[:2] in ("* ", "  ") and len(line) > 2 and line[2] != " "}
        assert set(ids) <= set(rows), (ids, list(rows))  # each id whole at the start of its row
    # Not a terminal and no COLUMNS (a pipe, a pasted log): 80 columns too; a wide terminal gets the titles whole.
    assert not _too_wide(run_inproc("recipes").stdout.split("\nNext,")[0])
    wide = run_inproc("recipes", env={"COLUMNS": "100"}).stdout
    assert "jax0.4.23-cuda11-cudnn86 not compatible JAX 0.4.23 · CUDA 11.8 · cuDNN 8.6 (legacy GPU)" in wide
    narrow = run_inproc("recipes", env={"COLUMNS": "80"}).stdout
    assert "jax0.4.23-cuda11-cudnn86 not compatible CUDA 11.8 · cuDNN 8.6 (legacy GPU)" in narrow


def test_history_fits_80_columns_and_keeps_ids_and_paths_whole(tiny):
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    failed, _ = tiny.install("tiny-a", find_links=tiny.recipes)  # no wheels there: the install fails
    assert failed.returncode == 1
    proc = run_inproc("history", env={"COLUMNS": "80"})
    assert proc.returncode == 0, proc.stderr
    table = proc.stdout.split("\nGo back:")[0]
    # Every row fits, except a path on a row of its own: kept whole for copying, however deep the state
    # folder (pytest-xdist's temporary folders alone are longer than a user's).
    paths = ({entry["env"] for entry in tiny.history()} | {entry.get("graphcast_given") for entry in tiny.history()}
             | {entry.get("log") for entry in tiny.history()})
    assert not [line for line in _too_wide(table) if line.strip() not in paths], _too_wide(table)
    lines = proc.stdout.splitlines()
    for entry in (a, b):
        row = next(line for line in lines if entry["entry_id"] in line)
        assert f" {entry['entry_id']}  install" in row
        assert any(line.strip().endswith(entry["env"]) for line in lines)  # the path whole, for copying
    assert next(line for line in lines if b["entry_id"] in line).startswith("● ")
    assert any(line.startswith("    ! ") for line in lines)  # the failed one says why, cut to the width
    assert proc.stdout.split("Go back:")[1].splitlines()[0].endswith(" rollback") and "remove ID" in proc.stdout


def test_sources_before_the_command_count_as_after_it(tiny, tmp_path):
    # `gc-wizard --graphcast-src X --find-links W --offline install R`: argparse used to drop all three.
    proc = run_inproc("--graphcast-src", str(tiny.graphcast), "--find-links", str(tiny.house.path), "--offline",
                   "--recipes-dir", str(tiny.recipes), "install", "tiny-a", "--yes", "--no-verify", "--json")
    assert proc.returncode == 0, proc.stderr
    result = last_json(proc)
    entry = next(e for e in tiny.history() if e["id"] == result["entry_id"])
    assert entry["status"] == "installed" and str(tiny.house.path) in entry["find_links"]
    log = Path(result["log"]).read_text()
    assert str(tiny.graphcast) in log and "--offline" in log

    # plan: before and after add up for wheelhouses; --offline before the command counts.
    other = tmp_path / "more-wheels"
    other.mkdir()
    proc = run_inproc("--find-links", str(other), "--offline", "plan", "tiny-a", "--recipes-dir", str(tiny.recipes),
                   "--find-links", str(tiny.house.path), "--graphcast-src", str(tiny.graphcast), "--json")
    assert proc.returncode == 0, proc.stderr
    plan = last_json(proc)
    assert plan["find_links"][:2] == [str(other), str(tiny.house.path)] and plan["installer"]
    assert all("--offline" in step["argv"] for step in plan["steps"][1:])


def test_a_source_before_a_command_that_takes_none_is_refused_in_one_sentence(tiny):
    for argv, flag in ((["--offline", "detect"], "--offline"), (["--graphcast-src", "x", "history"], "--graphcast-src"),
                       (["--find-links", "w", "recipes", "--json"], "--find-links")):
        proc = run_inproc(*argv)
        assert proc.returncode == 2, (argv, proc.stderr)
        assert f"does not take {flag}" in proc.stderr and "Traceback" not in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1
        if "--json" in argv:
            assert last_json(proc) == {"ok": False, "error": json.loads(proc.stdout.splitlines()[-1])["error"],
                                       "exit": 2}
    proc = run_inproc("--graphcast-src", "a", "plan", "tiny-a", "--recipes-dir", str(tiny.recipes), "--graphcast-src", "b")
    assert proc.returncode == 2 and "--graphcast-src is given twice" in proc.stderr


def test_a_long_reason_is_cut_on_its_third_row_without_runs_of_spaces():
    """The third row of a failure's reason holds the rest of it, joined as words, then cut to fit."""
    from wizard.commands.history import history_table

    error = ("step 'Install GraphCast 0.1.1 (--no-deps)' failed. This server cannot reach github.com. GraphCast's "
             "source is fetched from there. Give a local GraphCast instead: on a machine with internet, "
             "`git clone https://github.com/google-deepmind/graphcast && git -C graphcast checkout v0.1.1`, copy it "
             "here and press g.")
    row = {"id": "20261122-225802-daae", "kind": "install", "status": "failed", "current": False, "recipe": "r",
           "env": "/e", "env_exists": False, "started": "2026-11-22T22:58:00", "error": error}
    lines = history_table([row], 0, 80)
    reason = [line for line in lines if line.startswith(("    ! ", "      "))]
    assert len(reason) == 3 and all(len(line) <= 80 for line in reason), reason
    assert "  " not in reason[2].strip() and reason[2].endswith("…")
    assert "interrupted" not in "\n".join(lines)  # no entry was interrupted: no legend for it


def test_a_secret_where_a_row_is_cut_is_masked_before_the_cut():
    """Cut first, masked after, the rest of a password or token no longer looks like one (sixth hostile pass
    1h: `https://al:AlPasswordVeryLon…` printed by plain `history`); every shortening masks first."""
    from wizard.commands.history import history_table
    from wizard.commands.output import fit

    secrets = {"https://al:AlPasswordVeryLong1234567890@idx.example/simple": "AlPassword",
               "xoxb-1234567890-abcdefghijklmnop": "xoxb-12", "hf_AbCdEfGhIjKlMnOpQrStUvWx": "hf_AbC",
               "https://h/x.whl?X-Amz-Signature=AmzSig4242deadbeef": "AmzSig"}
    for secret, part in secrets.items():
        for words in range(30, 44):
            error = "uv said: " + "word " * words + secret + " and more"
            row = {"id": "20261122-225802-daae", "kind": "install", "status": "failed", "current": False,
                   "recipe": "r", "env": "/e", "env_exists": False, "started": "2026-11-22T22:58:00", "error": error}
            shown = "\n".join(history_table([row], 0, 80))
            assert part not in shown, (words, shown)
            for width in range(20, len(error) + 2, 7):
                assert part not in fit(error, width), (width, fit(error, width))
