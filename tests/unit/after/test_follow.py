"""A second env of the same recipe becomes current: the wizard's kernel and module for that recipe follow it.

The Done screen prints `module load graphcast/<recipe>` and the kernel is named `gc-wizard-<recipe>`; both
names come from the recipe, so without this the printed line would load the env the user just replaced.
"""

from __future__ import annotations

import json
import sysconfig
import venv
from pathlib import Path

import ipykernel
import pytest

from wizard.after.follow import follow_current, steps_done
from wizard.after.kernel import kernel_install
from wizard.after.module import module_install
from wizard.after.next_steps import modules_dir, next_step_lines
from wizard.install.envs import write_marker
from wizard.paths import envs_dir

RECIPE = "jax0.4.23-cpu"


def _env(root: Path, name: str, *, with_ipykernel: bool = True, recipe: str = RECIPE) -> Path:
    """A real venv with the wizard's marker, in this state folder's `envs/` (the `root` given is not used: every
    env here is one the wizard made); ipykernel reached through a .pth (the test env's own copy)."""
    env = envs_dir() / name
    env.parent.mkdir(parents=True, exist_ok=True)
    venv.create(env, with_pip=False)
    write_marker(env, {"recipe": recipe, "title": "JAX 0.4.23 on the CPU", "backend": "cpu",
                       "verified": "2026-11-26T10:00:00+00:00"})
    if with_ipykernel:
        purelib = sysconfig.get_path("purelib", vars={"base": str(env), "platbase": str(env)})
        Path(purelib, "test-ipykernel.pth").write_text(str(Path(ipykernel.__file__).parents[1]) + "\n")
    return env


@pytest.fixture
def jupyter(tmp_path, monkeypatch) -> Path:
    data = tmp_path / "jupyter"
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(data))
    return data


def _kernel_env(jupyter: Path, name: str) -> str:
    return json.loads((jupyter / "kernels" / name / "kernel.json").read_text())["metadata"]["gc_wizard"]["env"]


def test_the_default_kernel_and_module_move_to_the_new_current_env(tmp_path, jupyter):
    old, new = _env(tmp_path, "old"), _env(tmp_path, "new")
    name = kernel_install(old)["name"]
    module = module_install(old)
    lines = follow_current(new)
    assert lines == [f"The Jupyter kernel {name} now runs {new} (it ran {old}).",
                     f"The module {module['module']} now loads {new} (it loaded {old})."]
    assert _kernel_env(jupyter, name) == str(new)
    assert f'local env = "{new}"' in Path(module["path"]).read_text()
    assert follow_current(new) == []  # already there: nothing to say


def test_what_the_user_named_or_wrote_is_left_alone(tmp_path, jupyter):
    old, new = _env(tmp_path, "old"), _env(tmp_path, "new")
    kernel_install(old, "my-graphcast")
    handwritten = modules_dir() / "graphcast" / f"{RECIPE}.lua"
    handwritten.parent.mkdir(parents=True)
    handwritten.write_text(f'local env = "{old}"\nprepend_path("PATH", pathJoin(env, "bin"))\n')
    assert follow_current(new) == []
    assert _kernel_env(jupyter, "my-graphcast") == str(old)
    assert handwritten.read_text().startswith(f'local env = "{old}"')


def test_another_recipes_kernel_stays_on_its_env(tmp_path, jupyter):
    other = _env(tmp_path, "other", recipe="jax0.4.23-cuda12-cudnn89")
    name = kernel_install(other)["name"]
    module_install(other)
    assert follow_current(_env(tmp_path, "new")) == []
    assert _kernel_env(jupyter, name) == str(other)


def test_a_new_env_without_ipykernel_leaves_the_kernel_and_says_how_to_move_it(tmp_path, jupyter):
    old, new = _env(tmp_path, "old"), _env(tmp_path, "new", with_ipykernel=False)
    name = kernel_install(old)["name"]
    lines = follow_current(new)
    assert lines == [f"The Jupyter kernel {name} still runs {old}: {new} has no ipykernel "
                     "(install it there, then `gc-wizard kernel install`)."]
    assert _kernel_env(jupyter, name) == str(old)


