"""What a session starts from, for both faces: the install options, their fixed choices, the sources given
(options and `GC_WIZARD_*`), and the Slurm target.

Light on purpose: the option helpers every command loads and the app's first frame import it, so it holds
only modules they load already; the Slurm target's and the source check's modules are imported when asked for.
"""

from __future__ import annotations

from collections.abc import Sequence

from wizard.detect.slurm_env import DEFAULT_WAIT as DEFAULT_SRUN_WAIT
from wizard.install.choices import DEFAULT_INSTALLER, DEFAULT_LEVEL, GRAPHCAST_VERSIONS, INSTALLERS, LEVELS
from wizard.install.source_env import merged_sources, unique_links

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing `typing` (start-up time, issue 23)
if TYPE_CHECKING:
    from wizard.detect.slurm import SlurmTarget
    from wizard.install.options import InstallOptions

__all__ = ["DEFAULT_INSTALLER", "DEFAULT_LEVEL", "DEFAULT_SRUN_WAIT", "GRAPHCAST_VERSIONS", "INSTALLERS", "LEVELS",
           "InstallOptions", "checked_sources", "given_sources", "slurm_target", "slurm_target_from_words",
           "unique_links"]


def __getattr__(name: str) -> type[InstallOptions]:
    """`InstallOptions`, imported when first asked for: it is a dataclass, and `detect`, `history` or `recipes`, which
    load this module for their parsers, start without `dataclasses` (and the `inspect` it imports) — issue 23."""
    if name == "InstallOptions":
        from wizard.install.options import InstallOptions

        return InstallOptions
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def given_sources(graphcast_src: str | None, find_links: Sequence[str] | None) -> tuple[str | None, list[str]]:
    """The GraphCast source and wheelhouses to use: the options win over `GC_WIZARD_GRAPHCAST_SRC` for the
    source; `GC_WIZARD_FIND_LINKS` adds to the folders given."""
    return merged_sources(graphcast_src, list(find_links or ()))


def checked_sources(graphcast_src: str | None, find_links: Sequence[str] | None) -> tuple[str | None, list[str]]:
    """`given_sources`, each refused now (UserError) if it cannot work: a mistyped path is said at start-up,
    not three screens later on the Plan screen."""
    graphcast_src, links = given_sources(graphcast_src, find_links)
    if graphcast_src or links:
        # Deferred for start-up time: the plan module is not imported before the app's first frame otherwise.
        from wizard.install.plan import check_sources

        check_sources(graphcast_src, links)
    return graphcast_src, links


def slurm_target(partition: str | None, srun_args: Sequence[str] = (), wait: float | None = None) -> SlurmTarget | None:
    """`--slurm [PARTITION]`, `--srun-arg` and `--slurm-wait` as a target; None without --slurm."""
    if partition is None and not srun_args and wait is None:
        return None  # nothing Slurm's options could refuse, and srun's modules stay unloaded
    # Deferred for start-up time: only a run with --slurm needs the Slurm modules before the first frame.
    from wizard.detect.slurm import SlurmTarget

    return SlurmTarget.from_options(partition, tuple(srun_args), wait)


def slurm_target_from_words(text: str, wait: float | None = None, *, default: bool = False) -> SlurmTarget:
    """The target a user typed ("gpu --gpus=1"), or the cluster's default partition (`default`)."""
    # Deferred for start-up time, as above.
    from wizard.detect.slurm import SlurmTarget

    return SlurmTarget(partition=None) if default else SlurmTarget.from_words(text, wait=wait)
