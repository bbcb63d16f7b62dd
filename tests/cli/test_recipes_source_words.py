"""`gc-wizard recipes` says, once per GraphCast group, that GraphCast itself comes from GitHub (24th hostile pass
(part B) P3: the README called the v0.2 stack "all from PyPI", and `recipes` said only "compatible")."""

from __future__ import annotations

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import REPO


def test_recipes_name_where_graphcast_itself_comes_from_and_the_readme_agrees(gpu_server):
    gpu_server("no-nvidia")
    proc = run_inproc("recipes")
    assert proc.returncode == 0, proc.stderr
    shown = " ".join(proc.stdout.split())  # wrapped at the terminal's width
    for version in ("0.1.1", "0.2"):
        assert (f"GraphCast {version} itself is fetched from github.com, not from PyPI: where github.com does not "
                f"answer, the plan asks for a local v{version} checkout (--graphcast-src DIR).") in shown
    readme = " ".join((REPO / "README.md").read_text().split())
    assert "NumPy 2, all from PyPI" not in readme and "GraphCast itself from GitHub" in readme
