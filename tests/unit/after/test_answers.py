"""Replay files: saved, loaded back identical, and every kind of bad file rejected with one sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc
from wizard.after.answers import (
    SCHEMA,
    VERSION,
    Answers,
    answers_for,
    apply_answers,
    check_recipe,
    load_answers,
    replay,
    save_answers,
    save_options,
)
from wizard.errors import UserError
from wizard.flows.options import given_sources
from wizard.install.options import InstallOptions


def _install_args(**over) -> InstallOptions:
    """The options `gc-wizard install` makes from its command line."""
    base = dict(recipe_id="jax0.4.23-cpu", env=None, assume_yes=True, verify=True, graphcast_src=None,
                installer="uv", find_links=(), offline=False, level="notebook")
    base.update(over)
    return InstallOptions(**base)


def _good() -> dict:
    return {"schema": SCHEMA, "version": VERSION, "recipe": "jax0.4.23-cuda12-cudnn89",
            "options": {"installer": "pip", "level": "quick", "verify": True,
                        "graphcast_src": "/srv/graphcast", "find_links": ["/srv/wheels"], "offline": True},
            "env": "/srv/envs/gc"}


def _answers(recipe: str, env: str | None = None, source: str | None = None, **options) -> Answers:
    return Answers(options=InstallOptions(recipe_id=recipe, env=env, **options), source=source)


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_round_trip(tmp_path, suffix):
    answers = _answers("jax0.4.23-cuda12-cudnn89", "/srv/envs/gc", installer="pip", level="quick", verify=False,
                       graphcast_src="https://example.org/graphcast-0.1.1.tar.gz",
                       find_links=("/srv/wheels", "/srv/more"), offline=True)
    path = save_answers(tmp_path / f"answers{suffix}", answers)
    loaded = load_answers(path)
    assert loaded.to_dict() == answers.to_dict()
    assert loaded.options == answers.options
    assert loaded.source == str(path)
    if suffix == ".json":
        data = json.loads(path.read_text())
        assert data["schema"] == "gc-wizard-answers" and data["version"] == 2
        assert set(data) == {"schema", "version", "recipe", "options", "env"}
        assert data["options"] == answers.options.to_dict()  # the file stores the options value itself
        assert set(data["options"]) == {"installer", "level", "verify", "graphcast_src", "find_links", "offline"}


def test_a_version_1_file_with_no_verify_is_still_read(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"schema": SCHEMA, "version": 1, "recipe": "jax0.4.23-cpu",
                                "options": {"installer": "pip", "no_verify": True}, "env": None}))
    loaded = load_answers(path)
    assert (loaded.options.installer, loaded.options.verify) == ("pip", False)


def test_from_args_makes_home_paths_portable_and_apply_expands_them(tmp_path, monkeypatch):
    home = tmp_path / "home" / "alice"
    wheels = home / "wheels"
    wheels.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    args = _install_args(env=str(home / "envs" / "gc"), find_links=[str(wheels)], installer="pip",
                         verify=False, graphcast_src=str(home / "graphcast"))
    answers = answers_for(args)
    assert answers.env == "~/envs/gc"
    assert answers.options.find_links == ("~/wheels",)
    assert answers.options.graphcast_src == "~/graphcast"
    saved = load_answers(save_answers(tmp_path / "a.json", answers))

    # Replayed for another user: "~" is that user's home.
    other = tmp_path / "home" / "bob"
    monkeypatch.setenv("HOME", str(other))
    replayed = apply_answers(_install_args(recipe_id="", installer="uv", level="notebook"), saved)
    assert replayed.recipe_id == "jax0.4.23-cpu"
    assert replayed.env == str(other / "envs" / "gc")
    assert replayed.find_links == (str(other / "wheels"),)
    assert replayed.graphcast_src == str(other / "graphcast")
    assert replayed.installer == "pip" and replayed.verify is False


def test_managed_env_is_saved_as_null_and_urls_untouched(tmp_path):
    answers = answers_for(_install_args(graphcast_src="git+https://github.com/google-deepmind/graphcast@v0.1.1"))
    assert answers.env is None
    assert answers.options.graphcast_src == "git+https://github.com/google-deepmind/graphcast@v0.1.1"
    assert json.loads(save_answers(tmp_path / "a.json", answers).read_text())["env"] is None


def test_apply_refuses_a_different_recipe_on_the_command_line():
    answers = _answers("jax0.4.23-cpu", source="fleet.json")
    with pytest.raises(UserError, match=r"jax0.4.23-cuda12-cudnn89.*differs.*fleet.json.*jax0.4.23-cpu"):
        apply_answers(_install_args(recipe_id="jax0.4.23-cuda12-cudnn89"), answers)
    merged = apply_answers(_install_args(recipe_id="jax0.4.23-cpu", find_links=["/b"]),
                           _answers("jax0.4.23-cpu", find_links=("/a",)))
    assert merged.find_links == ("/a", "/b")


def test_check_recipe_against_loaded_recipes():
    answers = _answers("jax9-imaginary", source="fleet.json")
    with pytest.raises(UserError, match=r"fleet.json names recipe 'jax9-imaginary'.*jax0.4.23-cpu"):
        check_recipe(answers, {"jax0.4.23-cpu": object()})
    assert check_recipe(_answers("jax0.4.23-cpu"), {"jax0.4.23-cpu": object()}).recipe == "jax0.4.23-cpu"


def test_replay_and_save_options_for_the_install_command(tmp_path):
    recipes = {"jax0.4.23-cpu": object(), "jax0.4.23-cuda12-cudnn89": object()}
    path = save_options(tmp_path / "fleet.json", _install_args(recipe_id="jax0.4.23-cuda12-cudnn89",
                                                               installer="pip", level="quick", env="/srv/envs/gc"))
    replayed = replay(_install_args(recipe_id=""), path, recipes)
    assert (replayed.recipe_id, replayed.installer, replayed.level, replayed.env) == \
        ("jax0.4.23-cuda12-cudnn89", "pip", "quick", "/srv/envs/gc")
    with pytest.raises(UserError, match="which this server does not have"):
        replay(_install_args(recipe_id=""), path, {"jax0.4.23-cpu": object()})


def _bad(tmp_path: Path, content, name="answers.json") -> str:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    with pytest.raises(UserError) as info:
        load_answers(path)
    message = str(info.value)
    assert str(path) in message, message
    assert "\n" not in message.strip()
    return message


def _with(**changes) -> dict:
    data = _good()
    for key, value in changes.items():
        if key.startswith("options_"):
            data["options"][key[len("options_"):]] = value
        elif value is ...:
            data.pop(key)
        else:
            data[key] = value
    return data


@pytest.mark.parametrize("content, expected", [
    ("{not json", r"line 1: not valid JSON"),
    ("recipe: [unclosed\n  - x: :\n", r"neither JSON nor YAML"),
    ("", r"is empty"),
    ([1, 2], r"not a gc-wizard answers file"),
    ({"recipe": "x"}, r"\"schema\" is missing"),
    (_with(schema="archinstall-config"), r"\"schema\" is \"archinstall-config\", expected \"gc-wizard-answers\""),
    (_with(version=0), r"old answers file \(version 0\)"),
    (_with(version=3), r"newer gc-wizard \(answers version 3\).*Upgrade"),
    (_with(version="1"), r"\"version\" must be a whole number"),
    (_with(colour="blue"), r"unknown key 'colour'"),
    (_with(options_verbose=True), r"unknown key 'options.verbose'"),
    (_with(recipe=...), r"'recipe' is missing"),
    (_with(recipe=3), r"'recipe' must be a recipe id"),
    (_with(env=["a"]), r"'env' must be a folder path or null"),
    (_with(options="fast"), r"'options' must be a mapping"),
    (_with(options_installer="conda"), r"'options.installer' must be \"uv\" or \"pip\", not \"conda\""),
    (_with(options_level="full"), r"'options.level' must be \"quick\" or \"notebook\""),
    (_with(options_verify="yes"), r"'options.verify' must be true or false, not \"yes\""),
    (_with(options_offline=1), r"'options.offline' must be true or false"),
    (_with(options_find_links="/srv/wheels"), r"'options.find_links' must be a list of folders"),
    (_with(options_find_links=["/a", 7]), r"'options.find_links\[1\]' must be a folder path"),
    (_with(options_graphcast_src=True), r"'options.graphcast_src' must be a path, URL or null"),
])
def test_bad_files_are_rejected_with_one_sentence(tmp_path, content, expected):
    import re

    message = _bad(tmp_path, content)
    assert re.search(expected, message), message


def test_missing_file_and_binary_file(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        load_answers(tmp_path / "nope.json")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(UserError, match="not a text file"):
        load_answers(tmp_path / "bin.json")


def test_yaml_written_by_hand_is_accepted(tmp_path):
    path = tmp_path / "fleet.yaml"
    path.write_text("schema: gc-wizard-answers\nversion: 1\nrecipe: jax0.4.23-cpu\n# defaults for the rest\n")
    loaded = load_answers(path)
    assert loaded.recipe == "jax0.4.23-cpu"
    assert loaded.options == InstallOptions(recipe_id="jax0.4.23-cpu")
    assert loaded.env is None


def test_cli_install_rejects_a_bad_answers_file_with_exit_2(tmp_path):
    """Through the real CLI (wired by the install command): a wrong file is exit 2 and one plain sentence."""
    path = tmp_path / "old.json"
    path.write_text(json.dumps(_with(version=0)))
    proc = run_inproc("install", "--answers", str(path), "--yes", "--json")
    assert proc.returncode == 2, proc.stderr
    assert "old answers file (version 0)" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("change, key, words", [
    ({"env": "/tmp/new-env\udcfe"}, "'env'", "not UTF-8"),
    ({"env": "/tmp/a:b"}, "'env'", "holds a ':'"),
    ({"options": {"graphcast_src": "/srv/graphcast\u0000.whl"}}, "'options.graphcast_src'", "NUL"),
    ({"options": {"find_links": ["/srv/house", "/srv/other\nhouse"]}}, "'options.find_links[1]'", "newline"),
])
def test_a_bad_value_in_an_answers_file_names_the_file_and_key_not_an_option(tmp_path, change, key, words):
    """5g: an answers file's `env` with a byte that is not UTF-8 was refused as "--env: …", an option that was
    never given, without naming the file. New cases: a ':' in env, a NUL in graphcast_src, a newline in the second
    find_links folder — each refused naming the answers file and its key."""
    path = tmp_path / "lab-answers.json"
    data = _with(**change) if "options" not in change else {**_with(), "options": {**_with()["options"],
                                                                                    **change["options"]}}
    path.write_text(json.dumps(data))
    proc = run_inproc("install", "--answers", str(path), "--yes", "--json")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert f"answers file {path}: {key}" in proc.stderr and words in proc.stderr, proc.stderr
    assert "--env" not in proc.stderr and "--find-links" not in proc.stderr


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_secrets_in_saved_answers_are_masked_and_said(tmp_path, suffix):
    """1e: --save-answers wrote a graphcast_src with user:password and an X-Amz-Signature in clear into the file
    made to be copied to other servers. New cases: a find-links URL with a token query, a Hugging Face token in a
    path's query, a GitLab deploy token as userinfo — masked by the one redaction pass, and the core says so."""
    from wizard.flows.after_install import save_answers as save_for_install

    options = _install_args(
        recipe_id="jax0.4.23-cpu",
        graphcast_src="https://gitlab+deploy-token-7:gldt-Zq8vN2pLmR4tY7uW1xK9@git.lab/gc.git",
        find_links=("/srv/house", "https://wheels.lab/simple/?private_token=Zq8vN2pLmR4tY7uW1xK9ab",
                    "https://h/w/?dl=1&hf=hf_AbCdEfGhIjKlMnOpQrStUvWxYz123456"))
    path = tmp_path / f"fleet{suffix}"
    note = save_for_install(path, options)
    text = path.read_text()
    for secret in ("gldt-Zq8vN2pLmR4tY7uW1xK9", "Zq8vN2pLmR4tY7uW1xK9ab", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz123456"):
        assert secret not in text and secret not in (note or "")
    assert "gitlab+deploy-token-7:***@git.lab" in text and "/srv/house" in text
    assert note is not None and str(path) in note
    assert "options.graphcast_src, options.find_links[1], options.find_links[2]" in note
    assert save_for_install(tmp_path / "plain.json", _install_args(recipe_id="jax0.4.23-cpu")) is None


_MASKED_CASES = [  # (the saved value, its key): each form the mask takes in a saved file
    ({"find_links": ["/srv/house", "https://alice:***@wheels.lab/simple/"]}, "options.find_links[1]"),
    ({"find_links": ["https://wheels.lab/simple/?token=<redacted>"]}, "options.find_links[0]"),
    ({"find_links": ["https://<redacted>@wheels.lab:8443/w/"]}, "options.find_links[0]"),
    ({"graphcast_src": "https://gitlab+deploy-token-7:***@git.lab/gc.git"}, "options.graphcast_src"),
    ({"graphcast_src": "https://h.lab/gc-0.1.1.tar.gz?X-Amz-Signature=<redacted>"}, "options.graphcast_src"),
]


@pytest.mark.parametrize("saved, key", _MASKED_CASES)
def test_a_value_saved_masked_is_refused_before_anything_runs(tmp_path, saved, key):
    """Eleventh hostile pass #161: a find-links URL saved as `https://alice:***@…/?token=<redacted>` was replayed as
    is; uv sent the placeholder and the install failed only at the download, never naming it. Now the replay stops
    first, naming the file, the key and the mask, and how to give the value again."""
    path = tmp_path / "saved.json"
    path.write_text(json.dumps({**_with(), "options": {**_with()["options"], **saved}}))
    proc = run_inproc("install", "--answers", str(path), "--yes", "--json")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    error = json.loads(proc.stdout.splitlines()[-1])["error"]
    assert error.startswith(f"answers file {path}: '{key}' holds a secret that was masked") and "saved" in error
    flag = "--graphcast-src" if "graphcast" in key else "--find-links"
    assert flag in error and ("GC_WIZARD_GRAPHCAST_SRC" if "graphcast" in key else "GC_WIZARD_FIND_LINKS") in error
    assert "==>" not in proc.stdout  # nothing ran


def test_a_masked_value_given_again_replaces_it(tmp_path, monkeypatch):
    """The fix the refusal names works: the flag or the environment gives the value again (the same host and
    path for a find-links URL), and that one is used, the masked one dropped; another place does not replace it."""
    answers = Answers(options=InstallOptions(
        recipe_id="jax0.4.23-cpu", graphcast_src="https://u:***@git.lab/gc.git",
        find_links=("/srv/house", "https://alice:***@wheels.lab/simple/?token=<redacted>")), source="f.json")
    full = "https://alice:pw@Wheels.lab/simple?token=abc"
    done = apply_answers(_install_args(graphcast_src="https://u:pw@git.lab/gc.git", find_links=(full,)), answers)
    assert done.find_links == ("/srv/house", full) and done.graphcast_src == "https://u:pw@git.lab/gc.git"
    with pytest.raises(UserError, match=r"'options.find_links\[1\]' holds a secret"):
        apply_answers(_install_args(graphcast_src="/srv/gc", find_links=("https://other.lab/simple/",)), answers)
    with pytest.raises(UserError, match="'options.graphcast_src' holds a secret"):
        apply_answers(_install_args(find_links=(full,)), answers)
    monkeypatch.setenv("GC_WIZARD_FIND_LINKS", full)  # the environment variables, as the command line merges them
    monkeypatch.setenv("GC_WIZARD_GRAPHCAST_SRC", "https://u:pw@git.lab/gc.git")
    src, links = given_sources(None, [])
    done = apply_answers(_install_args(graphcast_src=src, find_links=tuple(links)), answers)
    assert done.find_links == ("/srv/house", full) and done.graphcast_src == "https://u:pw@git.lab/gc.git"


@pytest.mark.parametrize(("written", "read"), [("0x2", 2), ("02", 2), ("0b10", 2), ("+2", 2), ("1_0", 10),
                                               ("1:30", 90)])
def test_a_yaml_number_not_written_in_the_digits_0_9_is_refused_as_in_a_recipe(tmp_path, written, read):
    """YAML 1.1 reads `0x2`, `02`, `0b10`, `+2`, `1_0` and `1:30` as ints: recipes refuse them (the one rule,
    `patterns.plain_whole_number`), while an answers file's `version: 0x2` was read as version 2."""
    path = tmp_path / "a.yaml"
    path.write_text(f"schema: {SCHEMA}\nversion: {written}\nrecipe: jax0.4.23-cpu\n")
    with pytest.raises(UserError) as caught:
        load_answers(path)
    said = " ".join(str(caught.value).split())
    assert f"line 2: 'version' is {written}, which is not a whole number written in the digits 0-9 only" in said
    assert f"(YAML reads it as the number {read})" in said
    path.write_text(f"schema: {SCHEMA}\nversion: {VERSION}\nrecipe: jax0.4.23-cpu\n")
    assert load_answers(path).recipe == "jax0.4.23-cpu"
