"""Walk 26 #7 (the rest): on the offline machine the plan marked GitHub ✗ with a warning, but the unreachable index only
as "Download: download size unknown (the index … could not be read …)"; and the recipe list recommended a recipe that
needs the index over the one in the bundle a good install had come from.

Now the plan's Packages line is marked ✗ from the download measurement already made (no look-up of its own), with the
way that works (the remembered bundle); and `survey` recommends the bundle's recipe where the index does not answer,
saying why. The real CLI in this process, the tiny recipes, real uv, every index closed (a loopback port with nothing
listening, as UV_INDEX_URL/PIP_INDEX_URL=http://127.0.0.1:9/simple in the walk)."""

from __future__ import annotations

import json
import shlex

from tests.fixtures.cli import bare_program, run_inproc


def test_the_plan_marks_the_closed_index_and_offers_the_bundle_here(tiny, tmp_path, monkeypatch, isolated_state,
                                                                     closed_indexes):
    bundle = tiny.bundle_installed(tmp_path / "gc-bundle", monkeypatch)
    wheel = next((bundle / "wheels").glob("graphcast-*.whl"))
    proc = run_inproc("plan", "tiny-a", "--recipes-dir", str(tiny.recipes), "--graphcast-src", str(wheel))
    assert proc.returncode == 0, proc.stderr
    said = " ".join(proc.stdout.split())
    index = closed_indexes.rstrip("/")
    assert f"Packages: ✗ the index {index}" in said, said
    assert (f"! the index {index} cannot be reached from here, so the packages step would fail: your last install of "
            f"tiny-a came from the bundle {bundle}: install from it again (`") in said, said
    # Walk 38 #3: the whole line to paste, never a `--bundle` fragment to add by hand.
    assert f"again (`gc-wizard install tiny-a --recipes-dir {tiny.recipes} --bundle {bundle}`)" in bare_program(said)
    from_bundle = run_inproc("plan", "tiny-a", "--recipes-dir", str(tiny.recipes), "--bundle", str(bundle))
    assert "✗ the index" not in from_bundle.stdout  # from the bundle no index is read


def test_the_plan_says_nothing_of_an_index_it_did_not_need(tiny, isolated_state, closed_indexes):
    proc = run_inproc("plan", "tiny-a", *tiny.args()[:-1])  # offline, from the wheelhouse: the index is never asked
    assert proc.returncode == 0, proc.stderr
    assert "✗" not in proc.stdout and "cannot be reached" not in proc.stdout


def test_the_recipe_list_recommends_the_bundles_recipe_where_the_index_does_not_answer(tiny, tmp_path, monkeypatch,
                                                                                       isolated_state, closed_indexes):
    # tiny-z ranks first on any machine (preference 5); the bundle holds tiny-a.
    z = (tiny.recipes / "tiny-a.yaml").read_text().replace("id: tiny-a", "id: tiny-z").replace("preference: 0",
                                                                                             "preference: 5")
    (tiny.recipes / "tiny-z.yaml").write_text(z)
    before = json.loads(run_inproc("recipes", "--recipes-dir", str(tiny.recipes), "--json").stdout.splitlines()[-1])
    assert [m["id"] for m in before if m["recommended"]] == ["tiny-z"]
    bundle = tiny.bundle_installed(tmp_path / "gc-bundle", monkeypatch)
    proc = run_inproc("recipes", "--recipes-dir", str(tiny.recipes), "--json")
    after = {m["id"]: m for m in json.loads(proc.stdout.splitlines()[-1])}
    assert after["tiny-a"]["recommended"] and not after["tiny-z"]["recommended"]
    index = closed_indexes.rstrip("/")
    assert after["tiny-a"]["summary"] == (f"recommended: the package index {index} does not answer from here, and the "
                                          f"bundle {bundle} holds this recipe: `gc-wizard install tiny-a --recipes-dir "
                                          f"{tiny.recipes} --bundle {bundle}` installs it")
    assert after["tiny-z"]["summary"] == (f"compatible, but its packages need the index {index}, which does not answer "
                                          "from here")
    text = " ".join(run_inproc("recipes", "--recipes-dir", str(tiny.recipes)).stdout.split())
    assert f"the bundle {bundle} holds this recipe" in text


def test_the_recommended_bundle_line_installs_as_printed(tiny, tmp_path, monkeypatch, isolated_state, closed_indexes):
    """30th hostile pass (part B) P3: the line was built by hand without the recipe's folder, so run as printed it
    exited 2 with "unknown recipe 'tiny-a' here"; it now comes from the one install-line builder."""
    bundle = tiny.bundle_installed(tmp_path / "gc-bundle", monkeypatch)
    proc = run_inproc("recipes", "--recipes-dir", str(bundle / "recipes"), "--json")
    summary = next(m["summary"] for m in json.loads(proc.stdout.splitlines()[-1]) if m["recommended"])
    printed = summary.split("`")[1]
    assert printed.startswith("gc-wizard install tiny-a ") and f"--recipes-dir {bundle / 'recipes'}" in printed, printed
    again = run_inproc(*shlex.split(printed)[1:], "--yes", "--no-verify", "--force")
    assert again.returncode == 0, again.stderr[-2000:]
