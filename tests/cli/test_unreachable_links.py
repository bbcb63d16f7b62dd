"""Walk 24 #1/#2: a recipe whose wheels come from a page this server cannot reach (storage.googleapis.com for JAX's
CUDA plugin) is flagged as GraphCast's unreachable host is: ✗ on the page in the plan's Sources, `install` refuses it
before anything downloads, the "To run it:" line takes the recipe's alternative source, and the failure's advice
names that alternative first. One mechanism (`Plan.unreachable_reasons`) for every host a recipe's sources name."""

from __future__ import annotations

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from wizard.install.reach import unreachable_advice
from wizard.recipes.loader import get_recipe

PAGE = "https://wheels.invalid/jax_cuda_releases.html"
ALTERNATIVE = """\
alternatives:
  - id: from-index
    title: pkg-a from the package index (no wheel page)
    why: the same pkg-a, from the index.
    requirements: [pkg-a==1.0]
    gpu_checked: false
"""


def with_page(tiny) -> None:
    """tiny-a's wheels from a page on a host no resolver knows, with an alternative that needs no page."""
    path = tiny.recipes / "tiny-a.yaml"
    path.write_text(path.read_text().replace("find_links: []", f"find_links: [{PAGE}]") + ALTERNATIVE)


def test_plan_marks_the_unreachable_wheel_page_and_its_line_takes_the_alternative(tiny, isolated_state):
    with_page(tiny)
    args = ("plan", "tiny-a", "--recipes-dir", str(tiny.recipes), "--graphcast-src", str(tiny.graphcast))
    text = " ".join(run_inproc(*args).stdout.split())
    sources = text.split("Sources:")[1].split("Steps")[0]
    assert f"the recipe's find-links ✗ {PAGE}" in sources, sources
    assert "! wheels.invalid cannot be reached from here" in sources and "--alternative from-index" in sources
    assert "Plan screen" not in text  # the app's key is not for a user outside the app (walk 22 #10)
    plan_only = text.split("To run it: ")[0]
    # Said once, in the Sources (no note besides); the tests' closed index is marked on its own line (walk 26 #7).
    assert plan_only.count("wheels.invalid cannot be reached from here") == 1, text
    run = text.split("To run it: ")[1]
    assert "--alternative from-index" in run.split("(")[0], run  # walk 24 #2: the line that can succeed here
    assert last_json(run_inproc(*args, "--json"))["unreachable_links"] == [PAGE]
    chosen = " ".join(run_inproc(*args, "--alternative", "from-index").stdout.split())
    assert "find-links ✗" not in chosen and "wheels.invalid cannot be reached" not in chosen
    assert "✗" not in run_inproc(*args, "--offline", "--find-links", str(tiny.house.path)).stdout  # nothing asked
    # An extra index the recipe names is one of its sources too.
    path = tiny.recipes / "tiny-a.yaml"
    path.write_text(path.read_text().replace("extra_index_urls: []", "extra_index_urls: [https://index.invalid/simple]"))
    marked = " ".join(run_inproc(*args, "--alternative", "from-index").stdout.split())
    assert "the recipe's extra index ✗ https://index.invalid/simple" in marked, marked


def test_install_refuses_the_unreachable_page_before_downloading(tiny, isolated_state):
    with_page(tiny)
    args = ("install", "tiny-a", "--yes", "--json", "--recipes-dir", str(tiny.recipes), "--graphcast-src",
            str(tiny.graphcast), "--find-links", str(tiny.house.path), "--no-verify")
    refused = run_inproc(*args)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    error = last_json(refused)["error"]
    assert error.startswith("wheels.invalid cannot be reached from here") and "--alternative from-index" in error
    assert "Nothing was downloaded" in error and tiny.history() == []
    assert "Traceback" not in refused.stderr


def test_the_failures_advice_names_the_alternative_first():
    recipe = get_recipe("jax0.4.23-cuda12-cudnn89")
    log = ("error: Failed to fetch: `https://storage.googleapis.com/jax-releases/jax_cuda_releases.html`\n"
           "  Caused by: dns error: failed to lookup address information: Name or service not known\n")
    advice = unreachable_advice(log, recipe)
    assert "storage.googleapis.com" in advice and "--alternative pypi-plugin" in advice
    assert advice.index("--alternative pypi-plugin") < advice.index("gc-wizard bundle"), advice


def test_the_plain_flows_next_line_takes_the_alternative_too(tiny, isolated_state):
    """Walk 24 #2: the plain flow's `install … --yes` line repeated the install its plan said would fail here."""
    with_page(tiny)
    path = tiny.recipes / "tiny-a.yaml"
    path.write_text(path.read_text().replace("preference: 0", "preference: 1000"))  # the one recommended
    out = run_inproc("--no-tui", "--recipes-dir", str(tiny.recipes), "--graphcast-src", str(tiny.graphcast)).stdout
    nxt = " ".join(out.split("== Next ==")[1].split())
    assert "install tiny-a --yes --alternative from-index" in nxt, nxt
