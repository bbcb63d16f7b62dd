"""A rollback installs from an entry's recorded package set only what the wizard itself records (sixth hostile
pass 10b: an entry's `packages` edited to `graphcast @ file:///elsewhere/…whl` was rebuilt without a word).

Real installs of the tiny recipes by the real wizard; history.json then edited the way the tester did."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.fixtures.cli import bare_program
from tests.fixtures.state import last_json, run_cli


def _edit_packages(entry_id: str, packages: list[str]) -> None:
    path = Path(os.environ["GC_WIZARD_HOME"]) / "history.json"
    state = json.loads(path.read_text())
    for entry in state["entries"]:
        if entry["id"] == entry_id:
            entry["packages"] = packages
    path.write_text(json.dumps(state, indent=1))


def _installed_pair(tiny):
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    (entry,) = [e for e in json.loads((Path(os.environ["GC_WIZARD_HOME"]) / "history.json").read_text())["entries"]
                if e["id"] == a["entry_id"]]
    shutil.rmtree(a["env"])  # the rollback must rebuild it from the recorded set
    return a, b, entry


@pytest.mark.parametrize("forged", [
    "graphcast @ file://{outside}/graphcast-0.1.1-py3-none-any.whl",  # the tester's: a wheel outside the state
    "pkg-a @ file://{outside}/graphcast-0.1.1-py3-none-any.whl",  # any other package from a direct reference
    "graphcast @ https://127.0.0.1:9/graphcast-0.1.1-py3-none-any.whl",
    "graphcast @ git+https://github.com/google-deepmind/graphcast@main",  # a branch, not a commit
    "-e {outside}",
])
def test_a_recorded_set_naming_a_source_the_wizard_never_records_is_refused_by_entry_and_line(tiny, tmp_path,
                                                                                              forged):
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copy(tiny.graphcast, outside / "graphcast-0.1.1-py3-none-any.whl")
    a, b, entry = _installed_pair(tiny)
    line = forged.format(outside=outside)
    _edit_packages(a["entry_id"], [line, "pkg-a==1.0"])
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json")
    error = bare_program(last_json(proc)["error"])
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert error.startswith(f"{os.environ['GC_WIZARD_HOME']}/history.json, line ") and f"entry {a['entry_id']}" in error
    assert repr(line) in error and "nothing changed" in error
    assert not Path(a["env"]).exists() and next(e["id"] for e in tiny.history() if e["current"]) == b["entry_id"]
    assert [e["kind"] for e in tiny.history()].count("rollback") == 0


def test_the_recorded_graphcast_file_changed_since_the_install_is_refused(tiny):
    a, b, entry = _installed_pair(tiny)
    recorded = entry["graphcast_source"]
    assert recorded["requirement"].startswith("graphcast @ file://") and len(recorded["sha256"]) == 64
    state = Path(os.environ["GC_WIZARD_HOME"]) / "history.json"
    data = json.loads(state.read_text())
    for item in data["entries"]:
        if item["id"] == a["entry_id"]:
            item["find_links"] = []  # only the recorded hash vouches for the wheel now
    state.write_text(json.dumps(data, indent=1))
    Path(tiny.graphcast).write_bytes(Path(tiny.graphcast).read_bytes() + b"\0")  # the wheel changed meanwhile
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json")
    assert proc.returncode == 2 and "has changed since the install" in last_json(proc)["error"]


def test_the_wizards_own_record_rebuilds_as_before(tiny):
    a, b, entry = _installed_pair(tiny)
    assert any(p.startswith("graphcast @ file://") for p in entry["packages"])
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json", env={"UV_OFFLINE": "1"})
    assert proc.returncode == 0, proc.stderr
    assert last_json(proc)["rebuilt"] is True and (Path(a["env"]) / "bin" / "python").exists()


# ------------------------------------------------------------------ the wheelhouse a rebuild installs from (#85)


def _edit_entry(entry_id: str, **fields) -> None:
    path = Path(os.environ["GC_WIZARD_HOME"]) / "history.json"
    state = json.loads(path.read_text())
    for entry in state["entries"]:
        if entry["id"] == entry_id:
            entry.update(fields)
    path.write_text(json.dumps(state, indent=1))


_EVIL_PTH = "import os; open(os.environ.get('GCW_PWN', '/dev/null'), 'w').write('pwned')\n"


def _evil_house(tmp_path, tiny, name: str = "pkg-a", version: str = "1.0") -> Path:
    """A wheelhouse holding a wheel of the recorded name and version that carries a `.pth` (code at every start)."""
    from tests.fixtures.wheels import build_wheel

    evil = tmp_path / "evilhouse"
    evil.mkdir(exist_ok=True)
    build_wheel(evil, name, version, files={"zz_evil.pth": _EVIL_PTH.encode()})
    return evil


def test_an_install_from_a_wheelhouse_records_each_wheels_sha256(tiny):
    import hashlib

    a, b, entry = _installed_pair(tiny)
    frozen = Path(entry["requirements_file"])
    assert frozen.parent.name == "frozen" and frozen.is_file()
    text = frozen.read_text()
    for wheel in tiny.house.path.glob("pkg_a-1.0-*.whl"):
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() in text


@pytest.mark.parametrize("how", ["evil-folder-first", "evil-folder-only", "wheel-swapped-in-place",
                                 "second-wheel-added"])
def test_a_rebuild_from_a_changed_or_edited_wheelhouse_is_refused(tiny, tmp_path, how):
    """Eleventh hostile pass #85: the entry's env gone, its `find_links` edited to put a folder holding another
    pkg-a 1.0 wheel (with a `.pth`) first; the rebuild installed it. Now each way of changing what the wheelhouse
    holds is refused before anything is made, naming the file."""
    a, b, entry = _installed_pair(tiny)
    house = Path(tiny.house.path)
    evil = _evil_house(tmp_path, tiny)
    evil_wheel = next(evil.glob("pkg_a-1.0-*.whl"))
    if how == "evil-folder-first":
        _edit_entry(a["entry_id"], find_links=[str(evil), str(house)])
    elif how == "evil-folder-only":
        _edit_entry(a["entry_id"], find_links=[str(evil)])
    elif how == "wheel-swapped-in-place":
        original = next(house.glob("pkg_a-1.0-*.whl"))
        shutil.copy(evil_wheel, original)
    else:
        shutil.copy(evil_wheel, house / evil_wheel.name.replace("py3-none-any", "py311-none-any"))
    pwn = tmp_path / "PWN"
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json", env={"GCW_PWN": str(pwn)})
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    error = bare_program(last_json(proc)["error"])
    assert "Traceback" not in proc.stderr
    assert f"entry {a['entry_id']}" in error and "sha256" in error and "nothing changed" in error, error
    assert "pkg_a-1.0" in error
    assert not Path(a["env"]).exists() and not pwn.exists()
    assert next(e["id"] for e in tiny.history() if e["current"]) == b["entry_id"]


@pytest.mark.parametrize("how", ["no-frozen-file", "hashes-stripped"])
def test_a_rebuild_from_a_wheelhouse_with_no_recorded_hash_is_refused(tiny, tmp_path, how):
    """A set with no sha256 for a package (an entry from before hashes were recorded, or a frozen file whose
    hashes were removed): a rebuild would take whatever the folders hold, so it is refused, saying what to do."""
    a, b, entry = _installed_pair(tiny)
    if how == "no-frozen-file":
        _edit_entry(a["entry_id"], requirements_file=None)
    else:
        frozen = Path(entry["requirements_file"])
        frozen.write_text("".join(line.split(" \\")[0] + "\n" for line in frozen.read_text().splitlines()
                                  if not line.strip().startswith("--hash")))
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json")
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    error = bare_program(last_json(proc)["error"])
    assert "no sha256 was recorded for pkg-a==1.0" in error and "gc-wizard install tiny-a" in error, error
    assert not Path(a["env"]).exists()


def test_a_resync_from_a_changed_wheelhouse_stops_before_changing_the_env(tiny, tmp_path):
    """The env is there but changed since (pkg-a removed): the re-sync that puts its set back meets the same rule,
    and the env is left as it was, the current one still current."""
    import subprocess

    from uv import find_uv_bin

    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    python = Path(a["env"]) / "bin" / "python"
    subprocess.run([find_uv_bin(), "pip", "uninstall", "-q", "--python", str(python), "pkg-a"], check=True)
    evil_wheel = next(_evil_house(tmp_path, tiny).glob("pkg_a-1.0-*.whl"))
    shutil.copy(evil_wheel, next(Path(tiny.house.path).glob("pkg_a-1.0-*.whl")))
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json")
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    error = bare_program(last_json(proc)["error"])
    assert "sha256" in error and "pkg_a-1.0" in error and "the current environment is unchanged" in error, error
    assert not list(Path(a["env"]).glob("lib/python*/site-packages/zz_evil.pth"))
    assert next(e["id"] for e in tiny.history() if e["current"]) == b["entry_id"]


@pytest.mark.parametrize("how", ["dangling-link", "looping-link", "gone", "folder"])
def test_a_saved_package_list_that_cannot_be_read_is_named_for_what_it_is(tiny, tmp_path, how):
    """Twentieth pass P8: with frozen/ID.txt a link to nowhere, the rollback said "no sha256 was recorded for
    pkg-a==1.0": they were recorded, in the file that is gone. The sentence names the file and what it is now."""
    a, b, entry = _installed_pair(tiny)
    frozen = Path(entry["requirements_file"])
    frozen.unlink()
    if how == "dangling-link":
        frozen.symlink_to(tmp_path / "nowhere.txt")
        said = f"{frozen}, is a symbolic link to {tmp_path / 'nowhere.txt'}, which does not exist"
    elif how == "looping-link":
        frozen.symlink_to(frozen)
        said = f"{frozen}, is a symbolic link that loops"
    elif how == "folder":
        frozen.mkdir()
        said = f"{frozen}, is a folder, not a file"
    else:
        said = f"the package list it saved with each wheel's sha256, {frozen}, is gone (no such file)"
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json")
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    error = bare_program(last_json(proc)["error"])
    assert said in error and "nothing changed" in error and "gc-wizard install tiny-a" in error, error
    assert "no sha256 was recorded" not in error and "Traceback" not in proc.stderr
    assert not Path(a["env"]).exists() and not (tmp_path / "nowhere.txt").exists()
    assert next(e["id"] for e in tiny.history() if e["current"]) == b["entry_id"]


