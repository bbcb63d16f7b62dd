"""LineAssembler: the cleaning every face relies on."""

from wizard.install.lines import LineAssembler, fold_tracebacks, strip_ansi


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


# 27th hostile pass (part A) P5: an installer's Python traceback reached every channel verbatim.
PIP_CRASH = '''\
ERROR: Exception:
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/pip/_internal/cli/base_command.py", line 180, in exc_logging_wrapper
    status = run_func(*args)
             ^^^^^^^^^^^^^^^
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/urllib/request.py", line 1688, in pathname2url
    return quote(pathname)
UnicodeEncodeError: 'utf-8' codec can't encode character '\\udcff' in position 36: surrogates not allowed
'''

UV_BUILD = '''\
  × Failed to build `pkg-c @ file:///srv/wheels/pkg_c-1.0.tar.gz`
  ╰─▶ The build backend returned an error

      [stderr]
      Traceback (most recent call last):
        File "<string>", line 14, in <module>
        File "/tmp/build-env/lib/python3.11/site-packages/setuptools/build_meta.py", line 325, in get_requires
          self.run_setup()
        File "/tmp/pkg_c-1.0/setup.py", line 3, in <module>
          import numpy
      ModuleNotFoundError: No module named 'numpy'

      hint: This usually indicates a problem with the package or the build environment.
'''


def test_a_pip_crash_is_its_last_line_and_no_frame_of_pip_or_python_is_named():
    assert fold_tracebacks(PIP_CRASH.splitlines(), "pip", "the log") == [
        "ERROR: Exception:",
        "pip stopped on a Python error of its own: UnicodeEncodeError: 'utf-8' codec can't encode character "
        "'\\udcff' in position 36: surrogates not allowed (its traceback is in the log)"]


def test_a_relayed_build_traceback_names_the_file_it_choked_on_and_keeps_what_follows():
    """28th hostile pass (part B) P10: a build backend's traceback (setuptools' `build_meta` frame) is the source's
    build's, not the installer's own: "uv stopped on a Python error of its own" blamed uv for a checkout's file."""
    folded = fold_tracebacks(UV_BUILD.splitlines(), "uv")
    assert folded[-2] == ("the source's build (its setup.py and what that imports, files of the source included; "
                          "not uv) stopped on a Python error: ModuleNotFoundError: No module named 'numpy' "
                          "(in /tmp/pkg_c-1.0/setup.py, line 3)")
    assert folded[-1].strip().startswith("hint: This usually")
    assert not any('File "' in line or "Traceback" in line or "import numpy" in line for line in folded)
    assert folded[:3] == UV_BUILD.splitlines()[:3]
