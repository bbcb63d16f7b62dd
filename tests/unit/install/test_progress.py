"""The install's overall line counts pip's files as pip prints them (`wizard.install.progress`)."""

from __future__ import annotations

from wizard.install.progress import InstallProgress

#: pip 24 with `--progress-bar raw`, as the runner sees it: a file over 512 kB gets `Progress` lines, a smaller one
#: none at all, and the last file's are followed by the install.
PIP_LINES = """\
Collecting jax==0.4.23
  Downloading jax-0.4.23.tar.gz (1.4 MB)
Progress 524288 of 1400000
Progress 1400000 of 1400000
Collecting ml-dtypes==0.3.2
  Downloading ml_dtypes-0.3.2-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl (2.2 MB)
Progress 2200000 of 2200000
Collecting opt-einsum==3.3.0
  Downloading opt_einsum-3.3.0-py3-none-any.whl (65 kB)
Collecting six==1.16.0
  Downloading six-1.16.0-py2.py3-none-any.whl (11 kB)
Collecting scipy==1.11.4
  Downloading scipy-1.11.4-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl (36.4 MB)
Progress 1048576 of 36400000
Installing collected packages: six, opt-einsum, ml-dtypes, scipy, jax
Successfully installed jax-0.4.23 ml-dtypes-0.3.2 opt-einsum-3.3.0 scipy-1.11.4 six-1.16.0
"""


def _fed(lines: str, total: int = 5) -> InstallProgress:
    progress = InstallProgress(total_packages=total, expected_bytes=41_000_000)
    for line in lines.splitlines():
        progress.feed(line)
    return progress


def test_a_small_file_pip_shows_no_progress_for_is_counted_when_the_next_one_starts():
    upto_scipy = PIP_LINES.split("Progress 1048576")[0]
    progress = _fed(upto_scipy)
    assert progress.fetched == {"jax", "ml_dtypes", "opt_einsum", "six"}
    assert progress.summary(5).startswith("4 of 5 packages")
    assert progress.current[0] == "scipy"


def test_once_pip_installs_every_file_is_counted_and_no_file_is_in_flight():
    cut = PIP_LINES.index("Successfully")
    progress = _fed(PIP_LINES[:cut])
    assert len(progress.fetched) == 5 and progress.current is None
    assert progress.bytes_done == 1_400_000 + 2_200_000 + 65_000 + 11_000 + 36_400_000
    assert progress.summary(61).startswith("5 of 5 packages")
    assert " · installing · 1:01 so far" in progress.summary(61)  # the quiet stretch is named
    progress.feed(PIP_LINES.splitlines()[-1])
    assert "installing" not in progress.summary(62)


def test_uvs_downloads_run_side_by_side_and_are_counted_by_their_own_end_lines():
    uv = "Resolved 3 packages in 1.2s\nDownloading jaxlib (73.6MiB)\nDownloading scipy (35.1MiB)\n Downloaded scipy\n"
    progress = _fed(uv, total=3)
    assert progress.fetched == {"scipy"}  # jaxlib is still downloading: a later start does not end it


def test_files_pip_takes_from_a_local_wheelhouse_are_counted_and_said_local():
    """Walk 21 #2: with PIP_FIND_LINKS set, half the wheels were `Processing /opt/wheels/…` lines, never counted."""
    lines = ("Collecting jax==0.4.23\n  Downloading jax-0.4.23.tar.gz (1.4 MB)\nProgress 1400000 of 1400000\n"
             "Processing /opt/wheels/numpy-1.26.4-cp311-cp311-manylinux_2_17_x86_64.whl\n"
             "Processing ./wheels/scipy-1.11.4-cp311-cp311-manylinux_2_17_x86_64.whl\n")
    progress = _fed(lines, total=3)
    assert progress.fetched == {"jax", "numpy", "scipy"} and progress.local == {"numpy", "scipy"}
    assert progress.summary(3).startswith("3 of 3 packages") and ", 2 local" in progress.summary(3)
