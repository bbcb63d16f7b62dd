"""Walk 26 #7: on the offline machine, after an install from a bundle, an install without `--bundle` failed on the
closed index and its advice said "on a machine with internet … run `gc-wizard bundle …`, copy `gc-bundle` here" —
while the bundle the last install came from was here. The plan's remembered source offered that bundle's GraphCast
wheel as `--graphcast-src` (which installs nothing with no index) instead of `--bundle`. Now both offer the bundle.
The real CLI in this process, the tiny recipes, real pip and uv, every index closed, the wheelhouse gone."""

from __future__ import annotations

from tests.fixtures.cli import bare_program, run_inproc
from tests.fixtures.state import last_json


def test_an_install_without_the_bundle_offers_the_bundle_that_is_here(tiny, tmp_path, monkeypatch, isolated_state,
                                                                      closed_indexes):
    recipe = tiny.recipes / "tiny-a.yaml"  # GraphCast's host does not answer here, as GitHub did not in the walk
    recipe.write_text(recipe.read_text().replace("github.com", "github.invalid"))
    bundle = tiny.bundle_installed(tmp_path / "gc-bundle", monkeypatch)

    wheel = next((bundle / "wheels").glob("graphcast-*.whl"))
    proc = run_inproc("install", "tiny-a", "--recipes-dir", str(tiny.recipes), "--graphcast-src", str(wheel),
                      "--yes", "--no-verify", "--json")
    error = last_json(proc)["error"]
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    said = " ".join(error.split())
    assert f"nstall from the bundle your last install of tiny-a came from, which is here: `gc-wizard install " \
           f"tiny-a --recipes-dir {bundle / 'recipes'} --bundle {bundle}`" in said, said
    assert "copy `gc-bundle` here" not in said and "on a machine with internet" not in said, said

    planned = " ".join(run_inproc("plan", "tiny-a", "--recipes-dir", str(tiny.recipes)).stdout.split())
    # Walk 38 #3: the whole line to paste, never a `--bundle` fragment to add by hand.
    assert (f"Your last install of tiny-a came from the bundle {bundle}: install from it again (`gc-wizard install "
            f"tiny-a --recipes-dir {tiny.recipes} --bundle {bundle}`)") in bare_program(planned), planned
    assert "give it again (`" not in planned, planned
