"""One wording for a plan (`flows.describe_plan`) and one pre-install review (`flows.review`): a face only
adds its own key or flag hints after the core's lines, never rewords one (the faces' own use of it:
tests/cli/test_plan_words.py, tests/tui/test_plan_words.py).

In-process, on a tiny real recipe planned offline from a local wheelhouse (a real Python, real files).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from wizard.flows.describe_plan import PlanHints, install_command, plan_lines
from wizard.flows.review import review
from wizard.install.options import InstallOptions


def _options(tiny, **changes) -> InstallOptions:
    options = InstallOptions(recipe_id="tiny-a", recipes_dirs=(str(tiny.recipes),), find_links=(str(tiny.house.path),),
                             offline=True, graphcast_src=str(tiny.graphcast), verify=False)
    return replace(options, **changes)


def test_the_review_holds_the_plan_and_every_check_made_before_an_install(tiny, isolated_state):
    checked = review(_options(tiny), check_fit=False)
    assert checked.plan.recipe.id == "tiny-a" and checked.reasons == []
    assert checked.verdict.ok and checked.verdict.identity.kind != "recipe"  # the local wheel given, read
    assert [house.folder for house in checked.wheelhouses] == [str(tiny.house.path)]
    assert checked.free_gib is not None and checked.free_gib > 0
    assert checked.machine == "THIS MACHINE"


def test_a_face_adds_hints_after_the_core_words_and_rewords_none(tiny, isolated_state):
    checked = review(_options(tiny), check_fit=False)
    hints = {"folder": " (F)", "installer": " (I)", "sources": " (S)"}
    core = plan_lines(checked, download="about 1 MB", width=78)
    hinted = plan_lines(checked, download="about 1 MB", hints=PlanHints(**hints), width=78)
    changed = [theirs for mine, theirs in zip(core, hinted, strict=True) if mine != theirs]
    assert [line.split(" (")[0] for line in changed] == ["Into a new environment", "Installer uv", "Sources"]
    for hint in hints.values():
        hinted = [line.replace(hint, "") for line in hinted]
    assert hinted == core


def test_the_install_line_carries_what_the_plan_was_made_with(tiny, isolated_state):
    plan = review(_options(tiny), check_fit=False).plan
    line = install_command(plan, "gc-wizard")
    assert line.startswith("gc-wizard install tiny-a ")
    assert f"--graphcast-src {tiny.graphcast}" in line and f"--find-links {tiny.house.path}" in line
    assert line.endswith(" --offline")


def test_the_install_line_carries_the_choices_given_to_plan(tiny, isolated_state, tmp_path):
    """Walk 22 #1: the line dropped `--installer pip`, `--python`, `--with-notebook` and `--env`, so pasting it
    installed something else than the plan shown."""
    options = _options(tiny, installer="pip", env=str(tmp_path / "my-env"))
    plan = review(options, check_fit=False).plan
    line = install_command(plan, "gc-wizard", given=replace(options, with_notebook=True, python="3.11"))
    assert " --installer pip" in line and " --with-notebook" in line and " --python 3.11" in line
    assert f" --env {tmp_path / 'my-env'}" in line
    default = _options(tiny)
    plain = install_command(review(default, check_fit=False).plan, "gc-wizard", given=default)
    assert "--installer" not in plain and "--env" not in plain and "--with-notebook" not in plain


def test_a_long_pinned_url_keeps_its_owner_and_shows_the_commit_as_git_does():
    """Walk 20 #14: the middle cut kept the 40-character hash and cut the repository's owner."""
    from wizard.flows.describe_plan import _fit

    url = "git+https://github.com/google-deepmind/graphcast@97d1ad50b0b7af4aaed7790167dffa769bae1f2c"
    assert _fit(url, 64) == "git+https://github.com/google-deepmind/graphcast@97d1ad50b0b7"
    longer = "git+https://git.example.org/a-very-long-lab-group-name/forks-of-graphcast@" + "0" * 40
    assert "…" in _fit(longer, 64) and len(_fit(longer, 64)) <= 64


