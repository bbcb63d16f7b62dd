"""README's paragraph on what the wizard refuses names the refusals added lately, in the product's own words: a
refusal a user meets should be one they could have read about first."""

from __future__ import annotations

from pathlib import Path

from wizard.installer_files import pip_program_problem, requirement_problem

README = Path(__file__).resolve().parents[2] / "README.md"


def _readme() -> str:
    return " ".join(README.read_text(encoding="utf-8").split())


def test_the_readme_names_the_late_refusals():
    text = _readme()
    for named in ("`PIP_PYTHON`", "`python = …`", "`PIP_DRY_RUN`", "`OPENSSL_CONF`", "`LD_PRELOAD`", "`SSL_CERT_FILE`",
                  "`[includeIf …]`", "`GIT_CONFIG_PARAMETERS`", "a link leading out of it"):
        assert named in text, named


def test_the_readme_says_them_as_the_product_does():
    text = _readme()
    python = pip_program_problem({"PIP_PYTHON": "/opt/x/python"}) or ""
    dry = requirement_problem("pip", {"PIP_DRY_RUN": "1"}, None) or ""
    for phrase in ("would make pip run itself again under that program, as you",):
        assert phrase in python and phrase in text
    for phrase in ("would make pip install nothing", "while the environment would be recorded as the recipe's"):
        assert phrase in dry and phrase in text
