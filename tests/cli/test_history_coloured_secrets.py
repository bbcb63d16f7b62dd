"""`history --json` and plain `history` mask a URL login that a terminal colour code stands right before (37th hostile
pass (part B) P2: an entry's error holding `ESC[36mhttps://user:PW@host/ESC[39m`, as uv colours a URL, was printed in
clear by `history --json`, while the same URL after a blank was masked)."""

from __future__ import annotations

import json

from tests.fixtures.cli import run_inproc

PLAIN, COLOURED, LINKED = "plainPW11", "colourPW22", "oscLinkPW33"


def test_history_masks_a_login_after_a_colour_code_or_in_a_terminal_link(tiny, isolated_state):
    tiny.install("tiny-a")
    path = isolated_state / "history.json"
    state = json.loads(path.read_text())
    state["entries"][-1]["status"] = "failed"
    state["entries"][-1]["error"] = (
        f"error: Failed to fetch: https://user:{PLAIN}@x.example/simple/ and "
        f"\x1b[36mhttps://user:{COLOURED}@x.example/simple/\x1b[39m "
        f"\x1b]8;;5https://u:{LINKED}@x.example/\x1b\\index\x1b]8;;\x1b\\")
    path.write_text(json.dumps(state))
    for args in (("history", "--json"), ("history",)):
        proc = run_inproc(*args)
        said = proc.stdout + proc.stderr
        assert proc.returncode == 0, said
        if "--json" in args:
            assert said.count("x.example") >= 3, said  # the URLs are shown, their passwords masked
        assert PLAIN not in said and COLOURED not in said and LINKED not in said, said
