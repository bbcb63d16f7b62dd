"""Every JSON file the wizard reads that it did not take from the command line — the state's files and caches, other
tools' files it looks into — goes through the one bounded reader (`bounded.read_json`): a FIFO there never blocks, a
link to /dev/zero is never read, and 100,000 levels of nesting are one sentence naming the file, never a
RecursionError ("this is a bug"). Each reader is run in a child with its memory capped at 2 GB (a reader that read
/dev/zero whole must fail here, not fill the machine) and a 120 s limit (a reader that waits on the FIFO fails).

30th hostile pass (part A) P3 (the table cache read with a plain `read_text`: a FIFO hung `detect`, /dev/zero grew it
to the memory limit) and P4 (seven readers called `json.loads` past `except ValueError`: a deep file was "a bug").
"""

from __future__ import annotations

import ast
import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

import wizard

PACKAGE = Path(wizard.__file__).parent

CHILD = r'''
import os, sys
from pathlib import Path
reader, kind, root = sys.argv[1], sys.argv[2], Path(sys.argv[3])
os.environ["GC_WIZARD_HOME"] = str(root / "state")

def place(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() or path.is_symlink():
        path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        os.symlink("/dev/zero", path)
    else:
        path.write_text("[" * 100_000 + "]" * 100_000)

from wizard import paths
paths.ensure_state_dir()
if reader == "table cache":
    from wizard import yaml_data
    table = root / "t.yaml"
    table.write_text("- 1\n")
    yaml_data.load_table(table, lambda data: data)
    info = table.stat()
    place(root / "state" / "cache" / "tables" / f"t-{info.st_dev:x}-{info.st_ino:x}.json")
    result = yaml_data.load_table(table, lambda data: data)
elif reader == "download sizes":
    from wizard.install.cost import _SizeCache
    cache = _SizeCache("index", "cp311", "x86_64")
    place(cache.path)
    result = cache._all()
elif reader == "kernel.json":
    from wizard.after.kernel import _written_by_us
    place(root / "k" / "kernel.json")
    result = _written_by_us(root / "k" / "kernel.json")
elif reader == "conda record":
    from wizard.verify.inspect_env import jaxlib_build
    place(root / "env" / "conda-meta" / "jaxlib-0.4.23-cuda120py311h.json")
    result = jaxlib_build(root / "env", [], {})["cudnn"]
elif reader == "direct_url.json":
    from wizard.verify.inspect_env import package_folder
    place(root / "g.dist-info" / "direct_url.json")
    result = package_folder([root], root / "g.dist-info", "graphcast")
elif reader == "assets recorded.json":
    from wizard.after.assets import _Recorded
    record = _Recorded(root / "assets")
    place(record.path)
    result = record.read()
elif reader == "last-assets.json":
    from wizard.after.assets_memory import remembered_assets
    place(root / "state" / "last-assets.json")
    result = remembered_assets()
elif reader == "CUDA version.json":
    from wizard.detect.libpath import toolkit_version, toolkit_version_json
    place(root / "toolkit" / "version.json")
    result = (toolkit_version(root / "toolkit"), toolkit_version_json(root / "toolkit" / "lib64"))
print(repr(result))
'''

#: Each reader and what it answers for a file it cannot use: the cache parsed again, the file passed over.
READERS = {
    "table cache": "[1]",
    "download sizes": "{}",
    "kernel.json": "None",
    "conda record": "None",
    "direct_url.json": "None",
    "assets recorded.json": "{}",
    "last-assets.json": "None",
    "CUDA version.json": "(None, {})",
}


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))


@pytest.mark.parametrize("kind", ["fifo", "zero", "deep"])
@pytest.mark.parametrize("reader", sorted(READERS))
def test_every_reader_passes_over_a_fifo_a_device_and_a_deep_file(tmp_path, reader, kind):
    try:
        done = subprocess.run([sys.executable, "-P", "-c", CHILD, reader, kind, str(tmp_path)], capture_output=True,
                              text=True, errors="replace", timeout=120, cwd=PACKAGE.parent, preexec_fn=_capped,
                              env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(PACKAGE.parent), "HOME": str(tmp_path)})
    except subprocess.TimeoutExpired:
        pytest.fail(f"{reader}: a {kind} there made the reader wait")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == READERS[reader], done.stdout


def test_read_json_names_the_file_in_one_sentence_for_each_way_a_file_hurts(tmp_path):
    from wizard import bounded

    deep = tmp_path / "deep.json"
    deep.write_text('{"a":' * 100_000 + "1" + "}" * 100_000)
    fifo = tmp_path / "fifo.json"
    import os

    os.mkfifo(fifo)
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    for path, words in ((deep, "is nested more than 64 levels deep"), (fifo, "named pipe (FIFO)"),
                        (broken, "is not valid JSON (line 1")):
        with pytest.raises(bounded.ParseLimitError) as caught:
            bounded.read_json(path, 1024 * 1024)
        assert str(caught.value).startswith(str(path)) and words in str(caught.value)


def _file_json_reads() -> list[str]:
    """`json.load(…)` anywhere, and `json.loads(…)` of a file's text read in the same call."""
    found = []
    readers = {"read_text", "read_bytes", "read_lenient_text", "read_regular_text", "read_head", "open", "read"}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "json"):
                continue
            inner = {getattr(n.func, "attr", getattr(n.func, "id", "")) for n in ast.walk(node)
                     if isinstance(n, ast.Call) and n is not node}
            if node.func.attr == "load" or (node.func.attr == "loads" and inner & readers):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    return found


def test_no_file_is_parsed_as_json_outside_the_one_bounded_reader():
    assert _file_json_reads() == []
    assert json  # the module the rule is about
