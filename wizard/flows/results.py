"""The typed outcomes of an install and a rollback, which both faces receive (never dicts).

Their own light module: the app imports them at start-up (its messages carry them), before it imports the
transactions that build them; `to_dict` is the `--json` shape of `install` and `rollback`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from wizard.security import shell_word

if TYPE_CHECKING:
    from wizard.verify.check import VerifyResult


@dataclass
class InstallResult:
    ok: bool
    recipe: str
    env: str
    log: str
    entry_id: str | None
    seconds: float
    verify: VerifyResult | None = None
    error: str | None = None
    cancelled: bool = False
    status: str = "failed"
    mode: str = "new"
    kept: bool = True
    """Whether the environment folder is still there (a failed new one is deleted again)."""
    added_packages: list[dict[str, Any]] = field(default_factory=list)
    """What the lock or bundle installed beyond the recipe's named packages (`Plan.added_packages`), for --json."""
    moved: list[str] = field(default_factory=list)
    """What making it current did to the user's default-named kernel and module file (`after.follow`'s lines, from
    → to). Both faces print them in the outcome, not only in the log: walk 24 #7 found a kernel and module file
    written with `--env` for another environment re-pointed without a word where the user looked."""
    lock_held: bool = False
    """The install did not start: another gc-wizard holds the state folder (not in `to_dict`: the CLI
    says it as its error and exit status)."""
    slurm: Any = None
    """The `SlurmTarget` the check ran on (not in `to_dict`): lines said later name it again (walk 24 #3)."""

    @classmethod
    def not_started(cls, recipe: str, error: str, *, lock_held: bool = False) -> InstallResult:
        """The result of an install refused before its first step (a held lock, a refused source, a full
        disk): nothing was built, so there is no env, log or history entry."""
        return cls(ok=False, recipe=recipe, env="", log="", entry_id=None, seconds=0.0, error=error,
                   lock_held=lock_held)

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "recipe": self.recipe, "env": self.env, "log": self.log,
                "entry_id": self.entry_id, "seconds": round(self.seconds, 2),
                "verify": self.verify.to_dict() if self.verify is not None else None,
                "error": self.error, "cancelled": self.cancelled, "status": self.status, "mode": self.mode,
                "kept": self.kept, "added_packages": self.added_packages}


@dataclass
class RollbackResult:
    ok: bool
    from_id: str | None
    to_id: str
    env: str
    verify: VerifyResult | None
    rebuilt: bool = False
    restored: bool = False
    error: str | None = None
    cancelled: bool = False
    entry_id: str | None = None
    """The rollback's own history entry."""
    changes: list[str] = field(default_factory=list)
    log: str | None = None
    status: str = "failed"

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "from": self.from_id, "to": self.to_id, "env": self.env,
                "verify": self.verify.to_dict() if self.verify is not None else None,
                "rebuilt": self.rebuilt, "restored": self.restored, "error": self.error,
                "cancelled": self.cancelled, "entry_id": self.entry_id, "changes": self.changes, "log": self.log,
                "status": self.status}


def kept_unchecked(env: str, entry_id: str | None, command: str = "gc-wizard", slurm=None) -> str:
    """What became of a new environment whose GraphCast check the user stopped, keeping it ("Stop, keep it
    unchecked"): where it is, and the two commands that finish the job later. Both faces and the history.
    `slurm`: the target the check was running on (`SlurmTarget`): the check line names it again (walk 24 #3: pasted
    without `--slurm`, it ran on the login node); rollback checks on a node through the target the install recorded
    (walk 28 #9), so its line needs no flags."""
    if slurm is not None:
        later = (f"; then `{command} rollback {entry_id}` checks it again on a node the same way and switches to it") \
            if entry_id else ""
        return (f"The new environment stays at {env}, installed but not checked and not current: "
                f"`{command} verify --env {shell_word(env)}{slurm.flags()}` checks it on a node{later}.")
    # Walk 26 #9: "`rollback ID` checks it and makes it current" read as going back, for a newer env: the command
    # is named for what it usually does, so the words say what it does here (a switch, to any install).
    later = (f"; then `{command} rollback {entry_id}` checks it again and switches to it (the command switches to "
             "any install in the history, a newer one too)") if entry_id else ""
    return (f"The new environment stays at {env}, installed but not checked and not current: "
            f"`{command} verify --env {shell_word(env)}` checks it{later}.")


def kept_checked(env: str, entry_id: str | None, ok: bool, command: str = "gc-wizard") -> str:
    """After the check of a kept, unchecked environment ran to its end (the app's c on the Not-done screen, walk 26 #9):
    what it is now and the one command that follows, in the words of `kept_unchecked`."""
    if ok:
        switch = (f": `{command} rollback {entry_id}` switches to it (checking it once more; the command switches to "
                  "any install in the history, a newer one too)") if entry_id else ""
        return f"The environment at {env} passed its check; it is not current yet{switch}."
    remove = f": `{command} remove {entry_id}` deletes it" if entry_id else ""
    return f"The environment at {env} failed its check; it stays, not current{remove}."


def untouched_words(has_current: bool, whose: str = "your") -> str:
    """What an install that did not succeed left of the environment current before it, as a clause (lower case, no
    stop; `whose`: "your" in the faces, "the" in the history): untouched, or on a first install that there is none.
    Why one builder: walk 22 #10 (the history) and walk 28 #13 (the CLI's Ctrl-C line) said "the current environment
    is untouched" where no environment was current."""
    return (f"{whose} current environment is untouched" if has_current
            else "no environment is current (there was none before either)")


def what_was_undone(env: str | None, mode: str, kept: bool) -> str:
    """One sentence on what became of the environment an install that did not succeed was building:
    both faces and the history say it the same way."""
    if mode == "in-place":
        return f"{env} was put back as it was before."
    if kept:
        return f"The new environment stays at {env}, not current."
    return f"The new environment {env} was removed."
