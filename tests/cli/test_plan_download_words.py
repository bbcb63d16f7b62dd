"""Walk 26 #13: on the offline machine, `plan … --bundle` said "Download: about 265 MB (94 from the wheelhouse)":
nothing is downloaded, the files are the bundle's. The real CLI in this process, a real bundle of the tiny recipe
made from a local wheelhouse, every index closed."""

from __future__ import annotations

from tests.fixtures.cli import run_inproc


def test_a_plan_from_a_bundle_downloads_nothing_and_says_the_bundle(tiny, tmp_path, isolated_state, closed_indexes,
                                                                     monkeypatch):
    monkeypatch.setenv("PIP_NO_INDEX", "1")  # the bundle's wheels from the local wheelhouse alone
    monkeypatch.setenv("UV_OFFLINE", "1")
    bundle = tmp_path / "gc-bundle"
    proc = run_inproc("bundle", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                      "--graphcast-src", str(tiny.graphcast), "--out", str(bundle), "--without-wizard")
    assert proc.returncode == 0, proc.stderr
    proc = run_inproc("plan", "tiny-a", "--recipes-dir", str(bundle / "recipes"), "--bundle", str(bundle))
    assert proc.returncode == 0, proc.stderr[-2000:]
    line = " ".join(next(row for row in proc.stdout.splitlines() if row.startswith("Download:")).split())
    assert line.startswith("Download: nothing: the 1 package (about ") and line.endswith(
        ") is a local file, in the bundle"), line  # tiny-a pins one package
