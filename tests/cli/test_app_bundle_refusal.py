"""Walk 26 #13: `gc-wizard --help` listed `--bundle DIR` for the app, which then refused it with "run `gc-wizard
install RECIPE --bundle …`" though the bundle's manifest names its recipe. The app still refuses it (its Plan screen
changes sources and recipes freely; a bundle is one recipe's hashed offline install, which `install --bundle` does in
one line), now with that line whole, and the help says so. A real bundle made by the real CLI, tiny recipes, a local
wheelhouse."""

from __future__ import annotations

import shlex

from tests.fixtures.cli import bare_program, run_inproc
from wizard.cli import main
from wizard.errors import ExitCode


def test_the_apps_refusal_names_the_bundles_recipe_and_its_folder(tiny, tmp_path, isolated_state, closed_indexes,
                                                                   capsys, monkeypatch):
    monkeypatch.setenv("PIP_NO_INDEX", "1")  # the wheels from the local wheelhouse alone, as
    monkeypatch.setenv("UV_OFFLINE", "1")  # tests/cli/test_bundle_already_here.py makes its bundle
    bundle = tmp_path / "gc bundle"
    proc = run_inproc("bundle", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                      "--graphcast-src", str(tiny.graphcast), "--out", str(bundle), "--without-wizard")
    assert proc.returncode == 0, proc.stderr
    assert main(["--bundle", str(bundle)]) == ExitCode.BAD_INPUT
    err = bare_program(" ".join(capsys.readouterr().err.split()))
    # tiny-a is no recipe of this machine's folders: the bundle's own copy of it is named, so the line runs as printed
    line = (f"gc-wizard install tiny-a --recipes-dir {shlex.quote(str(bundle / 'recipes'))} "
            f"--bundle {shlex.quote(str(bundle))}")
    assert f"the terminal app does not install from a bundle; run `{line}` instead" in err, err
    assert "RECIPE" not in err and "Traceback" not in err

    proc = run_inproc("plan", *shlex.split(line)[2:])  # the line itself is taken
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_a_folder_that_is_no_bundle_is_said_and_the_help_says_the_app_refuses_it(tmp_path, capsys):
    assert main(["--bundle", str(tmp_path)]) == ExitCode.BAD_INPUT
    err = bare_program(" ".join(capsys.readouterr().err.split()))
    assert f"run `gc-wizard install RECIPE --bundle {tmp_path}` instead" in err, err
    assert f"checked). --bundle {tmp_path}: no manifest.json there; make a bundle with" in err, err  # said, not lost
    try:
        main(["--help"])
    except SystemExit:
        pass
    shown = " ".join(capsys.readouterr().out.split())
    assert "the app itself does not take it: `gc-wizard install RECIPE --bundle DIR`" in shown, shown
