"""The support report: complete enough for an admin, and nothing personal in it.

Facts come from real detection against the GPU stand-ins (a fake A100 server); the failing log is the
seed user's real error text, as their notebook printed it, plus the host, user and GPU UUID that a
real log would carry.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from tests.standins import read_profile, standin_env
from wizard.after.report import build_report, redact
from wizard.detect.facts import Facts

UUID0 = read_profile("a100x2-535")["gpu0.uuid"]
UUID1 = read_profile("a100x2-535")["gpu1.uuid"]

SEED_LOG = """\
[gpu-node-07] running /home/hiskim1/graphcast/graphcast_demo.ipynb cell 14 as hiskim1
2024-07-05 09:38:33.462094: E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:449] Loaded runtime CuDNN library: 8.2.1 but source was compiled with: 8.6.0.  CuDNN library needs to have matching major version and equal or higher minor version. If using a binary install, upgrade your CuDNN library.  If building from sources, make sure the library loaded at runtime is compatible with the version specified during compile configuration.
device {uuid} selected
File ~/.conda/envs/hiskim1_graphcast/lib/python3.11/site-packages/jax/_src/random.py:224, in PRNGKey(seed, impl)
File /home/hiskim1/.conda/envs/hiskim1_graphcast/lib/python3.11/site-packages/jax/_src/interpreters/pxla.py:1229
proxy https://hiskim1:s3cret@proxy.example.org:3128 used
XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed. Look at the errors above for more details.
"""


@pytest.fixture
def seed_home(tmp_path) -> Path:
    home = tmp_path / "home" / "hiskim1"
    cudnn = home / "cudnn-8.2.1" / "lib64"
    cudnn.mkdir(parents=True)
    (cudnn / "libcudnn.so.8.2.1").write_bytes(b"\x7fELF stand-in")
    (cudnn / "libcudnn.so.8").symlink_to("libcudnn.so.8.2.1")
    return home


def _seed_environ(tmp_path: Path, home: Path) -> dict[str, str]:
    env = standin_env("a100x2-535", tmp_path)
    env.update(
        HOME=str(home), USER="hiskim1", LOGNAME="hiskim1", HOSTNAME="gpu-node-07",
        LD_LIBRARY_PATH=os.pathsep.join([str(home / "cudnn-8.2.1" / "lib64"), env["LD_LIBRARY_PATH"]]),
        CUDA_VISIBLE_DEVICES=UUID0, XLA_FLAGS="--xla_gpu_cuda_data_dir=/usr/local/cuda-11.2",
        CONDA_PREFIX=str(home / ".conda" / "envs" / "hiskim1_graphcast"),
        LOADEDMODULES="cuda/11.2:cudnn/8.2.1",
    )
    return env


def _detect(env: dict[str, str]) -> Facts:
    proc = run_inproc("detect", "--json", env=env)
    assert proc.returncode == 0, proc.stderr
    return Facts.from_dict(last_json(proc))


def _assert_nothing_personal(text: str, home: Path) -> None:
    for secret in (UUID0, UUID1, "hiskim1", "gpu-node-07", str(home), "s3cret"):
        assert secret not in text, f"{secret!r} leaked into the report"


def test_report_with_failing_install(tmp_path, seed_home, isolated_state):
    environ = _seed_environ(tmp_path, seed_home)
    facts = _detect(environ)
    assert any(g.name == "NVIDIA A100-SXM4-80GB" for g in facts.gpus)

    log = isolated_state / "logs" / "install-1.log"  # the report reads logs only from the state's logs/
    log.parent.mkdir(parents=True)
    log.write_text(SEED_LOG.format(uuid=UUID1))
    env_dir = seed_home / ".local" / "share" / "gc-wizard" / "envs" / "jax0.4.23-cuda12-cudnn89-1"
    entries = [
        {"id": "20260101-0001", "recipe": "jax0.4.23-cuda11-cudnn86", "env": str(env_dir.with_name("old")),
         "status": "verified", "current": True, "started": "2026-01-01T00:00:00", "finished": "2026-01-01T00:10:00",
         "log": str(log.with_name("install-0.log")), "kind": "install", "verify": None},
        {"id": "20260102-0002", "recipe": "jax0.4.23-cuda12-cudnn89", "env": str(env_dir), "status": "failed",
         "current": False, "started": "2026-01-02T00:00:00", "finished": "2026-01-02T00:12:00",
         "log": str(log), "kind": "install", "verify": None},
    ]
    text = build_report(facts, entries, environ=environ)
    _assert_nothing_personal(text, seed_home)

    # What an admin asks for is all there.
    assert "NVIDIA A100-SXM4-80GB" in text and "535.104.05" in text and "12.2" in text
    assert "| nvml |" in text  # each fact with its source
    assert "`cudnn_version_mismatch`" in text  # the root cause, named
    assert "**Fix:**" in text
    assert "Loaded runtime CuDNN library: 8.2.1 but source was compiled with: 8.6.0" in text
    assert "jax0.4.23-cuda11-cudnn86" in text and "jax0.4.23-cuda12-cudnn89" in text
    # The memory preflight: two 80 GiB A100s hold every model's GPU part.
    fits = text[text.index("### What fits in memory"):]
    assert "| GenCast 0.25° |" in fits
    assert ("fits on GPUs 0, 1" in fits) or ("GPU ok; RAM" in fits)  # the host RAM decides which
    assert "~300 GB RAM (documented)" in fits and "Host RAM" in text
    assert "## Failing log" in text
    # Paths survive with the personal part replaced.
    assert "~/cudnn-8.2.1/lib64" in text
    assert "~/.conda/envs/<user>_graphcast" in text
    assert "GPU-<redacted>" in text
    assert "https://<redacted>@proxy.example.org:3128" in text
    assert "<host>" in text
    # The environment variables that decide which CUDA loads.
    for name in ("LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES=GPU-<redacted>", "XLA_FLAGS=", "LOADEDMODULES=cuda/11.2",
                 "CONDA_PREFIX=", "XLA_PYTHON_CLIENT_PREALLOCATE  (not set)"):
        assert name in text, name
    ld_block = text[text.index("LD_LIBRARY_PATH  (in order"):]
    assert "~/cudnn-8.2.1/lib64   ← holds cuDNN 8.2.1" in ld_block


def test_report_cli_with_standins_writes_a_redacted_file(tmp_path, seed_home):
    environ = _seed_environ(tmp_path, seed_home)
    out = tmp_path / "report.md"
    proc = run_inproc("report", "--out", str(out), env=environ)
    assert proc.returncode == 0, proc.stderr
    assert str(out) in proc.stdout
    text = out.read_text()
    _assert_nothing_personal(text, seed_home)
    assert oct(out.stat().st_mode & 0o777) == "0o600"
    assert text.startswith("# gc-wizard support report")
    assert "NVIDIA A100-SXM4-80GB" in text
    assert "No installs yet in the state folder" in text
    # Without --out: the same report on stdout.
    proc = run_inproc("report", env=environ)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("# gc-wizard support report")
    _assert_nothing_personal(proc.stdout, seed_home)


def test_report_survives_missing_detection_and_history():
    text = build_report(None, None, environ={"PATH": "/usr/bin", "HOME": "/home/someone"}, redacted=True)
    # No history read is no history known (not "none made current yet"; thirteenth hostile pass #33).
    assert "Detection did not run." in text and "**Current:** unknown: the history could not be read" in text
    assert "No installs yet." not in text and "none (no environment has been made current yet)" not in text
    assert "LD_LIBRARY_PATH  (not set)" in text


def test_redact_rules():
    environ = {"HOME": "/home/alice", "USER": "alice", "HOSTNAME": "node3.cluster.example.org"}
    text = ("alice@node3.cluster.example.org:/home/alice/work; /home/bob/x; node3 said GPU-"
            "8932f937-d72c-4106-c12f-20bd9faed9f6 MIG-GPU-8932f937-d72c-4106-c12f-20bd9faed9f6/1/0 "
            "root cause: malice in alice_env; https://u:p@pypi.example.org/simple")
    out = redact(text, environ=environ, hosts=["node3.cluster.example.org", "node3"])
    assert out == ("<user>@<host>:~/work; /home/<user>/x; <host> said GPU-<redacted> MIG-<redacted> "
                   "root cause: malice in <user>_env; https://<redacted>@pypi.example.org/simple")
    facts = {"gpus": [{"uuid": "odd-format-1234"}]}
    assert redact("uuid odd-format-1234", facts=facts, environ={}, users=[], hosts=[], homes=[]) == "uuid <redacted>"


def test_report_uses_recorded_verify_findings(tmp_path):
    log = tmp_path / "verify.log"
    log.write_text("nothing useful here\n")
    verify = {"ok": False, "env": "/e", "backend": "gpu",
              "tiers": [{"name": "jax_import", "ok": True, "seconds": 1.2, "jax": "0.4.23"},
                        {"name": "backend", "ok": False, "seconds": 0.4, "error": "JAX fell back to the CPU"}],
              "findings": [{"id": "cpu_fallback", "title": "JAX fell back to the CPU", "explanation": "x",
                            "fix": "install the GPU recipe", "evidence": ["No GPU/TPU found"]}]}
    entries = [{"id": "e1", "recipe": "r", "env": "/e", "status": "failed", "current": False, "kind": "verify",
                "started": "s", "finished": "f", "log": str(log), "verify": verify}]
    text = build_report(None, entries, environ={}, redacted=False)
    assert "| backend | FAILED | 0.4 | JAX fell back to the CPU |" in text
    assert "1. **JAX fell back to the CPU** (`cpu_fallback`)" in text
    assert "Evidence: `No GPU/TPU found`" in text
    assert json.dumps(verify)  # the entry stayed serialisable


def test_a_cancelled_run_is_not_the_reports_failure(tmp_path):
    """Walk 22 #4: a newcomer's own Ctrl-C came out as "Failing log … the most recent failure" and "No known failure
    signature found". A cancelled run was stopped on purpose; the failure before it is still the one shown."""
    failed_log, cancelled_log = tmp_path / "failed.log", tmp_path / "cancelled.log"
    failed_log.write_text("the earlier failure\n")
    cancelled_log.write_text("^C stopped by Ctrl-C\n")
    entries = [{"id": "e1", "recipe": "r", "env": "/e1", "status": "failed", "current": False, "kind": "install",
                "started": "s", "finished": "f", "log": str(failed_log)},
               {"id": "e2", "recipe": "r", "env": "/e2", "status": "cancelled", "current": False, "kind": "install",
                "started": "s", "finished": "f", "log": str(cancelled_log)}]
    text = build_report(None, entries, environ={}, redacted=False)
    assert "None: the last run was stopped on purpose (cancelled), not failed." in text
    assert "## Failing log: last 60 lines of the most recent failure (entry `e1`)" in text
    assert str(failed_log) in text and str(cancelled_log) not in text.split("## Failing log", 1)[1]
    only = build_report(None, entries[1:], environ={}, redacted=False)
    assert "## Failing log" not in only and "No known failure signature found." not in only


