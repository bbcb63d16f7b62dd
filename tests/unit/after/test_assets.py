"""The forecast's files: chosen as the notebook chooses them, fetched like a package manager would (cache,
resume, checksums), and a damaged or tampered file refused by name and never used.

Real HTTP on loopback (`tests/fixtures/assets_server.py`), real files; the bucket's real names."""

from __future__ import annotations

import json

import pytest

from tests.fixtures.assets_server import write_sums
from wizard.after import assets
from wizard.after.assets import Asset, AssetError
from wizard.errors import UserError
from wizard.verify.diagnose import diagnose_text

SMALL = assets.DEFAULT_MODEL
BIG = "GraphCast - ERA5 1979-2017 - resolution 0.25 - pressure levels 37 - mesh 2to6 - precipitation input and output.npz"
OPER = ("GraphCast_operational - ERA5-HRES 1979-2021 - resolution 0.25 - pressure levels 13 - mesh 2to6 - "
        "precipitation output only.npz")
DATA = [f"source-era5_date-2022-01-01_res-1.0_levels-13_steps-{n:02d}.nc" for n in (1, 4, 12)] + [
    "source-hres_date-2022-01-01_res-0.25_levels-13_steps-01.nc",
    "source-era5_date-2022-01-01_res-0.25_levels-37_steps-01.nc"]


def _bucket_listing(prefix: str = "graphcast/") -> list[Asset]:
    names = [f"{prefix}params/{m}" for m in (SMALL, BIG, OPER)] + [f"{prefix}dataset/{d}" for d in DATA]
    names += [f"{prefix}stats/{s}" for s in assets.STATS_FILES]
    return [Asset(n) for n in names]


def test_the_notebooks_name_rules():
    assert assets.file_parts(DATA[0]) == {"source": "era5", "date": "2022-01-01", "res": "1.0", "levels": "13",
                                          "steps": "01"}
    assert assets.model_traits(SMALL) == {"res": "1.0", "levels": "13", "sources": "era5 fake"}
    assert assets.dataset_fits(DATA[0], SMALL, 1) and not assets.dataset_fits(DATA[0], SMALL, 2)
    assert not assets.dataset_fits(DATA[3], BIG, 1)  # hres data for a model that takes precipitation
    assert assets.dataset_fits(DATA[3], OPER, 1) and assets.dataset_fits(DATA[4], BIG, 1)


@pytest.mark.parametrize("steps, expected", [(1, DATA[0]), (2, DATA[1]), (4, DATA[1]), (10, DATA[2])])
def test_the_default_is_the_small_model_and_the_shortest_batch_that_covers_the_steps(steps, expected):
    chosen = assets.select(_bucket_listing() + _bucket_listing(""), model=None, dataset=None, steps=steps)
    assert chosen.model.relpath == f"graphcast/params/{SMALL}"  # the graphcast/ copy before the top level
    assert chosen.dataset.name == expected
    assert [s.relpath for s in chosen.stats] == [f"graphcast/stats/{s}" for s in assets.STATS_FILES]


def test_a_part_of_a_name_chooses_and_a_vague_or_wrong_one_is_one_sentence():
    listing = _bucket_listing()
    assert assets.select(listing, model="operational", dataset=None, steps=1).dataset.name == DATA[3]
    with pytest.raises(UserError, match=r"--model 'ERA5' matches 3 files"):
        assets.select(listing, model="ERA5", dataset=None, steps=1)
    with pytest.raises(UserError, match=r"--model 'nope': no file under params/ matches.*--list"):
        assets.select(listing, model="nope", dataset=None, steps=1)
    with pytest.raises(UserError, match="does not fit"):
        assets.select(listing, model=None, dataset="res-0.25_levels-37", steps=1)
    with pytest.raises(UserError, match="no example dataset in the source fits"):
        assets.select(listing, model=None, dataset=None, steps=20)


def test_sha256sums_as_sha256sum_writes_them_names_with_spaces_and_a_bad_line():
    digest = "ab" * 32
    sums = assets.parse_sums(f"{digest}  params/{SMALL}\n{digest} *./stats/mean_by_level.nc\n", "SUMS")
    assert sums == {f"params/{SMALL}": digest, "stats/mean_by_level.nc": digest}
    with pytest.raises(UserError, match="SUMS line 2 is not"):
        assets.parse_sums(f"{digest}  a\nnot a sum\n", "SUMS")


