"""The bounded readers say the wizard's own sentence for a file built to hurt, whatever the YAML library's
version says first (PyYAML 6.0.4 stops deep flow nesting in its scanner with its own words)."""

import pytest

from wizard.bounded import ParseLimitError, check_yaml, flow_depth


@pytest.mark.parametrize("text", [
    "schema: 1\nnotes: " + "[" * 5000 + "]" * 5000 + "\n",
    "schema: 1\nnotes: " + "{a: " * 500 + "1" + "}" * 500 + "\n",
    "schema: 1\nnotes: " + "[" * 25 + "]" * 25 + "\n",
], ids=["flow-5000", "mapping-500", "flow-25"])
def test_deep_flow_nesting_is_the_wizards_sentence_with_the_line(text):
    with pytest.raises(ParseLimitError) as caught:
        check_yaml(text)
    assert str(caught.value) == "line 2 is nested more than 20 levels deep; no valid file is"


def test_deep_block_nesting_is_refused_too():
    text = "".join("  " * i + f"k{i}:\n" for i in range(30)) + "  " * 30 + "v\n"
    with pytest.raises(ParseLimitError, match="nested more than 20 levels"):
        check_yaml(text)


def test_a_syntax_error_with_brackets_in_quotes_stays_a_syntax_error():
    import yaml

    with pytest.raises(yaml.YAMLError):
        check_yaml('a: "' + "[" * 40 + '"\nb: [\n')


def test_flow_depth_skips_quotes_and_comments():
    assert flow_depth("a: '[[[['  # [[[[\nb: [[1]]\n", 10_000) == (2, 2)
