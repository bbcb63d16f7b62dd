"""`gc-wizard recipes` and `gc-wizard plan` as a user runs them: real subprocesses, real detection."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.fixtures.cli import bare_program, run_inproc
from tests.fixtures.envs import python_link_env
from tests.fixtures.pythons import newest_v02_recipe
from tests.fixtures.state import last_json
from tests.standins import standin_env
from wizard.detect.facts import DiskInfo, Driver, EnvironmentInfo, Facts, Gpu, Platform, PythonInfo

CU12, CU11, CPU = "jax0.4.23-cuda12-cudnn89", "jax0.4.23-cuda11-cudnn86", "jax0.4.23-cpu"
M12, M13, MCPU = "jax0.10.2-cuda12", "jax0.10.2-cuda13", "jax0.10.2-cpu"
N12, N13, NCPU = "jax0.12.0.1-cuda12", "jax0.12.0.1-cuda13", "jax0.12.0.1-cpu"
W12, W13, WCPU = "weathernext0.3.0-cuda12", "weathernext0.3.0-cuda13", "weathernext0.3.0-cpu"
OLD, MODERN, NEWEST, WEATHERNEXT = {CU12, CU11, CPU}, {M12, M13, MCPU}, {N12, N13, NCPU}, {W12, W13, WCPU}
IDS = OLD | MODERN | NEWEST | WEATHERNEXT
FIRST_PIN = {**dict.fromkeys(OLD, "jax==0.4.23"), **dict.fromkeys(MODERN, "jax==0.10.2"),
             **dict.fromkeys(NEWEST | WEATHERNEXT, "jax==0.12.0.1")}



def _tree(folder: Path) -> list[str]:
    """What a command left in state `folder`, but for the parsed-table cache (`cache/tables/`, yaml_data.load_table):
    whether a table is parsed here or was already parsed by an earlier test in the same worker depends on the order
    the tests run in, and a cache of the wizard's own data is no install's trace."""
    if not folder.exists():
        return []
    found = sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))
    return [name for name in found if name not in ("cache", "cache/tables") and not name.startswith("cache/tables/")]


def _check_list(data, recommended: int = 1) -> dict:
    assert isinstance(data, list) and len(data) == 12
    assert {d["id"] for d in data} == IDS
    assert sum(d["recommended"] for d in data) == recommended
    # Grouped by the GraphCast each recipe runs: three v0.1.1 recipes, six v0.2 ones, three WeatherNext v0.3.0.
    assert [d["graphcast_version"] for d in data] == ["0.1.1"] * 3 + ["0.2"] * 6 + ["0.3"] * 3
    for d in data:
        assert {"id", "title", "requirements", "compatible", "recommended", "reasons", "graphcast_version"} <= set(d)
        assert d["requirements"][0] == FIRST_PIN[d["id"]]
        assert d["compatible"] == (not d["reasons"])
    return {d["id"]: d for d in data}


def test_recipes_json_on_this_cpu_only_machine():
    proc = run_inproc("recipes", "--json")
    assert proc.returncode == 0, proc.stderr
    by_id = _check_list(last_json(proc))
    assert by_id[CPU]["recommended"] and by_id[CPU]["compatible"]
    for gpu in (CU12, CU11):
        assert not by_id[gpu]["compatible"]
        assert any("NVIDIA driver" in r for r in by_id[gpu]["reasons"]), by_id[gpu]["reasons"]
    assert "nvidia-cudnn-cu12==8.9.7.29" in by_id[CU12]["requirements"]
    assert "nvidia-cudnn-cu11==8.6.0.163" in by_id[CU11]["requirements"]


@pytest.mark.parametrize("profile, recommended, loud", [
    ("a100x2-535", CU12, False),
    ("v100-470-smi", CU11, False),
    ("h100-535", CU12, False),
    ("b200x2-580", "13", False),
    ("driver-not-loaded", CPU, True),
    ("no-nvidia", CPU, False),
])
def test_recipes_on_standin_gpu_servers(tmp_path, profile, recommended, loud):
    proc = run_inproc("recipes", "--json", env=standin_env(profile, tmp_path))
    assert proc.returncode == 0, proc.stderr
    by_id = _check_list(last_json(proc))
    recommended = newest_v02_recipe(recommended) if recommended in ("12", "13", "cpu") else recommended
    assert by_id[recommended]["recommended"]
    cpu_warnings = " ".join(by_id[CPU]["warnings"])
    assert ("NO GPU RECIPE FITS" in cpu_warnings) == loud, cpu_warnings


def test_b200_on_580_gets_cuda13_with_the_reason_and_cuda12_is_cautioned(tmp_path):
    env = standin_env("b200x2-580", tmp_path)
    by_id = _check_list(last_json(run_inproc("recipes", "--json", env=env)))
    best = newest_v02_recipe("13")
    assert by_id[best]["recommended"] and not by_id[CU12]["compatible"]
    assert "compute capability 10.0 of GPU 0 (NVIDIA B200) is above 9.0" in by_id[best]["summary"]
    for cuda12 in (M12, N12):
        assert by_id[cuda12]["compatible"] and by_id[cuda12]["cautioned"] and not by_id[cuda12]["recommended"]
        assert any("cuBLAS" in w for w in by_id[cuda12]["warnings"])
    text = run_inproc("recipes", env=env).stdout
    assert text.index("GraphCast v0.1.1") < text.index("GraphCast v0.2") < text.index(f"* {best}")
    # Asked for the demo notebook's GraphCast, nothing of v0.1.1 runs on the B200: the CPU stack, loudly.
    by_id = _check_list(last_json(run_inproc("recipes", "--json", "--graphcast-version", "0.1.1", env=env)))
    assert by_id[CPU]["recommended"] and "NO GPU RECIPE FITS" in by_id[CPU]["warnings"][0]


def test_h100_on_535_keeps_the_demo_stack_and_narrows_to_v02_on_request(tmp_path):
    env = standin_env("h100-535", tmp_path)
    by_id = _check_list(last_json(run_inproc("recipes", "--json", env=env)))
    assert by_id[CU12]["recommended"]
    assert "needs NVIDIA driver >= 580; this one is 535.104.05" in by_id[M13]["reasons"]
    by_id = _check_list(last_json(run_inproc("recipes", "--json", "--graphcast-version", "0.2", env=env)))
    best = newest_v02_recipe("12")
    assert by_id[best]["recommended"] and by_id[CU12]["compatible"] and not by_id[CU12]["recommended"]
    assert any("below 575.51.03" in w for w in by_id[best]["warnings"])


def test_a_python_312_only_server_gets_the_modern_stack(tmp_path):
    """Saved facts from a server whose only Python is 3.12 (its own interpreters are not looked at)."""
    path = _facts_file(tmp_path, ("535.104.05", "12.2"), ["8.0"], python="3.12.3")
    by_id = _check_list(last_json(run_inproc("recipes", "--facts", str(path), "--json")))
    # Both v0.2 CUDA 12 stacks take Python 3.12: the newer JAX wins.
    assert by_id[N12]["recommended"] and by_id[M12]["compatible"]
    assert "jax0.4.23-cuda12-cudnn89: Python 3.12 is outside 3.10–3.11" in by_id[N12]["summary"]
    assert by_id[CU12]["compatible"]  # uv could download a Python 3.11, which is why it only lost the ranking


def _facts_file(tmp_path: Path, driver, ccs, python: str = "3.11.7") -> Path:
    facts = Facts(
        driver=Driver(*driver, source="nvml") if driver else None,
        gpus=tuple(Gpu(i, f"GPU model {cc}", 16384, cc, "nvml") for i, cc in enumerate(ccs)),
        cuda_libraries=(), python=PythonInfo(python, "/usr/bin/python3"),
        environment=EnvironmentInfo("system", "/usr"), disk=DiskInfo(50.0),
        platform=Platform("linux", "x86_64", "2.35"),
    )
    path = tmp_path / "facts.json"
    path.write_text("some human line\n" + json.dumps(facts.to_dict()) + "\n")
    return path


def test_recipes_from_saved_facts_with_a_gpu_no_recipe_fits(tmp_path):
    path = _facts_file(tmp_path, ("470.82.01", "11.4"), ["3.7"])
    proc = run_inproc("recipes", "--facts", str(path), "--json")
    by_id = _check_list(last_json(proc))
    assert by_id[CPU]["recommended"]
    assert "NO GPU RECIPE FITS" in by_id[CPU]["warnings"][0]
    assert "compute capability 3.7 of GPU 0 (GPU model 3.7) is below 5.2" in by_id[CU11]["reasons"]
    assert "needs a driver for CUDA >= 12.0; this one supports 11.4" in by_id[CU12]["reasons"]

    human = run_inproc("recipes", "--facts", str(path))
    assert human.returncode == 0
    lines = human.stdout.splitlines()
    first = next(line for line in lines if line.startswith(("*", "  jax")))
    assert first.startswith("* jax0.4.23-cpu") and "RECOMMENDED" in first
    assert "GraphCast v0.1.1 — the demo notebook" in human.stdout and "GraphCast v0.2 — with GenCast" in human.stdout
    assert "    - compute capability 3.7 of GPU 0 (GPU model 3.7) is below 5.2" in human.stdout


def test_bad_facts_file_is_bad_input(tmp_path):
    path = tmp_path / "facts.json"
    path.write_text("{not json")
    proc = run_inproc("recipes", "--facts", str(path))
    assert proc.returncode == 2 and "facts.json" in proc.stderr and "Traceback" not in proc.stderr


def test_plan_json_touches_nothing(isolated_state):
    before = _tree(isolated_state)
    proc = run_inproc("plan", CPU, "--json")
    assert proc.returncode == 0, proc.stderr
    data = last_json(proc)
    assert data["recipe"] == CPU
    assert Path(data["env"]).parent == isolated_state / "envs"
    assert Path(data["env"]).name.startswith(CPU + "-")
    assert [s["name"] for s in data["steps"]] == ["create-env", "install-requirements", "install-graphcast"]
    assert all(isinstance(a, str) for s in data["steps"] for a in s["argv"])
    assert data["steps"][1]["argv"][-len(data["requirements"]):] == data["requirements"]
    assert data["runtime_env"] == {"JAX_PLATFORMS": "cpu"}
    assert _tree(isolated_state) == before, "plan must not create anything"
    assert not Path(data["env"]).exists()


def test_plan_human_output_shows_every_command_and_pin(isolated_state):
    proc = run_inproc("plan", CU12, "--installer", "pip")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "nothing has run yet" in out
    assert out.count("     $ ") == 4  # venv, pip upgrade, requirements, GraphCast
    assert "-m venv" in out and "--progress-bar raw" in out and "--no-deps" in out
    assert "  nvidia-cudnn-cu12==8.9.7.29" in out and "--find-links" in out
    assert "disk: about 8 GiB needed" in out
    assert _tree(isolated_state) == []


def test_plan_in_place_for_an_existing_env(tmp_path):
    # a venv's own pyvenv.cfg: without it that python is the machine's, refused (24th hostile pass (part B) P7)
    real = os.path.realpath(os.sys.executable)
    env = python_link_env(tmp_path / "myenv", to=real, cfg=f"home = {os.path.dirname(real)}\n")
    proc = run_inproc("plan", CPU, "--env", str(env), "--json")
    assert proc.returncode == 0, proc.stderr
    data = last_json(proc)
    assert data["mode"] == "in-place" and data["python"]["source"] == "env"
    assert [s["name"] for s in data["steps"]] == ["install-requirements", "install-graphcast"]
    assert "slower and less safe" in data["notes"][0]


def test_plan_unknown_recipe_exits_2_pointing_at_the_list():
    proc = run_inproc("plan", "jax9-tpu")
    assert proc.returncode == 2
    assert "jax9-tpu" in proc.stderr and f"`gc-wizard recipes` lists all {len(IDS)}" in bare_program(proc.stderr)
    assert "Traceback" not in proc.stderr


def test_malformed_recipes_dir_file_exits_2_naming_file_and_line(tmp_path):
    bad = tmp_path / "lab.yaml"
    bad.write_text("schema: 1\nid: lab\ntitle: Lab\nrequirements:\n  - 'numpy; rm -rf /'\n")
    for args in (("recipes", "--json"), ("plan", CPU)):
        proc = run_inproc("--recipes-dir", str(tmp_path), *args)
        assert proc.returncode == 2, proc.stdout
        assert f"{bad}, line" in proc.stderr
        assert "Traceback" not in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1


def test_plan_offline_without_graphcast_src_exits_2(tmp_path):
    proc = run_inproc("plan", CPU, "--offline", "--find-links", str(tmp_path))
    assert proc.returncode == 2 and "--graphcast-src" in proc.stderr


def test_plan_and_install_take_graphcast_version(isolated_state):
    data = last_json(run_inproc("plan", "--graphcast-version", "0.2", "--json"))
    assert data["recipe"] == newest_v02_recipe("cpu")  # this machine has no GPU
    proc = run_inproc("plan", CPU, "--graphcast-version", "0.2")
    assert proc.returncode == 2 and "runs GraphCast v0.1.1, not v0.2" in proc.stderr and "Traceback" not in proc.stderr
    proc = run_inproc("install", CU12, "--graphcast-version", "0.2", "--yes")
    assert proc.returncode == 2 and "runs GraphCast v0.1.1, not v0.2" in proc.stderr
    proc = run_inproc("recipes", "--graphcast-version", "0.4")
    assert proc.returncode == 2 and "is not one of 0.1.1, 0.2, 0.3" in proc.stderr  # walk 21 #6: one sentence
    assert _tree(isolated_state) == [] or all("logs" in p or "lock" in p for p in _tree(isolated_state))


def test_plan_offers_the_pypi_plugin_when_jax_wheel_page_is_unreachable(isolated_state):
    """storage.googleapis.com does not answer from this machine (nor from CI): the plan says so and offers
    the PyPI route, marked as needing a GPU check; taking it swaps the CUDA jaxlib for the plugin."""
    data = last_json(run_inproc("plan", CU12, "--json"))
    assert [link.split("/")[2] for link in data["unreachable_links"]] == ["storage.googleapis.com"]
    # Walk 24 #1: said on the page's own line in the Sources (as GitHub's is), no longer as a note besides.
    offer = " ".join(run_inproc("plan", CU12).stdout.split()).split("Sources:")[1].split("Steps")[0]
    assert "storage.googleapis.com cannot be reached" in offer and "--alternative pypi-plugin" in offer
    assert "NEEDS A GPU CHECK" in offer
    data = last_json(run_inproc("plan", CU12, "--alternative", "pypi-plugin", "--json"))
    assert {"jaxlib==0.4.23", "jax-cuda12-plugin==0.4.23", "jax-cuda12-pjrt==0.4.23"} <= set(data["requirements"])
    assert not any("+cuda12" in r for r in data["requirements"])
    assert not any("--find-links" in a or a == "-f" for s in data["steps"] for a in s["argv"])
    proc = run_inproc("plan", CPU, "--alternative", "pypi-plugin")
    assert proc.returncode == 2 and "has no alternative source 'pypi-plugin'" in proc.stderr


def test_plan_says_a_modified_checkout_is_modified_and_that_its_setup_py_runs(tmp_path, isolated_state):
    """Issue 24 P8: the pinned revision is not claimed for a checkout; its commit and changes are shown."""
    import subprocess

    repo = tmp_path / "graphcast-copy"
    repo.mkdir()
    (repo / "setup.py").write_text("from setuptools import setup\nsetup(name='graphcast', version='0.1.1')\n")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "v0.1.1"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, env=env, capture_output=True)
    (repo / "graphcast").mkdir()
    (repo / "graphcast" / "extra_hook.py").write_text("import os\n")  # new since the commit
    proc = run_inproc("plan", CPU, "--graphcast-src", str(repo))
    assert proc.returncode == 0, proc.stderr
    text = " ".join(proc.stdout.split())
    assert "with local changes: 1 new (graphcast/extra_hook.py)" in text
    assert "building it runs its setup.py" in text
    assert "GraphCast 0.1.1 (97d1ad50b0b7) from" not in text  # the recipe's pin is not claimed for it
    data = last_json(run_inproc("plan", CPU, "--graphcast-src", str(repo), "--json"))
    assert "runs its setup.py" in json.dumps(data)


@pytest.mark.parametrize("argv", [["recipes"], ["recipes", "--json"]])
def test_an_unreadable_recipe_folder_is_said_before_the_machine_is_detected(monkeypatch, argv):
    """Detection can take minutes (a Slurm job queued for a GPU node, a wedged driver's deadline): a mistyped
    --recipes-dir is refused before it starts, not after."""
    from wizard.commands import recipes

    detected = []
    monkeypatch.setattr(recipes, "facts_for", lambda *a, **k: detected.append(a) or pytest.fail("detected"))
    proc = run_inproc(*argv, "--recipes-dir", "/nonexistent-recipes")
    assert proc.returncode == 2 and "/nonexistent-recipes" in proc.stderr and not detected, proc.stderr


def test_the_list_gives_caveats_only_for_recipes_that_can_run(tmp_path):
    """A recipe that cannot run here lists why not, not its caveats (walk 19 #16: "! Python 3.11 is outside 3.12–3.13"
    under every CUDA recipe of a CPU-only server); `--json` keeps every warning."""
    env = standin_env("no-nvidia", tmp_path)
    text = run_inproc("recipes", env=env).stdout
    row = ""
    for line in text.splitlines():
        if line[:2] in ("  ", "* ") and line[2:3].strip():  # a recipe's row; its notes are indented under it
            row = line
        elif line.startswith("    ! "):
            assert " not compatible " not in row, (row, line)
    by_id = {d["id"]: d for d in last_json(run_inproc("recipes", "--json", env=env))}
    assert not by_id[CU12]["compatible"] and "warnings" in by_id[CU12]


def test_plan_without_a_recipe_asks_for_one_without_naming_an_option_plan_lacks():
    """`plan` has no --answers (walk 20 #1: it was offered, then refused as an unrecognised argument)."""
    proc = run_inproc("plan")
    assert proc.returncode == 2 and "Which recipe?" in proc.stderr and "--answers" not in proc.stderr
    assert "--answers" in run_inproc("install").stderr  # install takes one


def test_saved_facts_do_not_claim_no_other_python_was_found(tmp_path):
    """The facts hold one Python; which others that machine has is not known, so the caveat says that, not "no
    Python 3.12–3.13 was found … uv will download one" (walk 20 #2: wrong and alarming beside `recipes`' own)."""
    path = _facts_file(tmp_path, None, [], python="3.11.7")
    by_id = _check_list(last_json(run_inproc("recipes", "--facts", str(path), "--json")))
    words = " ".join(w for w in by_id[N12]["warnings"] if w.startswith("Python"))
    assert "the facts name no other Python" in words and "was found" not in words


def test_the_printed_plan_fits_the_terminal_and_its_commands_still_paste_whole():
    """Walk 21 #1: `plan` wrapped at 100 columns in an 80-column terminal, which broke 28 lines mid-word. Prose
    wraps to the terminal now; a command's rows (ending in `\\`) are left as laid out, so they paste whole."""
    text = run_inproc("plan", "jax0.4.23-cpu", env={**os.environ, "COLUMNS": "80"}).stdout
    lines = text.splitlines()
    for before, line in zip(["", *lines], lines, strict=False):
        in_command = before.endswith("\\") or line.endswith("\\")
        assert len(line) <= 80 or in_command or max(map(len, line.split())) > 40, line
    assert "'graphcast @ git+https://github.com/google-deepmind/graphcast@97d1ad50b0b7af4aaed7790167dffa769bae1f2c'" \
        in text  # the quoted argument is not split across rows


def test_an_unknown_recipe_is_one_sentence_with_the_recommended_one_first_and_marked(gpu_server, isolated_state):
    """Walk 21 #7: `plan jax-cpu` printed ~400 characters, every recipe, the recommended one last and unmarked."""
    gpu_server("no-nvidia")
    proc = run_inproc("plan", "jax-cpu")
    assert proc.returncode == 2 and proc.stdout == ""
    said = " ".join(proc.stderr.split())
    assert said.startswith("gc-wizard: unknown recipe 'jax-cpu'; did you mean jax0.4.23-cpu (recommended here), "), said
    assert said.endswith("`gc-wizard recipes` lists all 12.") or "lists all" in said
    assert "cuda" not in said and "Traceback" not in proc.stderr
