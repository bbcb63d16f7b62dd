"""An empty LD_LIBRARY_PATH entry (a leading or trailing `:`, or `::`) is the folder a program starts in to ld.so, as
`.` is: detect warned of `.` holding cuDNN 8 but listed nothing and said nothing for `/usr/lib:` or `a::b` (23rd
hostile pass P6)."""

from __future__ import annotations

import pytest

from tests.fixtures.gpu import make_library_dir
from wizard.detect import libpath
from wizard.detect.chain import library_warnings
from wizard.detect.libraries import inventory


@pytest.mark.parametrize("value", [".", "{other}:", ":{other}", "{other}::{other}"])
def test_an_empty_entry_is_read_as_the_starting_folder(tmp_path, monkeypatch, value):
    here = make_library_dir(tmp_path / "here", {"libcudnn.so.8.2.1": None, "libcudnn.so.8": "libcudnn.so.8.2.1"})
    other = tmp_path / "other"
    other.mkdir()
    monkeypatch.chdir(here)
    environ = {"LD_LIBRARY_PATH": value.format(other=other)}
    found = [lib for lib in inventory(environ, [], []) if lib.found_via == "LD_LIBRARY_PATH"]
    assert any(lib.name == "cudnn" for lib in found), found
    warnings = [w for w in library_warnings(found, environ) if w.id == "ld_library_path_cudnn"]
    assert len(warnings) == 1, warnings
    if value != ".":
        assert warnings[0].message.startswith(f"an empty entry (the folder a program starts in, here {here}) on "
                                              "LD_LIBRARY_PATH holds cuDNN 8")


def test_an_empty_value_is_no_entry():
    assert libpath.library_path_folders("") == []
    assert [f for f, _ in libpath.library_path_folders("/a::/b:")] == ["/a", ".", "/b", "."]
