"""Which install sources are local places the swap rule looks at (`wizard.install.source_places.local_path`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wizard.install.source_places import local_path


@pytest.mark.parametrize("location, place", [
    ("/srv/wh", Path("/srv/wh")),
    ("file:///srv/my%20wh", Path("/srv/my wh")),
    ("graphcast @ file:///srv/gc/graphcast-0.1.1-py3-none-any.whl", Path("/srv/gc/graphcast-0.1.1-py3-none-any.whl")),
    ("https://example.org/wheels/", None),
    ("graphcast @ git+https://github.com/google-deepmind/graphcast@97d1ad50", None),
])
def test_local_places_are_paths_and_file_urls_never_remote_ones(location, place):
    assert local_path(location) == place


# 28th hostile pass (part B) P4: `file:/DIR`, `file:DIR` and `file:\DIR`, which uv and pip read as the folder, were
# taken for no place at all (the swap rule skipped them) or for a folder named `file:` ("no such folder").

@pytest.mark.parametrize("location", [
    "file:/srv/wh", "file:srv/wh", "file:\\srv\\wh", "file:///srv/wh", "file:////srv/wh", "file://localhost/srv/wh",
    "FILE://LocalHost/srv/wh", "File:/srv/%77h", "file:\\\\\\srv\\wh", "file:/srv/wh?x=1#frag"])
def test_every_local_url_form_is_its_folder(location):
    from wizard.security import source_place

    assert source_place(location) == Path("/srv/wh")
    assert local_path(location) == Path("/srv/wh")


@pytest.mark.parametrize("location", ["https://pypi.org/simple", "https:/pypi.org/simple", "HTTP://mirror/simple",
                                      "git+https://github.com/x/y"])
def test_remote_addresses_are_no_place(location):
    from wizard.security import source_place

    assert source_place(location) is None


@pytest.mark.parametrize("location, why", [("file://evil/srv/wh", "names the host 'evil'"),
                                           ("s3://bucket/wh", r"neither a folder on this machine nor an http\(s\)")])
def test_a_value_that_is_no_place_here_and_no_known_remote_is_refused(location, why):
    from wizard.errors import UserError
    from wizard.install.source_places import package_place

    with pytest.raises(UserError, match=why) as caught:
        package_place(location, f"--find-links {location}")
    assert str(caught.value).startswith(f"--find-links {location}: ") and "Nothing was read" in str(caught.value)