def test_a_findings_fix_wraps_between_words_never_inside_an_option():
    """Walk 21 #3: `--with-assets` wrapped as `--with-` / `assets`, which pasted as two words."""
    from types import SimpleNamespace

    from wizard.flows.describe_check import finding_lines

    fix = "x " * 30 + "then run `gc-wizard bundle jax0.4.23-cpu --with-assets --out graphcast-bundle` there."
    finding = SimpleNamespace(id="asset_unreachable", title="The files cannot be fetched", explanation="e",
                              fix=fix, explains=(), causes=(), evidence=())
    for width in range(40, 100):
        text = "\n".join(finding_lines([finding], width))
        assert "--with-assets" in text and "--with-\n" not in text, width


def test_the_app_names_its_key_beside_the_flag_and_the_cli_the_flag_alone():
    """Walk 22 #10: `install` refused an unreachable GitHub with "(g on the Plan screen)" outside the app. The core's
    words name the flag; the app's Plan screen adds its keys (`with_keys`)."""
    from wizard.flows.describe_plan import with_keys
    from wizard.install.sources import unreachable_source

    words = unreachable_source("graphcast @ git+https://github.invalid/x/graphcast@v1", timeout=1)
    assert "--graphcast-src DIR" in words and "Plan screen" not in words
    assert "--graphcast-src DIR (g on the Plan screen)" in with_keys(words)
    assert with_keys("give it again (`--graphcast-src /a/gc`).") == \
        "give it again (`--graphcast-src /a/gc`, or g on the Plan screen)."
    assert with_keys("give it with --find-links DIR.") == "give it with --find-links DIR (w on the Plan screen)."
    # Walk 38 #3: the words give the whole line to paste; the key goes beside it, never inside it.
    assert with_keys("give it again (`gc-wizard install r --graphcast-src /a/gc`).") == \
        "give it again (`gc-wizard install r --graphcast-src /a/gc`, or g on the Plan screen)."
    said = with_keys("give one with --graphcast-src DIR; then run `gc-wizard install r --graphcast-src DIR`.")
    assert said == ("give one with --graphcast-src DIR (g on the Plan screen); then run "
                    "`gc-wizard install r --graphcast-src DIR`."), said


def _another_python3(tmp_path, monkeypatch):
    """A python3 on PATH that is another file than the wizard's own (a copy of the real interpreter), as pyenv's
    3.11.7 was beside the .venv's 3.11.2 in walk 23; no venv or conda environment active."""
    import shutil
    import sys

    folder = tmp_path / "other-bin"
    folder.mkdir()
    other = folder / "python3"
    shutil.copy2(Path(sys.executable).resolve(), other)
    monkeypatch.setenv("PATH", f"{folder}:{os.environ.get('PATH', '')}")
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    return other


def test_the_plan_says_why_it_builds_on_another_python_than_recipes_describes(tiny, isolated_state, tmp_path,
                                                                               monkeypatch):
    """walk 23 #12: `recipes` said "Python 3.11.7" (python3 on PATH) and the plan "Python 3.11.2
    (…; the wizard's own)" with no word between them."""
    other = _another_python3(tmp_path, monkeypatch)
    plan = review(_options(tiny), check_fit=False).plan
    assert plan.python.source == "wizard"
    lines = plan_lines(review(_options(tiny), check_fit=False), download="about 1 MB", width=78)
    at = next(i for i, line in enumerate(lines) if line.startswith("Python "))
    said = " ".join(" ".join(lines[at + 1:at + 6]).split())
    # walk 26 #13: which Python and why, then which one `python3` is, as two sentences (not "not python3 on PATH (…),
    # which `detect` and `recipes` describe: …")
    assert said.startswith("The environment uses this Python because it is gc-wizard's own Python, which fits the "
                           f"recipe and is known to work. `python3` in your shell is another one, {other}: the one "
                           "`detect` and `recipes` describe. --python PATH picks another."), said
    assert "not python3 on PATH" not in said
    monkeypatch.setenv("PATH", f"{Path(plan.python.executable).parent}:{os.environ['PATH']}")
    same = plan_lines(review(_options(tiny), check_fit=False), download="about 1 MB", width=78)
    assert not any("is another one" in line for line in same)