def test_an_env_without_a_marker_changes_nothing(tmp_path, jupyter):
    old = _env(tmp_path, "old")
    kernel_install(old)
    bare = tmp_path / "bare"
    venv.create(bare, with_pip=False)
    assert follow_current(bare) == []


def test_next_leaves_out_the_kernel_and_module_steps_already_taken(tmp_path, jupyter, monkeypatch):
    # The program's name is `paths.program_command`'s (tested on its own): a short one, so no line is broken between
    # its words whichever checkout this venv's console script imports (30th hostile pass (part B) P10).
    monkeypatch.setattr("wizard.after.next_steps.program_command", lambda: "gc-wizard")
    env = _env(tmp_path, "env")
    assert steps_done(env) == frozenset()
    before = next_step_lines(RECIPE)
    assert any("kernel install" in line for line in before) and any("module install" in line for line in before)
    kernel_install(env)
    module_install(env)
    assert steps_done(env) == {"kernel", "module"}
    after = next_step_lines(RECIPE, done=steps_done(env))
    assert not any("kernel install" in line or "module install" in line for line in after)
    assert any("activate" in line for line in after) and any(line.strip().startswith("module load graphcast/")
                                                             for line in after)
    assert after[0].startswith("Next:")


def test_a_kernel_or_module_of_another_state_folder_is_left_and_named(tmp_path, jupyter, monkeypatch):
    """Seventeenth walk, problem 1: a lab-mate's set-up (another GC_WIZARD_HOME) had registered the recipe's kernel;
    an install here re-pointed it at this env without a word on the Done screen. Now it is left, and said so."""
    old = _env(tmp_path, "old")
    name = kernel_install(old)["name"]
    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "mine"))
    new = _env(tmp_path, "new")
    lines = follow_current(new)
    assert lines == [f"The Jupyter kernel {name} runs {old}, an environment this state folder did not make; it was "
                     f"left as it is (`gc-wizard kernel install` registers this one beside it, as {name}-2)."]
    assert _kernel_env(jupyter, name) == str(old)


def test_an_env_of_this_history_outside_envs_is_followed(tmp_path, jupyter):
    """An install with `--env ELSEWHERE` is this state's too (its history names it): its kernel follows."""
    from wizard.history.store import Entry, load_history

    elsewhere = tmp_path / "elsewhere"
    venv.create(elsewhere, with_pip=False)
    write_marker(elsewhere, {"recipe": RECIPE, "title": "t", "backend": "cpu", "verified": "2026-11-26T10:00:00+00:00"})
    purelib = sysconfig.get_path("purelib", vars={"base": str(elsewhere), "platbase": str(elsewhere)})
    Path(purelib, "test-ipykernel.pth").write_text(str(Path(ipykernel.__file__).parents[1]) + "\n")
    name = kernel_install(elsewhere)["name"]
    history = load_history()
    history.entries.append(Entry(id="e1", kind="install", recipe=RECIPE, env=str(elsewhere), status="verified"))
    history.save()
    new = _env(tmp_path, "new")
    assert follow_current(new) == [f"The Jupyter kernel {name} now runs {new} (it ran {elsewhere})."]


