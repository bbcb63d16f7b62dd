"""`--assets URL` / GC_WIZARD_ASSETS that no HTTP client can open is the user's input, said with its password masked
(23rd hostile pass P2: "gc-wizard stopped on an error of its own", the password in the sentence and the crash log)."""

from __future__ import annotations

import pytest

from wizard.after.assets import open_source
from wizard.errors import UserError


@pytest.mark.parametrize("url, words", [
    ("https://u:SEKas/ab+c=@127.0.0.1:9/dm_graphcast/", "its password holds a `/`"),
    ("https://:SEKas2/x=@127.0.0.1:9/", "its password holds a `/`"),
    ("https://127.0.0.1:abc/b/", "its port is not a number"),
    ("https://[::1/b/", "its host cannot be read"),
    ("https://h.example/a\nb/", "the address holds a control character"),
    ("https:///only/a/path/", "it names no host"),
])
def test_an_address_no_client_can_open_is_refused_as_input_with_its_password_masked(url, words):
    with pytest.raises(UserError) as raised:
        open_source(url)
    said = str(raised.value)
    assert said.startswith("--assets ") and words in said and "SEK" not in said and "\n" not in said, said


def test_the_variable_is_named_when_the_address_came_from_it(monkeypatch):
    monkeypatch.setenv("GC_WIZARD_ASSETS", "https://u:SEKv/x=@127.0.0.1:9/")
    with pytest.raises(UserError, match=r"^GC_WIZARD_ASSETS https://u:\*\*\*@127\.0\.0\.1:9/: its password"):
        open_source(None)
