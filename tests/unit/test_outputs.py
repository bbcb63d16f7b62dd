"""The one rule for a file the user asked for (wizard.outputs): a device is written into (through a link too), any
other link is refused, never written through (eleventh pass #188/#189), a failure is one sentence with exit 1 (fifth hostile pass 6d/6e/6i), whichever writer."""

from __future__ import annotations

import os
import stat

import pytest

from wizard.errors import ExitCode, OperationFailed, UserError
from wizard.outputs import SHARED_MODE, check_out_folder, write_destination, write_output_file


@pytest.mark.parametrize("what, name", [("the module file", "tiny.lua"), ("the kernel spec", "kernel.json"),
                                        ("the report to", "report.md"), ("the answers file", "answers.json")])
@pytest.mark.parametrize("relative", [False, True])
def test_a_link_at_the_destination_is_refused_and_its_target_never_written(tmp_path, what, name, relative):
    """Eleventh hostile pass #188/#189: a link at a module file's or kernel spec's path (a group folder lets any
    member plant one) had the wizard overwrite the victim's file it points to."""
    victim = tmp_path / "elsewhere" / "precious.txt"
    victim.parent.mkdir()
    victim.write_text("my own notes\n")
    victim.chmod(0o600)
    link = tmp_path / "dest" / name
    link.parent.mkdir()
    link.symlink_to(os.path.relpath(victim, link.parent) if relative else victim)
    with pytest.raises(UserError) as caught:
        write_output_file(link, "new\n", what=what, mode=SHARED_MODE)
    message = str(caught.value)
    assert caught.value.exit_code == ExitCode.BAD_INPUT
    assert message.startswith(f"cannot write {what} {link}: it is a symbolic link (to ") and "precious.txt" in message
    assert victim.read_text() == "my own notes\n" and stat.S_IMODE(victim.stat().st_mode) == 0o600
    assert link.is_symlink() and sorted(p.name for p in link.parent.iterdir()) == [name]  # no temporary file


def test_a_chain_of_links_and_a_dangling_link_are_refused_too(tmp_path):
    end = tmp_path / "end.md"
    (tmp_path / "b.md").symlink_to(end)  # dangling: following it would create a file wherever it names
    (tmp_path / "a.md").symlink_to(tmp_path / "b.md")
    for path in (tmp_path / "a.md", tmp_path / "b.md"):
        with pytest.raises(UserError, match="symbolic link"):
            write_output_file(path, "report\n", what="the report to")
    assert not end.exists()
    end.write_text("old\n")
    with pytest.raises(UserError, match=f"to {end}"):
        write_destination(tmp_path / "a.md", "lock\n", what="the lock")
    assert end.read_text() == "old\n"


def test_a_link_to_stdout_or_a_device_is_still_written_into(tmp_path):
    """`--out /dev/stdout` (itself a link) and a link to /dev/null are a shell's `>`, not a file's target."""
    (tmp_path / "null.json").symlink_to("/dev/null")
    assert write_output_file(tmp_path / "null.json", "{}", what="the answers file") == tmp_path / "null.json"
    assert (tmp_path / "null.json").is_symlink() and stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_check_out_folder_refuses_a_linked_out_before_any_work(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("x")
    (tmp_path / "pylock.toml").symlink_to(victim)
    with pytest.raises(UserError, match=r"--out .*pylock.toml: it is a symbolic link"):
        check_out_folder("--out", tmp_path / "pylock.toml", runs="`install --lock` would then install")


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


@pytest.mark.parametrize("name", ["/", ".", "..", "{tmp}/newd/", "{tmp}"])
def test_a_destination_that_names_a_folder_is_refused_in_one_sentence(tmp_path, isolated_state, name):
    """Thirteenth hostile pass #54-#56: `report --out /` ended as "an error of its own (ValueError …)" with a crash
    log, `--save-answers ..` as "Device or resource busy", and `--out newd/` wrote a file named newd."""
    from wizard.errors import UserError
    from wizard.outputs import write_output_file

    with pytest.raises(UserError, match="it names a folder"):
        write_output_file(name.format(tmp=tmp_path), "text", what="the report to")
    assert not (tmp_path / "newd").exists()


@pytest.mark.parametrize("inside", ["history.json", "logs/x.log", "envs/e/bin/python", "frozen/x.txt"])
def test_the_state_folders_own_files_are_no_destination(isolated_state, inside):
    """Thirteenth hostile pass #51: `report --out $GC_WIZARD_HOME/history.json` replaced the history, which the next
    start set aside as corrupt. A module file may still go to the state's modules/ (module install's default)."""
    from wizard.errors import UserError
    from wizard.outputs import check_out_folder, write_output_file

    target = isolated_state / inside
    with pytest.raises(UserError, match="inside gc-wizard's state folder"):
        write_output_file(str(target), "t", what="the report to")
    with pytest.raises(UserError, match="inside gc-wizard's state folder"):
        check_out_folder("--out", isolated_state / "logs" / "lock.txt")
    write_output_file(isolated_state / "modules" / "graphcast" / "m.lua", "-- module\n", what="the module file")