def _folder(tmp_path):
    root = tmp_path / "mirror"
    for rel, body in ((f"params/{SMALL}", b"PK\x03\x04weights" * 1000), (f"dataset/{DATA[0]}", b"CDF\x01" + b"d" * 5000),
                      *((f"stats/{s}", b"CDF\x01stats") for s in assets.STATS_FILES)):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(body)
    return root


def test_a_local_folder_is_listed_used_in_place_and_its_sums_enforced(tmp_path):
    root = _folder(tmp_path)
    source = assets.open_source(str(root))
    listing = assets.list_assets(source)
    assert {a.kind for a in listing} == {"params", "dataset", "stats"} and len(listing) == 5
    fetched = assets.fetch(source, listing[0])
    assert fetched.path == root / listing[0].relpath and not fetched.verified and not fetched.downloaded
    write_sums(root)
    source = assets.open_source(str(root))
    assert assets.fetch(source, listing[0]).verified
    target = root / f"dataset/{DATA[0]}"
    target.write_bytes(target.read_bytes()[:-1] + b"X")  # one byte changed: it still "loads"; only a sum sees it
    with pytest.raises(AssetError) as caught:
        assets.fetch(source, Asset(f"dataset/{DATA[0]}"))
    assert str(target) in str(caught.value) and "fails its checksum" in str(caught.value)


@pytest.mark.parametrize("sums", ["stats-only", "comments-only"])
def test_a_file_the_folders_sums_do_not_list_is_refused_by_name_not_passed_on_unchecked(tmp_path, sums):
    # nineteenth hostile pass P11: a SHA256SUMS listing only stats/ let a tampered params file and the dataset through
    root = _folder(tmp_path)
    write_sums(root)
    lines = (root / assets.SUMS_FILE).read_text().splitlines()
    kept = [line for line in lines if "  stats/" in line] if sums == "stats-only" else ["# nothing listed"]
    (root / assets.SUMS_FILE).write_text("\n".join(kept) + "\n")
    source = assets.open_source(str(root))
    chosen = assets.select(assets.list_assets(source), model=None, dataset=None, steps=1)
    for asset in (chosen.model, chosen.dataset):
        with pytest.raises(AssetError) as caught:
            assets.fetch(source, asset)
        message = str(caught.value)
        assert f"{root / asset.relpath} is not listed in {root / assets.SUMS_FILE}" in message, message
        assert "was not used" in message and caught.value.fix and assets.SUMS_FILE in caught.value.fix
        assert [f.id for f in diagnose_text(message)][:1] == ["asset_corrupt"]
    if sums == "stats-only":
        assert all(assets.fetch(source, a).verified for a in chosen.stats)


def test_a_file_a_mirrors_sums_do_not_list_is_refused_too(tmp_path, assets_server, isolated_state):
    root = _folder(tmp_path)
    write_sums(root)
    source = assets.open_source(assets_server(root).url)
    with pytest.raises(AssetError, match=r"/params/extra\.npz is not listed in http://127\.0\.0\.1:\d+/SHA256SUMS"):
        assets.fetch(source, Asset("params/extra.npz"))


def test_a_download_is_cached_recorded_and_a_changed_cache_file_refused(tmp_path, assets_server, isolated_state):
    server = assets_server(_folder(tmp_path))
    source = assets.open_source(server.url)
    model = Asset(f"params/{SMALL}")
    first = assets.fetch(source, model)
    assert first.downloaded and first.path.read_bytes() == b"PK\x03\x04weights" * 1000
    assert first.path.is_relative_to(isolated_state / "assets")
    recorded = json.loads((isolated_state / "assets" / "recorded.json").read_text())
    assert recorded[source.url(model.relpath)]["sha256"] == first.sha256
    assert "%20" in source.url(model.relpath)  # names with spaces are percent-encoded
    count = len(server.requests)
    again = assets.fetch(source, model)
    assert not again.downloaded and len(server.requests) == count  # the cache answered
    first.path.write_bytes(b"PK\x03\x04weights" * 999)
    with pytest.raises(AssetError, match="the hash recorded when it was downloaded"):
        assets.fetch(source, model)


