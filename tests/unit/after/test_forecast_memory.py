"""Memory before compute: the forecast refuses a model the fit table says will not fit here, with the figures,
before anything downloads or loads; `--force` runs it with a caution; a model the table does not know (a
mirror's own name) is let through."""

from __future__ import annotations

import pytest

from tests.fixtures.facts import facts_with
from wizard.after.forecast import check_memory
from wizard.errors import UserError

BIG = "GraphCast - ERA5 1979-2017 - resolution 0.25 - pressure levels 37 - mesh 2to6 - precipitation input and output.npz"
SMALL = ("GraphCast_small - ERA5 1979-2015 - resolution 1.0 - pressure levels 13 - mesh 2to5 - precipitation input "
         "and output.npz")
GENCAST = "GenCast 1p0deg Mini <2019.npz"


def test_a_model_too_big_for_the_gpu_is_refused_with_the_figures():
    rtx4090 = facts_with((24564,), 64)
    with pytest.raises(UserError) as caught:
        check_memory(BIG, "gpu", rtx4090, force=False)
    message = str(caught.value)
    assert "GraphCast 0.25°" in message and "largest GPU has 24 GiB" in message and "--force" in message
    assert "about 32 GB of GPU memory" in message
    assert "may not fit" in check_memory(BIG, "gpu", rtx4090, force=True)
    assert check_memory(SMALL, "gpu", rtx4090, force=False) is None


def test_gencast_1deg_on_a_12_gb_gpu_is_refused_and_on_the_cpu_judged_by_ram():
    with pytest.raises(UserError, match="GenCast 1°"):
        check_memory(GENCAST, "gpu", facts_with((12288,), 64), force=False)
    with pytest.raises(UserError, match="RAM"):
        check_memory(GENCAST, "cpu", facts_with((), 8), force=False)
    assert check_memory(GENCAST, "cpu", facts_with((), 64), force=False) is None


def test_a_model_the_table_does_not_know_is_let_through():
    assert check_memory("my-lab-finetune.npz", "gpu", facts_with((8192,), 16), force=False) is None
