"""A URL's login is masked whatever stands right before its scheme: a terminal's colour code (`ESC[36m`, as uv, pip and
git colour a URL), an OSC 8 link's introducer, any other control byte, a digit, a letter, `=`, `+`, `.` or `-`.

Why: 37th hostile pass (part B) P2 — `ESC[36mhttps://user:PW@host/` read as the word `36mhttps://…`, and a scheme
may not start with a digit, so `history --json` and the app's History screen printed the password while the same URL
after a blank was masked. Generated variants: every prefix × URL form × suffix, through both maskers."""

from __future__ import annotations

import itertools

import pytest

from wizard.security import redact_credentials, redact_secrets

SECRET = "SECRETpw9"
PREFIXES = ["", " ", "x", "5", "=", "(", "-", ".", "+", "_", "git+", "\x1b[36m", "\x1b[5m", "\x1b[0m", "\x1b[1;31m",
            "\x1b[38;5;208m", "\x1b[?25l", "a\x1b[36m", "7\x1b[36m", "\x1b]8;;", "\x1b]8;id=1;", "\x1b]0;title\x07",
            "\x1b(B", "\x1b7", "\x1bP1$r\x1b\\", "\x9b36m", "\x01", "\x08", "\x7f", "\r", "\x1b[36mgit+",
            "\\u001b[36m", "\\x1b[5m"]
URLS = [f"https://user:{SECRET}@x.example/simple/", f"http://u:{SECRET}@h", f"https:/u:{SECRET}@h/",
        f"https:\\\\u:{SECRET}@h/", f"git+https://u:{SECRET}@h/x.git", f"ftp://u:{SECRET}@h", f"custom://u:{SECRET}@h/",
        f"https://u:{SECRET}@h:8080/", f"HTTPS://u:{SECRET}@h/"]
SUFFIXES = ["", "\x1b[39m", "\x1b\\", "\x07", " ", "\x1b[0m tail", ")"]


@pytest.mark.parametrize("prefix", PREFIXES)
def test_a_url_login_is_masked_whatever_precedes_the_scheme(prefix):
    missed = []
    for url, suffix, keep_user in itertools.product(URLS, SUFFIXES, (False, True)):
        text = f"error: Failed to fetch: {prefix}{url}{suffix}"
        if SECRET in redact_secrets(text, keep_user=keep_user):
            missed.append(("redact_secrets", keep_user, text))
    for url, suffix in itertools.product(URLS, SUFFIXES):
        if "://" in url and SECRET in redact_credentials(f"{prefix}{url}{suffix}"):
            missed.append(("redact_credentials", True, f"{prefix}{url}{suffix}"))
    assert not missed, missed


@pytest.mark.parametrize("text", [
    f"\x1b[36muser:{SECRET}@host.example",  # a scheme-less login after a colour code
    f"\x01user:{SECRET}@host.example/x",
    f"password=\x1b[1m{SECRET}\x1b[0m",  # a name and its value a colour code splits: the whole text's pass
    f"\x1b]8;;https://u:{SECRET}@h\x1b\\link\x1b]8;;\x1b\\",  # an OSC 8 link
    f"\x1b[36mhttps://pypi.fury.io/{SECRET}/acct/simple/\x1b[39m",  # a credential in the path, after a colour code
    "50 copies: " + "".join(f"https://u:{SECRET}@x/ \x1b[5m" for _ in range(50)),
])
def test_control_sequences_are_boundaries_for_every_rule(text):
    assert SECRET not in redact_secrets(text), redact_secrets(text)


def test_the_terminal_codes_around_a_masked_url_stay_and_plain_colour_is_left_alone():
    assert redact_secrets(f"\x1b[36mhttps://user:{SECRET}@x.example/\x1b[39m") == \
        "\x1b[36mhttps://<redacted>@x.example/\x1b[39m"
    assert redact_secrets(f"\x1b[36muser:{SECRET}@host.example") == "\x1b[36m<redacted>@host.example"
    for text in ("\x1b[36mINFO\x1b[0m resolved 3 packages", "\x1b[1mhttps://pypi.org/simple/\x1b[0m",
                 "\x1b]8;;https://pypi.org/project/jax/\x1b\\jax\x1b]8;;\x1b\\", "5https://host/x"):
        assert redact_secrets(text) == text