def test_a_broken_download_resumes_with_a_range_request(tmp_path, assets_server, isolated_state):
    server = assets_server(_folder(tmp_path))
    source = assets.open_source(server.url)
    data = Asset(f"dataset/{DATA[0]}")
    server.drop_after = 1000
    with pytest.raises(AssetError, match=r"broke after|stopped after 1000 of 5004 bytes"):
        assets.fetch(source, data)
    part = next((isolated_state / "assets").rglob("*.part"))
    assert part.stat().st_size == 1000 and not part.with_suffix("").exists()  # nothing half-written is used
    fetched = assets.fetch(source, data)
    assert server.requests[-1] == (f"/dataset/{DATA[0]}", "bytes=1000-")
    assert fetched.path.read_bytes() == (tmp_path / "mirror" / data.relpath).read_bytes()
    assert not part.exists()


def test_a_download_that_fails_the_mirrors_sums_is_refused_and_not_kept(tmp_path, assets_server, isolated_state):
    root = _folder(tmp_path)
    write_sums(root)
    (root / f"params/{SMALL}").write_bytes(b"<html>an error page</html>")  # what a broken mirror serves
    source = assets.open_source(assets_server(root).url)
    assert source.sums and f"params/{SMALL}" in source.sums
    with pytest.raises(AssetError, match="fails its checksum against its SHA256SUMS"):
        assets.fetch(source, Asset(f"params/{SMALL}"))
    assert not list((isolated_state / "assets").rglob(f"{SMALL}*"))
    listing = assets.list_assets(source)  # an HTTP mirror is listed by its SHA256SUMS
    assert len(listing) == 5


def test_an_unreachable_source_names_the_host_and_the_local_fix(tmp_path, closed_indexes):
    source = assets.Source(closed_indexes.replace("/simple/", "/"))
    with pytest.raises(AssetError, match=r"cannot reach 127\.0\.0\.1.*--assets DIR"):
        assets.fetch(source, Asset(f"params/{SMALL}"))


def test_the_bucket_is_listed_by_its_json_api_and_its_folder_objects_skipped(tmp_path, assets_server, monkeypatch):
    root = tmp_path / "gcs"
    listing = {"items": [{"name": "graphcast/params/", "size": "0"},
                         {"name": f"graphcast/params/{SMALL}", "size": "38502120"}]}
    (root / "storage/v1/b/dm_graphcast").mkdir(parents=True)
    (root / "storage/v1/b/dm_graphcast/o").write_text(json.dumps(listing))
    server = assets_server(root)
    monkeypatch.setattr(assets, "BUCKET_LISTING", f"{server.url}storage/v1/b/dm_graphcast/o")
    found = assets._bucket_listing("graphcast/")
    assert found == [Asset(f"graphcast/params/{SMALL}", 38502120)] * 3  # the same answer for each kind here


def test_progress_is_bytes_and_share_in_one_wording():
    text = assets.ProgressText()
    assert text("mean_by_level.nc", 0, 2 * 2**20) == "mean_by_level.nc  0.0 of 2.0 MiB (0%)"
    assert text("x.npz", 3 * 2**20, None).startswith("x.npz  3.0 MiB")


def test_gencast_takes_its_own_folder_its_12_hour_batch_and_four_stats():
    mini = "GenCast 1p0deg Mini <2019.npz"
    names = [f"gencast/params/{mini}", "gencast/dataset/source-era5_date-2019-03-29_res-1.0_levels-13_steps-01.nc",
             *(f"gencast/stats/{s}" for s in assets.GENCAST_STATS_FILES)]
    listing = _bucket_listing() + [Asset(n) for n in names]
    assert assets.family(mini) == "gencast" and assets.model_traits(mini)["res"] == "1.0"
    chosen = assets.select(listing, model="Mini", dataset=None, steps=1)
    assert chosen.model.relpath == f"gencast/params/{mini}"
    assert chosen.dataset.relpath.startswith("gencast/dataset/")  # not GraphCast's 6-hourly 1° batch
    assert [s.relpath for s in chosen.stats] == [f"gencast/stats/{s}" for s in assets.GENCAST_STATS_FILES]


