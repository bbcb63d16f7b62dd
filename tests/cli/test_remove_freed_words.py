"""`remove` says before it deletes what deleting truly frees, and says it is deleting while it works (walk 23
#9: "Delete … (0.78 GiB)? y", 15 s of silence, then "0.00 GiB freed": the env's files were hard
links into uv's cache)."""

from __future__ import annotations

import os
from pathlib import Path

from tests.fixtures.cli import run_inproc


def _big_file(env: Path, mib: int, *, linked_from: Path | None) -> None:
    """A file of `mib` MiB in the env; with `linked_from`, a hard link to one there, as uv's cache links."""
    inside = env / "lib" / f"data-{mib}.bin"
    if linked_from is None:
        inside.write_bytes(os.urandom(mib * 2**20))
        return
    outside = linked_from / f"cached-{mib}.bin"
    outside.write_bytes(os.urandom(mib * 2**20))
    os.link(outside, inside)


def test_remove_says_what_is_freed_before_and_that_it_is_deleting(tiny, tmp_path):
    tiny.write("tiny-rm", ["pkg-a==1.0"])
    first = tiny.install("tiny-rm")[1]
    tiny.install("tiny-rm")  # the second becomes current, so the first may be removed
    env = Path(first["env"])
    (env / "lib").mkdir(exist_ok=True)
    cache = tmp_path / "a-cache"
    cache.mkdir()
    _big_file(env, 6, linked_from=cache)
    _big_file(env, 3, linked_from=None)
    entry = next(e["id"] for e in tiny.history() if e.get("env") == str(env))
    asked = run_inproc("remove", entry)  # no terminal, no --yes: the question is shown and nothing deleted
    assert asked.returncode != 0 and env.exists(), asked.stdout + asked.stderr
    question = next(line for line in asked.stderr.splitlines() if f"Delete {env} (" in line)
    assert "This frees 3." in question and "MiB: 6." in question, question
    assert "shared with uv's cache or another environment (hard links)" in question, question
    proc = run_inproc("remove", entry, "--yes")
    said = proc.stdout + proc.stderr
    assert proc.returncode == 0, said
    assert f"Deleting {env} …" in said, said
    done = next(line for line in said.splitlines() if f"Removed {env} (" in line)
    assert "MiB freed)" in done and "0.00 GiB" not in done, done
    assert not env.exists() and (cache / "cached-6.bin").stat().st_size == 6 * 2**20


def test_remove_that_cannot_finish_prints_a_retry_command_with_the_entry(tiny, monkeypatch):
    """37th hostile pass (part B) P3: files `remove` cannot delete (an immutable one) left the sentence "`… remove`
    finishes the job once that is fixed", which, pasted, gave only a usage error: it names the entry id now."""
    from wizard.install import envs

    tiny.write("tiny-rm", ["pkg-a==1.0"])
    first = tiny.install("tiny-rm")[1]
    tiny.install("tiny-rm")
    env = Path(first["env"])
    entry = next(e["id"] for e in tiny.history() if e.get("env") == str(env))
    stuck = env / "pyvenv.cfg"
    monkeypatch.setattr(envs, "_remove_env_tree", lambda _env: [(stuck, "Operation not permitted")])
    proc = run_inproc("remove", entry, "--yes")
    said = " ".join((proc.stdout + proc.stderr).split())
    assert proc.returncode != 0 and env.exists(), said
    assert f"remove {entry}` finishes the job" in said, said
