"""Every child process whose output the wizard reads as text decodes it without failing on a stray byte.

Sixth hostile pass 5b: `bundle --out $'/tmp/x/bun\\xff'` — pip echoed the path, `subprocess.run(..., text=True)`
decoded its output strictly, and the bundle ended in "stopped on an error of its own (UnicodeDecodeError…)".
A child's output is another program's words (a path, a package's metadata, a locale's messages): the class is
fixed where the wizard asks for text, so this test reads every such call in the package and requires an
`errors=` handler beside `text=True`/`encoding=`/`universal_newlines=True`.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import wizard
from wizard import children

PACKAGE = Path(wizard.__file__).parent
CHILD_CALLS = {"run", "Popen", "check_output", "spawn"}


def _text_calls_without_errors() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name not in CHILD_CALLS:
                continue
            keywords = {k.arg: k.value for k in node.keywords if k.arg}
            as_text = any(isinstance(keywords.get(k), ast.Constant) and keywords[k].value is True
                          for k in ("text", "universal_newlines")) or "encoding" in keywords
            if as_text and "errors" not in keywords and "codec_errors" not in keywords:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    return found


def test_every_text_mode_child_call_names_an_error_handler():
    assert _text_calls_without_errors() == []


def test_a_child_that_prints_a_byte_that_is_not_utf8_is_read_with_a_replacement(tmp_path):
    script = "import sys; sys.stdout.buffer.write(b'/tmp/x/bun\\xff\\n'); sys.stderr.buffer.write(b'\\xfe\\n')"
    proc = children.run_capture([sys.executable, "-c", script], timeout=60)
    assert proc.returncode == 0 and proc.stdout == "/tmp/x/bun\ufffd\n" and proc.stderr == "\ufffd\n"
    assert isinstance(proc, subprocess.CompletedProcess)
