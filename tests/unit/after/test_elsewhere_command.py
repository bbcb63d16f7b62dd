"""A sentence that tells the user to run gc-wizard ON ANOTHER MACHINE (the one with internet that gathers a bundle or
the forecast's files) names it as installed there (`paths.elsewhere_command`: the `.venv` the same sentence says to
make), never this server's program path, which `runnable` puts into every quoted bare `gc-wizard` (walk 37 #4: the
forecast's fix said "Or there, `/home/lab2/gc-wizard/.venv/bin/gc-wizard bundle …`")."""

from __future__ import annotations

from wizard import paths
from wizard.after.assets import local_copy_words
from wizard.after.next_steps import gather_command
from wizard.self_install import SelfInstall, carry_words


def test_the_other_machines_command_survives_this_machines_program(monkeypatch):
    monkeypatch.setattr("wizard.self_install.self_install",
                        lambda: SelfInstall(manager="pip", source="/home/lab2/gc-wizard", editable=True, python="/p"))
    here = "/home/lab2/gc-wizard/.venv/bin/gc-wizard"
    text = paths.runnable(local_copy_words(), here)
    assert "Or there, `.venv/bin/gc-wizard bundle" in text and f"{here} bundle" not in text
    assert ".venv/bin/pip install ./gc-wizard`" in carry_words()  # the venv the command names, made there
    assert gather_command("r") == ".venv/bin/gc-wizard bundle r --out DIR --with-assets"
    assert paths.runnable(f"`{gather_command('r')}`", here) == f"`{gather_command('r')}`"


def test_every_way_gc_wizard_gets_there_makes_the_venv_the_command_names(monkeypatch):
    monkeypatch.setattr("wizard.self_install.self_install",
                        lambda: SelfInstall(manager="uv", source="https://h/gc.tar.gz", editable=False, python="/p"))
    assert "`python3 -m venv .venv && .venv/bin/pip install https://h/gc.tar.gz`" in carry_words()
    assert paths.ELSEWHERE_PROGRAM == ".venv/bin/gc-wizard"