def test_after_a_slurm_session_the_report_describes_the_gpu_node_and_the_environments_packages(tmp_path):
    """Facts read through srun are the GPU node's: the report says which node (partition, job), and the
    packages it lists as the GraphCast environment's are that environment's own, frozen at install — not
    the Python gc-wizard ran in (the walk: the login Python's numpy 2.4.6 beside a stack pinned to 1.26.4)."""
    from wizard.history.store import Entry

    facts = _detect(standin_env("a100x2-535", tmp_path))
    node = Facts.from_dict({**facts.to_dict(), "slurm": {"node": "gpu07", "job_id": "41", "partition": "gpu",
                                                           "srun": ["/usr/bin/srun", "--nodes=1"]}})
    current = Entry(id="e1", kind="install", recipe="jax0.4.23-cuda12-cudnn89", env="/shared/envs/gc1",
                    status="verified", current=True, packages=["jax==0.4.23", "numpy==1.26.4", "six==1.16.0"])
    text = build_report(node, [current], environ={}, redacted=False)
    assert "## GPU node gpu07 (detected through srun, partition gpu, job 41)" in text
    assert "- GPU node gpu07 (through srun): 2 × NVIDIA A100-SXM4-80GB" in text
    assert "### Packages in the GraphCast environment `/shared/envs/gc1` (frozen at install, key ones of 3)" in text
    assert "| numpy | 1.26.4 |" in text and "| six |" not in text
    assert "### Packages in the detected Python environment" in text or "Packages in that environment" not in text
    assert "ran gc-wizard" not in text  # walk 18: it was the detected env, not the one running the wizard
    here = build_report(facts, [current], environ={}, redacted=False)
    assert "## Machine (what gc-wizard detected)" in here and "GPU node" not in here


