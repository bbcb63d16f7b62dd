"""An error's sentence on a terminal is wrapped to its width between words; into a pipe it stays one line (walk 21
#6/#7: the terminal broke `recommended her` / `e)` mid-word)."""

from __future__ import annotations

import fcntl
import io
import os
import struct
import termios

from wizard.errors import for_terminal

SENTENCE = ("gc-wizard: unknown recipe 'jax-cpu'; did you mean jax0.4.23-cpu (recommended here), jax0.10.2-cpu or "
            "jax0.12.0.1-cpu? `gc-wizard recipes` lists all 12.")


def test_a_terminal_gets_the_sentence_wrapped_between_words_and_a_pipe_gets_one_line():
    leader, follower = os.openpty()
    try:
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 60, 0, 0))
        with os.fdopen(follower, "w", closefd=False) as terminal:
            lines = for_terminal(SENTENCE, terminal).split("\n")
    finally:
        os.close(leader)
        os.close(follower)
    assert len(lines) > 1 and all(len(line) <= 60 for line in lines), lines
    assert " ".join(" ".join(lines).split()) == SENTENCE and "(recommended here)," in "\n".join(lines)
    assert for_terminal(SENTENCE, io.StringIO()) == SENTENCE