def _advised_install(error: str) -> list[str]:
    """The `gc-wizard install …` line a refusal advises, parsed by the CLI's own parser (a line it cannot parse
    fails the test here), as the words a user pasting it runs."""
    import re
    import shlex

    from wizard.cli import build_parser

    (line,) = re.findall(r"`(gc-wizard install [^`]*)`", error)
    words = shlex.split(line)[1:]
    build_parser(words).parse_args(words)
    return words


@pytest.mark.parametrize("case", ["changed", "gone"])
def test_the_advice_for_a_changed_or_gone_graphcast_file_keeps_the_recorded_sources_and_runs(tiny, case):
    """24th hostile pass (part B) P2: rollback refused a rebuild whose GraphCast wheel had changed and advised
    `gc-wizard install tiny-a --graphcast-src FILE`, which dropped the entry's --recipes-dir, --find-links and
    --offline ("unknown recipe 'tiny-a'"), and named a file that was gone without saying so. The advice is built by
    the plan's own builder from the recorded sources, says which case holds, parses with the CLI's parser, and the
    changed case's line runs; a gone file is never named as the source."""
    from tests.fixtures.wheels import build_wheel

    a, b, entry = _installed_pair(tiny)
    wheel = Path(tiny.graphcast)
    if case == "changed":
        build_wheel(wheel.parent, "graphcast", "0.1.1", module_source="changed = True\n")  # a valid, other wheel
    else:
        wheel.unlink()
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json")
    error = bare_program(last_json(proc)["error"])
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    words = _advised_install(error)
    assert words[:2] == ["install", "tiny-a"]
    assert words[words.index("--recipes-dir") + 1] == str(tiny.recipes)
    assert words[words.index("--find-links") + 1] == str(tiny.house.path) and "--offline" in words
    if case == "gone":
        assert "which is gone (no such file or folder now)" in error and "has changed" not in error
        assert words[words.index("--graphcast-src") + 1] == "FILE" and str(wheel) not in " ".join(words)
        return
    assert "which has changed since the install" in error and "is gone" not in error
    assert words[words.index("--graphcast-src") + 1] == str(wheel)
    ran = run_cli(*words, "--yes", "--no-verify", "--json")
    assert ran.returncode == 0, ran.stderr[-2000:]


