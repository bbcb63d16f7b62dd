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
