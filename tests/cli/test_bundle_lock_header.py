"""A bundle's requirements.txt names in its header what the bundle installs GraphCast from: its own wheel (24th
hostile pass (part B) N5: a bundle made with `--graphcast-src WHEEL` said "GraphCast is installed --no-deps from
graphcast @ git+https://…@97d1ad5…", though it carries and installs the local wheel). The real CLI in this process,
the tiny recipes, the real uv and pip."""

from __future__ import annotations


def test_a_bundle_from_a_wheel_names_its_own_copy_of_it(tiny, tmp_path, monkeypatch):
    out = tmp_path / "bun"
    proc = tiny.bundle(out, monkeypatch, "--json")
    assert proc.returncode == 0, proc.stderr
    assert (out / "wheels" / tiny.graphcast.name).is_file()
    header = [line for line in (out / "requirements.txt").read_text().splitlines() if line.startswith("#")]
    said = next(line for line in header if "GraphCast is installed" in line)
    assert said == (f"# GraphCast is installed --no-deps from this bundle's wheels/{tiny.graphcast.name}, a copy of "
                    f"{tiny.graphcast}"), said
    assert "git+" not in "\n".join(header)
