"""A GraphCast checkout's git state, read without running git or the checkout (issue 24, P8).

Real git repositories made with the real git; the reader must agree with `git status` on what changed,
and reading must run nothing, not even a command the checkout's own `.git/config` names.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.fixtures.tiny import RECIPE
from wizard.install.checkout_state import TreeState, read_tree_state
from wizard.install.sources import (
    SourceIdentity,
    SourceVerdict,
    check_graphcast_source,
    checkout_caution,
    read_identity,
)
from wizard.recipes.loader import load_recipe_file

REV = "97d1ad50b0b7af4aaed7790167dffa769bae1f2c"


def _git(folder: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, text=True, env=env).stdout


def _checkout(tmp_path: Path) -> tuple[Path, str]:
    repo = tmp_path / "graphcast"
    (repo / "graphcast").mkdir(parents=True)
    (repo / "setup.py").write_text("from setuptools import setup\nsetup(name='graphcast', version='0.1.1')\n")
    (repo / "graphcast" / "model.py").write_text("X = 1\n")
    (repo / "graphcast" / "data.bin").write_bytes(bytes(range(256)) * 50)
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "release")
    return repo, _git(repo, "rev-parse", "HEAD").strip()


def test_a_pristine_checkout_is_unchanged_and_its_commit_named(tmp_path):
    repo, head = _checkout(tmp_path)
    (repo / "graphcast" / "__pycache__").mkdir()
    (repo / "graphcast" / "__pycache__" / "model.cpython-311.pyc").write_bytes(b"\0")  # a build leftover
    state = read_tree_state(repo, head)
    assert state.readable and not state.changed
    assert f"at commit {head[:12]} (the recipe's)" in state.describe(head)
    assert f"not the recipe's {REV[:12]}" in state.describe(REV)


def test_edits_new_files_and_deletions_are_named_as_git_status_names_them(tmp_path):
    repo, head = _checkout(tmp_path)
    (repo / "graphcast" / "model.py").write_text("import os; os.system('id')\n")  # same size class, other bytes
    (repo / "sitecustomize.py").write_text("print('hi')\n")
    (repo / "graphcast" / "data.bin").unlink()
    state = read_tree_state(repo, head)
    assert state.modified == ("graphcast/model.py",)
    assert state.untracked == ("sitecustomize.py",)
    assert state.deleted == ("graphcast/data.bin",)
    porcelain = _git(repo, "status", "--porcelain")
    assert " M graphcast/model.py" in porcelain and "?? sitecustomize.py" in porcelain
    caution = checkout_caution(SourceIdentity(where=str(repo), kind="checkout", tree=state), head)
    assert "local changes" in caution and "graphcast/model.py" in caution and "runs its setup.py" in caution


def test_a_copy_without_git_and_a_checkout_whose_config_names_a_command_run_nothing(tmp_path):
    repo, head = _checkout(tmp_path)
    marker = tmp_path / "RAN"
    with open(repo / ".git" / "config", "a") as config:  # what `git status` would run
        config.write(f"[core]\n\tfsmonitor = touch {marker}\n")
    (repo / "setup.py").write_text(f"open({str(marker)!r}, 'w')\n")
    state = read_tree_state(repo, head)
    assert state.modified == ("setup.py",) and not marker.exists()
    copy = tmp_path / "copied"
    shutil.copytree(repo, copy, ignore=shutil.ignore_patterns(".git"))
    state = read_tree_state(copy)
    assert not state.readable and "not a git checkout" in state.describe(REV)
    assert "runs its setup.py" in checkout_caution(SourceIdentity(where=str(copy), kind="checkout", tree=state), REV)
    assert not marker.exists()


def _as_release(repo: Path, head: str, monkeypatch, tmp_path: Path) -> None:
    """Make `head` one of the releases the recipes pin: its file list, as `git ls-tree -r` gives it."""
    import json

    from wizard.install import checkout_state

    files = {}
    for line in _git(repo, "ls-tree", "-r", head).splitlines():
        meta, path = line.split("\t", 1)
        files[path] = meta.split()[2]
    releases = tmp_path / "releases.json"
    releases.write_text(json.dumps({"releases": {head: {"tag": "v9.9", "files": files}}}))
    monkeypatch.setattr(checkout_state, "RELEASES_PATH", releases)


def test_a_staged_change_to_a_pinned_release_is_seen(tmp_path, monkeypatch):
    """`git add` makes the index match the edit, so the index alone calls it unchanged; a release's own file
    list does not (the fourth fault pass staged a setup.py that ran at install)."""
    repo, head = _checkout(tmp_path)
    _as_release(repo, head, monkeypatch, tmp_path)
    (repo / "setup.py").write_text("import pathlib; pathlib.Path('/tmp/x').touch()\n" + (repo / "setup.py").read_text())
    _git(repo, "add", "setup.py")
    state = read_tree_state(repo, head)
    assert state.modified == ("setup.py",) and state.compared_with == "GraphCast v9.9"
    assert "different from GraphCast v9.9: 1 modified (setup.py)" in state.describe(head)


def test_build_leftovers_are_named_apart_and_never_reach_the_build(tmp_path, monkeypatch):
    """walk 25 #6: a v0.2 copy holding v0.1.1's stale `build/lib` read as "different from GraphCast v0.2: 9 new",
    marked "!", with no word on whether those files mattered. A stale `build/lib` (a payload too: the fourth fault
    pass) is what a build in the folder packs, so it is named as an earlier build's leftovers, apart from changes:
    the install builds from a copy without them, and the command given clears them with the real git."""
    import shlex

    from wizard.install.source_copy import _copy

    repo, head = _checkout(tmp_path)
    _as_release(repo, head, monkeypatch, tmp_path)
    built = repo / "build" / "lib" / "graphcast"
    built.mkdir(parents=True)
    (built / "evil.py").write_text("import os\n")
    (built / "model.py").write_text("X = 2\n")
    (repo / "graphcast.egg-info").mkdir()
    (repo / "graphcast.egg-info" / "PKG-INFO").write_text("Name: graphcast\n")
    state = read_tree_state(repo, head)
    assert not state.changed and state.untracked == ()
    assert state.leftovers == ("build/", "graphcast.egg-info/")
    assert state.to_dict()["build_leftovers"] == ["build/", "graphcast.egg-info/"]
    caution = checkout_caution(SourceIdentity(where=str(repo), kind="checkout", tree=state), head)
    assert "what an earlier build left (build/, graphcast.egg-info/), counted apart from its changes and not " \
           "used when building (the wizard builds from a copy without them)" in caution
    _copy(repo, tmp_path / "copy")  # what the install builds: none of them
    assert not (tmp_path / "copy" / "build").exists() and not (tmp_path / "copy" / "graphcast.egg-info").exists()
    # A "✓" source: its caution is information, not a "!" line (the plan's and the app's Sources).
    verdict = SourceVerdict(SourceIdentity(where=str(repo), kind="checkout", tree=state), True, caution=caution)
    assert verdict.mark() == "✓" and verdict.caution_mark() == ""

    # Walk 27 #4: a checkout its reader cannot write (a lab admin's, a read-only mount even for root) gets no command
    # its reader cannot run, for files no build uses.
    mounted = subprocess.run(["mount", "--bind", str(repo), str(repo)], capture_output=True)
    if mounted.returncode == 0:
        try:
            subprocess.run(["mount", "-o", "remount,bind,ro", str(repo)], capture_output=True, check=True)
            read_only = checkout_caution(SourceIdentity(where=str(repo), kind="checkout", tree=state), head)
            assert "not used when building" in read_only and "to clear them" not in read_only, read_only
        finally:
            subprocess.run(["umount", "-l", str(repo)], capture_output=True)
    clear = caution.split("to clear them: ", 1)[1].rstrip(".")
    subprocess.run(shlex.split(clear), check=True, capture_output=True)
    assert not (repo / "build").exists() and not (repo / "graphcast.egg-info").exists()
    again = read_tree_state(repo, head)
    assert again.leftovers == () and not again.changed and (repo / "graphcast" / "model.py").exists()


def test_importables_a_copy_leaves_out_count_as_new_and_are_named_left_out(tmp_path, monkeypatch):
    """28th hostile pass (part B) P10: a sourceless `wheel.pyc` at the top of a release checkout was dropped from the
    comparison ("identical to GraphCast v0.1.1, file for file") and setuptools' build imported it, as root; `.eggs/`
    (on the build's `sys.path` too) was an earlier build's "leftover". Both now count as new, the caution names them
    as left out of the build, and the copy every build reads holds neither."""
    import py_compile

    from wizard.install.source_copy import _copy

    repo, head = _checkout(tmp_path)
    _as_release(repo, head, monkeypatch, tmp_path)
    shim = tmp_path / "shim.py"
    shim.write_text("open('/nonexistent/x', 'w')\n")
    py_compile.compile(str(shim), cfile=str(repo / "wheel.pyc"), doraise=True)  # a real, sourceless module
    py_compile.compile(str(shim), cfile=str(repo / "graphcast" / "losses.pyc"), doraise=True)  # in a package
    (repo / ".eggs" / "setuptools_scm-8.0-py3.11.egg").mkdir(parents=True)
    (repo / ".eggs" / "setuptools_scm-8.0-py3.11.egg" / "setuptools_scm.py").write_text("import os\n")
    state = read_tree_state(repo, head)
    new = (".eggs/setuptools_scm-8.0-py3.11.egg/setuptools_scm.py", "graphcast/losses.pyc", "wheel.pyc")
    assert state.changed and state.untracked == new and state.withheld == new and state.leftovers == ()
    assert "identical" not in state.describe(head) and "3 new" in state.describe(head)
    caution = checkout_caution(SourceIdentity(where=str(repo), kind="checkout", tree=state), head)
    assert "The build leaves out these 3 new files (.eggs/setuptools_scm-8.0-py3.11.egg/setuptools_scm.py, " \
           "graphcast/losses.pyc, wheel.pyc)" in caution
    _copy(repo, tmp_path / "copy")  # what a build reads, --force or not
    assert sorted(str(p.relative_to(tmp_path / "copy")) for p in (tmp_path / "copy").rglob("*")) == [
        "graphcast", "graphcast/data.bin", "graphcast/model.py", "setup.py"]


def test_a_copy_without_git_is_compared_with_the_recipes_release(tmp_path, monkeypatch):
    repo, head = _checkout(tmp_path)
    _as_release(repo, head, monkeypatch, tmp_path)
    copy = tmp_path / "copied"
    shutil.copytree(repo, copy, ignore=shutil.ignore_patterns(".git"))
    state = read_tree_state(copy, None, release=head)
    assert state.readable and not state.changed and state.describe(head) == "identical to GraphCast v9.9, file for file"
    (copy / "graphcast" / "model.py").write_text("X = 3\n")
    caution = checkout_caution(SourceIdentity(where=str(copy), kind="checkout", name="graphcast", version="0.1.1",
                                              revision=None, tree=read_tree_state(copy, None)), head)
    assert "different from GraphCast v9.9: 1 modified (graphcast/model.py)" in caution


def test_the_json_tree_of_a_copy_without_git_is_the_one_the_caution_describes(tmp_path, monkeypatch):
    """`plan --json`'s "tree" (the verdict's identity) said "not a git checkout, so it cannot be compared", with
    no file, while the caution beside it named the changes: both now come from one release comparison."""
    repo, head = _checkout(tmp_path)
    _as_release(repo, head, monkeypatch, tmp_path)
    copy = tmp_path / "copied"
    shutil.copytree(repo, copy, ignore=shutil.ignore_patterns(".git"))
    (copy / "graphcast" / "data.bin").unlink()
    (copy / "pyproject.toml").write_text("[build-system]\nbuild-backend = 'mine'\n")
    recipe_file = tmp_path / "tiny-a.yaml"
    recipe_file.write_text(RECIPE.format(id="tiny-a", requirements="  - pkg-a==1.0").replace(REV, head))
    verdict = check_graphcast_source(load_recipe_file(recipe_file), str(copy))
    tree = verdict.identity.to_dict()["tree"]
    assert tree["readable"] and tree["compared_with"] == "GraphCast v9.9", tree
    assert tree["deleted"] == ["graphcast/data.bin"] and tree["untracked"] == ["pyproject.toml"], tree
    assert "1 deleted (graphcast/data.bin)" in verdict.caution and "1 new (pyproject.toml)" in verdict.caution


def test_the_plans_mark_for_a_changed_checkout_is_a_warning_not_a_tick():
    """Newcomer walk: "GraphCast ✓" above "! the checkout … is different from GraphCast v0.1.1" contradicted itself."""
    def verdict(tree: TreeState | None, **extra) -> SourceVerdict:
        return SourceVerdict(SourceIdentity("/src", "checkout", "graphcast", "0.1.1", tree=tree), ok=True, **extra)

    same = TreeState(readable=True, compared_with="GraphCast v0.1.1")
    assert verdict(same).mark() == "✓" and verdict(None).mark() == "✓"
    assert verdict(TreeState(readable=True, modified=("graphcast/graphcast.py",))).mark() == "!"
    assert verdict(TreeState(readable=True, untracked=("sitecustomize.py",))).mark() == "!"
    assert verdict(TreeState(readable=False, reason="unreadable index")).mark() == "!"
    assert verdict(same, note="could not be read").mark() == "?"
    assert verdict(same, unreachable="github.com does not answer").mark() == "✗"


def test_a_clean_checkout_at_another_commit_is_marked_as_its_caution_reads(tmp_path):
    """Seventeenth hostile pass P10: a clean checkout of another commit showed "GraphCast ✓" above "! … at commit
    47ec5f058731 (not the recipe's …)". It is `!` now; the recipe's own commit stays `✓`."""
    repo, head = _checkout(tmp_path)
    recipe_file = tmp_path / "tiny-a.yaml"
    recipe_file.write_text(RECIPE.format(id="tiny-a", requirements="  - pkg-a==1.0"))  # pins REV, not `head`
    other = check_graphcast_source(load_recipe_file(recipe_file), str(repo))
    assert other.other_commit and other.mark() == "!" and f"not the recipe's {REV[:12]}" in other.caution
    recipe_file.write_text(RECIPE.format(id="tiny-a", requirements="  - pkg-a==1.0").replace(REV, head))
    pinned = check_graphcast_source(load_recipe_file(recipe_file), str(repo))
    assert not pinned.other_commit and pinned.mark() == "✓"


def _history(repo: Path) -> None:
    """Two more commits that edit the big file a little, so `git gc` stores it as a delta in its pack."""
    for n in (1, 2):
        data = bytearray((repo / "graphcast" / "data.bin").read_bytes())
        data[100 * n] ^= 0xFF
        (repo / "graphcast" / "data.bin").write_bytes(bytes(data))
        (repo / "graphcast" / "model.py").write_text(f"X = {n + 1}\n")
        _git(repo, "commit", "-qam", f"change {n}")


def _staged_edit_and_new_module(checkout, head):
    """Edit setup.py and add a module in `checkout`, `git add` both, and hold the state read to what `git status`
    says: setup.py modified, the module new. Returns the state."""
    (checkout / "setup.py").write_text("import os\nos.system('id')\n")
    (checkout / "graphcast" / "extra.py").write_text("Y = 1\n")
    _git(checkout, "add", "setup.py", "graphcast/extra.py")
    state = read_tree_state(checkout, head)
    assert state.against_commit and state.modified == ("setup.py",) and state.untracked == ("graphcast/extra.py",)
    porcelain = _git(checkout, "status", "--porcelain")
    assert "M  setup.py" in porcelain and "A  graphcast/extra.py" in porcelain
    return state


def test_a_staged_edit_is_seen_against_the_commit_with_loose_objects(tmp_path):
    """8f: `git add` makes the index match the edited file, so index-against-files saw nothing and the plan said
    "unchanged since that commit". New cases: a staged edit of setup.py and a staged new module."""
    repo, head = _checkout(tmp_path)
    state = _staged_edit_and_new_module(repo, head)
    assert "1 modified (setup.py)" in state.describe(head)


def test_staged_changes_are_seen_in_a_packed_repository_with_deltas(tmp_path):
    """The same class where every object is in a pack (a fresh clone, or after `git gc`), deltas included: a
    staged deletion and a staged edit of a file whose older versions are deltas."""
    repo, _ = _checkout(tmp_path)
    _history(repo)
    _git(repo, "gc", "-q", "--aggressive")
    assert not list((repo / ".git" / "objects").glob("[0-9a-f][0-9a-f]/*"))  # nothing loose: all read from the pack
    head = _git(repo, "rev-parse", "HEAD").strip()
    pristine = read_tree_state(repo, head)
    assert pristine.against_commit and not pristine.changed
    assert "unchanged since that commit, file for file" in pristine.describe(head)
    _git(repo, "rm", "-q", "--cached", "graphcast/model.py")
    (repo / "graphcast" / "model.py").unlink()
    data = bytearray((repo / "graphcast" / "data.bin").read_bytes())
    data[7] ^= 0x01
    (repo / "graphcast" / "data.bin").write_bytes(bytes(data))
    _git(repo, "add", "graphcast/data.bin")
    state = read_tree_state(repo, head)
    assert state.deleted == ("graphcast/model.py",) and state.modified == ("graphcast/data.bin",), state
    # an older commit, read through the pack's deltas, differs from the index in both files
    older = _git(repo, "rev-parse", "HEAD~2").strip()
    assert set(read_tree_state(repo, older).modified) == {"graphcast/data.bin"}


def test_an_object_store_that_cannot_be_read_leaves_the_state_untold_never_unchanged(tmp_path):
    """The index matches whatever files `git add` saw: with no commit tree to hold it against, "unchanged" would
    be a guess (twenty-first hostile pass P3)."""
    repo, head = _checkout(tmp_path)
    shutil.rmtree(repo / ".git" / "objects")
    (repo / ".git" / "objects").mkdir()
    state = read_tree_state(repo, head)
    assert not state.readable and state.commit == head
    assert state.describe(head) == ("in a state that cannot be told: whether it is modified is unknown (its commit "
                                    f"{head[:12]} cannot be read from its git folder, so there is nothing to "
                                    "compare its files with)")


def _copied_and_added(tmp_path: Path) -> Path:
    """A checkout copied without its .git, edited, then `git init && git add -A`: an index, no commit."""
    repo, _ = _checkout(tmp_path)
    copy = tmp_path / "copy"
    shutil.copytree(repo, copy, ignore=shutil.ignore_patterns(".git"))
    (copy / "graphcast" / "model.py").write_text("import os; os.system('id')\n")
    _git(copy, "init", "-q")
    _git(copy, "add", "-A")
    return copy


def test_a_checkout_with_no_commit_yet_is_never_called_unchanged(tmp_path):
    copy = _copied_and_added(tmp_path)
    branch = _git(copy, "symbolic-ref", "--short", "HEAD").strip()
    state = read_tree_state(copy, None)
    assert not state.readable and state.commit is None
    assert f"its branch {branch} has no commit yet, as after `git init` and `git add`" in state.describe(REV)
    assert "unchanged" not in state.describe(REV)


@pytest.mark.parametrize("head, words", [
    ("ref: refs/heads/main\n", "its branch main names no commit id"),
    ("not-a-commit\n", "its HEAD names no commit ('not-a-commit')"),
    ("", "its HEAD names no commit (it is empty)"),
])
def test_a_broken_head_is_named_and_the_state_untold(tmp_path, head, words):
    copy = _copied_and_added(tmp_path)
    (copy / ".git" / "HEAD").write_text(head)
    (copy / ".git" / "refs" / "heads" / "main").write_text("garbage\n")
    state = read_tree_state(copy, None)
    assert not state.readable and words in state.reason, state


def test_the_plan_marks_a_copy_with_no_commit_unknown_for_a_pin_no_release_list_covers(tmp_path):
    """The pass's case: an admin's recipe pins a commit the wizard has no file list for, and the checkout is a copy
    after `git init && git add -A`. It read "✓ … unchanged since that commit as far as its index tells"."""
    copy = _copied_and_added(tmp_path)
    pin = "0123456789abcdef0123456789abcdef01234567"
    recipe_file = tmp_path / "tiny-g.yaml"
    recipe_file.write_text(RECIPE.format(id="tiny-g", requirements="  - pkg-a==1.0").replace(REV, pin))
    verdict = check_graphcast_source(load_recipe_file(recipe_file), str(copy))
    assert verdict.mark() == "!" and not verdict.identity.tree.readable
    assert "whether it is modified is unknown (its branch" in verdict.caution and "unchanged" not in verdict.caution


def test_with_no_commit_files_that_differ_from_the_index_are_still_named(tmp_path):
    copy = _copied_and_added(tmp_path)
    (copy / "setup.py").write_text("import os\n")
    state = read_tree_state(copy, None)
    assert state.readable and state.modified == ("setup.py",) and "unchanged" not in state.describe(REV)


def _worktree(tmp_path: Path, *args: str) -> tuple[Path, Path, str]:
    """A checkout made by `git worktree add` (its `.git` is a file naming `…/.git/worktrees/NAME`), packed
    objects in the main repository, none in the worktree's own git folder."""
    repo, _ = _checkout(tmp_path)
    _history(repo)
    _git(repo, "gc", "-q")
    tree = tmp_path / "gc-worktree"
    _git(repo, "worktree", "add", "-q", *args, str(tree), "HEAD")
    assert (tree / ".git").is_file() and "worktrees" in (tree / ".git").read_text()
    return repo, tree, _git(tree, "rev-parse", "HEAD").strip()


def test_a_clean_worktree_is_unchanged_and_its_git_file_is_no_new_file(tmp_path):
    """G10 (fourth pass): a clean `git worktree add` checkout read "with local changes: 1 new (.git)" — its `.git`
    file was listed as a file of the checkout, and its commit's objects were looked for in the worktree's own git
    folder. New cases: a detached worktree and one on a new branch (the branch's ref lives in the main repository);
    both read their own HEAD and compare against the commit."""
    for args in ((), ("-b", "topic")):
        _, tree, head = _worktree(tmp_path / "-".join(args or ("detached",)), *args)
        identity = read_identity(str(tree))
        assert identity.revision == head, identity
        state = identity.tree
        assert state.readable and state.against_commit and not state.changed, state
        assert "unchanged since that commit, file for file" in state.describe(head)


def test_a_staged_change_in_a_worktree_is_seen_against_its_commit(tmp_path):
    """G11 (fourth pass): in a worktree, `git add setup.py` after an edit read `modified: []` — the index against
    the files agreed, and the commit's tree could not be read. The worktree's own index is compared with the
    commit read from the main repository's objects (`commondir`), as `git status` does."""
    _, tree, head = _worktree(tmp_path)
    _staged_edit_and_new_module(tree, head)


def test_a_relative_gitdir_is_read_from_the_checkout_not_the_working_directory(tmp_path, monkeypatch):
    """`git worktree add --relative-paths` (and a moved checkout) writes `gitdir: ../repo/.git/worktrees/NAME`:
    relative to the checkout, whatever folder the wizard runs in."""
    repo, tree, head = _worktree(tmp_path)
    own = Path((tree / ".git").read_text().split(":", 1)[1].strip())
    (tree / ".git").write_text(f"gitdir: {os.path.relpath(own, tree)}\n")
    (own / "commondir").write_text(os.path.relpath(repo / ".git", own) + "\n")
    monkeypatch.chdir(tmp_path.parent)
    identity = read_identity(str(tree))
    assert identity.revision == head and identity.tree.against_commit and not identity.tree.changed


def _plant_links(repo: Path, elsewhere: Path) -> set[str]:
    """Untracked links of every kind, none of which reading may follow."""
    (elsewhere / "jax").mkdir(parents=True)
    (elsewhere / "jax" / "__init__.py").write_text("import os; os.system('id')\n")
    (repo / "graphcast" / "jaxdir").symlink_to(elsewhere)  # a folder holding a package Python would import
    (repo / "graphcast" / "loop").symlink_to("..")  # a loop back up the tree
    (repo / "self").symlink_to("self")  # a link to itself
    (repo / "dangling").symlink_to(tmp := elsewhere / "nothing")  # points at nothing
    assert not tmp.exists()
    (repo / "graphcast" / "also.py").symlink_to(elsewhere / "jax" / "__init__.py")  # a file elsewhere
    (repo / "graphcast" / "__pycache__").symlink_to(elsewhere)  # a leftover's name does not hide a link
    (repo / "graphcast" / "x.pyc").symlink_to(elsewhere / "jax" / "__init__.py")
    return {"graphcast/jaxdir", "graphcast/loop", "self", "dangling", "graphcast/also.py", "graphcast/__pycache__",
            "graphcast/x.pyc"}


def test_every_untracked_symlink_is_new_and_none_is_followed(tmp_path):
    """t24g G4/G6: a link to a folder (holding a `jax/`) and a loop were invisible, and the plan said the
    checkout was "unchanged since that commit, file for file"."""
    repo, head = _checkout(tmp_path)
    links = _plant_links(repo, tmp_path / "elsewhere")
    state = read_tree_state(repo, head)
    assert set(state.untracked) == links
    assert "unchanged" not in state.describe(head) and "7 new" in state.describe(head)


def test_untracked_symlinks_are_new_against_a_pinned_release_too(tmp_path, monkeypatch):
    repo, head = _checkout(tmp_path)
    _as_release(repo, head, monkeypatch, tmp_path)
    (repo / "build" / "lib" / "graphcast").mkdir(parents=True)
    (repo / "build" / "lib" / "graphcast" / "model.py").symlink_to(repo / "graphcast" / "model.py")
    links = _plant_links(repo, tmp_path / "elsewhere")
    state = read_tree_state(repo, head)
    assert set(state.untracked) == links  # build/ is an earlier build's, which the install's copy leaves out
    assert state.leftovers == ("build/",)


def test_links_pointing_outside_the_checkout_are_named_with_their_targets(tmp_path):
    """Fifteenth hostile pass P13: a link to a file elsewhere was one more "new" file in the caution, and the build
    put that file's content in the env as a module. Each link leaving the checkout is now named with its target;
    a link that stays inside (`loop -> ..`, one to itself) is the checkout's own."""
    repo, head = _checkout(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    _plant_links(repo, elsewhere)
    state = read_tree_state(repo, head)
    assert {entry.split(" -> ")[0] for entry in state.outside} == {
        "graphcast/jaxdir", "dangling", "graphcast/also.py", "graphcast/__pycache__", "graphcast/x.pyc"}
    assert f"graphcast/also.py -> {elsewhere}/jax/__init__.py" in state.outside
    text = state.describe(head)
    assert "5 links in it point outside it (dangling -> " in text and "what they point at is not in the checkout" in text
    assert state.to_dict()["outside_links"] == list(state.outside)


def test_a_tracked_link_leaving_the_checkout_is_named_though_git_sees_no_change(tmp_path):
    repo, _ = _checkout(tmp_path)
    (tmp_path / "secret.txt").write_text("SECRETDATA\n")
    (repo / "graphcast" / "data.py").symlink_to(tmp_path / "secret.txt")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "link")
    head = _git(repo, "rev-parse", "HEAD").strip()
    state = read_tree_state(repo, head)
    assert not state.untracked and not state.modified and state.changed  # the plan's mark is "!", not "✓"
    assert state.describe(head).endswith(
        f"unchanged since that commit, file for file, and 1 link in it points outside it (graphcast/data.py -> "
        f"{tmp_path}/secret.txt): what it points at is not in the checkout")


def test_a_tracked_symlink_to_a_folder_is_not_new(tmp_path):
    repo, _ = _checkout(tmp_path)
    (repo / "docs").symlink_to("graphcast")
    _git(repo, "add", "docs")
    _git(repo, "commit", "-qm", "link")
    head = _git(repo, "rev-parse", "HEAD").strip()
    assert not read_tree_state(repo, head).changed


# ------------------------------------------------------------------ an index git itself calls corrupt (#110)


def _grow(path: Path, size: int) -> None:
    with open(path, "r+b") as handle:
        handle.truncate(size)


def _flip(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))


