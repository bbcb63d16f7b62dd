"""LineAssembler: the cleaning every face relies on."""

from wizard.lines import LineAssembler, strip_ansi


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
