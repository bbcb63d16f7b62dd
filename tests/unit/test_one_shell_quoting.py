"""A copy-me line's words are quoted by one function (`security.shell_word`), and a shell reads each back as the bytes
it names.

Why: 33rd hostile pass (part A) P6 — a path holding U+0085 or U+2028 was quoted with `shlex.quote`, and the output
layer's `reveal_format_characters` then wrote the character as `\\u0085` inside the single quotes: the printed
`uv pip install --python '…'`, `export GC_WIZARD_HOME='…'`, `module use '…'`, plan's `--env '…'` and the kernel fix
line named a folder that does not exist. `shell_word` writes such a word as `$'…\\xNN…'` (pure ASCII, which the output
layer leaves alone). A later `shlex.quote`/`shlex.join` in a module that prints lines to copy fails here."""

from __future__ import annotations

import ast
import io
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from wizard.after.next_steps import use_lines
from wizard.commands.streams import GuardedStream
from wizard.install.add_package import add_package_command
from wizard.security import shell_line, shell_word

WIZARD = Path(__file__).resolve().parents[2] / "wizard"
#: Modules that write shell code for a shell to run, not lines for a person to copy: `activate`'s code is eval'd and
#: written verbatim (never revealed); the askpass helper is a /bin/sh script, which has no `$'…'`.
SCRIPT_WRITERS = {"wizard/after/activate.py", "wizard/install/private_args.py", "wizard/install/runner.py"}
ODD = ["/d/e\u0085x", "/d/h\u2028x", "/d/b\u202ex", "/d/n\nl", "/d/\udcff'\\q", "/d/t\tab", "/d/nb\u00a0sp"]
PLAIN = ["abc", "/tmp/a b", "it's", "/d/l\u00e9", "/d/\u65e5\u672c", "", "a$b`c`"]


def _bash_reads(word: str) -> bytes:
    return subprocess.run(["bash", "-c", f"printf %s {word}"], capture_output=True, check=True, timeout=30).stdout


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("text", ODD + PLAIN)
def test_bash_reads_every_quoted_word_back_as_the_paths_bytes_after_the_output_layer(text):
    raw = io.BytesIO()
    out = GuardedStream(io.TextIOWrapper(raw, encoding="utf-8"), -1, "standard output")
    out.write(f"export GC_WIZARD_HOME={shell_word(text)}\n")
    out.flush()
    printed = raw.getvalue().decode("utf-8", "surrogateescape").rstrip("\n").removeprefix("export GC_WIZARD_HOME=")
    assert _bash_reads(printed) == text.encode("utf-8", "surrogateescape")


@pytest.mark.parametrize("text", ODD)
def test_a_word_with_a_character_that_does_not_show_as_itself_is_ascii(text):
    assert shell_word(text).isascii() and shell_word(text).startswith("$'")


@pytest.mark.parametrize("text", PLAIN)
def test_a_word_that_shows_as_itself_is_quoted_as_shlex_quotes_it(text):
    assert shell_word(text) == shlex.quote(text)
    assert shell_line([text, "x"]) == shlex.join([text, "x"])


def test_the_copy_me_lines_use_it():
    assert use_lines("tiny-a", "/d/h\u2028x")[0] == "module use $'/d/h\\xe2\\x80\\xa8x'"
    assert "$'/d/e\\xc2\\x85x/bin/python'" in add_package_command("/d/e\u0085x", "ipykernel", pip=False)


def test_no_module_that_prints_lines_to_copy_quotes_with_shlex():
    offenders = []
    for path in sorted(WIZARD.rglob("*.py")):
        name = str(path.relative_to(WIZARD.parent))
        if name in SCRIPT_WRITERS or name == "wizard/security.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=name)):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "shlex"
                    and node.attr in ("quote", "join")):
                offenders.append(f"{name}:{node.lineno}")
    assert not offenders, f"quoted without security.shell_word/shell_line: {offenders}"