def test_a_moved_bundle_is_not_named_as_the_source(tmp_path):
    """24th hostile pass (part B) P2 (b): an entry installed from a bundle that was moved since was advised
    `--graphcast-src <the gone bundle's wheel>`, without --bundle. The advice asks for the bundle's folder, says it
    is gone, and parses."""
    from wizard.flows.rollback import changed_source_problem
    from wizard.history.store import Entry

    gone = tmp_path / "bunA"
    wheel = gone / "wheels" / "graphcast-0.1.1-py3-none-any.whl"
    requirement = f"graphcast @ file://{wheel}"
    entry = Entry(id="20261128-000000-ab12", kind="install", recipe="tiny-a", env=str(tmp_path / "envs" / "x"),
                  packages=[requirement, "pkg-a==1.0"], graphcast_source={"requirement": requirement, "sha256": "0" * 64},
                  bundle=str(gone), find_links=[str(gone / "wheels")], recipes_dir=str(tmp_path),
                  lock={"path": str(gone / "requirements.txt"), "sha256": "0" * 64, "format": "requirements"},
                  installer="pip", offline=True)
    error = changed_source_problem(entry)
    assert f"the bundle folder it came from, {gone}, is gone too" in error
    words = _advised_install(error)
    assert words[words.index("--bundle") + 1] == "DIR" and str(gone) not in " ".join(words)
    assert words[words.index("--installer") + 1] == "pip" and words[words.index("--recipes-dir") + 1] == str(tmp_path)


