"""A local path the user typed that merely looks like a URL with a password is shown as it is once written.

27th hostile pass (part A) N2: `bundle --out https://u:PW@127.0.0.1:9/x/b` (relative: it made `./https:/u:PW@…/x/b`)
printed the next step as "gc-wizard install tiny-a --bundle /…/https:/u:***@127.0.0.1:9/x/b", a command that cannot
run; masking a name already on the user's disk hides nothing. Only paths this run wrote are kept: a secret beside
them, or a path that does not exist, is masked as before.
"""

from __future__ import annotations

from tests.fixtures.state import run_cli
from wizard import security
from wizard.outputs import write_output_file


def test_the_bundles_next_step_names_the_folder_it_made(tmp_path, isolated_state, tiny):
    proc = run_cli("bundle", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                   "--graphcast-src", str(tiny.graphcast), "--out", "https://u:SEKn2@127.0.0.1:9/x/b", cwd=tmp_path,
                   env={"UV_OFFLINE": "1", "PIP_NO_INDEX": "1"})
    assert proc.returncode == 0, proc.stderr
    made = tmp_path / "https:" / "u:SEKn2@127.0.0.1:9" / "x" / "b"
    assert (made / "manifest.json").is_file()
    after = proc.stdout[proc.stdout.index("Bundle ready: "):]  # what follows the making: the result and next step
    # The folder is named as made; the install line names it DIR, wherever it is copied to (walk 26 #1).
    assert f"Bundle ready: {made} (" in after and f"Copy {made} to the offline machine" in after, after
    assert "--bundle DIR\n" in after, after
    assert "***" not in after and "<redacted>" not in after, after


def test_only_a_written_path_is_kept_and_text_around_it_is_masked(tmp_path, monkeypatch):
    monkeypatch.setattr(security, "_LOCAL_PATHS", [])
    folder = tmp_path / "https:" / "u:SEKw1@h.example" / "d"
    other = str(tmp_path / "https:" / "u:SEKw2@h.example" / "e")
    assert "SEKw1" not in security.redact_secrets(f"{folder}/r.md")  # not written yet: masked
    folder.mkdir(parents=True)
    written = write_output_file(folder / "r.md", "report\n", what="the report to")
    line = f"wrote {written}; next: curl https://me:SEKw3@h.example/x {other}"
    shown = security.redact_secrets(line)
    assert f"wrote {written};" in shown, shown
    assert "SEKw3" not in shown and "SEKw2" not in shown, shown