def test_a_lone_surrogate_in_the_history_comes_out_escaped_not_as_a_crash():
    """Fifth hostile pass 5h: a history whose JSON holds `\\ud800` made `report` stop with UnicodeEncodeError."""
    entries = [{"id": "e1", "recipe": "jax0.4.23-cpu", "env": "/envs/a\ud800b", "status": "failed",
                "error": "bad \udcff byte", "kind": "install"}]
    text = build_report(None, entries, environ={}, redacted=False)
    text.encode("utf-8")  # writable as UTF-8
    assert "/envs/a\\ud800b" in text


def test_the_report_says_how_the_current_environment_was_built(tmp_path):
    """Walk 21 #10: an admin debugging a no-GitHub install needs the installer, the GraphCast source and the extra
    indexes and find-links the installer's settings add; and "verify has not been run" read as "nothing checked"."""
    wheels = tmp_path / "wheels"
    entries = [{"id": "20261127-183400-467d", "recipe": "jax0.4.23-cpu", "env": str(tmp_path / "env"),
                "status": "verified", "current": True, "kind": "install", "verify": None, "installer": "pip",
                "graphcast_given": "/work/gc/v011", "find_links": [str(wheels)]}]
    environ = {"PIP_FIND_LINKS": "/opt/wheels", "PIP_EXTRA_INDEX_URL": "file:///opt/pypi1/simple", "PATH": "/bin"}
    text = build_report(None, entries, environ=environ, redacted=False)
    built = text[text.index("## Environments (history)"):]
    assert "- **Installer:** pip" in built and "- **GraphCast source:** `/work/gc/v011` (a local copy)" in built
    assert f"`{wheels}`" in built
    assert "/opt/wheels (from PIP_FIND_LINKS)" in built and "file:///opt/pypi1/simple (from PIP_EXTRA_INDEX_URL)" in built
    verify = text[text.index("## Last verify"):text.index("## Environments")]
    assert "has not been run" not in verify and "own GraphCast check" in verify


