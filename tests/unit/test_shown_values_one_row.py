"""A value's carriage return or newline never moves or splits the line it is shown on (36th hostile pass (part A)
P4: `forecast --list` printed an assets file named `cr\\rGraphCast_small.npz` as `params/GraphCast_small.npz` on a
terminal, and one named `nl\\n        0.0 KiB  GraphCast_fake.npz` as a listing row of its own). The output layer
escapes a return inside a line (`security.escape_stray_returns`, in every stream write); a listing shows each name
as one row (`security.one_line`)."""

from __future__ import annotations

import io

from wizard.after import assets
from wizard.after.forecast import describe_listing
from wizard.commands.streams import GuardedStream
from wizard.security import escape_stray_returns


def test_a_return_inside_a_line_is_escaped_and_the_wizards_own_returns_stay():
    assert escape_stray_returns("params/cr\rGraphCast_small.npz\n") == "params/cr\\u000dGraphCast_small.npz\n"
    assert escape_stray_returns("\r  GraphCast 12%") == "\r  GraphCast 12%"  # a redraw starts with its return
    assert escape_stray_returns("one\r\ntwo\r") == "one\r\ntwo\r"  # a line's end, a redraw's end


def test_every_write_of_the_output_layer_escapes_a_return_inside_a_line():
    raw = io.BytesIO()
    out = GuardedStream(io.TextIOWrapper(raw, encoding="utf-8"), -1, "standard output")
    out.write("gc-wizard: --model cr\rGraphCast_small.npz: no file under params/ matches\n")
    out.flush()
    assert b"\r" not in raw.getvalue() and b"cr\\u000dGraphCast_small.npz" in raw.getvalue()


def test_a_listing_shows_each_file_name_as_one_row(tmp_path):
    (tmp_path / "params").mkdir()
    (tmp_path / "params" / "cr\rGraphCast_small.npz").write_bytes(b"x")
    (tmp_path / "params" / "nl\n        0.0 KiB  GraphCast_fake.npz").write_bytes(b"x")
    source = assets.open_source(str(tmp_path))
    text = "\n".join(describe_listing(assets.list_assets(source), source))
    assert "\r" not in text
    rows = [line for line in text.splitlines() if "GraphCast" in line]
    assert rows == ["        0.0 KiB  params/cr\\u000dGraphCast_small.npz",
                    "        0.0 KiB  params/nl\\u000a        0.0 KiB  GraphCast_fake.npz"]
