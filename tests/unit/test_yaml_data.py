"""YAML as data, and the wizard's tables served from the JSON cache only while it matches the file."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from wizard import yaml_data


def _as_is(data):
    """A table reader that takes any data (these tests are about the cache, not a table's shape)."""
    return data


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_a_table_is_parsed_once_then_read_from_the_cache_until_the_file_changes(tmp_path, home):
    table = tmp_path / "needs.yaml"
    table.write_text("# source: a comment the cache need not keep\nmodels:\n  - id: a\n    gpu_gb: 12\n")
    assert yaml_data.load_table(table, _as_is) == {"models": [{"id": "a", "gpu_gb": 12}]}
    (cache,) = (home / "cache" / "tables").glob("needs-*.json")
    table.write_text("models:\n  - id: b\n    gpu_gb: 40\n")  # other size: the cache no longer matches
    os.utime(table, ns=(1, 1))
    assert yaml_data.load_table(table, _as_is) == {"models": [{"id": "b", "gpu_gb": 40}]}


def test_a_damaged_cache_or_an_unwritable_state_folder_costs_only_the_parse(tmp_path, home, monkeypatch):
    table = tmp_path / "t.yaml"
    table.write_text("- 1\n- 2\n")
    yaml_data.load_table(table, _as_is)
    (cache,) = (home / "cache" / "tables").glob("t-*.json")
    cache.write_text("{not json")
    assert yaml_data.load_table(table, _as_is) == [1, 2]
    blocked = tmp_path / "a-file-not-a-folder"
    blocked.write_text("")
    monkeypatch.setenv("GC_WIZARD_HOME", str(blocked))  # mkdir under it fails, even for root
    assert yaml_data.load_table(table, _as_is) == [1, 2]


def test_two_copies_of_a_table_keep_a_cache_each_and_neither_parses_again(tmp_path, home, monkeypatch):
    """A pipx install and a checkout of the wizard share the state folder: each keeps its own cache."""
    first, second = tmp_path / "one" / "models.yaml", tmp_path / "two" / "models.yaml"
    for table, size in ((first, 12), (second, 40)):
        table.parent.mkdir()
        table.write_text(f"- gpu_gb: {size}\n")
        yaml_data.load_table(table, _as_is)
    parsed = []
    monkeypatch.setattr(yaml_data, "load_data", lambda text: parsed.append(text))
    assert yaml_data.load_table(first, _as_is) == [{"gpu_gb": 12}]
    assert yaml_data.load_table(second, _as_is) == [{"gpu_gb": 40}]
    assert parsed == [] and len(list((home / "cache" / "tables").glob("models-*.json"))) == 2


def test_malformed_yaml_names_its_line_and_tags_build_nothing():
    with pytest.raises(yaml_data.YAMLError) as caught:
        yaml_data.load_data("a: 1\nb: [unclosed\n")
    assert caught.value.line is not None and caught.value.line >= 2
    with pytest.raises(yaml_data.YAMLError):
        yaml_data.load_data("!!python/object/apply:os.system ['true']\n")


@pytest.mark.parametrize("char", ["\x00", "\x07", "\x7f", "\x9b", "\ud800", "\uffff"])
def test_a_character_yaml_refuses_is_named_with_its_line_in_plain_words(char):
    # nineteenth hostile pass P8: PyYAML said `#x0000 ... in "<unicode string>", position 30`, with no line, and a
    # lone surrogate stopped libyaml with a UnicodeEncodeError (which the number-length branch then misnamed)
    text = f"a: 1\nb: é\nc: x{char}y\n"
    for read in (yaml_data.load_data, yaml_data.load_user_data, yaml_data.compose_user_nodes):
        with pytest.raises(yaml_data.YAMLError) as caught:
            read(text)
        assert caught.value.line == 3
        assert caught.value.problem.startswith(f"the character \\u{ord(char):04x}, ")
        assert caught.value.problem.endswith("is not allowed in YAML; delete it")
        assert "<unicode string>" not in str(caught.value) and "\n" not in str(caught.value)


def test_a_syntax_error_reads_as_its_line_and_problem_not_pyyamls_block():
    with pytest.raises(yaml_data.YAMLError) as caught:
        yaml_data.compose_user_nodes("a: 1\n\tb: 2\n")
    assert caught.value.line == 2 and "tab" in caught.value.problem
    assert "\n" not in str(caught.value) and "<unicode string>" not in str(caught.value)


def test_detect_reads_its_tables_without_importing_pyyaml_once_cached(tmp_path):
    env = {**os.environ, "GC_WIZARD_HOME": str(tmp_path / "home")}
    probe = ("import sys; from wizard.detect import preflight, assume; preflight.load_needs(); assume._rows(); "
             "print('yaml' in sys.modules)")
    first = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    again = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert first.stdout.strip() == "True" and again.stdout.strip() == "False"


def test_a_fifo_or_a_deep_file_as_the_table_cache_costs_only_the_parse(tmp_path, home):
    """30th hostile pass (part A) P3/P4: the cache was read with a plain `read_text`, so a FIFO there hung every
    `detect` (and `recipes`, `plan`, the app), and a deeply nested one ended it in "this is a bug" (RecursionError).
    Read by `bounded.read_json` now: neither is opened or parsed past its limit, the YAML is parsed again, and the
    cache written anew as a regular file. (A thread, so that the test fails rather than hangs without the fix.)"""
    import threading

    table = tmp_path / "t.yaml"
    table.write_text("- 1\n- 2\n")
    yaml_data.load_table(table, _as_is)
    (cache,) = (home / "cache" / "tables").glob("t-*.json")
    for damage in ("deep", "fifo"):
        cache.unlink()
        if damage == "fifo":
            os.mkfifo(cache)
        else:
            cache.write_text("[" * 200_000 + "]" * 200_000)
        answer: list = []
        reader = threading.Thread(target=lambda kept=answer: kept.append(yaml_data.load_table(table, _as_is)),
                                  daemon=True)
        reader.start()
        reader.join(120)
        assert answer == [[1, 2]], damage
        assert cache.is_file() and not cache.is_symlink()


def test_a_state_cache_linked_where_another_user_could_swap_it_is_neither_read_nor_written(tmp_path, home,
                                                                                           monkeypatch):
    """35th hostile pass (part B) P3: the state's `cache` a link into a folder another user controls — `history`
    and `install` refused it, but `detect` and `plan` read forged tables from it and wrote the table cache through
    a link planted at the partial file's name (root's O_TRUNC open overwrote a root file). Every writer of the
    state takes its sub-folders through the one rule (`paths.state_subfolder`); the write itself never follows a
    link at its temporary name."""
    from wizard import paths
    from wizard.install.cost import _SizeCache

    monkeypatch.setattr(paths, "ENV_WARNINGS", [])  # the notes said at the end of the run: this test's own
    monkeypatch.setattr(paths, "TIGHTENED", [])
    table = tmp_path / "t.yaml"
    table.write_text("- 1\n")
    info = table.stat()
    name = f"t-{info.st_dev:x}-{info.st_ino:x}.json"
    shared = tmp_path / "open"
    (shared / "tables").mkdir(parents=True)
    shared.chmod(0o777)  # every user can write it, no sticky bit: the state's link rule refuses it
    victim = tmp_path / "victim"
    victim.write_text("ROOTFILE\n")
    (shared / "tables" / f".{name}.{os.getpid()}").symlink_to(victim)
    (shared / "tables" / name).write_text('{"key": "forged", "data": [666]}')
    home.mkdir()
    (home / "cache").symlink_to(shared)
    try:
        assert yaml_data.load_table(table, _as_is) == [1]
        sizes = _SizeCache("index", "cp311", "x86_64")
        sizes.add({"jax": 5})
        assert sizes.read() == {}
    finally:
        shared.chmod(0o700)
    assert victim.read_text() == "ROOTFILE\n"
    assert sorted(p.name for p in (shared / "tables").iterdir()) == [f".{name}.{os.getpid()}", name]
    assert not (shared / "download-sizes.json").exists()
    # Said, once for both writers, by the link and why (never skipped without a word)
    (said,) = paths.end_notes()
    assert said.startswith(f"{home / 'cache'} was not used as gc-wizard's cache (nothing was read or written there)")
    assert f"{shared}, where a link in the state folder leads, is writable by every user" in said


def test_the_table_cache_write_never_follows_a_link_at_a_temporary_name(tmp_path, home):
    table = tmp_path / "t.yaml"
    table.write_text("- 1\n")
    info = table.stat()
    name = f"t-{info.st_dev:x}-{info.st_ino:x}.json"
    (home / "cache" / "tables").mkdir(parents=True)
    victim = tmp_path / "victim"
    victim.write_text("kept\n")
    for partial in (f".{name}.{os.getpid()}", f".{name}.{os.getpid()}.0.tmp"):
        (home / "cache" / "tables" / partial).symlink_to(victim)
    assert yaml_data.load_table(table, _as_is) == [1]
    assert victim.read_text() == "kept\n"
    assert (home / "cache" / "tables" / name).is_file() and not (home / "cache" / "tables" / name).is_symlink()