def _damage(index: Path, how: str) -> None:
    size = index.stat().st_size
    if how == "grown-to-3-GiB":  # the tester's `truncate -s 3G .git/index` (sparse: no disk used)
        _grow(index, 3 * 2**30)
    elif how == "grown-by-a-little":  # zeros after the old checksum: under the size limit, not a git index
        _grow(index, size + 4096)
    elif how == "cut-short":
        _grow(index, size - 30)
    elif how == "a-byte-flipped":  # inside an entry's blob id: only the checksum tells
        _flip(index, 12 + 40 + 3)
    elif how == "checksum-zeroed-and-garbage-after-entries":
        data = index.read_bytes()[:-20]
        index.write_bytes(data + b"\x00" * 64 + b"\x00" * 20)
    elif how == "no-signature":
        _flip(index, 0)


DAMAGE = ["grown-to-3-GiB", "grown-by-a-little", "cut-short", "a-byte-flipped",
          "checksum-zeroed-and-garbage-after-entries", "no-signature"]


@pytest.mark.parametrize("how", DAMAGE)
def test_a_corrupt_or_huge_index_is_never_unchanged_and_never_read_whole(tmp_path, how):
    """Eleventh hostile pass #110: `truncate -s 3G .git/index` was read whole (3 GB of memory) and the checkout
    called "unchanged since that commit" while git called its index corrupt. Each way of damaging it is now "cannot
    be told", read within a bound (the process's peak memory stays far under the file's size)."""
    import resource

    repo, head = _checkout(tmp_path)
    index = repo / ".git" / "index"
    _damage(index, how)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    state = read_tree_state(repo, head)
    grew_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert not state.readable, state
    said = state.describe(head)
    assert "cannot be told" in said and "unchanged" not in said and "its git index cannot be read" in said, said
    assert grew_kib < 200 * 1024, f"peak memory grew by {grew_kib} KiB"


def test_an_index_git_writes_with_extensions_or_skip_hash_is_still_read(tmp_path):
    """The checks refuse nothing git writes: a split index off, an index with its TREE and untracked-cache
    extensions, and one written with `index.skipHash` (an all-zero checksum)."""
    repo, head = _checkout(tmp_path)
    _git(repo, "config", "core.untrackedCache", "true")
    _git(repo, "update-index", "--untracked-cache")
    _git(repo, "status", "--short")
    assert read_tree_state(repo, head).readable and not read_tree_state(repo, head).changed
    (repo / "graphcast" / "model.py").write_text("X = 2\n")
    _git(repo, "add", "-A")
    index = repo / ".git" / "index"
    index.write_bytes(index.read_bytes()[:-20] + b"\0" * 20)  # what git writes with `index.skipHash=true`
    state = read_tree_state(repo, head)
    assert state.readable and state.modified == ("graphcast/model.py",)
