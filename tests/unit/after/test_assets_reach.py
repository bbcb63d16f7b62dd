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
    assert lines[1] == "    .venv/bin/gc-wizard bundle jax0.4.23-cpu --out DIR --with-assets" and "--assets DIR/assets" in lines[-1]


def test_the_words_say_how_gc_wizard_gets_there_and_name_the_five_files(monkeypatch):
    """Walk 22 #5: the bundle command was given for a machine without gc-wizard (not on PyPI), and the five files to
    copy by hand were named only after the forecast failed. Both now come with the host's words, in both faces."""
    from wizard.after.assets import BUCKET_URL, first_forecast_files
    from wizard.self_install import SelfInstall

    found = SelfInstall(manager="pip", source="/home/me/gc wizard", editable=True, python="/p")
    monkeypatch.setattr("wizard.self_install.self_install", lambda: found)
    lines = unreachable_lines("storage.googleapis.com", "jax0.4.23-cpu", then="press f to give it")
    # Walk 27 (vague "here"): what "install it as here" meant, said (how it was installed here is not a newcomer's to guess)
    assert ("(gc-wizard is not on PyPI: copy '/home/me/gc wizard' to that machine and, in the folder that holds the "
            "copy, install it into a venv of its own, `python3 -m venv .venv && .venv/bin/pip install './gc wizard'`), "
            "or copy these five files from "
            f"{BUCKET_URL}graphcast/ into DIR/assets by hand, keeping their folders:") == lines[2]
    assert lines[3:8] == [f"    {name}" for name in first_forecast_files()]
    assert lines[-1] == "then copy that folder here and press f to give it."
    monkeypatch.setattr("wizard.self_install.self_install", lambda: SelfInstall("uv", "git+https://h/gc.git@v1", False,
                                                                                "/p"))
    assert ("install it there into a venv of its own, `python3 -m venv .venv && .venv/bin/pip install "
            "git+https://h/gc.git@v1`") in unreachable_lines("h", "r")[2]
    monkeypatch.setattr("wizard.self_install.self_install", lambda: SelfInstall("", "", False, "/p"))
    assert "copy the folder it was installed from there" in unreachable_lines("h", "r")[2]
