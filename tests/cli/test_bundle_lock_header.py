"""A bundle's requirements.txt names in its header what the bundle installs GraphCast from: its own wheel (24th
hostile pass (part B) N5: a bundle made with `--graphcast-src WHEEL` said "GraphCast is installed --no-deps from
graphcast @ git+https://…@97d1ad5…", though it carries and installs the local wheel). The real CLI in this process,
the tiny recipes, the real uv and pip."""

from __future__ import annotations

from tests.fixtures.cli import run_inproc


def test_a_bundle_from_a_wheel_names_its_own_copy_of_it(tiny, tmp_path, monkeypatch):
    monkeypatch.setenv("UV_OFFLINE", "1")  # the tiny wheelhouse is all there is: no index is asked (bundle has
    monkeypatch.setenv("PIP_NO_INDEX", "1")  # no --offline of its own)
    out = tmp_path / "bun"
    proc = run_inproc("bundle", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                      "--graphcast-src", str(tiny.graphcast), "--out", str(out), "--json")
    assert proc.returncode == 0, proc.stderr
    assert (out / "wheels" / tiny.graphcast.name).is_file()
    header = [line for line in (out / "requirements.txt").read_text().splitlines() if line.startswith("#")]
    said = next(line for line in header if "GraphCast is installed" in line)
    assert said == (f"# GraphCast is installed --no-deps from this bundle's wheels/{tiny.graphcast.name}, a copy of "
                    f"{tiny.graphcast}"), said
    assert "git+" not in "\n".join(header)