def test_the_preview_shows_tables_as_lists_and_splits_long_headings_the_file_keeps_them(tmp_path):
    """Walk 21 #9: at 80 columns the preview's tables were crushed (`Libr…`, one word a line) and headings cut."""
    from wizard.after.report import preview_markdown

    entries = [{"id": "20261127-183400-467d", "recipe": "jax0.4.23-cpu", "env": str(tmp_path / ("env" + "x" * 60)),
                "status": "verified", "current": True, "kind": "install", "verify": None, "started": "s"}]
    text = build_report(None, entries, environ={"PATH": "/bin"}, redacted=False)
    assert "|---|" in text  # the file keeps its tables
    preview = preview_markdown(text)
    assert "|---|" not in preview and not any(line.startswith("| ") for line in preview.splitlines())
    assert "- **20261127-183400-467d** — Kind: install · Recipe: jax0.4.23-cpu · Status: verified" in preview
    assert all(len(line) <= 76 for line in preview.splitlines() if line.startswith("#"))
    # A table inside a code block is left as it is.
    code = "```text\n| a | b |\n|---|---|\n| 1 | 2 |\n```"
    assert preview_markdown(code) == code


def test_a_check_the_user_stopped_and_kept_is_not_the_reports_failure(tmp_path):
    """walk 23 #7: a GraphCast check stopped with Ctrl-C and kept unchecked ("installed") came
    out as "No known failure signature found" and a "Failing log"; History said "stopped by you". The summary is
    what history stores for it (`VerifySummary.stopped`)."""
    from wizard.history.store import VerifySummary

    log = tmp_path / "install.log"
    log.write_text("▶ GraphCast check\n^C\n")
    stopped = VerifySummary(ok=False, backend="cpu", failed_tier="graphcast_jit_init", stopped=True).to_dict()
    entries = [{"id": "e1", "recipe": "jax0.4.23-cpu", "env": "/e1", "status": "installed", "current": False,
                "kind": "install", "started": "s", "finished": "f", "log": str(log), "verify": stopped,
                "error": "the GraphCast check was stopped by you; the new environment stays at /e1"}]
    text = build_report(None, entries, environ={}, redacted=False)
    assert "## Failing log" not in text and "No known failure signature found." not in text, text
    assert "**installed** (its GraphCast check was stopped by you, so it is unchecked)." in text
    assert "The GraphCast check was stopped by you at `graphcast_jit_init`; installed, unchecked." in text
    assert "None: the GraphCast check was stopped by you, not failed." in text
    verify = [{**entries[0], "id": "e2", "kind": "verify", "status": "failed"}]
    said = build_report(None, verify, environ={}, redacted=False)
    assert "stopped by you at `graphcast_jit_init` (not failed)" in said and "FAILED at" not in said


