"""`gc-wizard plan` prints the core's plan lines (`flows.describe_plan`, the app's Plan screen's too), then
the command that runs that very plan. In-process, a tiny real recipe planned offline."""

from __future__ import annotations

import re

from tests.fixtures.cli import run_inproc, shell_line
from wizard.flows.describe_plan import STEPS_HEADING, PlanHints, install_command, plan_lines
from wizard.flows.review import review
from wizard.install.options import InstallOptions
from wizard.paths import wizard_command


def test_plan_prints_the_core_lines_then_the_command_that_runs_the_plan(tiny, isolated_state):
    options = InstallOptions(recipe_id="tiny-a", recipes_dirs=(str(tiny.recipes),),
                             find_links=(str(tiny.house.path),), offline=True, graphcast_src=str(tiny.graphcast))
    proc = run_inproc("plan", "tiny-a", *tiny.args()[:-1])
    assert proc.returncode == 0, proc.stderr
    checked = review(options)
    core = plan_lines(checked, hints=PlanHints(refusal="  `gc-wizard install` refuses it (exit 2) without --force."))
    # The new folder's name carries the second it was planned in: the two plans may be a second apart.
    text, core = ([re.sub(r"-\d{8}-\d{6}", "-<when>", line) for line in lines] for lines in (proc.stdout.splitlines(), core))
    # The same words in the same order (the CLI wraps a long line to the terminal: a face lays lines out, it never
    # rewords them), but for the download size, which is measured, not shown as "checking".
    def words(lines: list[str]) -> list[str]:
        kept, download = [], False
        for line in lines:  # the Download line and the rows it wraps onto (walk 26 #13 made it longer)
            download = line.startswith("Download: ") or (download and line.startswith(" "))
            kept += [] if download else [line]
        shown = " ".join(kept).split()
        return [word for word in shown if word != "\\"]  # a command's row breaks fall where its width puts them

    start = next(i for i, line in enumerate(text) if line.startswith("To run it: "))
    printed = text[:start - 1]
    assert words(printed) == words(core)
    download = next(line for line in printed if line.startswith("Download: "))
    assert "checking" not in download
    # The line to paste, its ` \` rows joined as the shell joins them, is the one install line, whole.
    assert text[start - 1] == "" and shell_line("\n".join(text), "To run it: ") == re.sub(
        r"-\d{8}-\d{6}", "-<when>", f"To run it: {install_command(checked.plan, wizard_command())}")
    assert STEPS_HEADING in text and f"GraphCast 0.1.1 from {checked.plan.graphcast_src}, --no-deps" in " ".join(
        " ".join(text).split())


def test_the_sources_name_the_recipes_own_indexes_masked(tiny, isolated_state):
    """1g: "Packages: the package index (PyPI)" while the steps sent packages through the recipe's extra index
    and find-links page. New cases: two extra indexes (one with a token in its path's query, one with
    user:password) and a find-links folder — each named under Packages, secrets masked; offline, the remote
    indexes are not claimed (they are not asked) while the folder still is."""
    text = (tiny.recipes / "tiny-a.yaml").read_text().replace(
        "find_links: []", f"find_links: [{tiny.house.path}]").replace(
        "extra_index_urls: []", 'extra_index_urls: ["https://idx.lab/simple/?token=Zq8vN2pLmR4tY7uW1xK9", '
                                '"https://ann:An0therPw55@mirror.lab/pypi/simple/"]')
    (tiny.recipes / "tiny-x.yaml").write_text(text.replace("id: tiny-a", "id: tiny-x"))
    online = [a for a in tiny.args()[:-1] if a != "--offline"]
    proc = run_inproc("plan", "tiny-x", *online)
    assert proc.returncode == 0, proc.stderr
    lines = " ".join(proc.stdout[proc.stdout.index("Sources"):proc.stdout.index(STEPS_HEADING)].split())
    # No resolver knows .lab: each is ✗ (walk 24 #1), its host named without the user's password
    assert "the recipe's extra index ✗ https://idx.lab/simple/?token=<redacted>" in lines
    assert "the recipe's extra index ✗ https://ann:***@mirror.lab/pypi/simple/" in lines
    assert "idx.lab, mirror.lab cannot be reached from here" in lines
    assert f"the recipe's find-links {tiny.house.path}" in lines
    assert "Zq8vN2pLmR4tY7uW1xK9" not in proc.stdout and "An0therPw55" not in proc.stdout
    proc = run_inproc("plan", "tiny-x", *tiny.args()[:-1])
    lines = " ".join(proc.stdout[proc.stdout.index("Sources"):proc.stdout.index(STEPS_HEADING)].split())
    assert "extra index" not in lines and f"the recipe's find-links {tiny.house.path}" in lines


