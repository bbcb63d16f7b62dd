"""31st hostile pass (part A) P4/P5: `str.isdigit()` takes '²', which `int()` refuses, so `CUDA_VISIBLE_DEVICES=²` and
a mirror's `Content-Length: ²` ended with "this is a bug"; `\\d` takes Arabic-Indic digits, so
`GC_WIZARD_CUDA_DRIVER_VERSION=١٢.٢` was taken and printed as the driver's CUDA version. The package tests digits
only as 0-9 (`patterns.ascii_digits`, regexes with `[0-9]`); this file forbids the rest everywhere in it."""

from __future__ import annotations

import argparse
import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

import wizard
from wizard.after import assets
from wizard.commands.forecast import _steps as forecast_steps
from wizard.commands.options import positive_seconds
from wizard.detect.chain import check_override, visible_devices_warnings
from wizard.detect.facts import Gpu
from wizard.install.runner import INACTIVITY_ENV, inactivity_limit, inactivity_problem
from wizard.patterns import ascii_digits, decimal_number, whole_number

PACKAGE = Path(wizard.__file__).parent
#: The str methods that take more than 0-9 ('²', '①', '١').
_WIDE_DIGIT_TESTS = {"isdigit", "isnumeric", "isdecimal"}


def _sources():
    return sorted(PACKAGE.rglob("*.py"))


def test_no_module_tests_digits_with_isdigit_isnumeric_or_isdecimal():
    found = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in _WIDE_DIGIT_TESTS):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} .{node.func.attr}()")
    assert not found, "use patterns.ascii_digits: " + ", ".join(found)


def test_no_regex_in_the_package_says_backslash_d():
    found = []
    for path in _sources():
        for token in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
            if token.type != tokenize.STRING:
                continue
            prefix = re.match(r"[A-Za-z]*", token.string).group().lower()
            if "r" in prefix and re.search(r"(?<!\\)(?:\\\\)*\\d", token.string):
                found.append(f"{path.relative_to(PACKAGE)}:{token.start[0]}")
    assert not found, "say [0-9], not \\d (it takes every script's digits): " + ", ".join(found)


def test_ascii_digits_takes_0_to_9_only():
    assert ascii_digits("0") and ascii_digits("535")
    for text in ("", "²", "①", "١٢", "1²", " 1", "1.0", "-1", "+1"):
        assert not ascii_digits(text), text


def test_cuda_visible_devices_with_odd_digits_is_a_warning_not_a_crash():
    gpus = [Gpu(index=n, name="A100", memory_total_mib=None, compute_capability="8.0", source="nvml") for n in (0, 1)]
    for value in ("²", "0,³", "①"):
        warnings = visible_devices_warnings({"CUDA_VISIBLE_DEVICES": value}, gpus)
        assert [w.id for w in warnings] == ["cuda_visible_devices_invalid"], value


def test_a_cuda_version_override_in_other_digits_is_refused():
    assert check_override({"GC_WIZARD_CUDA_DRIVER_VERSION": "12.2"}) is None
    assert "is not a CUDA version" in check_override({"GC_WIZARD_CUDA_DRIVER_VERSION": "١٢.٢"})


def test_a_download_whose_length_is_not_a_number_is_of_unknown_length(tmp_path, monkeypatch):
    class Answer:
        status = 200
        headers = {"Content-Length": "²"}

        def __init__(self):
            self.left = [b"x\n", b""]

        def read(self, _size):
            return self.left.pop(0)

        def __enter__(self):
            return self

        def __exit__(self, *_):
            return False

    monkeypatch.setattr(assets, "_open", lambda *a, **k: Answer())
    seen = []
    part = tmp_path / "f.part"
    assets._download("http://mirror/f", part, "f", lambda name, done, total: seen.append(total), None)
    assert part.read_bytes() == b"x\n" and seen == [None]


def test_the_number_readers_take_0_to_9_only():
    """33rd hostile pass (part A) P5: `GC_WIZARD_INACTIVITY_TIMEOUT='٣٠'` was taken as 30 s (`float` reads any
    script's digits). Numbers from outside are read by `patterns.whole_number` and `patterns.decimal_number`."""
    assert whole_number("12") == 12 and whole_number("٣") is None and whole_number("-1") is None
    for text, value in (("30", 30.0), ("1.5", 1.5), (".5", 0.5), ("1e3", 1000.0), ("2E-1", 0.2)):
        assert decimal_number(text) == value, text
    for text in ("", ".", "e3", "1e", "٣٠", "3٠", "nan", "inf", "-1", "+1", "1_0", " 30", "30s", "1.2.3", "²"):
        assert decimal_number(text) is None, text


def test_an_inactivity_limit_or_option_in_other_digits_is_refused():
    assert inactivity_problem({INACTIVITY_ENV: "30"}) is None and inactivity_limit({INACTIVITY_ENV: "1.5"}) == 1.5
    assert INACTIVITY_ENV in inactivity_problem({INACTIVITY_ENV: "٣٠"})
    for reader, text in ((positive_seconds, "٣٠"), (forecast_steps, "٣")):
        with pytest.raises(argparse.ArgumentTypeError, match="digits 0-9"):
            reader(text)
    assert positive_seconds("30") == 30.0 and forecast_steps("3") == 3


def test_no_number_is_read_straight_from_the_environment():
    """`float(os.environ[...])`, `int(os.getenv(...))` and the like take every script's digits: a value from the
    environment goes through `whole_number`/`decimal_number` (or `ascii_digits` first)."""
    found = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in {"int", "float"}
                    and node.args and any(word in ast.unparse(node.args[0]) for word in ("environ", "getenv"))):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert not found, "read it with patterns.whole_number / decimal_number: " + ", ".join(found)