def test_the_reports_python_row_names_the_python_detection_read_not_the_running_one(tmp_path):
    """walk 23 #12: the Machine table called pyenv's python3 on PATH "the running interpreter",
    while gc-wizard ran on its .venv's Python; the row says where detection found it, and gc-wizard's own is its
    own row. A real second interpreter file on PATH (a copy), no venv active."""
    import shutil
    import sys

    folder = tmp_path / "bin"
    folder.mkdir()
    other = folder / "python3"
    shutil.copy2(Path(sys.executable).resolve(), other)
    facts = {"python": {"version": "3.11.7", "executable": str(other)}}
    text = build_report(facts, [], environ={"PATH": str(folder)}, redacted=False)
    assert f"| Python | 3.11.7 ({other}) | python3 on PATH |" in text, text
    assert "| gc-wizard's own Python |" in text and f"({sys.executable}) | the running interpreter;" in text
    venv = build_report(facts, [], environ={"PATH": str(folder), "VIRTUAL_ENV": str(tmp_path)}, redacted=False)
    assert "| Python | 3.11.7" in venv and "python3 on PATH" not in venv


@pytest.mark.parametrize("where", ["outside", "climbs-out", "link-in-logs", "fifo", "gone"])
def test_a_failing_log_the_report_leaves_out_says_the_true_reason(tmp_path, isolated_state, where):
    """25th hostile pass (part B) P6: a hand-edited history's failed entry named a plain, readable log outside the
    state's logs/; the report rightly left its text out but said "(the log file could not be read)". The reason
    given is the one that applied, and the file's text never appears."""
    logs = isolated_state / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    outside = tmp_path / "victim" / "shadowlike"
    outside.parent.mkdir()
    outside.write_text("root:SECRET-HASH:19000:0:99999:7:::\n")
    if where == "outside":
        log, why = outside, "lies outside this state's logs folder"
    elif where == "climbs-out":
        log, why = logs / os.path.relpath(outside, logs), "lies outside this state's logs folder"  # logs/../../…
    elif where == "link-in-logs":
        log, why = logs / "install-9.log", "is a link"
        log.symlink_to(outside)
    elif where == "fifo":
        log, why = logs / "install-9.log", "is not a regular file"
        os.mkfifo(log)
    else:
        log, why = logs / "install-gone.log", "is gone"
    entries = [{"id": "20260102-0002", "recipe": "jax0.4.23-cpu", "env": str(isolated_state / "envs" / "e"),
                "status": "failed", "current": False, "started": "2026-01-02T00:00:00",
                "finished": "2026-01-02T00:12:00", "log": str(log), "kind": "install", "verify": None}]
    text = build_report(None, entries, environ={})
    failing = text[text.index("## Failing log"):]
    assert f"(not shown: {log} {why}" in failing, failing[:600]
    assert "could not be read" not in failing and "SECRET-HASH" not in text