def test_the_sources_name_the_index_the_environment_sets_with_its_variable(tiny, isolated_state, monkeypatch):
    """t24g S4: with UV_INDEX_URL pointing elsewhere the plan still said "Packages: the package index (PyPI)"."""
    import json

    monkeypatch.delenv("UV_DEFAULT_INDEX", raising=False)  # it would win over UV_INDEX_URL, as uv reads them

    online = [a for a in tiny.args()[:-1] if a != "--offline"]
    env = {"UV_INDEX_URL": "http://ann:S3cretPw@127.0.0.1:9/simple", "UV_EXTRA_INDEX_URL": "https://extra.lab/simple",
           "PIP_INDEX_URL": "https://pip.lab/simple"}
    proc = run_inproc("plan", "tiny-a", *online, env=env)
    assert proc.returncode == 0, proc.stderr
    lines = " ".join(proc.stdout[proc.stdout.index("Sources"):proc.stdout.index(STEPS_HEADING)].split())
    assert "Packages: the index http://ann:***@127.0.0.1:9/simple (from UV_INDEX_URL)" in lines
    assert "and the extra index https://extra.lab/simple (from UV_EXTRA_INDEX_URL)" in lines
    assert "PyPI" not in lines and "pip.lab" not in lines and "S3cretPw" not in proc.stdout  # uv reads no PIP_*
    proc = run_inproc("plan", "tiny-a", *online, "--installer", "pip", "--json", env=env)
    assert json.loads(proc.stdout.splitlines()[-1])["indexes"] == [
        {"url": "https://pip.lab/simple", "variable": "PIP_INDEX_URL", "extra": False, "kind": "index"}]
    proc = run_inproc("plan", "tiny-a", *tiny.args()[:-1], env=env)  # offline: no index is asked
    assert "UV_INDEX_URL" not in proc.stdout


def test_a_url_with_one_or_three_slashes_or_a_backslash_keeps_its_password_out_of_plan_and_refusals(
        tiny, isolated_state, monkeypatch):
    """25th hostile pass (part A) P1: uv reads `https:/u:PW@host`, `https:///u:PW@host` and `http:\\/u:PW@host` as a
    login at host; the plan, `plan --json` and the `--find-links`/`--graphcast-src` refusals printed the password."""
    monkeypatch.delenv("UV_DEFAULT_INDEX", raising=False)
    online = [a for a in tiny.args()[:-1] if a != "--offline"]
    for separator in ("/", "///", "\\/", "@", ""):
        url = f"https:{separator}u:SEKslash9@127.0.0.1:9/simple/"
        runs = [run_inproc("plan", "tiny-a", *online, env={"UV_EXTRA_INDEX_URL": url}),
                run_inproc("plan", "tiny-a", *online, "--json", env={"UV_EXTRA_INDEX_URL": url}),
                run_inproc("plan", "tiny-a", *online, "--installer", "pip", env={"PIP_EXTRA_INDEX_URL": url}),
                run_inproc("plan", "tiny-a", *online, "--find-links", url, "--json"),
                run_inproc("plan", "tiny-a", *tiny.args()[:-1], "--graphcast-src", url + "g.whl", "--json")]
        assert runs[0].returncode == 0 and "127.0.0.1:9" in runs[0].stdout, runs[0].stderr
        for run in runs:
            assert "SEKslash9" not in run.stdout + run.stderr, run


def test_a_gemfury_path_token_is_masked_in_the_plan_text_and_json(tiny, isolated_state, monkeypatch):
    """Twenty-first hostile pass P6: `https://pypi.fury.io/TOKEN/org/` with a token of no digit (or under 20
    characters) was printed in clear in the plan's Sources and in `plan --json`'s "indexes"."""
    import json

    monkeypatch.delenv("UV_DEFAULT_INDEX", raising=False)
    online = [a for a in tiny.args()[:-1] if a != "--offline"]
    for token in ("qWeRtYuIoPaSdFgHjKlZ", "SEKfuryPath07abc"):
        env = {"UV_INDEX_URL": f"https://pypi.fury.io/{token}/myorg/"}
        text = run_inproc("plan", "tiny-a", *online, env=env)
        as_json = run_inproc("plan", "tiny-a", *online, "--json", env=env)
        assert text.returncode == 0 and as_json.returncode == 0, text.stderr + as_json.stderr
        assert "https://pypi.fury.io/<redacted>/myorg/" in " ".join(text.stdout.split())
        assert json.loads(as_json.stdout.splitlines()[-1])["indexes"][0]["url"] == "https://pypi.fury.io/<redacted>/myorg/"
        assert token not in text.stdout + text.stderr + as_json.stdout + as_json.stderr