def test_an_html_page_under_a_weights_name_is_refused_by_name_before_anything_loads(tmp_path):
    root = _folder(tmp_path)
    target = root / f"params/{SMALL}"
    target.write_text("<!DOCTYPE html><html><body>403 Forbidden</body></html>\n")
    source = assets.open_source(str(root))
    with pytest.raises(AssetError) as caught:
        assets.fetch(source, Asset(f"params/{SMALL}"))
    message = str(caught.value)
    assert str(target) in message and "not a numpy .npz (zip) archive" in message and "HTML page" in message


def test_too_many_steps_says_the_most_the_source_allows():
    with pytest.raises(UserError, match=r"allows --steps 12\); `gc-wizard forecast --list --assets X`"):
        assets.select(_bucket_listing(), model=None, dataset=None, steps=20,
                      hint="gc-wizard forecast --list --assets X")


def test_a_mirrors_password_never_appears(tmp_path, assets_server, isolated_state):
    server = assets_server(_folder(tmp_path))
    location = server.url.replace("http://", "http://lab:s3cret-pw@")
    source = assets.open_source(location)
    assert "s3cret-pw" not in source.describe() and "127.0.0.1" in source.describe()
    with pytest.raises(AssetError) as caught:
        assets.fetch(source, Asset("params/none.npz"))
    assert "s3cret-pw" not in str(caught.value)


def test_a_mirror_with_a_login_gets_it_as_basic_auth_and_nothing_on_disk_holds_it(tmp_path, assets_server,
                                                                                     isolated_state):
    server = assets_server(_folder(tmp_path))
    source = assets.open_source(server.url.replace("http://", "http://lab:s3cret-pw@"))
    fetched = assets.fetch(source, Asset(f"params/{SMALL}"))
    assert fetched.downloaded
    on_disk = [str(p) for p in (isolated_state / "assets").rglob("*")]
    assert not any("s3cret" in p for p in on_disk)
    assert "s3cret" not in (isolated_state / "assets" / "recorded.json").read_text()


@pytest.mark.parametrize("make, says", [
    (lambda p: p.open("wb").truncate(3 * 2**30), "larger than 4 MiB"),  # sparse: 3 GB on paper, nothing on disk
    (lambda p: p.symlink_to("/dev/zero"), "a character device, not a regular file"),
    (lambda p: __import__("os").mkfifo(p), "a named pipe (FIFO), not a regular file"),
    (lambda p: p.mkdir(), "a folder, not a regular file"),
    (lambda p: p.write_bytes(b"\xff\xfe" + b"a" * 10), "not a text file"),
])
def test_a_folders_sums_file_that_is_huge_endless_or_not_a_file_is_refused_by_name(tmp_path, make, says):
    root = _folder(tmp_path)
    make(root / assets.SUMS_FILE)
    with pytest.raises(UserError) as caught:
        assets.open_source(str(root))
    assert str(root / assets.SUMS_FILE) in str(caught.value) and says in str(caught.value)


@pytest.mark.parametrize("status, signed", [(403, False), (401, False), (403, True)])
def test_a_mirror_that_refuses_every_request_is_said_refused_not_empty(tmp_path, assets_server, status, signed):
    # nineteenth hostile pass P7: its 403 for SHA256SUMS read as "no sums", so it listed as an empty source
    server = assets_server(_folder(tmp_path))
    server.refuse = status
    if signed:  # a redirect to a signed URL that has expired
        server.signed_query = "X-Goog-Signature=deadbeef5ecret&sig=t0ken"
    with pytest.raises(AssetError) as caught:
        assets.open_source(server.url.replace("http://", "http://lab:s3cret-pw@") + "gc/")
    message = str(caught.value)
    assert f"http://lab:***@127.0.0.1:{server.server_address[1]}/gc/{assets.SUMS_FILE} answered HTTP {status}" \
        in message, message
    assert "refused" in message and "--assets DIR" in message and "\n" not in message
    for secret in ("s3cret-pw", "deadbeef5ecret", "t0ken"):
        assert secret not in message


def test_a_mirror_without_sums_is_still_a_source_without_sums(tmp_path, assets_server):
    server = assets_server(_folder(tmp_path))  # 404 for SHA256SUMS: a missing file, not a refusal
    assert assets.open_source(server.url).sums == {}


