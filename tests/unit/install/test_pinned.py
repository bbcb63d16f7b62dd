"""A lock from a bundle (and a recorded set for a rebuild) holds hashed pins and nothing else (sixth pass 12b)."""

from __future__ import annotations

import pytest

from wizard.install.pinned import foreign_line, logical_lines, pin_of

H = "--hash=sha256:" + "ab" * 32
LISTED = {"pkg-a": "1.0", "Pkg_C": "2.0"}
GOOD = f"# a header\npkg-a==1.0 \\\n    {H}\n    # via -r x.in\npkg-c[extra]==2.0 {H} {H}\n\n"


def test_the_wizards_own_lock_passes_and_its_lines_are_counted_from_where_they_start():
    assert foreign_line(GOOD, LISTED) is None
    assert logical_lines(GOOD) == [(2, f"pkg-a==1.0      {H}"), (5, f"pkg-c[extra]==2.0 {H} {H}")]
    assert pin_of("Pkg_C==2.0") == ("pkg-c", "2.0") and pin_of("pkg-c>=2.0") is None


@pytest.mark.parametrize("line, why", [
    (f"pkg-b @ file:///tmp/outside/pkg_b-2.0-py3-none-any.whl {H}", "not a `name==version` pin"),
    (f"pkg-a @ https://host/pkg_a-1.0-py3-none-any.whl {H}", "not a `name==version` pin"),
    ("/tmp/outside/pkg_a-1.0-py3-none-any.whl", "not a `name==version` pin"),
    ("./wheels/../../x.whl", "not a `name==version` pin"),
    ("-e /tmp/outside/project", "not a `name==version` pin"),
    ("-r /tmp/other.txt", "not a `name==version` pin"),
    ("--index-url https://evil.example/simple", "not a `name==version` pin"),
    ("--find-links /tmp/outside", "not a `name==version` pin"),
    ("git+https://github.com/x/y@main#egg=pkg-a", "not a `name==version` pin"),
    (f"pkg-a>=1.0 {H}", "not a `name==version` pin"),
    (f"pkg-a==1.0 --find-links /tmp/outside {H}", "'--find-links' is not a `--hash=sha256:` option"),
    (f"pkg-b==2.0 {H}", "pkg-b 2.0 is not among the packages its manifest lists"),
    (f"pkg-a==9.9 {H}", "its manifest lists pkg-a 1.0"),
])
def test_anything_but_a_hashed_pin_of_a_listed_package_is_named_with_its_line(line, why):
    number, shown, said = foreign_line(GOOD + line + "\n", LISTED)
    assert number == 7 and shown.startswith(line.split()[0]) and why in said
