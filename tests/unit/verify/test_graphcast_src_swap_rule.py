"""`verify --graphcast-src DIR` holds DIR to the swap rule plan, install and bundle hold the same argument to
(`source_places.refuse_swappable_sources`, the one check), before the probe puts it first on its sys.path and
imports it; the probe is given the checked place, where its links lead.

Before (33rd hostile pass, part B, P5): `verify --graphcast-src <another user's checkout>` imported their
`graphcast/__init__.py` as root, while `plan` refused the same argument."""

from __future__ import annotations

import os
import sys

import pytest

from tests.fixtures.modes import open_folder
from wizard.errors import UserError
from wizard.verify import check


def _env(tmp_path):
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    os.symlink(sys.executable, env / "bin" / "python")
    return env


def test_a_checkout_another_user_could_swap_is_refused_before_the_probe_starts(tmp_path, monkeypatch):
    env = _env(tmp_path)
    checkout = open_folder(tmp_path / "shared") / "graphcast-co"
    (checkout / "graphcast").mkdir(parents=True)
    (checkout / "graphcast" / "__init__.py").write_text("")
    started = []
    monkeypatch.setattr(check, "probe_environment", lambda *a, **k: started.append(a) or ({}, []))
    with pytest.raises(UserError) as caught:
        check.verify_env(env, backend="cpu", level="quick", graphcast_src=str(checkout), log_path=tmp_path / "log")
    assert "--graphcast-src" in str(caught.value) and str(tmp_path / "shared") in str(caught.value)
    assert not started
    # verify installs nothing: its refusal names what it would do, import the checkout (fixers' leftover)
    assert "gc-wizard would import (and so run) their code in the check." in str(caught.value)
    assert "install" not in str(caught.value)


def test_ones_own_checkout_is_given_to_the_probe_where_its_links_lead(tmp_path):
    checkout = tmp_path / "co"
    (checkout / "graphcast").mkdir(parents=True)
    link = tmp_path / "link"
    link.symlink_to(checkout)
    argv = check._probe_argv(_env(tmp_path) / "bin" / "python", backend="cpu", level="quick", gencast=None,
                             graphcast_src=str(link), launcher=())
    assert argv[argv.index("--graphcast-src") + 1] == str(checkout)
