"""An HTTP(S) source's files are cached inside the state's `assets/` whatever its URL, and a `.part` name is never
written through a link.

Why: 38th hostile pass (part A) P2 — the URL's path was joined to the cache as it was, so
`--assets http://host/../../../x/` wrote the downloads outside the state (into another user's folder, through their
link at the `.part` name, over a root-owned file). Real HTTP on loopback (`tests/fixtures/assets_server.py`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.fixtures.assets_server import write_sums
from wizard.after import assets
from wizard.after.assets import Asset, AssetError
from wizard.paths import ForeignFolder

DATA = "source-era5_date-2022-01-01_res-1.0_levels-13_steps-01.nc"


def _mirror(root: Path) -> Path:
    """A mirror's files at `root` (params, a dataset, the statistics) with their SHA256SUMS."""
    for rel, body in ((f"params/{assets.DEFAULT_MODEL}", b"PK\x03\x04weights" * 100), (f"dataset/{DATA}", b"CDF\x01d"),
                      *((f"stats/{s}", b"CDF\x01stats") for s in assets.STATS_FILES)):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(body)
    write_sums(root)
    return root


def _everything_under(folder: Path) -> set[Path]:
    return {Path(dirpath) / name for dirpath, dirs, files in os.walk(folder) for name in dirs + files}


@pytest.mark.parametrize("way", ["../../../../escaped/", "%2e%2e/%2E%2E/%2e%2e/%2e%2e/escaped/", "./escaped/",
                                 "a/..//./../../../escaped/"])
def test_a_url_path_with_dot_segments_is_cached_inside_the_states_assets(tmp_path, assets_server, isolated_state, way):
    served = tmp_path / "served"
    _mirror(served / "escaped")  # the server takes `..` and `%2e%2e` away (http.server's translate_path)
    server = assets_server(served)
    before = _everything_under(tmp_path) | _everything_under(isolated_state.parent)
    source = assets.open_source(server.url + way)
    assert source.sums, "the mirror's listing was read through the odd path"
    fetched = assets.fetch(source, Asset(f"params/{assets.DEFAULT_MODEL}"))
    assert fetched.downloaded and fetched.verified
    cache = isolated_state / "assets"
    assert os.path.normpath(fetched.path).startswith(f"{cache}{os.sep}")
    assert all(name not in (".", "..") for name in fetched.path.relative_to(cache).parts)
    after = _everything_under(tmp_path) | _everything_under(isolated_state.parent)
    new = {path for path in after - before if not path.is_relative_to(isolated_state)}
    assert not new, f"written outside the state: {sorted(new)}"


def test_a_host_of_dots_names_no_folder_above_the_cache(isolated_state):
    target = assets._cache_target(assets.Source("http://../a/"), Asset("params/x.npz"))
    assert target.relative_to(isolated_state / "assets").parts[0] == "%2E%2E"
    target = assets._cache_target(assets.Source("http://h/a\\b/"), Asset("params/x.npz"))
    assert "\\" not in str(target) and "a%5Cb" in target.parts


def test_a_listed_path_that_leaves_the_source_is_never_a_cache_path(isolated_state):
    for relpath in ("params/..", "params/../../../x", "/etc/params/x", "params/a\\..\\b"):
        with pytest.raises(AssetError, match="is not a file's path inside the source"):
            assets._cache_target(assets.Source("http://h/"), Asset(relpath))


def test_a_link_at_the_part_name_is_refused_and_not_followed(tmp_path, assets_server, isolated_state):
    server = assets_server(_mirror(tmp_path / "mirror"))
    source = assets.open_source(server.url)
    model = Asset(f"params/{assets.DEFAULT_MODEL}")
    victim = tmp_path / "victim.txt"
    victim.write_text("root's own file\n")
    target = assets._cache_target(source, model)
    assets._made_in_cache(target.parent)
    part = target.with_name(target.name + ".part")
    part.symlink_to(victim)
    with pytest.raises(AssetError, match=r"\.part is a link, not a download gc-wizard left there"):
        assets.fetch(source, model)
    assert victim.read_text() == "root's own file\n" and part.is_symlink() and not target.exists()


def test_the_part_is_opened_without_following_a_link_even_when_swapped_in_after_the_check(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("kept\n")
    part = tmp_path / "x.npz.part"
    part.symlink_to(victim)
    with pytest.raises(OSError):
        assets._open_part(part, resume=True)  # O_NOFOLLOW: ELOOP
    with assets._open_part(part, resume=False) as out:  # a new file in the link's place (O_EXCL), never through it
        out.write(b"new")
    assert victim.read_text() == "kept\n" and not part.is_symlink() and part.read_bytes() == b"new"


def test_a_folder_on_the_way_another_user_could_swap_is_refused(tmp_path, assets_server, isolated_state):
    _mirror(tmp_path / "mirror" / "sub")
    server = assets_server(tmp_path / "mirror")
    source = assets.open_source(server.url + "sub/")
    model = Asset(f"params/{assets.DEFAULT_MODEL}")
    target = assets._cache_target(source, model)
    open_to_all = tmp_path / "open"
    open_to_all.mkdir()
    os.chmod(open_to_all, 0o777)  # every user could swap what is made there
    host = target.relative_to(isolated_state / "assets").parts[0]
    (isolated_state / "assets" / host).mkdir(parents=True)
    (isolated_state / "assets" / host / "sub").symlink_to(open_to_all)
    with pytest.raises(ForeignFolder):
        assets.fetch(source, model)
    assert not any(open_to_all.iterdir())