def test_k_leaves_another_state_folders_kernel_and_registers_this_one_beside_it(tmp_path, jupyter, monkeypatch):
    """Walk 18: `k` (kernel install with the default name) overwrote another state folder's kernel in silence,
    right after the install had said it was left as it is. It is kept; this env gets NAME-2, and says so."""
    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "scratch"))
    old = _env(tmp_path, "old")
    name = kernel_install(old)["name"]
    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "mine"))
    new = _env(tmp_path, "new")
    result = kernel_install(new)
    assert result["name"] == f"{name}-2" and not result["replaced"]
    assert result["cautions"][0] == (f"The Jupyter kernel {name} runs {old}, an environment another state folder "
                                     f"made; it was left as it is, and this one is registered as {name}-2.")
    assert _kernel_env(jupyter, name) == str(old) and _kernel_env(jupyter, f"{name}-2") == str(new)
    assert kernel_install(new)["name"] == f"{name}-2"  # again: the same one, updated, not a -3
    # asked by name, it is replaced — and said
    forced = kernel_install(new, name)
    assert forced["replaced"] and forced["cautions"][0] == f"The Jupyter kernel {name} ran {old} before; it now runs {new}."
    assert _kernel_env(jupyter, name) == str(new)


def test_module_install_leaves_a_hand_written_or_another_state_folders_module(tmp_path, jupyter, monkeypatch):
    """The module's name is what users type, so it cannot step aside as a kernel does: a file written by hand, or
    by another state folder for an env that is still there, stays, and the refusal names --dir."""
    from wizard.errors import UserError

    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "scratch"))
    old = _env(tmp_path, "old")
    written = module_install(old)
    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "mine"))
    new = _env(tmp_path, "new")
    with pytest.raises(UserError, match="an environment another state folder made; it was left as it is"):
        module_install(new, Path(written["dir"]))
    assert f'local env = "{old}"' in Path(written["path"]).read_text()
    own = tmp_path / "own" / "graphcast" / f"{RECIPE}.lua"
    own.parent.mkdir(parents=True)
    own.write_text("-- my own\n")
    with pytest.raises(UserError, match="gc-wizard did not write it"):
        module_install(new, tmp_path / "own")
    assert own.read_text() == "-- my own\n"
    assert module_install(new, tmp_path / "elsewhere")["env"] == str(new)


def test_the_rollback_question_says_the_kernel_moves_and_warns_it_leaves_the_notebook_env(tmp_path, jupyter):
    """walk 23 #1: a rollback moved the kernel off the `--with-notebook` env the walker had set it
    up on, onto one without the notebook's packages, and the question said only "Nothing is deleted". Both faces'
    question (`describe_change`) now says what will move, and warns; nothing moves before the answer."""
    from tests.fixtures.cli import run_inproc
    from wizard.history.store import Entry, load_history
    from wizard.lock import StateLock

    notebook, plain = _env(tmp_path, "jax0.4.23-cpu-nb"), _env(tmp_path, "jax0.4.23-cpu-plain")
    for env, with_notebook in ((notebook, True), (plain, False)):
        write_marker(env, {"recipe": RECIPE, "title": "JAX 0.4.23 on the CPU", "backend": "cpu",
                           "notebook": with_notebook, "graphcast_version": "0.1.1"})
    name = kernel_install(notebook)["name"]
    module = module_install(notebook)
    with StateLock("test"):
        history = load_history(locked=True)
        entries = [Entry(id=f"e-{env.name[-5:]}", kind="install", recipe=RECIPE, env=str(env), status="verified",
                         packages=["jax==0.4.23"]) for env in (plain, notebook)]
        for entry in entries:
            history.add(entry)
        history.make_current(entries[1])
        history.save()
    asked = run_inproc("rollback", entries[0].id, env={"JUPYTER_DATA_DIR": str(jupyter)})  # no terminal: not done
    said = " ".join(asked.stdout.split())
    assert f"The Jupyter kernel {name} will then run {plain} (it runs {notebook} now)." in said, said
    assert (f"! {plain} lacks the notebook's own packages (google-cloud-storage, ipywidgets) that {notebook} has"
            in said), said
    assert f"kernel install --env {notebook}` puts the kernel back there." in said
    assert f"The module {module['module']} will then load {plain} (it loads {notebook} now)." in said
    assert _kernel_env(jupyter, name) == str(notebook)  # said, not done
