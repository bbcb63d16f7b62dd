"""One reading of a GraphCast source's spelling (`wizard.install.source_spelling`) for every reader.

31st hostile pass (part B) P5: `--graphcast-src file:///DIR` was compared but then built in place (the private copy
took any `://` for remote), so a stale `build/lib/sitecustomize.py` went into the env; `file://localhost/DIR`,
`FILE:///DIR` and `graphcast @ file:/DIR` were not even compared (the identity reader stripped a lower-case
`file://` only), so an edited setup.py ran unannounced and a modified wheel showed ✓. Every spelling of a local
checkout or wheel must reach each reader as the plain path does."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.fixtures.wheels import build_wheel

#: Each spelling of a local place that uv and pip read as that place.
SPELLINGS = {
    "path": lambda p: str(p),
    "file:///P": lambda p: f"file://{p}",
    "file://localhost/P": lambda p: f"file://localhost{p}",
    "FILE:///P": lambda p: f"FILE://{p}",
    "file:/P": lambda p: f"file:{p}",
    "graphcast @ file:/P": lambda p: f"graphcast @ file:{p}",
    "graphcast@FILE://localhost/P": lambda p: f"graphcast@FILE://localhost{p}",
}


@pytest.fixture
def checkout(tmp_path):
    folder = tmp_path / "gc co"
    (folder / "graphcast").mkdir(parents=True)
    (folder / "graphcast" / "__init__.py").write_text("")
    (folder / "setup.py").write_text("from setuptools import setup\nsetup(name='graphcast', version='0.1.1')\n")
    return folder


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_every_spelling_of_a_checkout_is_read_as_the_checkout(checkout, spelling):
    from wizard.install.source_places import local_path
    from wizard.install.source_spelling import local_source_path
    from wizard.install.sources import read_identity

    given = SPELLINGS[spelling](checkout)
    assert local_source_path(given) == checkout
    assert local_path(given) == checkout
    identity = read_identity(given)
    assert (identity.kind, identity.where, identity.version) == ("checkout", str(checkout), "0.1.1")


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_every_spelling_of_a_wheel_is_read_as_the_wheel(tmp_path, spelling):
    from wizard.install.sources import read_identity

    wheel = build_wheel(tmp_path / "w", "graphcast", "0.1.1", files={"zz.pth": b"import os\n"})
    identity = read_identity(SPELLINGS[spelling](wheel))
    assert (identity.kind, identity.where) == ("wheel", str(wheel))


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_every_spelling_is_given_on_as_the_plain_path(checkout, spelling):
    """The plan hands the installer, the comparison and the record one form: the checkout's plain path."""
    from wizard.install.plan import check_graphcast_src

    assert check_graphcast_src(SPELLINGS[spelling](checkout)) == str(checkout)


@dataclass(frozen=True)
class _Step:
    argv: tuple[str, ...]


@dataclass(frozen=True)
class _Plan:
    graphcast_src: str
    steps: tuple[_Step, ...]


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_every_spelling_of_a_checkout_is_built_from_a_private_copy(isolated_state, checkout, spelling):
    """The build never runs in the user's folder, however the plan (or a recipe's `graphcast.source`) spells it."""
    from wizard.install.source_copy import building_from_a_copy, local_source

    given = SPELLINGS[spelling](checkout)
    plan = _Plan(given, (_Step(("uv", "pip", "install", "--no-deps", given)),))
    assert local_source(plan) == checkout
    with building_from_a_copy(plan) as built:
        arg = built.steps[0].argv[-1]
        assert arg != given and Path(arg) != checkout
        assert Path(arg).name == checkout.name and (Path(arg) / "setup.py").is_file()


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_the_bundle_builds_every_spelling_from_a_copy(isolated_state, checkout, spelling):
    from wizard.install.bundle import _buildable

    with _buildable(SPELLINGS[spelling](checkout)) as buildable:
        assert Path(buildable) != checkout and (Path(buildable) / "setup.py").is_file()


@pytest.mark.parametrize("source", ["git+https://github.com/google-deepmind/graphcast@v0.1.1",
                                    "graphcast @ git+file:///srv/graphcast@v0.1.1",
                                    "https://example.org/graphcast-0.1.1-py3-none-any.whl",
                                    "file://otherhost/srv/graphcast"])
def test_remote_and_vcs_sources_are_not_local_folders(source):
    from wizard.install.source_spelling import local_source_path

    assert local_source_path(source) is None
