"""The sentence for a full disk that no path was named with (`errors.describe_os_error`)."""

from __future__ import annotations

import errno
import tempfile

from wizard import paths
from wizard.errors import describe_os_error


def test_a_full_disk_without_a_path_names_the_folders_it_can_be_and_how_to_tell():
    """Sixteenth hostile pass P8: a rollback on a full state disk said "the disk is full … free some space there",
    naming no folder: a write through an open file carries no path. The two folders it can be are named."""
    for code in (errno.ENOSPC, errno.EDQUOT):
        sentence = describe_os_error(OSError(code, "full"))
        state, tmp = paths.state_dir(), tempfile.gettempdir()
        assert f"the state folder {state} or of the temporary folder {tmp}" in sentence
        assert f"`df -h {state} {tmp}` shows which" in sentence and sentence.endswith(".")
    named = describe_os_error(OSError(errno.ENOSPC, "full", "/scratch/me/out.nc"))
    assert named.startswith("cannot use /scratch/me/out.nc: the disk is full") and "df -h" not in named


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
