"""A table cache in the state (`cache/tables/*.json`, `yaml_data.load_table`) is used only when its data has the
table's shape: otherwise the YAML is parsed again and the cache rewritten.

38th hostile pass (part B) P4: a cache whose `data` was `["x"]`, `[]`, `{"models": "x"}` or `{"models": [{"id": 5}]}`,
its `key` kept, was returned as is: `detect` blamed the package's intact model_memory.yaml ("unreadable", exit 2),
and `detect --assume-driver` stopped as "a bug". Each table's own reader (the `parse` its caller gives
`load_table`) is run over wrong shapes generated from the table's real data, at every place in it."""

from __future__ import annotations

import ast
import copy
import json
from pathlib import Path

import pytest

from wizard import paths, yaml_data
from wizard.detect import assume, preflight, srun_job
from wizard.verify import check_time

#: Every table the wizard reads through `load_table`, with its reader.
TABLES = {
    "model_memory.yaml": preflight.needs_from,
    "driver_cuda.yaml": assume._rows_from,
    "check_times.yaml": check_time.times_from,
    "slurm_reasons.yaml": srun_job.reasons_from,
}
WIZARD = Path(paths.__file__).resolve().parent
#: What is put at each place of a table's data: other types, empty and wrong containers, the shapes the testers used.
WRONG = ["x", 5, -1, 0, 2.5, True, None, [], {}, ["x"], ["notadict"], [{"id": 5}], {"a": 1}, {"models": "x"},
         1e308, "535", "1.0"]


def _places(data, where=()):
    """Each place (a path of keys and indices) in `data`, its root first."""
    yield where
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _places(value, (*where, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _places(value, (*where, index))


def _variants(data):
    """`data` with one place replaced by each of `WRONG`, or removed."""
    for where in _places(data):
        for value in WRONG:
            if not where:
                yield value
                continue
            changed = copy.deepcopy(data)
            parent = changed
            for step in where[:-1]:
                parent = parent[step]
            parent[where[-1]] = value
            yield changed
        if where:
            changed = copy.deepcopy(data)
            parent = changed
            for step in where[:-1]:
                parent = parent[step]
            del parent[where[-1]]
            yield changed


def test_every_table_read_through_the_cache_is_in_this_test():
    readers = set()
    for source in WIZARD.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "load_table":
                assert len(node.args) == 2, f"{source}: load_table without the table's reader"
                readers.add(ast.unparse(node.args[1]))
    assert readers == {reader.__name__ for reader in TABLES.values()}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_a_cache_of_another_shape_is_parsed_again_and_rewritten(name, isolated_state):
    parse = TABLES[name]
    table = paths.package_file(paths.DATA_DIR / name)
    shipped = parse(yaml_data.load_data(table.read_text(encoding="utf-8")))
    assert yaml_data.load_table(table, parse) == shipped
    (cache,) = (isolated_state / "cache" / "tables").glob(f"{table.stem}-*.json")
    written = json.loads(cache.read_text())
    refused = 0
    for data in _variants(written["data"]):
        cache.write_text(json.dumps({"key": written["key"], "data": data}))
        try:
            expected = parse(copy.deepcopy(data))
        except yaml_data.SHAPE_ERRORS:
            expected = None
        result = yaml_data.load_table(table, parse)
        if expected is None:  # not the table's shape: the YAML's data, and the cache holds it again
            refused += 1
            assert result == shipped, data
            assert json.loads(cache.read_text()) == written, data
        else:  # a shape the reader takes (another word, another figure): the cache's, as the YAML's would be
            assert result == expected
    assert refused > 20


def test_detect_and_an_assumed_driver_read_past_swapped_caches(isolated_state, monkeypatch):
    """The faces: no "unreadable" sentence naming the shipped YAML, no "bug"; each gives what the YAML gives."""
    assume._rows.cache_clear()
    monkeypatch.setattr(check_time, "_TIMES", None)
    monkeypatch.setattr(srun_job, "_reasons", None)
    needs, cuda = preflight.load_needs(), assume.cuda_for_driver("535.104.05")
    times, words = check_time.tier_times(), srun_job.reason_words("Priority")
    for shape in (["x"], [], {"models": "x"}, {"models": [{"id": 5}]}, {"tiers": {"a": "b"}}, {"reasons": [1]}):
        for cache in (isolated_state / "cache" / "tables").glob("*.json"):
            kept = json.loads(cache.read_text())
            cache.write_text(json.dumps({"key": kept["key"], "data": shape}))
        assume._rows.cache_clear()
        monkeypatch.setattr(check_time, "_TIMES", None)
        monkeypatch.setattr(srun_job, "_reasons", None)
        assert preflight.load_needs() == needs
        assert assume.cuda_for_driver("535.104.05") == cuda == "12.2"
        assert check_time.tier_times() == times and times
        assert srun_job.reason_words("Priority") == words != "Priority"
    assume._rows.cache_clear()