def test_a_part_that_fails_is_named_in_words_not_by_an_internal_class(monkeypatch, isolated_state):
    """27th hostile pass (part B) P9: no internal class name in a user-facing line. A refusal or an OSError is its own
    sentence in the report; only gc-wizard's own bug keeps its class, said as one."""
    from wizard.after import report
    from wizard.errors import UserError

    def refused(_slurm):
        raise UserError("the facts file /x/facts.json, line 3: not valid JSON")

    monkeypatch.setattr(report, "detect_where", refused)
    text = report.collect_and_build(environ={})
    assert "detection failed (the facts file /x/facts.json, line 3: not valid JSON)" in text
    assert "UserError" not in text

    def broken(_slurm):
        raise PermissionError(13, "Permission denied", "/proc/driver/nvidia/version")

    monkeypatch.setattr(report, "detect_where", broken)
    text = report.collect_and_build(environ={})
    assert "PermissionError" not in text and "/proc/driver/nvidia/version" in text


def test_the_report_masks_other_users_accounts_as_it_masks_their_homes():
    """30th hostile pass (part B) P9: "…through /home/<user>, a folder that user t30v (uid 1004) owns…" — the home
    was masked and the account in the same sentence was not. Root stays named: it is no one's in particular."""
    text = ("the state folder /home/tother/gcstate is reached through /home/tother, a folder that user tother "
            "(uid 4321) owns; /x is a folder group tlab (gid 4322) can write; /y is owned by uid 4323; "
            "Take that entry away (`setfacl -x u:tother /z`) or (`setfacl -d -x g:tlab /z`); user root (uid 0) owns /")
    out = redact(text, environ={"HOME": "/root", "USER": "root"}, hosts=[])
    assert "tother" not in out and "tlab" not in out and not any(n in out for n in ("4321", "4322", "4323")), out
    assert "a folder that user <user> (uid <uid>) owns" in out and "group <group> (gid <gid>) can write" in out
    assert "owned by uid <uid>" in out and "`setfacl -x u:<user> /z`" in out and "`setfacl -d -x g:<group> /z`" in out
    assert "user root (uid 0) owns /" in out


@pytest.mark.skipif(os.geteuid() != 0, reason="a state folder another user owns needs root to make")
def test_the_report_on_another_users_state_does_not_name_them(tmp_path):
    theirs = tmp_path / "theirs"
    (theirs / "gcstate").mkdir(parents=True)
    os.chown(theirs, 65534, 65534)
    os.chown(theirs / "gcstate", 65534, 65534)
    proc = run_inproc("report", env={"GC_WIZARD_HOME": str(theirs / "gcstate")})
    said = proc.stdout + proc.stderr
    assert "nobody" not in said and "65534" not in said, said[-3000:]
