"""`GC_WIZARD_FIND_LINKS` is split at `:` like PATH, but a wheelhouse URL in it stays whole: `--find-links`
takes URLs, and the variable made `https://host:9/wheels` into the folders `https` and `//host` (issue 24's
residual low: "GC_WIZARD_FIND_LINKS cannot carry a URL")."""

from __future__ import annotations

import pytest

from wizard.install.source_env import env_sources, merged_sources


@pytest.mark.parametrize("value, links", [
    ("https://127.0.0.1:9/wheels", ["https://127.0.0.1:9/wheels"]),
    ("/srv/w:https://me:pa55word@idx.example:8443/simple/?t=1:/opt/w",
     ["/srv/w", "https://me:pa55word@idx.example:8443/simple/?t=1", "/opt/w"]),
    ("file:///shared/wheels::~/w", ["file:///shared/wheels", "~/w"]),
    ("http://mirror.lab/wheels/:./local", ["http://mirror.lab/wheels/", "./local"]),
    ("https://host:/after", ["https://host", "/after"]),  # a folder after a URL with an empty port
    ("/a:/b", ["/a", "/b"]),
])
def test_urls_in_the_variable_stay_whole(value, links):
    assert env_sources({"GC_WIZARD_FIND_LINKS": value})[1] == links


def test_options_come_first_and_the_variables_links_add_up():
    _, links = merged_sources(None, ["/opt"], {"GC_WIZARD_FIND_LINKS": "https://h:1/w:/opt"})
    assert links == ["/opt", "https://h:1/w"]


def test_find_links_name_each_place_once_in_their_order(tmp_path, monkeypatch):
    """t24g M8: `GC_WIZARD_FIND_LINKS` naming one folder 5000 times printed it 5000 times in the plan."""
    monkeypatch.chdir(tmp_path)
    house = str(tmp_path / "house")
    env = {"GC_WIZARD_FIND_LINKS": ":".join([house] * 5000 + ["https://h:1/w/", "/other", "https://h:1/w/"])}
    _, links = merged_sources(None, ["house/", "/other", "./house", house], env)
    assert links == ["house/", "/other", "https://h:1/w/"]
