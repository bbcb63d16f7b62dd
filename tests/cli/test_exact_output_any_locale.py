"""28th hostile pass (part A) P2: under `LC_ALL=C`, or `PYTHONIOENCODING=ascii`/`latin-1`, `activate` printed a recipe
value `café😀` as `export JAX_GC_TINY='caf??'` and `recipes --json` as `"caf??"`, with exit 0, while kernel.json and the
Lua module held it exactly: the shell, the notebook and `module load` got different values. The one output layer
(`wizard.commands.streams`) now writes shell code as UTF-8 and a JSON line the locale cannot write with `\\u` escapes.
A real install of tiny local wheels, a real kernel.json, a real bash that evals the code."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.state import REPO, run_cli
from wizard.commands.streams import GuardedStream

VALUE = "caf\u00e9\U0001f600"
LOCALES = [{"LC_ALL": "C", "PYTHONUTF8": "0"}, {"PYTHONIOENCODING": "ascii"}, {"PYTHONIOENCODING": "latin-1"},
           {"LC_ALL": "C.UTF-8"}]


def _raw(*args: str, env: dict) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LANG", "PYTHONIOENCODING", "PYTHONUTF8")}
    full.update(env)
    return subprocess.run([sys.executable, "-m", "wizard", *args], capture_output=True, env=full, cwd=str(REPO),
                          timeout=300, check=False)


@pytest.fixture
def installed(tiny):
    """tiny-k with `JAX_GC_TINY: "café😀"`, installed in a UTF-8 shell, its kernel registered."""
    tiny.house.add("ipykernel", "6.0")
    tiny.write("tiny-k", ["pkg-a==1.0", "ipykernel==6.0"])
    recipe = tiny.recipes / "tiny-k.yaml"
    recipe.write_text(recipe.read_text().replace('JAX_GC_TINY: "tiny-k"', f'JAX_GC_TINY: "{VALUE}"'),
                      encoding="utf-8")
    proc, result = tiny.install("tiny-k")
    assert proc.returncode == 0, proc.stderr
    kernel = run_cli("kernel", "install", "--env", result["env"])
    assert kernel.returncode == 0, kernel.stderr
    spec = next(Path(os.environ["JUPYTER_DATA_DIR"]).glob("kernels/*/kernel.json"))
    return tiny, json.loads(spec.read_text(encoding="utf-8"))["env"]["JAX_GC_TINY"]


@pytest.mark.parametrize("locale", LOCALES, ids=lambda e: ",".join(f"{k}={v}" for k, v in e.items()))
def test_activate_and_json_carry_the_kernels_value_exactly_under_any_locale(installed, locale):
    tiny, in_kernel = installed
    assert in_kernel == VALUE
    code = _raw("activate", env=locale)
    assert code.returncode == 0, code.stderr
    evaluated = subprocess.run(["bash", "-c", 'eval "$1" >/dev/null 2>&1; printf %s "$JAX_GC_TINY"', "_", code.stdout],
                               capture_output=True, env={"PATH": os.environ["PATH"], "LC_ALL": "C"}, check=True)
    assert evaluated.stdout == in_kernel.encode("utf-8"), evaluated.stdout
    listed = _raw("recipes", "--json", "--recipes-dir", str(tiny.recipes), env=locale)
    assert listed.returncode == 0, listed.stderr
    data = json.loads(listed.stdout.splitlines()[-1])
    recipes = data if isinstance(data, list) else data["recipes"]
    assert next(r for r in recipes if r["id"] == "tiny-k")["runtime_env"]["JAX_GC_TINY"] == in_kernel


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "utf-8"])
def test_a_json_line_the_stream_cannot_encode_is_escaped_and_shell_code_is_utf8(encoding):
    raw = io.BytesIO()
    out = GuardedStream(io.TextIOWrapper(raw, encoding=encoding, errors="strict"), -1, "standard output")
    out.write('{"v": "' + VALUE + '", "q": "a\\"b"}\n')
    out.write("prose " + VALUE + "\n")
    out.flush()
    first, second = raw.getvalue().split(b"\n")[:2]
    assert json.loads(first) == {"v": VALUE, "q": 'a"b'}
    assert second.startswith(b"prose caf")  # prose keeps the stream's stand-ins
    raw.seek(0), raw.truncate()
    out.write_verbatim(f"export X='{VALUE}'\nexport P='/d/\udcff'\n")
    out.flush()
    assert raw.getvalue() == f"export X='{VALUE}'\n".encode() + b"export P='/d/\xff'\n"
