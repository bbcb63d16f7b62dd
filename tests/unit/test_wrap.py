"""The one wrap (`wizard.wrap`): between words only, a number with its unit, a command broken with `\\`."""

from __future__ import annotations

import subprocess

from wizard.wrap import command, command_words, keep_together, wrap


def test_a_path_command_or_option_is_never_broken_and_a_long_one_stands_alone():
    text = ("On a machine that can reach it, `gc-wizard bundle jax0.4.23-cpu --out DIR --with-assets` gathers "
            "them from https://storage.googleapis.com/dm_graphcast/graphcast/params/a-very-long-file-name.npz here")
    lines = wrap(text, 30, "   ")
    assert " ".join(" ".join(lines).split()) == " ".join(text.split())  # every word kept, none cut
    assert "--with-assets`" in [word for line in lines for word in line.split()]
    url = next(line for line in lines if "https://" in line)
    assert url.strip() == "https://storage.googleapis.com/dm_graphcast/graphcast/params/a-very-long-file-name.npz"
    assert all(len(line) <= 30 for line in lines if line is not url)


def test_a_number_stays_with_its_unit():
    """Walk 21 #15: `needs ~8` / `GB GPU` and `~300` / `GB RAM` across two lines."""
    for width in range(12, 40):
        lines = wrap("GraphCast 0.25 needs ~8 GB GPU and ~300 GB RAM here (host RAM 23.5 GiB, 15.9 s)", width, "  ")
        for line in lines:
            assert not line.rstrip().endswith(("~8", "~300", "23.5", "15.9")), lines
            assert line.split()[0] not in ("GB", "GiB", "s"), lines


def test_words_kept_together_and_the_indents():
    lines = wrap(f"libcudart.so.12 (via ldconfig)  {keep_together('<- loads first')}", 30, "* ", "    ")
    assert lines == ["* libcudart.so.12 (via", "    ldconfig) <- loads first"]
    assert wrap("", 10, "  ") == ["  "]


def test_a_long_command_breaks_between_words_with_a_backslash_and_still_runs_as_one(tmp_path):
    words = command_words(f'echo "a b" {tmp_path}/{"x" * 50} --with-assets "$(echo c d)"')
    assert words[1] == '"a b"' and words[-1] == '"$(echo c d)"'
    assert command_words("export GC_WIZARD_HOME='/a b'  x") == ["export", "GC_WIZARD_HOME='/a b'", "x"]
    lines = command(words, 40, "", "    ")
    assert len(lines) > 1 and all(line.endswith(" \\") for line in lines[:-1])
    out = subprocess.run(["bash", "-c", "\n".join(lines)], capture_output=True, text=True)
    assert out.stdout == f"a b {tmp_path}/{'x' * 50} --with-assets c d\n"


def test_a_long_option_and_its_value_break_together():
    """The Next: lines broke `--assets \\` / `DIR/assets` for one length of the path before them: an option at a
    line's end without its value reads as broken. `--opt=value`, short flags and a following option stay words."""
    from wizard.wrap import command

    words = ["/a/rather/long/path/to/the/venv/bin/gc-wizard", "forecast", "--assets", "DIR/assets"]
    for width in range(30, 80):
        lines = command(words, width)
        assert not any(line.endswith("--assets \\") for line in lines), (width, lines)
        assert " ".join(line.rstrip(" \\").strip() for line in lines) == " ".join(words)
    assert command(["x", "--yes", "--json"], 12) == ["x --yes \\", "    --json"]