# ------------------------------------------------------------------ the set an in-place install found (27th pass P4)


def _in_place_pair(tiny, tmp_path):
    """tiny-a into a new folder, then tiny-b into the same one in place: the second entry's `snapshot` holds the
    first install's GraphCast record and pkg-a, and undoing it is the rollback of that entry."""
    env = tmp_path / "shared-env"
    proc, _ = tiny.install("tiny-a", "--env", str(env))
    assert proc.returncode == 0, proc.stderr
    proc, b = tiny.install("tiny-b", "--env", str(env))
    assert proc.returncode == 0, proc.stderr
    (entry,) = [e for e in tiny.history() if e["id"] == b["entry_id"]]
    assert entry["mode"] == "in-place" and any(p.startswith("graphcast @ file://") for p in entry["snapshot"])
    return env, entry


def _site(env: Path) -> list[str]:
    return sorted(p.name for p in env.glob("lib/python*/site-packages/*"))


@pytest.mark.parametrize("how", ["url-in-snapshot", "other-graphcast-in-snapshot", "find-links-swappable"])
def test_an_in_place_undo_puts_back_only_what_the_wizard_recorded_from_places_no_one_else_can_swap(tiny, tmp_path,
                                                                                                   how):
    """27th hostile pass (part B) P4: the undo installed the saved set as given — a `NAME @ file:///…` line appended
    to it, and the entry's `find_links` edited to a wheelhouse another user could change — with no owner rule and no
    word. The set is read back through the recorded-set rule, and the folders through the swap rule."""
    from tests.fixtures.modes import open_folder

    env, entry = _in_place_pair(tiny, tmp_path)
    evil = _evil_house(tmp_path, tiny, "evilpkg", "9.0")
    before = _site(env)
    if how == "url-in-snapshot":
        line = f"evilpkg @ file://{next(evil.glob('evilpkg-9.0-*.whl'))}"
        _edit_entry(entry["id"], snapshot=[*entry["snapshot"], line])
        said = repr(line)
    elif how == "other-graphcast-in-snapshot":
        other = evil / Path(tiny.graphcast).name
        shutil.copy(tiny.graphcast, other)
        line = f"graphcast @ file://{other}"
        _edit_entry(entry["id"], snapshot=[line if p.startswith("graphcast @") else p for p in entry["snapshot"]])
        said = repr(line)
    else:
        ww = open_folder(tmp_path / "ww")
        shutil.copytree(tiny.house.path, ww / "house")
        _edit_entry(entry["id"], find_links=[str(ww / "house")])
        said = f"entry {entry['id']}'s find_links {ww / 'house'}"
    pwn = tmp_path / "PWN"
    proc = run_cli("rollback", entry["id"], "--yes", "--no-verify", "--json", env={"GCW_PWN": str(pwn)})
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    error = bare_program(last_json(proc)["error"])
    assert "Traceback" not in proc.stderr and said in error and "nothing changed" in error, error
    assert "history.json" in error
    assert _site(env) == before and not pwn.exists()
    assert next(e["id"] for e in tiny.history() if e["current"]) == entry["id"]


