"""`gc-wizard activate`: the activation as shell code, for `eval "$(gc-wizard activate)"` (bash, zsh, sh).

What activating changes is decided once, in `wizard.install.activation.compute_activation` (the
kernel spec and the GraphCast check use the same decision; which environment is meant is decided in
`wizard.after.target`). This module renders the decision: the script defines
`deactivate`, which restores what it changed; a second activation starts again from the values
saved before the first (`ORIGINAL_VAR`), so it never piles up.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Mapping

from wizard.errors import UserError
from wizard.install.activation import ORIGINAL_VAR, Activation
from wizard.security import is_shell_name, reveal_format_characters, shell_word

SHELLS = ("bash", "zsh", "sh")


# --------------------------------------------------------------------------- shell code


def _comment(text: str) -> str:
    """One `#` line; a newline or carriage return (in a folder name) is escaped so it cannot end the comment and
    start code, and every other control or invisible format character the way every output shows them
    (`security.reveal_format_characters`: U+0085 and U+2028 stayed raw; eighth hostile pass U7)."""
    safe = reveal_format_characters(text).replace("\n", "\\n").replace("\r", "\\r")
    return f"# {safe}"


def _assign(name: str, value: str | None) -> str:
    """`export NAME=value` or `unset NAME`: the one writer of a variable's name into the script, checked as a name
    (`security.is_shell_name`) — one that is not (`X;touch y;Z`, from an environment `env` or a launcher built) is
    written as a comment that says so, never as code (38th hostile pass (part B) P7: it ran under `eval`)."""
    if not is_shell_name(name):
        return _comment(f"left out {shell_word(name)}: not a shell variable name, so no shell has it to set or unset")
    return f"unset {name}" if value is None else f"export {name}={shlex.quote(value)}"


def default_shell(environ: Mapping[str, str] | None = None) -> str:
    name = os.path.basename((environ if environ is not None else os.environ).get("SHELL", ""))
    return name if name in SHELLS else "bash"


def unsupported_shell_note(environ: Mapping[str, str] | None = None) -> str | None:
    """The sentence for a login shell gc-wizard writes no activation for (fish, tcsh, nushell …), or None: the
    code printed is POSIX sh, which such a shell cannot `eval` (nineteenth hostile pass P10: it was printed without
    a word, and fish then failed on its syntax)."""
    name = os.path.basename((environ if environ is not None else os.environ).get("SHELL", ""))
    if not name or name in SHELLS:
        return None
    return (f"your login shell is {name} (from $SHELL), and this is code for {', '.join(SHELLS)} (--shell), which "
            f"{name} cannot run: start `bash` first and eval it there, or use the module (`gc-wizard module "
            "install`) or the Jupyter kernel instead.")


def prompt_label(text: str) -> str:
    """The env's name as it may stand in PS1: letters, digits and `._+-` only, at most 48 of them.

    Quoting is not enough there: bash expands `$(…)`, backticks and backslash escapes in PS1 at every prompt
    (and zsh its `%` escapes), so a recipe name from an edited marker, or a folder named `v$(cmd)`, would
    run code in the user's shell. Anything else becomes `_`."""
    cleaned = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "._+-") else "_" for ch in text)
    return cleaned[:48] or "env"


def activation_script(act: Activation, shell: str = "bash") -> str:
    """Shell code (bash, zsh or POSIX sh) for `eval "$(gc-wizard activate)"`."""
    if shell not in SHELLS:
        raise UserError(f"unknown shell {shell!r}; choose one of: {', '.join(SHELLS)}.")
    lines = [_comment(f"gc-wizard: {note}") for note in act.notes]
    for removal in act.removals:
        lines.append(_comment(f"removed from {removal.variable}: {removal.folder} — {removal.reason}"))
    # The shell's own PATH, exported or not, kept for `deactivate`: `env -i bash --noprofile --norc` has a
    # PATH it never exported, so gc-wizard saw none — the shell's is then kept after the env's bin.
    unexported_path = "PATH" in act.set and act.original.get("PATH") is None
    lines.append('if [ -z "${_GC_WIZARD_OLD_PATH+x}" ]; then _GC_WIZARD_OLD_PATH="${PATH-}"; fi')
    for name, value in act.set.items():
        if name == "PATH" and unexported_path:
            lines.append(f'export PATH={shlex.quote(value or "")}"${{_GC_WIZARD_OLD_PATH:+:$_GC_WIZARD_OLD_PATH}}"')
            continue
        lines.append(_assign(name, value))
    for name in act.unset:
        lines.append(_assign(name, None))
    lines.append(_assign(ORIGINAL_VAR, json.dumps(act.original, sort_keys=True)))

    prompt = shlex.quote(f"(gc:{prompt_label((act.marker.recipe if act.marker else None) or act.env.name)}) ")
    lines += [
        'if [ -z "${VIRTUAL_ENV_DISABLE_PROMPT-}" ]; then',
        '  if [ -z "${_GC_WIZARD_OLD_PS1+x}" ]; then _GC_WIZARD_OLD_PS1="${PS1-}"; fi',
        f'  PS1={prompt}"${{_GC_WIZARD_OLD_PS1}}"',
        "fi",
    ]
    body = [f"  {_assign(name, value)}" for name, value in act.original.items()
            if not (name == "PATH" and unexported_path)]
    if unexported_path:
        body.append('  if [ -n "${_GC_WIZARD_OLD_PATH-}" ]; then export PATH="$_GC_WIZARD_OLD_PATH"; else unset PATH; fi')
    body += [
        "  unset _GC_WIZARD_OLD_PATH",
        f"  unset {ORIGINAL_VAR}",
        '  if [ -n "${_GC_WIZARD_OLD_PS1+x}" ]; then PS1="${_GC_WIZARD_OLD_PS1}"; unset _GC_WIZARD_OLD_PS1; fi',
        "  hash -r 2>/dev/null",
        "  unset -f deactivate",
    ]
    lines.append(_comment("deactivate: restores the variables above to their values before activation"))
    for removal in act.removals:
        # Put back as the shell had it, which is said (38th hostile pass (part B) P2): a value an earlier activation
        # saved was judged already (`activation._judged_original`), so only the shell's own comes back so
        restored = act.original.get(removal.variable)
        if restored and removal.folder in restored:
            lines.append(_comment(f"deactivate puts {removal.folder} back into {removal.variable}, as your shell had "
                                  "it before activating"))
    lines.append("deactivate () {")
    lines += body
    lines.append("}")
    lines.append("hash -r 2>/dev/null")
    lines.append("true")
    return "\n".join(lines) + "\n"
