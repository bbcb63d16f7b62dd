"""Masks secrets in any text the wizard writes down or shows: logs, the support report, history.json.

Why so many forms: people paste what they have. A private index in a `--find-links` URL carries its
password as URL userinfo (with `@`, `:` or `#` in it), an installer echoes `Authorization: Bearer …`,
a job script exports `HF_TOKEN=hf_…` or `WANDB_API_KEY=…`, a config dump shows `password: …`, a
`~/.ssh` mistake pastes a whole private key. Each form below is matched on its own shape, so one that
slips past another (a token without its variable name) is still caught:

- URL userinfo: `scheme://user:secret@host` and `scheme://token@host` → `scheme://<redacted>@host`
  (the password may hold any character but whitespace; a `git+https://…/repo@rev` revision is not
  userinfo and stays);
- `Authorization: Bearer|Basic|token …` headers and bare `Bearer …`;
- `password`, `passwd`, `passphrase`, `secret` followed by `:` or `=` and a value;
- `-----BEGIN … PRIVATE KEY-----` blocks, up to their END line (or the end of the text);
- the value of any variable whose name contains TOKEN, KEY, SECRET, PASSWORD, PASSWD or CREDENTIAL
  (`NAME=value`, `NAME: value`, `export NAME="value"`, JSON `"NAME": "value"`);
- tokens recognisable on their own: Hugging Face `hf_…`, GitHub `ghp_/gho_/ghu_/ghs_/ghr_…` and
  `github_pat_…`, AWS access key ids `AKIA…`/`ASIA…`, Slack `xox?-…`, OpenAI-style `sk-…`; W&B keys are
  40 hex digits, which look like git commits, so they are masked only after `WANDB_API_KEY`, `wandb login`
  or `api_key`.
"""

from __future__ import annotations

import re

MASK = "<redacted>"

_URL_USERINFO = re.compile(
    r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.-]*://)"
    r"(?P<userinfo>[^\s/]*)@"
    r"(?=[A-Za-z0-9\[])"
)
_AUTH_HEADER = re.compile(r"(?i)\b(authorization\s*[:=]\s*[\"']?)(bearer|basic|token|digest)?\s*[^\s\"',;]+")
_BEARER = re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}")
_PASSWORD = re.compile(
    r"(?i)(?<![A-Za-z0-9])(pass(?:word|wd|phrase)?|pwd|secret)(\s*[:=]\s*)(?!<redacted>)(\"[^\"]*\"|'[^']*'|\S+)")
_PRIVATE_KEY = re.compile(
    r"-----BEGIN (?P<kind>[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?)-----.*?(?:-----END (?P=kind)-----|\Z)", re.DOTALL)
_SECRET_NAME = r"[A-Za-z0-9_.-]*(?:TOKEN|KEY|SECRET|PASSWORD|PASSWD|CREDENTIAL)[A-Za-z0-9_.-]*"
_SECRET_VAR = re.compile(
    r"(?i)(?P<name>(?<![A-Za-z0-9_])" + _SECRET_NAME + r")(?P<sep>[\"']?\s*[:=]\s*)"
    r"(?P<value>\"[^\"\n]*\"|'[^'\n]*'|[^\s\"',;]+)")
_STANDALONE = re.compile(
    r"(?<![A-Za-z0-9_])("
    r"hf_[A-Za-z0-9]{20,}"
    r"|gh[pousr]_[A-Za-z0-9]{30,}"
    r"|github_pat_[A-Za-z0-9_]{20,}"
    r"|(?:AKIA|ASIA)[0-9A-Z]{16}"
    r"|xox[abprs]-[A-Za-z0-9-]{10,}"
    r"|sk-[A-Za-z0-9_-]{20,}"
    r"|glpat-[A-Za-z0-9_-]{20,}"
    r")(?![A-Za-z0-9_])")
_WANDB = re.compile(r"(?i)(wandb\s+login\s+(?:--\S+\s+)*|api[_-]?key\s*[:=]\s*[\"']?)([0-9a-f]{40})\b")
#: Values of secret-named variables that are not secrets (settings, placeholders, empty).
_HARMLESS = re.compile(r"(?i)^(|true|false|yes|no|on|off|none|null|0|1|\*+|<redacted>|\$\{?\w+\}?|x+)$")


def _userinfo(match: re.Match, keep_user: bool = False) -> str:
    info = match.group("userinfo")
    if info in ("", "git", MASK) or info.endswith(":***"):  # `ssh://git@host` names no one
        return match.group(0)
    user, colon, _ = info.partition(":")
    if keep_user and colon and user:
        return f"{match.group('scheme')}{user}:***@"
    return f"{match.group('scheme')}{MASK}@"


def _secret_var(match: re.Match) -> str:
    value = match.group("value")
    bare = value.strip("\"'")
    if _HARMLESS.match(bare) or "://" in bare:  # a URL value: its userinfo is masked on its own
        return match.group(0)
    if len(bare) < 8 and not (any(c.isdigit() for c in bare) and any(c.isalpha() for c in bare)):
        return match.group(0)  # `KEY_PACKAGES=jax`: a setting, not a token
    quote = value[0] if value[:1] in "\"'" and value[-1:] == value[:1] and len(value) > 1 else ""
    return f"{match.group('name')}{match.group('sep')}{quote}{MASK}{quote}"


def _password(match: re.Match) -> str:
    value = match.group(3)
    if _HARMLESS.match(value.strip("\"'")):
        return match.group(0)
    return f"{match.group(1)}{match.group(2)}{MASK}"


def redact_secrets(text: str, *, keep_user: bool = False) -> str:
    """`text` with every credential form above replaced by `<redacted>`; everything else unchanged.

    `keep_user=True` (logs) keeps a URL's user name, `https://me:***@host`: it says which account was
    used; the report, which goes to someone else, drops it too.
    """
    if not text:
        return text
    text = _PRIVATE_KEY.sub(f"-----BEGIN PRIVATE KEY----- {MASK} -----END PRIVATE KEY-----", text)
    text = _URL_USERINFO.sub(lambda m: _userinfo(m, keep_user), text)
    text = _AUTH_HEADER.sub(lambda m: f"{m.group(1)}{(m.group(2) + ' ') if m.group(2) else ''}{MASK}", text)
    text = _BEARER.sub(lambda m: f"{m.group(1)}{MASK}", text)
    text = _WANDB.sub(lambda m: f"{m.group(1)}{MASK}", text)
    text = _SECRET_VAR.sub(_secret_var, text)
    text = _PASSWORD.sub(_password, text)
    return _STANDALONE.sub(MASK, text)
