"""What a rollback says of an entry it cannot rebuild from its record (thirteenth hostile pass #29): a GraphCast
source whose URL held a secret is the wizard's own record, kept masked — not an edit of history.json."""

from __future__ import annotations

from wizard.flows.rollback import recorded_set_problem
from wizard.history.store import Entry


def _entry(line: str) -> Entry:
    return Entry(id="20261127-000000-aaaa", kind="install", recipe="tiny-a", env="/nowhere/env",
                 status="installed", packages=["pkg-a==1.0", line])


def test_a_masked_source_url_is_not_called_an_edit(isolated_state):
    problem = recorded_set_problem(_entry("graphcast @ http://127.0.0.1:1/w/graphcast-0.1.1-py3-none-any.whl?k=<redacted>"))
    assert problem is not None and "from a URL holding a secret" in problem and "edited" not in problem
    assert "gc-wizard install tiny-a --graphcast-src URL" in problem


def test_a_source_no_install_records_is_still_called_an_edit(isolated_state):
    problem = recorded_set_problem(_entry("graphcast @ file:///elsewhere/graphcast-0.1.1-py3-none-any.whl"))
    assert problem is not None and "the entry was edited" in problem
