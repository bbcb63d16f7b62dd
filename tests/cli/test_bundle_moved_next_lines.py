"""Walk 26 #1: after `install --bundle` from a moved bundle that carries the forecast's files (assets/ with its
SHA256SUMS), the install's "Next:" lines said the bucket cannot be reached and told the offline user to build
`bundle --with-assets` on a machine with internet — while a plain `forecast` took the bundle's files by itself. And
`bundle`'s closing lines named the folder it was built in, untrue once the bundle is copied. Now the lines name the
bundle's files, and `bundle` names its folder as DIR. The real CLI in this process, the tiny recipes, real pip and uv,
the bundle really moved and its original renamed."""

from __future__ import annotations

import shlex
import shutil

from tests.fixtures.cli import run_inproc


def test_next_lines_after_a_moved_bundle_name_its_forecast_files(tiny, tmp_path, monkeypatch, isolated_state,
                                                                 closed_indexes):
    from wizard.after import assets_reach
    from wizard.after.assets_memory import remember_assets

    monkeypatch.setenv("UV_OFFLINE", "1")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setattr(assets_reach, "BUCKET_URL", closed_indexes.replace("/simple/", "/dm_graphcast/"))
    built = tmp_path / "bundle"
    proc = run_inproc("bundle", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                      "--graphcast-src", str(tiny.graphcast), "--out", str(built))
    assert proc.returncode == 0, proc.stderr
    offline = [line for line in proc.stdout.splitlines() if line.startswith("On the offline machine:")]
    assert offline and str(built) not in offline[0] and "--bundle DIR" in offline[0], proc.stdout
    assert "DIR below is where you copy it to" in proc.stdout

    (built / "assets" / "params").mkdir(parents=True)  # the bundle's forecast files, as --with-assets leaves them
    (built / "assets" / "params" / "m.npz").write_bytes(b"weights")
    (built / "assets" / "SHA256SUMS").write_text("0" * 64 + "  params/m.npz\n")
    moved = tmp_path / "offline machine" / "gc-bundle"
    shutil.copytree(built, moved)
    shutil.move(built, tmp_path / "renamed")
    lab = tmp_path / "lab-assets"
    lab.mkdir()
    remember_assets(str(lab))  # a remembered folder too: the bundle's files come first, as `forecast` takes them

    words = [str(moved) + w[3:] if w == "DIR" or w.startswith("DIR/") else w
             for w in shlex.split(offline[0].removeprefix("On the offline machine:"))]
    proc = run_inproc(*words[1:], "--yes", "--no-verify")
    assert proc.returncode == 0, proc.stderr[-3000:]
    said = " ".join(word for word in proc.stdout.split() if word != "#")  # comment rows joined, as read
    assert f"it uses {moved / 'assets'}, the files of the bundle this environment came from" in said, proc.stdout
    for wrong in ("--with-assets", "DIR/assets", "cannot be reached", "not on PyPI", str(lab)):
        assert wrong not in said, (wrong, proc.stdout)