def test_the_sources_name_a_web_wheelhouse_the_user_gave(tiny, isolated_state, monkeypatch):
    """Eleventh hostile pass #141: a reachable web wheelhouse (`--find-links http://…`) showed only inside the
    steps' argv, while Sources said "Packages: the package index (PyPI)". New cases: one from the flag with a
    password, one from GC_WIZARD_FIND_LINKS; each named (masked) beside the local wheelhouse, offline too."""
    from tests.fixtures.index import closed_port

    flag = f"http://ann:Pw0rdXy77@127.0.0.1:{closed_port()}/wheels/"
    variable = f"http://127.0.0.1:{closed_port()}/lab/"
    monkeypatch.setenv("GC_WIZARD_FIND_LINKS", variable)
    online = [a for a in tiny.args()[:-1] if a != "--offline"]
    for args, state in ((online, "a web page the installer reads"), (tiny.args()[:-1], "not read offline")):
        proc = run_inproc("plan", "tiny-a", *args, "--find-links", flag)
        assert proc.returncode == 0, proc.stderr
        lines = " ".join(proc.stdout[proc.stdout.index("Sources"):proc.stdout.index(STEPS_HEADING)].split())
        assert f"Wheelhouse {flag.replace('Pw0rdXy77', '***')} ({state})" in lines, lines
        assert f"Wheelhouse {variable} ({state})" in lines and "Pw0rdXy77" not in proc.stdout


def test_the_line_that_runs_a_plan_finds_a_recipe_from_another_folder(tiny, isolated_state):
    """Twelfth hostile pass #58: `plan tiny-a --recipes-dir DIR` printed a "To run it" line without --recipes-dir,
    and the pasted line said "unknown recipe 'tiny-a'". The same words with `plan` for `install` now find it."""
    import shlex

    proc = run_inproc("plan", "tiny-a", *tiny.args()[:-1])
    assert proc.returncode == 0, proc.stderr
    line = shell_line(proc.stdout, "To run it: ")
    words = shlex.split(line.removeprefix("To run it: "))
    assert f"--recipes-dir {tiny.recipes}" in " ".join(words)
    again = run_inproc(*["plan" if w == "install" else w for w in words[words.index("install"):]])
    assert again.returncode == 0, again.stderr


def test_the_line_that_runs_a_plan_breaks_between_words_at_the_terminals_width(tiny, isolated_state):
    """The "To run it:" line was one row however long: a terminal wrapped it mid-path, and a copied piece no longer
    ran. It breaks as the "Next:" lines do (`wrap.command`): between words, ` \\` at each break, no row past the
    width, and the rows joined as a shell joins them are the whole install line."""
    import shlex

    proc = run_inproc("plan", "tiny-a", *tiny.args()[:-1], "--installer", "pip",
                      env={"COLUMNS": "60"})
    assert proc.returncode == 0, proc.stderr
    rows = proc.stdout.splitlines()
    start = next(i for i, row in enumerate(rows) if row.startswith("To run it: "))
    block = rows[start:start + 1]
    while block[-1].endswith(" \\"):
        block.append(rows[start + len(block)])
    # A row past the width holds one word (a path longer than a line), whole, or one option with its value.
    def one_unit(row: str) -> bool:
        words = row.removeprefix("To run it: ").removesuffix(" \\").split()
        return len(words) == 1 or (len(words) == 2 and words[0].startswith("--"))

    assert len(block) > 1 and all(one_unit(row) for row in block if len(row) > 60), block
    words = shlex.split(shell_line(proc.stdout, "To run it: ").removeprefix("To run it: "))
    assert words[words.index("install"):][:2] == ["install", "tiny-a"]
    assert words[words.index("--installer") + 1] == "pip" and "\\" not in words
