"""`gc-wizard bundle`'s sequence is the use case's (`flows.cluster.make_offline_bundle`), not the command's.

Why (review): `commands/cluster.run_bundle` checked the folder, built the wheels, added gc-wizard's own wheels and the
forecast's files itself, one step after another; a face parses arguments, calls a use case and renders. The flow
runs here on the tiny recipe, its local wheelhouse and the real pip, with no command around it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from wizard.errors import UserError

COMMAND = Path(__file__).resolve().parents[3] / "wizard" / "commands" / "cluster.py"


def test_the_flow_makes_the_bundle_and_says_each_step(tiny, tmp_path, monkeypatch, isolated_state):
    from wizard.flows.cluster import make_offline_bundle, recipe_to_pin

    monkeypatch.setenv("UV_OFFLINE", "1")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    recipe = recipe_to_pin("tiny-a", [str(tiny.recipes)])
    said: list[str] = []
    made = make_offline_bundle(recipe, tmp_path / "bun", python="3.11", graphcast_src=str(tiny.graphcast),
                               find_links=[str(tiny.house.path)], with_wizard=False, say=said.append)
    assert made.manifest["recipe"] == "tiny-a" and made.wizard_wheels == [] and not made.assets
    assert Path(made.installer_log).is_file() and made.mib > 0
    assert said[0].startswith("==> Bundling recipe tiny-a for Python ") and said[0].endswith(str(tmp_path / "bun"))
    assert not any("gc-wizard itself" in line for line in said), said


def test_the_flow_refuses_a_folder_in_use_before_it_says_anything(tiny, tmp_path, isolated_state):
    from wizard.flows.cluster import make_offline_bundle, recipe_to_pin

    out = tmp_path / "full"
    out.mkdir()
    (out / "mine.txt").write_text("kept\n")
    said: list[str] = []
    with pytest.raises(UserError):
        make_offline_bundle(recipe_to_pin("tiny-a", [str(tiny.recipes)]), out, python="3.11", graphcast_src=None,
                            find_links=[], say=said.append)
    assert said == [] and (out / "mine.txt").read_text() == "kept\n"


def test_the_bundle_command_calls_no_step_of_the_bundle_itself():
    """The face's `run_bundle` names none of the steps the use case sequences."""
    steps = {"bundle_logged", "add_wizard", "add_assets", "check_bundle_out", "check_bundle_assets", "bundle_source",
             "read_manifest", "make_bundle"}
    tree = ast.parse(COMMAND.read_text(encoding="utf-8"))
    run_bundle = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "run_bundle")
    called = {node.func.id for node in ast.walk(run_bundle) if isinstance(node, ast.Call)
              and isinstance(node.func, ast.Name)}
    assert not called & steps, called & steps


@pytest.mark.parametrize("given", [False, True])
def test_a_bundle_failing_at_gc_wizards_wheels_leaves_nothing_install_takes(tiny, tmp_path, monkeypatch,
                                                                             isolated_state, given):
    """33rd hostile pass (part B) P2: packing gc-wizard's own dependencies failed after the manifest was written, and
    the half-made folder stayed with it: `install --bundle` took it. The folder the run made is removed (an empty
    folder the user gave is emptied again), and a bundle still being made is marked so no reader takes it."""
    from wizard.errors import OperationFailed
    from wizard.flows import cluster
    from wizard.install.bundle import MANIFEST, UNFINISHED, read_manifest

    monkeypatch.setenv("UV_OFFLINE", "1")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    seen = {}

    def failing(out):
        seen["unfinished"] = (out / UNFINISHED).exists() and (out / MANIFEST).exists()
        with pytest.raises(UserError, match="unfinished bundle"):
            read_manifest(out)
        raise OperationFailed("cannot pack Pygments for the bundle's wizard/ folder")

    monkeypatch.setattr(cluster, "add_wizard", failing)
    out = tmp_path / "bun"
    if given:
        out.mkdir()
    with pytest.raises(OperationFailed, match="cannot pack Pygments"):
        cluster.make_offline_bundle(cluster.recipe_to_pin("tiny-a", [str(tiny.recipes)]), out, python="3.11",
                                    graphcast_src=str(tiny.graphcast), find_links=[str(tiny.house.path)])
    assert seen == {"unfinished": True}
    assert (list(out.iterdir()) == []) if given else not out.exists()
