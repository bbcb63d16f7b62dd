"""Walk 25 #8: History's disk line said "files they share, hardlinked from uv's cache" where the environment there
was built with pip (uv's install had failed and its folder was removed). The line names uv's cache only for
environments uv made that are still there, in the CLI and the app (one builder, `flows.history`)."""

from __future__ import annotations

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import save_entries
from wizard.flows.history import disk_total_words, history_rows, installers_of
from wizard.history.store import Entry


def test_a_failed_uv_try_beside_a_pip_environment_is_not_called_uv_hardlinks(isolated_state, tmp_path):
    pip_env = tmp_path / "pip-env"
    pip_env.mkdir()
    (pip_env / "file").write_bytes(b"x" * 4096)
    save_entries([Entry(id="20261128-082120-a7f4", kind="install", recipe="jax0.4.23-cpu", env=str(tmp_path / "gone"),
                 status="failed", installer="uv"),
           Entry(id="20261128-082300-b1c2", kind="install", recipe="jax0.4.23-cpu", env=str(pip_env),
                 status="verified", installer="pip", current=True)])
    shown = " ".join(run_inproc("history").stdout.split())
    assert "(a file they share counted once)" in shown and "uv's cache" not in shown
    rows, total, _ = history_rows()
    assert installers_of(rows) == {"pip"}
    assert "uv-made ones hardlink theirs from uv's cache, the others copy" in disk_total_words(total, {"uv", "pip"})
    assert "files they share, hardlinked from uv's cache, counted once" in disk_total_words(total, {"uv"})
