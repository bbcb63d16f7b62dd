"""A name in a source's SHA256SUMS (or the bucket's listing) that is no file's path inside the source is refused at
the parser, by the listing, line and name (shown escaped), and never used as a path.

Why: 38th hostile pass (part A) P3 — a mirror listing `params/..` (with the hash its server gives for it) had the
download renamed over the cache folder itself, left a `...part`, and the error blamed the state folder."""

from __future__ import annotations

import pytest

from wizard.after import assets
from wizard.errors import UserError

DIGEST = "ab" * 32
GOOD = f"params/{assets.DEFAULT_MODEL}"

BAD_NAMES = {
    "params/..": "'..'", "params/.": "'.'", "./params/..": "'..'", "graphcast/../params/x.npz": "'..'",
    "params/": "empty name", "params//x.npz": "empty name", "./": "empty name", "/etc/params/x.npz": "starts with /",
    "params/x\x00.npz": "control character", "params/x\x1b[2J.npz": "control character",
    "params/x\x7f.npz": "control character", "params/x\x9b.npz": "control character",
    "params\\..\\..\\x.npz": "backslash", "params/..\\x.npz": "backslash",
}


@pytest.mark.parametrize("name", sorted(BAD_NAMES))
def test_a_listed_name_that_is_no_path_inside_the_source_is_refused_by_line_and_name(name):
    text = f"{DIGEST}  {GOOD}\n{DIGEST}  {name}\n"
    with pytest.raises(UserError) as caught:
        assets.parse_sums(text, "http://127.0.0.1:9/SHA256SUMS")
    message = str(caught.value)
    assert message.startswith("http://127.0.0.1:9/SHA256SUMS line 2 lists '"), message
    assert BAD_NAMES[name] in message and "was not used" in message
    assert not any(ch in message for ch in "\x00\x1b\x7f\x9b"), "the name is shown escaped"
    assert "state folder" not in message


@pytest.mark.parametrize("name", [GOOD, "graphcast/stats/mean_by_level.nc", "gencast/params/GenCast 1p0deg Mini <2019.npz",
                                  "README", "notes/a b.txt"])
def test_plain_names_are_kept(name):
    assert assets.parse_sums(f"{DIGEST} *./{name}\n", "SUMS") == {name: DIGEST}


def test_the_kind_of_a_listed_name_needs_a_plain_file_name():  # the bucket's listing is read through it too
    assert assets._kind_of(GOOD) == "params"
    for name in ("params/..", "params/.", "params/", "graphcast/params/..", "params/a\\b", "params/a\x00"):
        assert assets._kind_of(name) is None, name


def test_a_mirror_listing_dotdot_is_refused_before_anything_is_fetched(tmp_path, assets_server, isolated_state):
    root = tmp_path / "mirror"
    (root / "params").mkdir(parents=True)
    (root / "params" / "x.npz").write_bytes(b"PK\x03\x04")
    (root / "SHA256SUMS").write_text(f"{DIGEST}  params/x.npz\n{DIGEST}  params/..\n")
    server = assets_server(root)
    with pytest.raises(UserError, match=r"SHA256SUMS line 2 lists 'params/\.\.', which is not a file's path") as caught:
        assets.open_source(server.url)
    assert server.url in str(caught.value)
    assert not (isolated_state / "assets").exists()


def test_a_local_folders_listing_is_held_to_the_same_rule(tmp_path):
    root = tmp_path / "lab"
    (root / "params").mkdir(parents=True)
    (root / "SHA256SUMS").write_text(f"{DIGEST}  params/../../../etc/shadow\n")
    with pytest.raises(UserError, match=r"SHA256SUMS line 1 lists 'params/\.\./\.\./\.\./etc/shadow'"):
        assets.open_source(str(root))
