"""The CLI's text wrapping: messages read as sentences at 80 columns, paths stay whole."""

from __future__ import annotations

from wizard.commands.output import wrapped


def test_a_messages_own_runs_of_spaces_become_one():
    message = ("This server cannot reach github.com; on a machine with internet, `git clone       "
               "https://github.com/google-deepmind/graphcast` and copy it here.")
    lines = wrapped(f"! {message}", 80, "    ", "      ")
    assert all(len(line) <= 80 for line in lines)
    assert "`git clone https://github.com/google-deepmind/graphcast`" in " ".join(line.strip() for line in lines)


def test_a_word_longer_than_the_line_stays_whole():
    path = "/srv/lab/" + "x" * 90 + "/envs/jax0.4.23-cpu"
    lines = wrapped(f"env {path} here", 80)
    assert path in lines
