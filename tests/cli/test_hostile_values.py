"""Values that name nothing or the wrong kind of thing — an empty option value, an empty LOGFILE, a file where a
folder goes — each refused with exit 2 in one sentence that names the option and what the value is (t24g: X6,
X7, B4).

The real CLI in this process; nothing is installed (every case stops before an environment is made)."""

from __future__ import annotations

import argparse
import os

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from wizard.cli import build_parser


def _clean(proc) -> None:
    for text in (proc.stdout, proc.stderr):
        assert "Traceback" not in text, text


@pytest.mark.parametrize("argv, option", [
    (["lock", "jax0.4.23-cpu", "--find-links", "/tmp/wh\udcff"], "--find-links"),
    (["install", "jax0.4.23-cpu", "--yes", "--env", "/tmp/caf\udce9/env"], "--env"),
    (["plan", "jax0.4.23-cpu", "--env", "/tmp/\udcff"], "--env"),
    (["--graphcast-src", "/src/g\udc81", "plan", "jax0.4.23-cpu"], "--graphcast-src"),
    (["install", "jax0.4.23-cpu", "--yes", "--bundle", "/b/\udcfe"], "--bundle"),
    (["lock", "jax0.4.23-cpu", "--python", "/opt/py\udcff/bin/python"], "--python"),
])
def test_a_value_uv_cannot_take_is_refused_before_anything_runs(argv, option):
    """Thirteenth pass #48: a folder whose name has a byte that is not UTF-8 reached uv, which refused it ("invalid
    UTF-8 was detected in one or more arguments") after the plan and the resolve. Refused at parsing now, naming
    the option, the value as bytes and the byte, for every option whose value an installer is given."""
    proc = run_inproc(*argv, "--json")
    _clean(proc)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    error = last_json(proc)["error"]
    assert f"argument {option}: '" in error and "which is not UTF-8" in error, error
    assert "\\x" in error and "\\udc" not in error


@pytest.mark.parametrize("argv, option", [
    (["plan", "jax0.4.23-cpu", "--env", "/tmp/env\udcc3\udca9"], "--env"),  # é, as the C locale decodes it
    (["lock", "jax0.4.23-cpu", "--find-links", "/tmp/wh\udce2\udc80\udca8"], "--find-links"),  # U+2028
    (["--graphcast-src", "/src/st\udcc3\udcbc", "plan", "jax0.4.23-cpu"], "--graphcast-src"),  # ü
    (["lock", "jax0.4.23-cpu", "--python", "/opt/\udcf0\udc9f\udc90\udc8d/python"], "--python"),  # a 4-byte emoji
])
def test_a_utf8_value_decoded_under_the_c_locale_is_not_called_not_utf8(argv, option):
    """Twentieth pass P4: under `LC_ALL=C PYTHONUTF8=0` Python decodes a UTF-8 argument byte by byte into lone
    surrogates; the bytes are UTF-8, uv takes them, and the check now reads those bytes."""
    proc = run_inproc(*argv, "--json")
    _clean(proc)
    said = proc.stdout + proc.stderr
    assert "not UTF-8" not in said, said


@pytest.mark.parametrize("value, byte", [
    ("/tmp/env\udcc3\udca9\udcff", "\\xff"),  # é, then a byte that starts nothing
    ("/tmp/caf\udcc3", "\\xc3"),  # a UTF-8 lead byte with nothing after it
    ("/tmp/\udce2(\udca1", "\\xe2"),  # a lead byte followed by one that continues nothing
])
def test_a_value_with_a_broken_utf8_sequence_is_still_refused_naming_its_byte(value, byte):
    proc = run_inproc("plan", "jax0.4.23-cpu", "--env", value, "--json")
    _clean(proc)
    error = last_json(proc)["error"]
    assert f"has the byte {byte}, which is not UTF-8" in error, error


def test_other_commands_still_take_such_an_env(tmp_path):
    """`verify --env` runs an environment made some other way (`python -m venv`), which may have such a name: it is
    looked at, not refused as uv would."""
    proc = run_inproc("verify", "--env", str(tmp_path / "gone\udcff"), "--json")
    _clean(proc)
    assert "not UTF-8" not in last_json(proc)["error"]


