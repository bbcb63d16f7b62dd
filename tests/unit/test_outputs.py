"""The one rule for a file the user asked for (wizard.outputs): a device is written into, a user's link is kept
and written through, a failure is one sentence with exit 1 (fifth hostile pass 6d/6e/6i), whichever writer."""

from __future__ import annotations

import os
import stat

import pytest

from wizard.errors import OperationFailed
from wizard.outputs import SHARED_MODE, write_output_file


def test_a_link_the_user_put_there_is_kept_and_the_file_it_names_is_written(tmp_path):
    real = tmp_path / "elsewhere" / "tiny.lua"
    real.parent.mkdir()
    real.write_text("old\n")
    link = tmp_path / "modules" / "tiny.lua"
    link.parent.mkdir()
    link.symlink_to(os.path.relpath(real, link.parent))  # a relative link, resolved from its own folder
    assert write_output_file(link, "new\n", what="the module file", mode=SHARED_MODE) == link
    assert link.is_symlink() and real.read_text() == "new\n"
    assert stat.S_IMODE(real.stat().st_mode) == SHARED_MODE
    assert sorted(p.name for p in real.parent.iterdir()) == ["tiny.lua"]  # no temporary file left


def test_a_chain_of_links_is_followed_to_its_end(tmp_path):
    end = tmp_path / "end.md"
    (tmp_path / "b.md").symlink_to(end)
    (tmp_path / "a.md").symlink_to(tmp_path / "b.md")
    write_output_file(tmp_path / "a.md", "report\n", what="the report to")
    assert end.read_text() == "report\n" and (tmp_path / "a.md").is_symlink() and (tmp_path / "b.md").is_symlink()
    assert stat.S_IMODE(end.stat().st_mode) == 0o600


@pytest.mark.parametrize("through_link", [False, True])
def test_a_full_device_is_an_operation_that_failed_not_bad_input(tmp_path, through_link):
    path = "/dev/full"
    if through_link:
        (tmp_path / "kernel.json").symlink_to("/dev/full")
        path = tmp_path / "kernel.json"
    with pytest.raises(OperationFailed) as caught:  # exit 1, as interface.md has it; bad input is 2
        write_output_file(path, "x" * 10, what="the kernel spec")
    message = str(caught.value)
    assert message.startswith("cannot write the kernel spec ") and "No space left on device" in message
    assert ("a link to /dev/full" in message) is through_link
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_link_loop_is_one_sentence(tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(OperationFailed, match="cannot write the answers file .*symbolic links"):
        write_output_file(tmp_path / "a", "{}", what="the answers file")


def test_a_mode_never_grants_group_or_other_write(tmp_path):
    write_output_file(tmp_path / "m.lua", "x", what="the module file", mode=0o666)
    assert stat.S_IMODE((tmp_path / "m.lua").stat().st_mode) == 0o644