def test_an_address_is_shown_without_its_password_or_query():
    assert assets.shown_url("https://u:pw@host/gc/SHA256SUMS?X-Goog-Signature=abc#x") == \
        "https://u:***@host/gc/SHA256SUMS?…"
    assert assets.shown_url("https://host/gc/") == "https://host/gc/"


def test_a_mirrors_endless_sums_file_is_refused_not_cut_short(tmp_path, assets_server):
    root = _folder(tmp_path)
    (root / assets.SUMS_FILE).write_bytes(b"# padding\n" * (5 * 2**20 // 10))  # past the 4 MiB cap
    server = assets_server(root)
    with pytest.raises(AssetError) as caught:
        assets.open_source(server.url)
    assert f"{server.url}{assets.SUMS_FILE}" in str(caught.value) and "larger than 4 MiB" in str(caught.value)


def test_an_endless_recorded_json_in_the_cache_is_not_read_whole(tmp_path, isolated_state):
    folder = isolated_state / "assets"
    folder.mkdir(parents=True)
    (folder / "recorded.json").symlink_to("/dev/zero")
    assert assets._Recorded(folder).read() == {}


def test_the_files_named_for_a_local_copy_are_the_ones_a_first_forecast_picks():
    """The words a server without the bucket gets (`local_copy_words`) name exactly the files `select` takes for the
    default forecast from the bucket's own layout, so a lab-mate who copies them has a forecast that starts."""
    chosen = assets.select(_bucket_listing(), model=None, dataset=None, steps=1)
    assert tuple(a.relpath.removeprefix("graphcast/") for a in chosen.all()) == assets.first_forecast_files()
    words = assets.local_copy_words()
    assert "--with-assets" in words and all(f"'{name}'" in words for name in assets.first_forecast_files())


def test_an_unreachable_bucket_names_the_files_and_the_command_that_gathers_them(monkeypatch):
    """Seventeenth walk, problem 2: "Give a local copy with --assets DIR" named neither the files nor how to make
    that folder. The bucket's host is made unreachable through a proxy on a closed port."""
    monkeypatch.setenv("https_proxy", "http://127.0.0.1:9")
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")
    monkeypatch.delenv("no_proxy", raising=False)
    monkeypatch.delenv("NO_PROXY", raising=False)
    # The program as a new shell runs it is `paths.program_command`'s (tested on its own): here, the one on PATH, so the
    # words do not depend on which checkout this venv's console script imports (30th hostile pass (part B) P10).
    monkeypatch.setattr("wizard.paths.program_command", lambda: "gc-wizard")
    with pytest.raises(AssetError) as caught:
        assets.fetch(assets.Source(assets.BUCKET_URL), Asset(f"graphcast/params/{SMALL}"))
    text = str(caught.value)
    assert text.startswith("cannot reach storage.googleapis.com: ")
    assert assets.local_copy_words() in text and "gc-wizard forecast --assets DIR" in text


def test_an_empty_folders_listing_says_what_a_first_forecast_needs(tmp_path):
    from wizard.after.forecast import describe_listing

    (tmp_path / "params").mkdir()
    source = assets.open_source(str(tmp_path))
    lines = describe_listing(assets.list_assets(source), source)
    assert lines[-1].startswith("A first forecast needs 5 file(s) it does not hold. ")
    with pytest.raises(UserError, match="has no params/ files.*--with-assets"):
        assets.select(assets.list_assets(source), model=None, dataset=None, steps=1)


def test_a_mirror_behind_a_login_gets_the_login_for_its_downloads_not_the_masked_one(tmp_path, assets_server,
                                                                                     isolated_state):
    """The download was asked for with the address as recorded (its password written `***`), so a mirror that needs
    a login refused every file the listing had named (found while fixing the 37th hostile pass, part A, P1)."""
    server = assets_server(_folder(tmp_path))
    url = server.needs_login("alice", "PWMIRROR7")
    source = assets.open_source(url)
    model = Asset(f"params/{SMALL}")
    fetched = assets.fetch(source, model)
    assert fetched.downloaded and fetched.path.read_bytes() == b"PK\x03\x04weights" * 1000
    recorded = (isolated_state / "assets" / "recorded.json").read_text()
    assert "PWMIRROR7" not in recorded and "alice" in recorded  # the record still never holds the password
