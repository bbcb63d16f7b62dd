"""What a lock adds beyond the recipe's requirements, traced through the locked wheels' own metadata."""

from __future__ import annotations

from pathlib import Path

from tests.fixtures.tiny import RECIPE
from tests.fixtures.wheels import build_wheel
from wizard.install import lock_reach
from wizard.install.lock_reach import NEEDED, UNREACHED, UNTRACED, AddedPackage
from wizard.recipes.loader import parse_recipe


def _recipe(tmp_path: Path, *requirements: str):
    text = RECIPE.format(id="tiny-x", requirements="\n".join(f"  - '{r}'" for r in requirements))
    return parse_recipe(text, tmp_path / "tiny-x.yaml")


def test_markers_and_extras_decide_what_a_requirement_reaches(tmp_path):
    house = tmp_path / "house"
    wheels = {
        "pkg-x": build_wheel(house, "pkg-x", "1.0", requires=["pkg-y; extra == 'gpu'", "pkg-z; python_version < '3'",
                                                            "pkg-w"]),
        "pkg-y": build_wheel(house, "pkg-y", "1.0"),
        "pkg-w": build_wheel(house, "pkg-w", "1.0", requires=["pkg-v>=2"]),
        "pkg-v": build_wheel(house, "pkg-v", "2.0"),
        "pkg-z": build_wheel(house, "pkg-z", "1.0"),
    }
    locked = {name: "2.0" if name == "pkg-v" else "1.0" for name in wheels}
    added = lock_reach.added_packages(_recipe(tmp_path, "pkg-x[gpu]==1.0"), locked, wheels, "3.11.4")
    assert added == (AddedPackage("pkg-v", "2.0", NEEDED, "pkg-w"), AddedPackage("pkg-w", "1.0", NEEDED, "pkg-x"),
                     AddedPackage("pkg-y", "1.0", NEEDED, "pkg-x"), AddedPackage("pkg-z", "1.0", UNREACHED))
    sentence = lock_reach.refusal("--lock L", _recipe(tmp_path, "pkg-x==1.0"), added)
    assert sentence.startswith("--lock L adds pkg-z 1.0, which no requirement of recipe tiny-x needs")
    assert "--allow-extra-packages" in sentence and "`gc-wizard lock tiny-x`" in sentence
    # Without the extra, pkg-y is reached by nothing either.
    plain = lock_reach.added_packages(_recipe(tmp_path, "pkg-x==1.0"), locked, wheels, "3.11")
    assert [a.name for a in plain if a.status == UNREACHED] == ["pkg-y", "pkg-z"]


def test_a_package_only_a_wheel_not_on_this_machine_could_need_is_named_not_refused(tmp_path):
    house = tmp_path / "house"
    wheels = {"pkg-x": build_wheel(house, "pkg-x", "1.0", requires=["pkg-w"]),
              "pkg-w": build_wheel(house, "pkg-w", "1.0")}
    locked = {"pkg-x": "1.0", "pkg-w": "1.0", "pkg-r": "1.0", "evil": "1.0"}  # pkg-r's wheel is on a server only
    added = lock_reach.added_packages(_recipe(tmp_path, "pkg-x==1.0", "pkg-r==1.0"), locked, wheels, "3.11")
    assert added == (AddedPackage("evil", "1.0", UNTRACED), AddedPackage("pkg-w", "1.0", NEEDED, "pkg-x"))
    assert lock_reach.refusal("--lock L", _recipe(tmp_path, "pkg-x==1.0"), added) is None
    assert "1 not traced to a requirement" in lock_reach.note("--lock L", added)


def test_a_pylocks_file_wheels_are_found_and_a_txt_locks_in_the_find_links_folders(tmp_path):
    house = tmp_path / "house"
    wheel = build_wheel(house, "pkg-x", "1.0")
    pylock = tmp_path / "pylock.x.toml"
    pylock.write_text('lock-version = "1.0"\n[[packages]]\nname = "pkg-x"\nversion = "1.0"\nwheels = [{ url = '
                      f'"file://{wheel}", hashes = {{ sha256 = "{"a" * 64}" }} }}]\n')
    assert lock_reach.lock_wheels(pylock) == {"pkg-x": wheel}
    txt = tmp_path / "x.txt"
    txt.write_text(f"pkg-x==1.0 \\\n    --hash=sha256:{'a' * 64}\n")
    assert lock_reach.lock_wheels(txt) == {}
    assert lock_reach.lock_wheels(txt, [str(house)]) == {"pkg-x": wheel}
    assert lock_reach.lock_wheels(txt, [f"file://{house}"]) == {"pkg-x": wheel}


def test_the_plans_note_counts_what_the_requirements_need_and_names_the_rest_six_at_most():
    """A real lock holds every dependency: those are counted, not listed (a plan of fifty names helps no one); the
    packages to look at are named, six at most, the rest left to `--json`."""
    needed = tuple(AddedPackage(f"dep{i}", "1.0", NEEDED, "jax") for i in range(50))
    untraced = tuple(AddedPackage(f"odd{i}", "2.0", UNTRACED) for i in range(8))
    text = lock_reach.note("--lock L", needed + untraced)
    assert "50 that the recipe's requirements need;" in text and "dep0" not in text
    assert "odd0 2.0" in text and "odd5 2.0" in text and "odd6" not in text
    assert "and 2 more (all in `--json`: added_packages)" in text
    assert lock_reach.note("--lock L", needed).endswith("50 that the recipe's requirements need.")
