"""What a CLI install that did not succeed says of the environment current before it: untouched, or on a first
install that there is none. Walk 28 #13: the CLI's Ctrl-C line said "Your current environment is untouched" where no
environment was current (the app and `history` said it right: one builder, `results.untouched_words`, for all)."""

from __future__ import annotations

from tests.fixtures.cli import run_inproc

NONE = "No environment is current (there was none before either)."
UNTOUCHED = "Your current environment is untouched."


def test_a_first_install_that_fails_says_no_environment_is_current(tiny, isolated_state):
    tiny.write("tiny-broken", ["pkg-a==1.0", "pkg-nowhere==9.9"])  # in no wheelhouse: the packages' step fails
    failed = run_inproc("install", "tiny-broken", "--yes", *tiny.args())
    assert failed.returncode == 1, failed.stderr
    assert NONE in failed.stderr and UNTOUCHED not in failed.stderr


def test_with_an_environment_current_it_is_said_untouched(tiny, isolated_state):
    good, _ = tiny.install("tiny-a")
    assert good.returncode == 0, good.stderr
    tiny.write("tiny-broken", ["pkg-a==1.0", "pkg-nowhere==9.9"])
    failed = run_inproc("install", "tiny-broken", "--yes", *tiny.args())
    assert failed.returncode == 1, failed.stderr
    assert UNTOUCHED in failed.stderr and NONE not in failed.stderr