def test_an_in_place_undo_of_the_wizards_own_set_still_puts_it_back(tiny, tmp_path):
    env, entry = _in_place_pair(tiny, tmp_path)
    proc = run_cli("rollback", entry["id"], "--yes", "--no-verify", "--json")
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    assert last_json(proc)["restored"] is True
    assert not any(name.startswith("pkg_b") for name in _site(env))


def test_a_refusal_met_mid_rollback_is_recorded_in_its_own_words_not_as_a_class_name(tiny, tmp_path):
    """27th hostile pass (part B) P9: a refusal met while restoring (here: the entry's lock edited to a file outside
    frozen/, with no wheelhouse to hold it to) was printed and recorded as "the wizard stopped with an error
    (UserError: …)": an internal name, worded as a crash. Now its own sentence, as "refused: …"."""
    a, b, entry = _installed_pair(tiny)
    elsewhere = tmp_path / "lock.txt"
    shutil.copy(entry["requirements_file"], elsewhere)
    _edit_entry(a["entry_id"], find_links=[], requirements_file=str(elsewhere))
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify")
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    said = proc.stdout + proc.stderr
    assert "UserError" not in said and "Error:" not in said and "Error)" not in said, said
    assert f"the history entry's lock {elsewhere} is not one gc-wizard wrote" in proc.stderr, proc.stderr
    (record,) = [e for e in tiny.history() if e["kind"] == "rollback"]
    assert record["error"].startswith("refused: the history entry's lock") and "UserError" not in record["error"]
    assert "the current environment is unchanged" in record["error"]


def test_a_refused_line_holding_a_secret_is_named_by_its_line_in_history_json(tiny, tmp_path):
    """27th hostile pass (part B) P9: history.json keeps the secret masked once saved, and the refusal lost the
    line ("package 3" instead of "line 82"); it looks for the masked form too."""
    env, entry = _in_place_pair(tiny, tmp_path)
    line = "--extra-index-url https://me:sekret@example.invalid/simple"
    _edit_entry(entry["id"], snapshot=[*entry["snapshot"], line])
    run_cli("history", "--json")  # any save masks it in the file
    proc = run_cli("rollback", entry["id"], "--yes", "--no-verify")
    assert proc.returncode == 2 and "sekret" not in proc.stdout + proc.stderr, proc.stderr
    assert "history.json, line " in proc.stderr, proc.stderr
