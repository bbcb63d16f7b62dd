"""Walk 26 #5: with the bucket unreachable, `bundle --with-assets` said "On a machine that can reach it, `gc-wizard
bundle RECIPE --out DIR --with-assets` gathers them" — the command just run — and neither `--assets DIR|URL` nor the
lab folder the wizard remembered from the last forecast. The real CLI in this process; the bucket and its listing at a
loopback port nobody answers; the remembered folder written as a forecast that worked writes it."""

from __future__ import annotations

import shlex

from tests.fixtures.cli import run_inproc
from wizard.after import assets


def test_an_unreachable_bucket_offers_assets_and_the_remembered_folder_never_the_same_command(
        tiny, tmp_path, monkeypatch, isolated_state, closed_indexes):
    from wizard.after.assets_memory import remember_assets

    dead = closed_indexes.replace("/simple/", "/")
    monkeypatch.setattr(assets, "BUCKET_URL", f"{dead}dm_graphcast/")
    monkeypatch.setattr(assets, "BUCKET_LISTING", f"{dead}storage/v1/b/dm_graphcast/o")
    args = ("bundle", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
            "--graphcast-src", str(tiny.graphcast), "--with-assets")
    proc = run_inproc(*args, "--out", str(tmp_path / "one"))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    said = " ".join(proc.stderr.split())
    assert "cannot reach 127.0.0.1" in said and "`--assets DIR`" in said and "`--assets URL`" in said, said
    assert "--with-assets` gathers" not in said and "On a machine that can reach it" not in said, said
    assert "Your last forecast used" not in said and not (tmp_path / "one").exists()

    lab = tmp_path / "lab assets"
    lab.mkdir()
    remember_assets(str(lab))
    proc = run_inproc(*args, "--out", str(tmp_path / "two"))
    said = " ".join(proc.stderr.split())
    assert proc.returncode == 1 and f"Your last forecast used {lab}: add `--assets {shlex.quote(str(lab))}` to the " \
        "same command." in said, said
    assert "--with-assets` gathers" not in said, said
