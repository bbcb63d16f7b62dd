"""The `--json` line stays JSON after stdout's own masking pass (`security.redact_output`), whatever secret a
value quotes: masking the serialised text ate the `\\` of an escaped quote (`\\"Bearer X\\"`) or ran a `Cookie:`
value to the line's end, and the last stdout line, the one scripts parse, no longer parsed (seventeenth hostile
pass P2). One generated case per masking rule, in a string, a list and a key."""

from __future__ import annotations

import json

import pytest

from wizard.commands.output import emit_json
from wizard.commands.streams import guarded_streams
from wizard.security import json_text, redact_output

SECRET = "Zq7secretVALUE42x"

#: Every rule's shape with the secret inside, quoted (`"…"`) where a log would quote it: each one a string that a
#: finding, an error or a recipe's title could carry into a `--json` line.
SHAPES = [
    f'header "Authorization: Bearer {SECRET}" sent',
    f"Authorization: token {SECRET}",
    f'"Cookie: sessionid={SECRET}"',
    f"Set-Cookie: t={SECRET}; Path=/",
    f'machine h login u password "{SECRET}"',
    f"curl -u me:{SECRET} https://h/x",
    f'docker login -u me -p "{SECRET}" registry',
    f"mysql -p{SECRET} db",
    f'password: "{SECRET}"',
    f"HF_TOKEN='{SECRET}'",
    f'{{"api_key": "{SECRET}"}}',
    f"https://me:{SECRET}@example.invalid/simple",
    f"https://h/x.whl?X-Amz-Signature={SECRET}&b=1",
    f"-----BEGIN RSA PRIVATE KEY-----\n{SECRET}\n-----END RSA PRIVATE KEY-----",
]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("where", ["string", "list", "key"])
def test_a_json_line_stays_json_and_masked(shape, where):
    value = {"string": {"ok": False, "error": shape, "exit": 1},
             "list": {"lines": [shape, f"({shape})"]},
             "key": {shape: 1}}[where]
    line = json_text(value) + "\n"
    written = redact_output(line)
    assert written.endswith("\n")
    parsed = json.loads(written)
    assert SECRET not in written and SECRET not in json.dumps(parsed), written
    assert "<redacted>" in written or "***" in written, written


def test_a_line_with_nothing_to_mask_is_written_as_it_came():
    line = '{"ok": true, "env": "/s/envs/a",   "note": "Authorization header not needed"}\n'
    assert redact_output(line) == line


def test_text_around_a_json_line_is_masked_as_text_a_key_block_whole():
    text = (f"see {{\n-----BEGIN PRIVATE KEY-----\n{SECRET}\n-----END PRIVATE KEY-----\n"
            f'{{"error": "password={SECRET}"}}\nafter token={SECRET}\n')
    written = redact_output(text)
    assert SECRET not in written
    assert "-----BEGIN PRIVATE KEY----- <redacted> -----END PRIVATE KEY-----" in written
    json_line = next(line for line in written.splitlines() if line.startswith('{"error"'))
    assert json.loads(json_line) == {"error": "password=<redacted>"}


def test_stdout_writes_the_json_line_masked_and_valid(capfdbinary):
    """Through the real output layer, as a command's last line is written."""
    with guarded_streams():
        emit_json({"ok": False, "error": f'RuntimeError: header "Authorization: Bearer {SECRET}" sent', "exit": 1})
    out = capfdbinary.readouterr().out.decode()
    assert json.loads(out.splitlines()[-1])["error"] == 'RuntimeError: header "Authorization: Bearer <redacted>" sent'


def test_a_stdout_that_does_not_mask_gets_the_values_masked_by_emit_json(capsys):
    """`emit_json` leaves the masking to the CLI's stdout, which masks a JSON line value by value; any other stdout
    (a library caller's, this capture) still gets no secret."""
    emit_json({"error": f"export HF_TOKEN={SECRET}\nnext line", "url": f"https://me:{SECRET}@host/simple/"})
    line = capsys.readouterr().out.splitlines()[-1]
    assert SECRET not in line and "\\nnext line" in line, line
