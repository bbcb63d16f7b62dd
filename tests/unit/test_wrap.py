"""The one wrap (`wizard.wrap`): between words only, a number with its unit, a command broken with `\\`, and laid-out
lines wrapped under their own values (`hanging`)."""

from __future__ import annotations

import random
import subprocess

from wizard.wrap import command, command_words, hanging, keep_together, wrap


def test_a_path_command_or_option_is_never_broken_and_a_long_one_stands_alone():
    text = ("On a machine that can reach it, `gc-wizard bundle jax0.4.23-cpu --out DIR --with-assets` gathers "
            "them from https://storage.googleapis.com/dm_graphcast/graphcast/params/a-very-long-file-name.npz here")
    lines = wrap(text, 30, "   ")
    assert " ".join(" ".join(lines).split()) == " ".join(text.split())  # every word kept, none cut
    assert "--with-assets`" in [word for line in lines for word in line.split()]
    url = next(line for line in lines if "https://" in line)
    assert url.strip() == "https://storage.googleapis.com/dm_graphcast/graphcast/params/a-very-long-file-name.npz"
    quoted = next(line for line in lines if "`" in line)  # the backquoted command: one word, longer than a row
    assert quoted == "`gc-wizard bundle jax0.4.23-cpu --out DIR --with-assets`"
    assert all(len(line) <= 30 for line in lines if line not in (url, quoted))


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


def test_each_wrapped_row_hangs_under_the_start_of_its_value():
    """Walk 28 #18: a label's value, a bullet's paragraph and a quoted evidence line went on at column 0 or 1."""
    lines = ["cudart 13.0.96  /usr/local/cuda-13.0/lib/libcudart.so.13 (via ldconfig), newer than CUDA 12.2, the "
             "most this driver supports",
             "     > jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: No visible GPU devices. (you may need to "
             "uninstall the failing plugin package)",
             "   Fix: Check `nvidia-smi` and `echo $CUDA_VISIBLE_DEVICES` in the same shell or job that runs JAX, and run "
             "on a node with a free GPU.",
             "! The new environment was removed; nothing else was touched, and the current one stays current as it was.",
             "short line  kept   as it is"]
    rows = hanging(lines, 60)
    assert all(len(row) <= 60 for row in rows), rows
    assert " ".join(" ".join(rows).split()) == " ".join(" ".join(lines).split())  # every word, in order, none cut
    starts = {line.split()[0]: [] for line in lines}
    for row in rows:
        if row and row[0] != " " or row.lstrip().startswith((">", "Fix:")):
            first = row.split()[0]
        starts[first].append(len(row) - len(row.lstrip()))
    assert starts["cudart"] == [0, 16, 16]  # under the value, past the label's column
    assert starts[">"] == [5, 7, 7]  # under the quoted text, past "> "
    assert starts["Fix:"] == [3, 8, 8]  # under the fix, past "Fix: "
    assert starts["!"] == [0, 2]
    assert rows[-1] == "short line  kept   as it is"  # a line that fits keeps its own spacing


def test_a_long_path_is_never_cut_and_a_home_one_is_spelled_with_a_tilde(monkeypatch):
    """Walk 28 #18: the Roll back? dialog cut `…/envs/jax0.4.23-cpu-20` / `261128-193636`. A path moves left to stay
    whole on its row; on the app's screens one longer than any row is spelled with ~ for the home folder."""
    monkeypatch.setenv("HOME", "/home/newbie")
    path = "/home/newbie/.local/share/gc-wizard/envs/jax0.4.23-cpu-20261128-193636"
    home = path[len("/home/newbie"):]
    assert hanging(["target : jax0.4.23-cpu [20261128-193636]", f"         {path}"], 66, tilde=True)[1] == \
        f"       ~{home}"
    assert hanging([f"         {path}"], 75) == [f"     {path}"]  # the CLI's: fits when moved left, spelled as it is
    # The app's: with ~ it stays under its row's start, in line with the rows around it (walk 38 #6).
    assert hanging([f"         {path}"], 75, tilde=True) == [f"         ~{home}"]
    rows = hanging([f"stopped: cancelled by the user; the new environment {path} was removed, and no environment is "
                    "current (there was none before)"], 76, tilde=True)
    assert len(rows) == 3 and rows[1].startswith(f"         ~{home}"), rows
    assert all(row.startswith(" " * 9) and row[9] != " " for row in rows[1:]), rows
    assert hanging([f"GraphCast env  {path}"], 72, tilde=True) == ["GraphCast env", f"  {path}"]
    assert hanging([f"GraphCast env  {path}"], 66, tilde=True) == ["GraphCast env", f"       ~{home}"]
    assert hanging([f"GraphCast env  {path}"], 66) == ["GraphCast env", path]  # the CLI's: as it is, for scripts
    assert hanging([f"  {path} was removed."], 40, tilde=True)[:2] == [f"~{home}", "  was removed."]


