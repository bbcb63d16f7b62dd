"""The kernel says which demo notebook it serves, and both faces warn, in one wording, about the notebook's
cells that would undo the verified stack (`%pip install …master.zip`) or rebuild shapely from source."""

from __future__ import annotations

from pathlib import Path

from wizard.after.kernel import display_name, notebook_cautions
from wizard.install.envs import EnvMarker
from wizard.recipes.loader import load_recipes


def _marker(version: str | None, notebook: bool = False) -> EnvMarker:
    extra = {"graphcast_version": version, "notebook": notebook} if version else {}
    return EnvMarker(recipe="jax0.4.23-cpu", title="JAX 0.4.23 on the CPU", verified="2026-11-21T10:00", extra=extra)


def test_the_kernel_name_says_the_graphcast_and_its_notebooks():
    assert display_name(Path("/e"), _marker("0.1.1")) == \
        "GraphCast v0.1.1 (graphcast_demo.ipynb) · JAX 0.4.23 on the CPU (verified 2026-11-21)"
    assert "graphcast_demo.ipynb, gencast_mini_demo.ipynb" in display_name(Path("/e"), _marker("0.2"))
    assert display_name(Path("/e"), _marker(None)) == "GraphCast · JAX 0.4.23 on the CPU (verified 2026-11-21)"


def test_the_cautions_name_the_cells_to_skip_and_the_missing_imports():
    cautions = notebook_cautions(_marker("0.1.1"))
    assert "master.zip" in cautions[0] and "GraphCast v0.1.1" in cautions[0] and "WeatherNext" in cautions[0]
    assert "--no-binary shapely" in cautions[1]
    assert "Google Cloud Storage" in cautions[2] and "--assets DIR" in cautions[2]
    assert "--with-notebook" in cautions[3]
    assert len(notebook_cautions(_marker("0.1.1", notebook=True))) == 3
    assert notebook_cautions(_marker(None)) == []


def test_every_recipe_offers_its_notebooks_imports_apart_from_the_stack():
    for recipe in load_recipes().values():
        names = {r.split("==")[0] for r in recipe.notebook}
        assert {"google-cloud-storage", "ipywidgets"} <= names, recipe.id
        with_nb = recipe.with_notebook()
        assert len(with_nb.pins) == len(recipe.pins) + len(recipe.notebook)  # none is pinned twice


def test_the_buckets_answer_is_said_as_a_fact_when_it_was_asked(monkeypatch, closed_indexes, assets_server, tmp_path):
    """walk 23 #6: "where storage.googleapis.com cannot be reached" was a condition, though the
    wizard can ask; `kernel install` asks (one HEAD request) and says what it found. A closed loopback port is a
    host that does not answer, a local server one that does."""
    from wizard.after import assets
    from wizard.after.kernel import bucket_unreachable

    monkeypatch.setattr(assets, "BUCKET_URL", closed_indexes.replace("/simple/", "/dm_graphcast/"))
    host = bucket_unreachable()
    assert host == "127.0.0.1"
    said = notebook_cautions(_marker("0.1.1"), host)[2]
    assert said.startswith("127.0.0.1 does not answer from here, so the notebook's cells that read its weights")
    assert "fail here" in said and "where" not in said and "--assets DIR" in said
    (tmp_path / "bucket").mkdir()
    monkeypatch.setattr(assets, "BUCKET_URL", f"{assets_server(tmp_path / 'bucket').url}dm_graphcast/")
    assert bucket_unreachable() is None
    assert notebook_cautions(_marker("0.1.1"), None)[2].endswith("(gcs_bucket), which answers from here.")


def test_the_notebook_is_named_by_its_path_in_the_checkout_the_env_was_installed_from(isolated_state, tmp_path):
    """walk 23 #6: `"notebooks": ["graphcast_demo.ipynb"]` gave no path; the local checkout the
    install recorded (history's graphcast_given) holds it."""
    from wizard.after.kernel import jupyter_cautions, notebook_paths
    from wizard.history.store import Entry, load_history
    from wizard.lock import StateLock

    checkout, env = tmp_path / "graphcast", tmp_path / "env"
    checkout.mkdir()
    (checkout / "graphcast_demo.ipynb").write_text("{}")
    (env / "bin").mkdir(parents=True)
    with StateLock("test"):
        history = load_history(locked=True)
        history.add(Entry(id="20261128-023131-6a16", kind="install", recipe="jax0.4.23-cpu", env=str(env),
                          status="verified", graphcast_given=str(checkout)))
        history.save()
    marker = EnvMarker(recipe="jax0.4.23-cpu", extra={"graphcast_version": "0.1.1", "entry_id": "20261128-023131-6a16"})
    assert notebook_paths(env, marker) == [checkout / "graphcast_demo.ipynb"]
    said = " ".join(jupyter_cautions(env, marker, {"PATH": ""}))
    assert f"open {checkout / 'graphcast_demo.ipynb'} from a Jupyter server" in said, said
    assert "copy it into your home first" not in said  # a checkout of your own: saved where it is
    import subprocess

    mounted = subprocess.run(["mount", "--bind", "-o", "ro", str(checkout), str(checkout)], capture_output=True)
    if mounted.returncode == 0:  # walk 27 #10: the lab admin's read-only checkout (a read-only mount, even for root)
        try:
            subprocess.run(["mount", "-o", "remount,bind,ro", str(checkout)], capture_output=True)
            said = " ".join(jupyter_cautions(env, marker, {"PATH": ""}))
            assert f"copy it into your home first (`cp {checkout / 'graphcast_demo.ipynb'} ~/`)" in said, said
        finally:
            subprocess.run(["umount", "-l", str(checkout)], capture_output=True)
    assert notebook_paths(env, EnvMarker(recipe="x", extra={"graphcast_version": "0.1.1"})) == [
        checkout / "graphcast_demo.ipynb"]  # an older marker without the entry id: the entry of this env
    (checkout / "graphcast_demo.ipynb").unlink()
    assert notebook_paths(env, marker) == []  # gone: no path named
