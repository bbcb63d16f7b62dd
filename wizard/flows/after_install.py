"""What follows a working environment, for both faces: which environment a command means, its activate
script, a Jupyter kernel, an Lmod module file, the support report, answers files (the next-step lines
are `flows.describe`'s).

The faces call these and print what they return; each stage function stays where it is (`wizard.after`),
named here as the one door the faces use (`lint-imports`: the faces import only `wizard.flows`).
"""

from __future__ import annotations

from pathlib import Path

from wizard.after.activate import activation_script, default_shell
from wizard.after.activate import unsupported_shell_note as unsupported_shell_note
from wizard.after.answers import masked_keys, replay, save_options
from wizard.after.kernel import kernel_install as kernel_install
from wizard.after.kernel import kernel_list as kernel_list
from wizard.after.kernel import kernel_question as kernel_question
from wizard.after.kernel import kernel_remove as kernel_remove
from wizard.after.module import module_install as module_install
from wizard.after.report import collect_and_build, preview_markdown
from wizard.after.target import named_env as named_env
from wizard.after.target import resolve_env as resolve_env
from wizard.install.activation import compute_activation
from wizard.install.options import InstallOptions
from wizard.recipes.loader import load_recipes


def activate_script(env: str | None, shell: str | None = None) -> str:
    """The shell code that activates `env` (the current one when None) under its recipe's activation:
    stale CUDA folders left out of the paths, the recipe's runtime variables set."""
    return activation_script(compute_activation(resolve_env(env).path, originals=True), shell or default_shell())


def support_report(facts=None) -> str:
    """The redacted support report (Markdown) for an admin: this machine (or `facts` read elsewhere),
    the history, the current environment."""
    return collect_and_build(facts=facts)


def report_preview(text: str, width: int = 80) -> str:
    """The report as a terminal preview shows it: lists instead of wide tables (the saved file keeps them)."""
    return preview_markdown(text, width)


def replay_answers(options: InstallOptions, path: str | Path) -> InstallOptions:
    """`options` with a saved answers file's choices (recipe, folder, sources…) replayed over them."""
    return replay(options, path, load_recipes(list(options.recipes_dirs)))


def save_answers(path: str | Path, options: InstallOptions) -> str | None:
    """Keep this run's answers, to replay the same install on another server (`--answers FILE`); returns the
    sentence to show when secrets were masked in it (the file is made to be copied around), else None."""
    written = save_options(path, options)
    masked = masked_keys(options)
    if not masked:
        return None
    return (f"{written} holds {', '.join(masked)} with its password or signature masked (<redacted>, ***): the "
            "file is made to be copied to other servers. A replay refuses the masked value unless it is given "
            "again there, credential included: --graphcast-src or GC_WIZARD_GRAPHCAST_SRC, --find-links or "
            "GC_WIZARD_FIND_LINKS (the same host and path replaces the masked URL), or the full value put back in "
            "the file.")

