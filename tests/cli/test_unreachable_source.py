"""A GraphCast source whose host does not answer is said by `plan` before anything downloads (issue: a
server without GitHub learned it only after ~180 MB, at the GraphCast step)."""

from __future__ import annotations

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from wizard.install.sources import source_host


@pytest.mark.parametrize("arg, host", [
    ("graphcast @ git+https://github.com/google-deepmind/graphcast@97d1ad5", "github.com"),
    ("git+https://user:secret@mirror.lab.example:8443/gc.git@v0.2", "mirror.lab.example:8443"),
    ("https://example.org/graphcast-0.2.tar.gz", "example.org"),
    ("/home/me/graphcast", None),
    ("graphcast-0.1.1-py3-none-any.whl", None),
])
def test_the_host_of_a_remote_source(arg, host):
    assert source_host(arg) == host


def test_plan_marks_an_unreachable_graphcast_host_and_says_the_fix(tiny, isolated_state):
    (tiny.recipes / "tiny-a.yaml").write_text((tiny.recipes / "tiny-a.yaml").read_text()
                                             .replace("github.com", "github.invalid"))
    args = ("plan", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path))
    text = " ".join(run_inproc(*args).stdout.split())
    # The plan marks it as the app's Plan screen does (one wording, flows.describe_plan): ✗ and the sentence.
    assert "GraphCast ✗" in text and "github.invalid cannot be reached from here" in text
    assert "--graphcast-src DIR" in text
    data = last_json(run_inproc(*args, "--json"))
    assert data["unreachable_source"].startswith("github.invalid cannot be reached")
    # Offline, nothing is asked of the network, and a local source has no host to ask.
    assert "GraphCast ✗" not in run_inproc(*args, "--offline").stdout
    assert "GraphCast ✗" not in run_inproc(*args, "--graphcast-src", str(tiny.graphcast)).stdout