def test_a_label_padded_before_its_colon_hangs_its_value_as_the_one_above():
    """Walk 33 #6: `target : ` (padded to line up under `current: `) is a label too; its value went on at column 0."""
    rows = hanging(["current: jax0.4.23-cpu [20261129-005912-366e] — jax 0.4.23, jaxlib 0.4.23, numpy 1.26.4",
                    "target : jax0.4.23-cpu [20261129-005250-946e] — jax 0.4.23, jaxlib 0.4.23, numpy 1.26.4"], 70)
    assert rows[1] == "         0.4.23, numpy 1.26.4" and rows[3] == "         0.4.23, numpy 1.26.4", rows


def _prose_with_commands(rng: random.Random) -> tuple[str, list[str]]:
    """A paragraph of prose with backquoted commands of several lengths in it (some with punctuation after them, some
    longer than any row), and the commands as they should be read back."""
    words = ["run", "the", "install", "again", "nothing", "failed;", "(in", "app,", "p", "row)", "or", "then", "to"]
    parts: list[str] = []
    spans: list[str] = []
    for _ in range(rng.randint(2, 5)):
        parts += rng.choices(words, k=rng.randint(0, 12))
        command = " ".join(["/home/u/" + "x" * rng.randint(1, 40) + "/bin/gc-wizard"]
                           + rng.choices(["install", "jax0.4.23-cpu", "--graphcast-src", "/home/u/graphcast", "-y",
                                          "--assets", "DIR/assets", "&&", ".venv/bin/pip", "./gc-wizard"],
                                         k=rng.randint(0, 8)))
        spans.append(f"`{command}`")
        parts.append(spans[-1] + rng.choice(["", ",", ".", ")", ";"]))
    return " ".join(parts), spans


def test_a_backquoted_command_in_prose_is_never_broken_at_any_width():
    """Walk 37 #3: the fold put real line breaks inside backquoted commands (`… install jax0.4.23-cpu` / `--graphcast-src
    /home/lab2/graphcast` again`), so a copied command ran as two and left a backquote open. A span that fits goes on
    whole (on the next row if not this one); a longer one stands whole on a row of its own. Both `wrap` and `hanging`
    (whose first row is cut on its own) keep it, and the prose around it still fits the width."""
    rng = random.Random(37)
    for _ in range(300):
        text, spans = _prose_with_commands(rng)
        width = rng.randint(20, 120)
        for rows in (wrap(text, width, "  "), wrap(text, width, "Next: ", "      "),
                     hanging("  Next: " + text, width), hanging("     Fix: " + text, width)):
            assert " ".join(" ".join(rows).split()).endswith(" ".join(text.split())), rows  # every word, in order
            assert all(row.count("`") % 2 == 0 for row in rows), (width, rows)  # no row leaves a backquote open
            for span in spans:
                assert any(span in row for row in rows), (width, span, rows)
            for row in rows:
                if len(row) > width:  # only a span longer than a row, alone on its row (beside its label, or punctuation)
                    alone = row.strip().removeprefix("Next: ").strip(",.);")
                    assert alone in spans and len(alone) > width - 8, (width, row)
