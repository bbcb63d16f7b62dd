"""Walk 25 #2/#3: `diagnose` named recipes and versions the log never had. On a `jax0.4.23-cpu` uv TLS failure it said
"rerun `gc-wizard install jax0.4.23-cuda12-cudnn89`"; on a `jax0.12.0.1-cpu` (GraphCast v0.2) log it said
"`git -C graphcast checkout v0.1.1`"; and its TLS explanation said pip uses certifi's bundle where pip's settings
named the CA. The log names its recipe (the install log's first line, the CLI's "==> Installing", or the managed
environment's folder): fixes name that recipe and its GraphCast, and without one, "the recipe's version"."""

from __future__ import annotations

import json
from pathlib import Path

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from wizard.paths import wizard_command
from wizard.verify.diagnose import diagnose_text

#: walk 25's first install log (uv, behind an HTTPS-inspecting proxy), as written before the log had a first line
TLS_LOG = """\
===== 2026-11-28T08:21:34+00:00  install-requirements: Install the 84 pinned packages
$ /tmp/walk25/gc-wizard/.venv/bin/uv pip install --python /tmp/walk25/state/envs/jax0.4.23-cpu-20261128-082120/bin/python jax==0.4.23 jaxlib==0.4.23
  (cwd /tmp/walk25/state/envs)
Using Python 3.11.2 environment at: jax0.4.23-cpu-20261128-082120
error: Failed to fetch: https://pypi.org/simple/jax/
  cause: error sending request for url (https://pypi.org/simple/jax/)
  cause: client error (Connect)
  cause: invalid peer certificate: UnknownIssuer

hint: Consider enabling use of system TLS certificates with the `--system-certs` command-line flag
===== install-requirements: FAILED (exit status 2) in 0.5 s
"""

GITHUB_FAILURE = """\
===== 2026-11-28T08:37:16+00:00  install-graphcast: Install GraphCast 0.2 (--no-deps)
  error: Git operation failed
  fatal: unable to access 'https://github.com/google-deepmind/graphcast/': Could not resolve host: github.com
===== install-graphcast: FAILED (exit status 1) in 0.4 s
"""


def _fix(text: str) -> str:
    return " ".join(diagnose_text(text)[0].fix.split())


def test_a_cpu_recipes_tls_failure_names_that_recipe_and_pips_own_cert():
    finding = diagnose_text(TLS_LOG)[0]
    assert finding.id == "tls_certificate_untrusted"
    fix = " ".join(finding.fix.split())
    assert "rerun `gc-wizard install jax0.4.23-cpu`" in fix and "cuda" not in fix, fix
    assert "`gc-wizard install jax0.4.23-cpu --installer pip`" in fix and "UV_SYSTEM_CERTS=1" in fix
    explanation = " ".join(finding.explanation.split())
    assert "pip uses its own settings' `cert` or certifi's bundle" in explanation, explanation


def test_the_graphcast_version_is_the_logs_recipes_or_none():
    header = "[gc-wizard] Installing jax0.12.0.1-cpu into /s/envs/x (uv, new environment); GraphCast v0.2\n"
    assert "checkout v0.2`" in _fix(header + GITHUB_FAILURE) and "v0.1.1" not in _fix(header + GITHUB_FAILURE)
    cli = "==> Installing jax0.10.2-cpu into /s/envs/x (pip, new environment)\n"  # the CLI's words, pasted
    assert "checkout v0.2`" in _fix(cli + GITHUB_FAILURE)
    old = "==> Installing jax0.4.23-cpu into /s/envs/x (pip, new environment)\n"
    assert "checkout v0.1.1`" in _fix(old + GITHUB_FAILURE)
    bare = _fix(GITHUB_FAILURE)  # a pasted log that names no recipe: no version is made up
    assert "the recipe's version" in bare and "v0.1.1" not in bare and "v0.2" not in bare, bare
    unknown = "==> Installing my-own-stack into /s/envs/x (uv, new environment)\n"  # no such recipe here
    assert "the recipe's version" in _fix(unknown + GITHUB_FAILURE)


def test_diagnose_on_an_install_log_reads_its_first_line(tmp_path, isolated_state):
    """The log an install writes starts with the recipe and its GraphCast; `diagnose` (text and --json) reads it."""
    log = tmp_path / "install.log"
    log.write_text("[gc-wizard] Installing jax0.4.23-cpu into /s/envs/jax0.4.23-cpu-x (uv, new environment); "
                   "GraphCast v0.1.1\n" + TLS_LOG.replace("jax0.4.23-cpu-20261128-082120", "env"))
    text = " ".join(run_inproc("diagnose", str(log)).stdout.split())
    # the fix as shown names the program as a new shell runs it (walk 33 #4), and so does --json's (walk 38 #2)
    assert f"rerun `{wizard_command()} install jax0.4.23-cpu`" in text and "cuda12" not in text, text
    fix = last_json(run_inproc("diagnose", str(log), "--json"))["findings"][0]["fix"]
    assert f"`{wizard_command()} bundle jax0.4.23-cpu" in fix and "cuda" not in fix


def test_a_real_install_log_names_its_recipe_first(tiny, isolated_state):
    """The transaction writes the first line the reader above expects (the words the CLI announces)."""
    proc, data = tiny.install("tiny-a")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    first = open(data["log"]).readline()
    assert first.startswith("[gc-wizard] Installing tiny-a into ")
    # walk 27 (rerun lines): the local GraphCast is named too, and kept in the marker, for the fixes' install lines
    assert first.rstrip().endswith(f"; GraphCast v0.1.1 from {tiny.graphcast}"), first
    marker = json.loads((Path(data["env"]) / "gc-wizard-env.json").read_text())
    assert marker["graphcast_given"] == str(tiny.graphcast) and marker["graphcast_version"] == "0.1.1"
