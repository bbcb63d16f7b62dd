"""A managed environment's folder name is one environment's (walk 39 #2: the app's "go again" after a stop reused the
stopped attempt's planned time, so two history entries named one folder)."""

from __future__ import annotations

from datetime import datetime

from wizard.history.store import _FOLDER_STAMP
from wizard.install.plan import default_env_dir


def test_a_second_install_in_the_same_second_gets_its_own_folder_and_its_entry_the_same_stamp(isolated_state):
    when = datetime(2026, 11, 29, 11, 41, 33)
    first = default_env_dir("tiny-a", when)
    assert first.name == "tiny-a-20261129-114133"
    first.mkdir(parents=True)
    second = default_env_dir("tiny-a", when)
    assert second.name == "tiny-a-20261129-114133-2"
    second.mkdir()
    assert default_env_dir("tiny-a", when).name == "tiny-a-20261129-114133-3"
    assert _FOLDER_STAMP.search(str(second)).group(1) == "20261129-114133"
