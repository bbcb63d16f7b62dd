"""Where a forecast is offered, whether its files' host answers here (walk 21 #4)."""

from __future__ import annotations

from wizard.after.assets_reach import unreachable_host
from wizard.after.next_steps import unreachable_lines
from wizard.flows.forecast_reach import AssetsReach


def test_a_host_that_does_not_answer_is_named_and_one_that_does_is_not(tmp_path, assets_server, monkeypatch):
    monkeypatch.delenv("GC_WIZARD_ASSETS", raising=False)
    assert unreachable_host("http://127.0.0.1:9/mirror/", timeout=2) == "127.0.0.1"
    assert unreachable_host(assets_server(tmp_path).url, timeout=2) is None
    assert unreachable_host(str(tmp_path)) is None  # a local folder: nothing to ask
    monkeypatch.setenv("GC_WIZARD_ASSETS", "https://user:pw@127.0.0.1:9/")  # its login is never sent or named
    assert unreachable_host(None, timeout=2) == "127.0.0.1"
    assert AssetsReach("http://127.0.0.1:9/").host() == "127.0.0.1"


def test_the_words_name_the_host_the_gathering_command_and_the_option():
    lines = unreachable_lines("storage.googleapis.com", "jax0.4.23-cpu")
    assert lines[0].startswith("storage.googleapis.com cannot be reached from here")
    assert lines[1] == "    gc-wizard bundle jax0.4.23-cpu --out DIR --with-assets" and "--assets DIR/assets" in lines[2]
