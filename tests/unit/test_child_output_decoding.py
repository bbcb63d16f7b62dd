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


def test_a_name_a_child_printed_lossily_is_refused_as_an_oserror_under_a_c_locale(tmp_path):
    """uv prints a path with a byte that is not UTF-8 lossily (U+FFFD); under LC_ALL=C PYTHONUTF8=0 that name cannot
    be encoded back to bytes, and starting a child with it raised UnicodeEncodeError through every caller (a
    traceback from the Python search). run_capture turns it into the OSError its callers answer; the probe of such a
    Python is "does not run" (None). A real child process under the real C locale."""
    script = (
        "from wizard import children\n"
        "from wizard.recipes.pythons import probe_python\n"
        "try:\n"
        "    children.run_capture(['/tmp/\\ufffd/python', '-V'], timeout=10)\n"
        "except OSError as error:\n"
        "    print('OSError', error)\n"
        "print('probe', probe_python('/tmp/\\ufffd/python3', 'uv'))\n")
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONPATH": str(PACKAGE.parent)}
    done = subprocess.run([sys.executable, "-P", "-c", script], capture_output=True, text=True, errors="replace",
                          env=env, cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "OSError '/tmp/\\ufffd/python' cannot be named in this locale's encoding" in done.stdout, done.stdout
    assert "probe None" in done.stdout and "Traceback" not in done.stderr
