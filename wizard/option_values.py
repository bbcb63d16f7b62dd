"""Values the wizard passes on to uv or pip as an option's value (`refuse_option_like`): one that starts with '-'
is read by them as an option of its own, so it is refused, naming the option.

Why its own module: the rule raises a `UserError`, whose text `wizard.security` masks; living in `security` it made
the two import each other.
"""

from __future__ import annotations

from wizard.errors import UserError


def refuse_option_like(option: str, value: str | None) -> None:
    """Refuse (UserError, exit 2) a value given for `option` that the wizard passes on to uv or pip and that starts
    with '-': the child's parser reads such a word as an option of its own, not as the value.

    Why one rule: `lock --platform=--index-url=http://…/` reached uv as `--python-platform --index-url=…` (fourth
    hostile pass L4: uv's "a value is required", exit 1); `--python`, `--graphcast-src` and `--find-links` travel
    the same way. Each value is checked by this function where it enters the core, whichever face gave it."""
    if value is not None and value.strip().startswith("-"):
        raise UserError(f"{option} {value!r} starts with '-', which uv and pip would read as an option of their own, "
                        f"not as {option}'s value; give the value itself (a path whose name starts with '-' as ./NAME).")
