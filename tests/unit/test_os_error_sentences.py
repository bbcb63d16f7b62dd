"""The sentence for a full disk that no path was named with (`error_sentences.describe_os_error`)."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from wizard import paths
from wizard.error_sentences import describe_os_error
from wizard.security import shell_word


def test_a_full_disk_without_a_path_names_the_folders_it_can_be_and_how_to_tell():
    """Sixteenth hostile pass P8: a rollback on a full state disk said "the disk is full … free some space there",
    naming no folder: a write through an open file carries no path. Where no place is full by the time the sentence
    is made, every place it can be is named, with the `df` that tells."""
    for code in (errno.ENOSPC, errno.EDQUOT):
        sentence = describe_os_error(OSError(code, "full"))
        state, tmp = paths.state_dir(), tempfile.gettempdir()
        assert f"the state folder {state}" in sentence and f"the temporary folder {tmp}" in sentence
        assert f"`df -h {os.path.realpath(state)} {os.path.realpath(tmp)}` shows which" in sentence
        assert sentence.endswith(".")
    named = describe_os_error(OSError(errno.ENOSPC, "full", "/scratch/me/out.nc"))
    assert named.startswith("cannot use /scratch/me/out.nc: the disk is full") and "the state folder" not in named


def test_a_full_disk_with_a_path_names_that_paths_disk_and_a_copy_its_destination(tmp_path):
    """38th hostile pass (part A) P4: a full disk is said of the file being written and its disk (the nearest
    folder still there, as a failed bundle's is removed by then); a copy's `sendfile` error names its source first,
    and the full disk is the destination's (its second file)."""
    gone = tmp_path / "out" / "b" / "wizard" / "x.whl"
    named = describe_os_error(OSError(errno.ENOSPC, "full", str(gone)))
    assert named.startswith(f"cannot use {gone}: the disk is full — it is on the ") and f"`df -h {shell_word(str(tmp_path))}`" in named
    assert "GC_WIZARD_HOME" not in named and "the temporary folder" not in named, named
    copied = describe_os_error(OSError(errno.ENOSPC, "full", "/src/model.npz", None, str(gone)))
    assert copied.startswith(f"cannot use {gone}: the disk is full") and "/src/model.npz" not in copied, copied


def _linked_logs(target: Path) -> Path:
    """The state folder with its `logs` a link to `target` (the README allows links in the state)."""
    state = paths.ensure_state_dir()
    (state / "logs").symlink_to(target)
    return state


def test_a_state_folder_linked_elsewhere_is_named_where_it_leads_when_nothing_is_full_yet(tmp_path):
    other = tmp_path / "scratch-logs"
    other.mkdir()
    state = _linked_logs(other)
    sentence = describe_os_error(OSError(errno.ENOSPC, "full"))
    assert f"the state's logs/ (a link to {other})" in sentence and f" {other} " in sentence, sentence
    assert state.is_dir()


def test_a_full_disk_behind_a_link_in_the_state_is_named_with_its_file_system(full_tmpfs):
    """Twenty-first hostile pass P8: `logs` linked to a full disk was blamed on "the state folder or /tmp", both
    with room; the `df` it gave showed nothing full."""
    (full_tmpfs / "logs").mkdir()
    state = _linked_logs(full_tmpfs / "logs")
    sentence = describe_os_error(OSError(errno.ENOSPC, "No space left on device"))
    assert sentence.startswith(f"a file system error: the disk is full — the disk of the state's logs/ (a link to "
                               f"{full_tmpfs}/logs), on the tmpfs file system mounted at {full_tmpfs} "
                               f"(`df -h {full_tmpfs}/logs`) has no room left."), sentence
    assert "point that link at a folder on another disk" in sentence and "GC_WIZARD_HOME" not in sentence
    assert f"the state folder {state}" not in sentence and "temporary folder" not in sentence
    named = describe_os_error(OSError(errno.ENOSPC, "No space left on device", str(state / "logs" / "x.log")))
    assert named.startswith(f"cannot write {state}/logs/x.log: the disk is full — it is {full_tmpfs}/logs/x.log, "
                            f"through a link in the state folder, on the tmpfs file system mounted at {full_tmpfs}")
    assert "GC_WIZARD_HOME" not in named


def test_a_full_disk_with_no_path_names_the_inode_check_too():
    """Seventeenth hostile pass 6.3: a state folder out of inodes said "No space left on device" while `df -h` showed
    1 % used; the sentence and diagnose's fix now name `df -i` as well."""
    from wizard.verify.diagnose import diagnose_text

    assert "`df -i`" in describe_os_error(OSError(errno.ENOSPC, "No space left on device"))
    finding = diagnose_text("OSError: [Errno 28] No space left on device: '/s/envs/x/lib'")[0]
    assert finding.id == "disk_full" and "df -i" in finding.fix


def test_too_many_open_files_names_the_open_files_limit_with_its_number():
    """EMFILE is this process's `ulimit -n`, not a fault of the file it was opening (hostile pass P9)."""
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    words = describe_os_error(OSError(errno.EMFILE, "Too many open files", "/some/file"))
    assert words.startswith("cannot open /some/file: this process reached its limit of open files")
    assert f"`ulimit -n` is {soft}" in words or soft == resource.RLIM_INFINITY
    assert "pty" not in words and "GC_WIZARD_HOME" not in words


def test_a_disk_out_of_inodes_is_named_so_not_full(no_inodes_tmpfs, monkeypatch):
    """Twenty-second hostile pass P5: a file-count limit reached (HPC homes have one) was "the disk is full" while
    `df -h` showed 1% used; the sentence names the inodes and `df -i`, on every path: a path in the state, any other
    path, no path, and a child's failure that quotes ENOSPC."""
    from wizard.full_disk import no_room_advice

    monkeypatch.setenv("GC_WIZARD_HOME", str(no_inodes_tmpfs / "state"))
    in_state = describe_os_error(OSError(errno.ENOSPC, "full", str(no_inodes_tmpfs / "state" / "envs" / "x")))
    assert "no more files can be made there" in in_state and "inodes" in in_state and "df -i" in in_state, in_state
    assert "the disk is full" not in in_state and "gc-wizard remove" in in_state
    elsewhere = describe_os_error(OSError(errno.ENOSPC, "full", str(no_inodes_tmpfs / "out.nc")))
    assert elsewhere.startswith(f"cannot use {no_inodes_tmpfs}/out.nc: no more files can be made there"), elsewhere
    no_path = describe_os_error(OSError(errno.ENOSPC, "full"))
    assert f"`df -i {no_inodes_tmpfs}/state`: it has room, but no more files can be made there" in no_path, no_path
    child = ('error: Failed to install: x.whl\n  cause: No space left on device (os error 28) at path '
             f'"{no_inodes_tmpfs}/state/envs/e/lib/python3.11/site-packages/x.dist-info/.tmpAB"')
    advice = no_room_advice(child)
    assert advice.startswith(f"The installer stopped because no more files can be made on the tmpfs file system "
                             f"mounted at {no_inodes_tmpfs}: it has room") and f"`df -i {no_inodes_tmpfs}`" in advice


def test_a_child_that_quotes_a_full_disk_is_told_which_disk(full_tmpfs):
    from wizard.full_disk import no_room_advice

    advice = no_room_advice(f"error: failed to write to file `{full_tmpfs}/lock.txt`: No space left on device")
    assert advice == (f"The installer stopped because the disk is full on the tmpfs file system mounted at {full_tmpfs} "
                      f"(`df -h {full_tmpfs}`); free some space there, or use another disk.")
    assert no_room_advice("error: the index answered 404") is None
    quota = no_room_advice("OSError: [Errno 122] Disk quota exceeded")
    assert quota.startswith("The installer stopped because your disk quota is used up; `df -h` and `df -i`")


def test_a_file_rewritten_on_a_full_disk_is_named_and_the_room_it_needs_said(tmp_path):
    """Twenty-second hostile pass P7: a 8.8 MB history.json could not be rewritten with 7.3 MB free, and the sentence
    blamed "one of the places gc-wizard writes in" (its write named no path) while `df -h` showed 55%. The write names
    its file, and a disk with some room says how much the rewrite needs."""
    import subprocess

    import pytest

    from wizard.security import write_private_file

    point = tmp_path / "small"
    point.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(point)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        big = point / "history.json"
        big.write_text("x" * 2_500_000)
        with pytest.raises(OSError) as raised:
            write_private_file(big, "y" * 2_500_000)
        assert raised.value.errno == errno.ENOSPC and raised.value.filename == str(big)
        assert big.read_text() == "x" * 2_500_000 and [p.name for p in point.iterdir()] == ["history.json"]
        sentence = describe_os_error(raised.value)
        assert sentence.startswith(f"cannot use {big}: the disk has ") and "MB free, less than the 2.5 MB it takes " \
            "to write history.json anew beside the old one" in sentence, sentence
    finally:
        subprocess.run(["umount", "-l", str(point)], capture_output=True)


def test_a_full_tmpdir_is_named_as_set_and_a_full_state_is_moved_with_gc_wizard_home(full_tmpfs, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(full_tmpfs))  # tempfile.gettempdir() passes over a full folder for /tmp
    sentence = describe_os_error(OSError(errno.ENOSPC, "full"))
    assert f"the temporary folder {full_tmpfs}, on the tmpfs file system" in sentence, sentence
    assert sentence.endswith("point TMPDIR at a folder on another disk.")
    monkeypatch.setenv("GC_WIZARD_HOME", str(full_tmpfs))
    sentence = describe_os_error(OSError(errno.ENOSPC, "full"))
    assert f"the state folder {full_tmpfs}" in sentence and sentence.endswith("point GC_WIZARD_HOME at another disk.")


def test_the_open_files_fix_is_built_from_the_limits_and_both_sentences_give_it():
    """The fix comes from the limits as data (`errors.open_files_fix`), not from cutting `limit_sentence`'s text at
    its first ". ": under a real low `ulimit -n` (lowered in a child) the limit's sentence and the advice for a
    child's failure give the same fix, for a soft limit under the hard one and for one at it."""
    import subprocess
    import sys

    from wizard.errors import open_files_fix

    assert open_files_fix(12, 12).startswith("It is also the hard limit (`ulimit -Hn` is 12), so only an admin")
    assert open_files_fix(12, 1024) == ("Raise it in the shell that runs gc-wizard, e.g. `ulimit -n 1024` (the hard "
                                        "limit, `ulimit -Hn`, is 1024)")
    assert open_files_fix(12, None) == "Raise it in the shell that runs gc-wizard, e.g. `ulimit -n 4096`"
    code = ("import errno, resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[1]), int(sys.argv[2])))\n"
            "from wizard.errors import limit_sentence, open_files_advice\n"
            "print(limit_sentence(errno.EMFILE)); print(open_files_advice('glibc'))\n")
    for soft, hard in ((32, 32), (32, 64)):
        said = subprocess.run([sys.executable, "-P", "-c", code, str(soft), str(hard)], capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}, check=True)
        sentence, advice = said.stdout.splitlines()
        fix = open_files_fix(soft, hard)
        assert sentence.endswith(f"). {fix}; then run it again"), sentence
        assert advice.endswith(f"that is the likely cause. {fix}; then run it again."), advice


def test_a_deleted_current_folder_is_named_not_the_state_folder(tmp_path, monkeypatch):
    """34th hostile pass (part A) P1: from a deleted current folder, `report --out r.txt` said "a file system error: it
    does not exist … point GC_WIZARD_HOME at another one" (`Path.absolute()` fails with no file name). The sentence
    names the current folder, for no name and for a relative one alike, and never GC_WIZARD_HOME."""
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    try:
        Path("r.txt").absolute()
    except FileNotFoundError as exc:
        unnamed = exc
    for error in (unnamed, FileNotFoundError(errno.ENOENT, "No such file or directory", "r.txt")):
        sentence = describe_os_error(error)
        assert sentence.startswith("the current folder no longer exists"), sentence
        assert "`cd` to a folder that exists" in sentence and "GC_WIZARD_HOME" not in sentence, sentence
    absolute = describe_os_error(FileNotFoundError(errno.ENOENT, "No such file or directory", "/nowhere/r.txt"))
    assert absolute.startswith("cannot use /nowhere/r.txt: it does not exist"), absolute
    monkeypatch.chdir(tmp_path)
    assert "current folder" not in describe_os_error(FileNotFoundError(errno.ENOENT, "No such file or directory"))
