"""Walk 27 (rerun lines): a run from a local GraphCast (`--graphcast-src DIR`, a server without GitHub) was told to rerun
`gc-wizard install RECIPE`, which fetches GraphCast from GitHub and fails there. Every install line a fix prints for that
GraphCast version now gives the source again, shell-quoted (`diagnose.with_given_graphcast`), whether the source is
read from the log's first line, from the environment's marker (`diagnose --env`, the install's own check), or from
a context a caller passes."""

from __future__ import annotations

from tests.fixtures.wheels import build_wheel
from tests.unit.verify.test_inspect_env import make_env
from wizard.install.envs import write_marker
from wizard.verify.causes import Context
from wizard.verify.diagnose import diagnose_text, with_given_graphcast
from wizard.verify.inspect_env import inspect_env

FAILURE = "Traceback (most recent call last):\nModuleNotFoundError: No module named 'jax'\n"
FIRST = ("[gc-wizard] Installing jax0.4.23-cpu into /s/envs/jax0.4.23-cpu-20261128-114222 (uv, new environment); "
         "GraphCast v0.1.1{given}\n")


def _fix(text: str, **kw) -> str:
    return next(f for f in diagnose_text(text, **kw) if f.id == "python_module_missing").fix


def test_the_log_s_local_graphcast_is_in_the_fix_s_install_line_shell_quoted(tmp_path):
    checkout = tmp_path / "my checkout"
    checkout.mkdir()
    fix = _fix(FIRST.format(given=f" from {checkout}") + FAILURE)
    assert f"`gc-wizard install jax0.4.23-cpu --graphcast-src '{checkout}'`" in fix, fix


def test_a_log_from_the_recipe_s_own_graphcast_keeps_the_plain_line():
    fix = _fix(FIRST.format(given="") + FAILURE)
    assert "`gc-wizard install jax0.4.23-cpu`" in fix and "--graphcast-src" not in fix, fix


def test_a_context_s_source_is_given_to_each_install_line_of_that_graphcast_version_only(tmp_path):
    (tmp_path / "gc").mkdir()
    fix = _fix(FAILURE, context=Context(graphcast_given=("0.1.1", str(tmp_path / "gc"))))
    assert f"--graphcast-src {tmp_path / 'gc'}`" in fix, fix
    other = "`gc-wizard install jax0.10.2-cpu` or `gc-wizard install jax0.4.23-cpu --bundle B`"
    assert with_given_graphcast(other, ("0.1.1", "/srv/gc")) == other  # v0.2's GraphCast; a bundle brings its own


def test_a_finding_that_blames_the_source_never_gives_it_again():
    line = "`gc-wizard install jax0.4.23-cpu`"
    assert with_given_graphcast(line, ("0.1.1", "/srv/gc"), "wrong_graphcast_package") == line


def test_diagnose_env_reads_the_source_from_the_environment_s_marker(tmp_path):
    house = tmp_path / "house"
    env = make_env(tmp_path, [build_wheel(house, "jaxlib", "0.4.23"), build_wheel(house, "jax", "0.4.23"),
                              build_wheel(house, "numpy", "2.1.0")])
    write_marker(env, {"recipe": "jax0.4.23-cpu", "title": "t", "backend": "cpu", "graphcast_version": "0.1.1",
                       "graphcast_given": str(house)})
    report = inspect_env(env, read_driver=False)
    assert report.context().graphcast_given == ("0.1.1", str(house))
    numpy = next(f for f in report.findings if f.id == "numpy2_incompatible")
    assert "`gc-wizard install jax0.4.23-" in numpy.fix and f" --graphcast-src {house}`" in numpy.fix, numpy.fix
