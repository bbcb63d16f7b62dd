"""The activate command a user copies off the Done screen: each line a whole command, so a copied block
runs in a new shell even with the terminal's padding spaces kept."""

from __future__ import annotations

import itertools
import subprocess

from wizard.after.next_steps import activate_lines


def _stand_in_wizard(folder):
    """A `gc-wizard` that prints, as `activate` would, a line for the shell to eval: here, an echo of
    the state folder it was given."""
    script = folder / "gc-wizard"
    script.write_text('#!/bin/sh\necho "echo home=$GC_WIZARD_HOME args=$*"\n')
    script.chmod(0o755)
    return script


def test_copied_lines_with_padding_run_in_a_new_shell(tmp_path, monkeypatch):
    program = _stand_in_wizard(tmp_path)
    home = tmp_path / "a state folder" / "with spaces"
    monkeypatch.setenv("GC_WIZARD_HOME", str(home))
    monkeypatch.setattr("wizard.after.next_steps.program_command", lambda: str(program))
    lines = activate_lines()
    assert lines[0].startswith("export GC_WIZARD_HOME=") and lines[1].startswith('eval "$(')
    pasted = "\n".join(f"    {line}" + " " * (80 - 4 - len(line)) for line in lines)  # as a selection copies it
    out = subprocess.run(["env", "-i", "bash", "--norc", "-c", pasted], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout == f"home={home} args=activate\n", (out.stdout, out.stderr)


def test_without_a_chosen_state_folder_it_is_one_line(monkeypatch):
    monkeypatch.delenv("GC_WIZARD_HOME", raising=False)
    monkeypatch.setattr("wizard.after.next_steps.program_command", lambda: "gc-wizard")
    assert activate_lines() == ['eval "$(gc-wizard activate)"']


def test_the_module_lines_work_in_a_new_shell_without_lmod_knowing_the_folder(monkeypatch, tmp_path):
    """`module load` alone fails in a new shell ("module(s) are unknown"): every "Next:" block and the
    Done screen give `module use <state>/modules` first, then the load line."""
    from wizard.after.next_steps import next_step_lines, use_lines

    home = tmp_path / "state with space"
    monkeypatch.setenv("GC_WIZARD_HOME", str(home))
    assert use_lines("jax0.4.23-cpu") == [f"module use '{home}/modules'", "module load graphcast/jax0.4.23-cpu"]
    # A line too long for 80 columns goes on with `\` (walk 21 #17): joined, as the shell reads it.
    lines = [" ".join(line.split()) for line in "\n".join(next_step_lines("jax0.4.23-cpu")).replace(" \\\n", " ")
             .splitlines()]
    use, load = lines.index(f"module use '{home}/modules'"), lines.index("module load graphcast/jax0.4.23-cpu")
    assert use + 1 == load


def test_next_lines_say_an_unreachable_forecast_host_and_fit_80_columns(monkeypatch, tmp_path):
    """Walk 21 #4 and #17: the forecast was offered as if its files could be had, and long lines broke mid-word
    (`…/.venv/bin/g` / `c-wizard activate`). Now: the host is said, with the command that gathers the files
    elsewhere, whole on its own line; every other line fits 80 columns; the state folder is exported first."""
    from wizard.after.assets import first_forecast_files
    from wizard.after.next_steps import next_step_lines

    program = _stand_in_wizard(tmp_path)
    long_home = tmp_path / ("state-" + "x" * 40)
    monkeypatch.setenv("GC_WIZARD_HOME", str(long_home))
    monkeypatch.setattr("wizard.after.next_steps.program_command", lambda: str(program))
    lines = next_step_lines("jax0.4.23-cpu", unreachable="storage.googleapis.com")
    text = " ".join(" ".join(line.strip().removeprefix("Next:").strip().lstrip("# ") for line in lines).split())
    assert "storage.googleapis.com cannot be reached from here" in text
    assert "      #     .venv/bin/gc-wizard bundle jax0.4.23-cpu --out DIR --with-assets" in lines  # as the Done screen says it
    # Read across the fold (`tests.fixtures.cli.shell_line`): where the command breaks, if at all, depends on the
    # length of the test's own path, never on what it says; the option and its value stay on one row.
    # The forecast waits for the files, so it is a comment too (walk 40 #2: a block pasted whole ran the placeholder).
    at = next(i for i, line in enumerate(lines) if line.startswith(f"      #   {program}"))
    forecast = [lines[at]]
    while forecast[-1].endswith(" \\"):
        forecast.append(lines[at + len(forecast)])
    assert all(row.startswith("      #") for row in forecast), forecast
    joined = " ".join(row.removeprefix("      #").strip().removesuffix("\\") for row in forecast)
    assert " ".join(joined.split()) == f"{program} forecast --assets DIR/assets", lines
    assert not any(line.lstrip().startswith(("Next: /", "/")) and "DIR/assets" in line for line in lines), lines
    assert any(line.strip().endswith("--assets DIR/assets") for line in lines), lines
    # A line past 80 columns is one that holds a path longer than a line can (the test's long tmp_path). The five
    # files' names to copy by hand (walk 22 #5) are each on rows of their own, a long one (with spaces) folded under
    # its own start with its `#` kept (walk 37 #11: left whole, the terminal wrapped it into column 0 without `#`).
    files = first_forecast_files()
    # (Said by where the path is, not by a word's length: a word of 58 columns on an 83-column row passed or failed
    # with the length of the test's path.)
    assert all(len(line) <= 80 or str(tmp_path) in line for line in lines), lines
    for name in files:
        at = next(i for i, line in enumerate(lines) if line.startswith(f"      #     {name.split()[0]}"))
        rows = [lines[at], *itertools.takewhile(lambda line: line.startswith("      #       "), lines[at + 1:])]
        assert " ".join(row.removeprefix("      #").strip() for row in rows) == name, (name, lines)
    # The export and the activate lines, copied as a block, run in a new shell (the state folder carried).
    commands = "\n".join(lines).replace(" \\\n", " ").splitlines()  # each command whole, as the shell reads it
    block = "\n".join(line.removeprefix("Next:").strip() for line in commands
                      if "GC_WIZARD_HOME=" in line or "eval" in line)
    out = subprocess.run(["env", "-i", "bash", "--norc", "-c", block], capture_output=True, text=True)
    assert out.stdout == f"home={long_home} args=activate\n", (block, out.stderr)
    assert not any("cannot be reached" in line for line in next_step_lines("jax0.4.23-cpu"))


def test_a_forecast_that_worked_says_the_model_note_and_what_to_do_next(isolated_state):
    """walk 23 #5: after the output path there was no next step, and a substituted model was not
    said. The words are `after.forecast.describe`, the one wording both faces print."""
    import shlex

    from wizard.after.forecast import ForecastResult, describe
    from wizard.paths import program_command

    tiny = "GraphCast_tiny - test - resolution 10.0 - pressure levels 13 - mesh 2to5 - precipitation input and output.npz"
    result = ForecastResult(ok=True, env="/envs/a", graphcast_version="0.1.1", model=tiny,
                            dataset="source-era5_date-2016-01-01_res-10.0_levels-13_steps-04.nc", steps=1,
                            backend="cpu", finite=True, output="/state/forecasts/x.nc", log="/state/logs/f.log",
                            assets={"source": "/lab assets", "checked": "none"},
                            note="the source has no GraphCast_small; used the only model there (GraphCast_tiny, a "
                                 "test model at 10°)")
    lines = describe(result)
    assert lines[1] == ("  note      The source has no GraphCast_small; used the only model there (GraphCast_tiny, a "
                        "test model at 10°).")
    at = lines.index("Next:")
    assert lines[at - 1] == "    /state/forecasts/x.nc"
    me = program_command()
    assert lines[at + 1:at + 6] == [
        "  all 4 steps this example dataset holds:",
        f"    export GC_WIZARD_HOME={isolated_state}",  # walk 24 #4: as install's Next lines
        f"    {me} forecast --env /envs/a --assets '/lab assets' --steps 4",
        "  read the predictions (NetCDF) with xarray, in the environment's Python:",
        f"    /envs/a/bin/python -c {shlex.quote(_read('/state/forecasts/x.nc'))}"]
    longest = describe(ForecastResult(**{**result.__dict__, "steps": 4, "note": None}))
    assert "  note" not in " ".join(longest) and "    " + f"{me} forecast --list --assets '/lab assets'" in longest


def _read(path: str) -> str:
    """The Python the line runs: xarray (GraphCast's own dependency, in every environment) opening the output."""
    return f"import xarray; print(xarray.open_dataset({path!r}))"


def test_forecast_and_stopped_check_lines_keep_the_state_folder_and_the_slurm_target(isolated_state, monkeypatch):
    """Walk 24 #3/#4: after `forecast --slurm gpu --srun-arg=--time=30` the Next line dropped both `--slurm` and the
    `export GC_WIZARD_HOME=…` install's lines carry (pasted in a new shell: "there is no current environment yet"),
    and the stopped check's `verify --env` ran on the login node. One builder (`wizard_lines` with
    `SlurmTarget.flags`) makes them all."""
    from wizard.after.forecast import ForecastResult, describe
    from wizard.detect.slurm import SlurmTarget
    from wizard.flows.results import kept_unchecked
    from wizard.paths import program_command

    slurm = SlurmTarget(partition="gpu", srun_args=("--time=30",))
    result = ForecastResult(ok=True, env="/envs/a", graphcast_version="0.1.1", model="GraphCast_small", steps=1,
                            dataset="source-era5_date-2022-01-01_res-1.0_levels-13_steps-04.nc", backend="gpu",
                            finite=True, output="/state/forecasts/x.nc", log="/l", assets={"source": "/lab"},
                            where={"node": "vm", "via": "srun"}, slurm=slurm)
    lines = describe(result)
    at = lines.index("  all 4 steps this example dataset holds:")
    assert lines[at + 1:at + 3] == [
        f"    export GC_WIZARD_HOME={isolated_state}",
        f"    {program_command()} forecast --env /envs/a --assets /lab --steps 4 --slurm gpu --srun-arg=--time=30"]
    kept = kept_unchecked("/envs/a", "20261128-051128-db74", "gc-wizard", slurm)
    assert "`gc-wizard verify --env /envs/a --slurm gpu --srun-arg=--time=30` checks it on a node" in kept
    # rollback checks through the Slurm target the install recorded (walk 28 #9): no --no-verify to dodge the login node
    assert "`gc-wizard rollback 20261128-051128-db74` checks it again on a node the same way" in kept
    assert "--slurm" not in kept_unchecked("/envs/a", "x", "gc-wizard")  # no target, no flag


def test_an_install_checked_through_srun_names_the_node_again_in_its_forecast_line(isolated_state):
    """Walk 24 #3: after `install --slurm gpu`, the Next forecast line ran on the login node (no GPU)."""
    from wizard.detect.slurm import SlurmTarget
    from wizard.flows.next_lines import next_lines
    from wizard.flows.results import InstallResult

    result = InstallResult(ok=True, recipe="jax0.4.23-cpu", env=str(isolated_state / "envs" / "e"), log="/l",
                           entry_id="x", seconds=1.0, status="verified", slurm=SlurmTarget(partition="gpu"))
    words = " ".join(" ".join(next_lines(result, assets="/lab")).replace("\\", " ").split())
    assert "forecast --assets /lab --slurm gpu" in words, words
    result.slurm = None
    assert "--slurm" not in " ".join(next_lines(result, assets="/lab"))


def test_a_relative_or_tilde_state_folder_is_printed_as_the_absolute_one_in_use(tmp_path, monkeypatch):
    """31st hostile pass (part A) P6: `GC_WIZARD_HOME=relst` was exported as given, so the lines pasted into a new
    login shell (started in $HOME) pointed at another, empty state folder; a quoted `~/st` is never expanded. Every
    printed command line takes the one absolute value (`paths.chosen_state_folder`): the export and the prefix."""
    from wizard import paths
    from wizard.after.next_steps import wizard_lines

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("wizard.after.next_steps.program_command", lambda: "gc-wizard")
    monkeypatch.setattr("wizard.paths.program_command", lambda: "gc-wizard")
    monkeypatch.setenv("GC_WIZARD_HOME", "relst")
    assert activate_lines()[0] == f"export GC_WIZARD_HOME={tmp_path / 'relst'}"
    assert wizard_lines("history")[0] == f"export GC_WIZARD_HOME={tmp_path / 'relst'}"
    assert paths.wizard_command() == f"GC_WIZARD_HOME={tmp_path / 'relst'} gc-wizard"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GC_WIZARD_HOME", "~/st")
    assert activate_lines()[0] == f"export GC_WIZARD_HOME={tmp_path / 'home' / 'st'}"


def test_every_row_of_a_comment_in_the_next_block_keeps_its_hash(monkeypatch, tmp_path):
    """Walk 37 #11: `#     params/GraphCast_small - ERA5 1979-2015 - resolution 1.0 - pressure` went on with `levels 13
    - …npz` in column 0 (the terminal wrapped the row), and a copied block held a line that is not a comment. Every
    comment row, folded, starts with its `#`, whatever the length of the state folder and the program's path; the
    gathering command, folded, is broken with ` \\` so that without its `#`s it pastes as one command."""
    from wizard.after.next_steps import next_step_lines

    program = str(_stand_in_wizard(tmp_path))
    monkeypatch.setattr("wizard.after.next_steps.program_command", lambda: program)
    for length in (5, 30, 60):
        gatherer = f"{tmp_path / ('g' * length)}/gc-wizard"
        monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / ("s" * length)))
        monkeypatch.setattr("wizard.after.next_steps.gather_command",
                            lambda recipe, gatherer=gatherer: f"{gatherer} bundle {recipe} --out DIR --with-assets")
        lines = next_step_lines("jax0.4.23-cpu", unreachable="storage.googleapis.com")
        start = next(i for i, line in enumerate(lines) if "cannot be reached" in line)
        end = next(i for i, line in enumerate(lines) if "--assets DIR/assets." in line)
        block = lines[start:end + 1]
        assert all(line.startswith("      # ") for line in block), [line for line in block if not line.startswith("      # ")]
        # past 80 columns only a word longer than a row can hold, alone after its `#` (with the ` \\` of a command)
        assert all(len(line) <= 80 or len(line.split()) <= 3 for line in block), [line for line in block if len(line) > 80]
        at = next(i for i, line in enumerate(block) if line.startswith(f"      #     {tmp_path}"))
        gather = [block[at]]
        while gather[-1].endswith(" \\"):
            gather.append(block[at + len(gather)])
        gather = [line.removeprefix("      #").strip() for line in gather]
        assert " ".join(row.removesuffix(" \\") for row in gather).endswith(
            "/gc-wizard bundle jax0.4.23-cpu --out DIR --with-assets"), block
        assert all(row.endswith(" \\") for row in gather[:-1]), block
