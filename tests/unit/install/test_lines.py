"""LineAssembler: the cleaning every face relies on."""

from wizard.install.lines import LineAssembler, strip_ansi


def test_carriage_return_progress_collapses_to_its_last_state():
    a = LineAssembler()
    assert a.feed("10%\r50%\r100%\r\nnext\n") == ["100%", "next"]


def test_ansi_colours_and_osc_titles_are_stripped():
    assert strip_ansi("\x1b[31mred\x1b[0m \x1b]0;title\x07ok \x1b[?25l") == "red ok "


def test_escape_split_across_chunks_is_not_leaked():
    a = LineAssembler()
    assert a.feed("hello \x1b[3") == []
    assert a.feed("1mworld\x1b[0m\n") == ["hello world"]


def test_unfinished_line_is_exposed_as_live():
    a = LineAssembler()
    assert a.feed("Resolving\nProceed ([y]/n)? ") == ["Resolving"]
    assert a.live == "Proceed ([y]/n)? "
    a.feed("\r⠙ Building 3/7")
    assert a.live == "⠙ Building 3/7"


def test_flush_returns_the_last_unterminated_line():
    a = LineAssembler()
    a.feed("no newline at the end")
    assert a.flush() == ["no newline at the end"]
    assert a.flush() == []


def test_escape_split_right_after_esc_and_osc_split_across_chunks():
    a = LineAssembler()
    assert a.feed("a\x1b") == [] and a.live == "a"
    assert a.feed("[1mb\x1b]0;ti") == [] and a.live == "ab"
    assert a.feed("tle\x07c\n") == ["abc"]


def test_other_escapes_and_control_characters_leave_no_trace():
    a = LineAssembler()
    assert a.feed("\x1b7x\x1b8\x1b(By\x1b=\x07\x00z\tw\n") == ["xyz\tw"]


def test_crlf_split_across_chunks_and_cr_redraws_with_colours():
    a = LineAssembler()
    assert a.feed("step 1\r") == []
    assert a.feed("\n\x1b[2K\r\x1b[32m 40%\x1b[0m\r\x1b[2K\r\x1b[32m100%\x1b[0m\n") == ["step 1", "100%"]
    assert a.live == ""


def test_unterminated_osc_does_not_swallow_output_forever():
    a = LineAssembler()
    out = a.feed("\x1b]8;;" + "x" * 5000)
    out += a.feed(" tail\nnext\n")
    assert out[-1] == "next"


def test_escape_at_the_end_of_a_chunk_does_not_eat_the_newline():
    a = LineAssembler()
    assert a.feed("a\x1b\n") == ["a"]  # a lone ESC then a newline: the line still ends
    (line,) = a.feed("b\x1b[31\n")  # a CSI cut by a newline: the line ends, no ESC leaks
    assert line.startswith("b") and "\x1b" not in line


def test_a_long_spinner_keeps_only_its_last_state():
    a = LineAssembler()
    for i in range(10000):
        a.feed(f"\r\x1b[2K⠙ Resolving dependencies... {i}")
    assert a.live == "⠙ Resolving dependencies... 9999"
    assert len(a._buffer) < 100  # earlier redraws are not kept
    assert a.feed("\n") == ["⠙ Resolving dependencies... 9999"]


def test_a_trailing_carriage_return_keeps_the_shown_text_until_overwritten():
    a = LineAssembler()
    a.feed("Downloading 40%\r")
    assert a.live == "Downloading 40%"
    a.feed("Downloading 41%")
    assert a.live == "Downloading 41%"


def test_c1_controls_and_charset_escapes_are_removed():
    assert strip_ansi("a\x9b31mb\x1b(0c\x1bMd\x1bce\x7f") == "a31mbcde"


def test_an_endless_line_is_handed_out_in_pieces():
    from wizard.install.lines import MAX_LINE

    a = LineAssembler()
    out = []
    for _ in range(3):
        out += a.feed("x" * (MAX_LINE // 2 + 1))
    assert out and all(len(piece) <= MAX_LINE + MAX_LINE // 2 + 1 for piece in out)
    assert sum(map(len, out)) + len(a.live) == 3 * (MAX_LINE // 2 + 1)


def test_every_split_point_gives_the_same_lines():
    raw = ("\x1b[1mCollecting\x1b[0m jax\r\n\x1b]0;uv\x07  50%\r\x1b[2K 100%\r\n"
           "\x1b(BProceed ([y]/n)? ")
    whole = LineAssembler()
    expected = whole.feed(raw)
    for cut in range(1, len(raw)):
        a = LineAssembler()
        assert a.feed(raw[:cut]) + a.feed(raw[cut:]) == expected == ["Collecting jax", " 100%"], cut
        assert a.live == whole.live == "Proceed ([y]/n)? "