@pytest.mark.parametrize("argv, option", [
    (["plan", "jax0.4.23-cpu", "--env", ""], "--env"),
    (["plan", "jax0.4.23-cpu", "--env="], "--env"),
    (["plan", "jax0.4.23-cpu", "--graphcast-src", ""], "--graphcast-src"),
    (["install", "jax0.4.23-cpu", "--yes", "--find-links", ""], "--find-links"),
    (["install", "jax0.4.23-cpu", "--yes", "--bundle", ""], "--bundle"),
    (["install", "jax0.4.23-cpu", "--yes", "--lock", ""], "--lock"),
    (["lock", "jax0.4.23-cpu", "--out", ""], "--out"),
    (["bundle", "jax0.4.23-cpu", "--out", ""], "--out"),
    (["forecast", "--assets", ""], "--assets"),
    (["--graphcast-src", "", "plan", "jax0.4.23-cpu"], "--graphcast-src"),
    (["module", "install", "--dir", ""], "--dir"),
])
def test_an_empty_option_value_is_refused_naming_the_option(argv, option):
    """X6: `--env ''` planned a new managed environment as if --env were absent."""
    proc = run_inproc(*argv, "--json")
    _clean(proc)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    error = last_json(proc)["error"]
    assert f"argument {option}: an empty value names nothing" in error


def _valued_options(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                yield from _valued_options(command)
        elif action.option_strings and action.nargs is None and action.choices is None and isinstance(
                action, (argparse._StoreAction, argparse._AppendAction)):
            yield parser.prog, action


def test_every_option_that_takes_a_value_refuses_an_empty_one():
    """The class, not the cases above: no option of any command takes '' silently (a new option included)."""
    seen = list(_valued_options(build_parser()))
    assert len(seen) > 30
    for prog, action in seen:
        assert action.type is not None, (prog, action.option_strings)
        with pytest.raises((argparse.ArgumentTypeError, ValueError)):  # argparse makes both a usage error
            action.type("")


def test_slurm_without_a_partition_still_means_the_default_one():
    args = build_parser(["detect", "--slurm="]).parse_args(["detect", "--slurm="])
    assert args.slurm == ""


def test_an_empty_logfile_is_no_file_not_standard_input():
    """X7: `diagnose ''` read standard input and said "No known problem found in standard input."."""
    proc = run_inproc("diagnose", "", "--json", input="XlaRuntimeError: out of memory\n")
    _clean(proc)
    assert proc.returncode == 2
    assert "there is no file named ''" in last_json(proc)["error"]
    assert "standard input." not in proc.stdout


@pytest.mark.parametrize("make, says", [
    (lambda p: p.write_text("{}\n"), "it is a file, not a folder"),
    (os.mkfifo, "it is a named pipe (FIFO), not a folder"),
    (lambda p: None, "no such folder"),
])
@pytest.mark.parametrize("option", ["--bundle", "--find-links"])
def test_a_folder_option_given_something_else_says_what_it_is(tmp_path, make, says, option):
    """B4: `--bundle …/manifest.json` said "no such folder" about a file that was right there."""
    path = tmp_path / "manifest.json"
    make(path)
    proc = run_inproc("install", "jax0.4.23-cpu", "--yes", "--no-verify", option, str(path), "--json")
    _clean(proc)
    assert proc.returncode == 2
    error = last_json(proc)["error"]
    if option == "--find-links" and says.startswith("it is a file"):
        says = "manifest.json is a file; --find-links takes the folder"
    assert f"{option} {path}: {says}" in error


def test_assets_given_a_file_says_it_is_a_file(tmp_path):
    path = tmp_path / "params.npz"
    path.write_bytes(b"x")
    proc = run_inproc("forecast", "--assets", str(path), "--json")
    _clean(proc)
    assert proc.returncode == 2
    assert f"--assets {path}: it is a file, not a folder" in last_json(proc)["error"]


def test_a_graphcast_source_that_is_a_pipe_says_so(tmp_path):
    """--graphcast-src takes a folder or a file: a FIFO was "no such folder or file"."""
    fifo = tmp_path / "gc"
    os.mkfifo(fifo)
    proc = run_inproc("plan", "jax0.4.23-cpu", "--graphcast-src", str(fifo), "--json")
    _clean(proc)
    assert proc.returncode == 2
    assert f"{fifo}: it is a named pipe (FIFO), not a regular file or folder" in last_json(proc)["error"]
