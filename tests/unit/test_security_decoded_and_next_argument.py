"""29th hostile pass (part A) P1, at the masker: generated variants of each new shape (other words, cases, quoting,
spellings) are masked, and their look-alikes are kept. The masker is shared by every channel (stdout JSON, stderr,
logs, history, report, screen), so this is every channel's rule."""

from __future__ import annotations

import itertools

import pytest

from wizard.security import redact_output, redact_secrets

SECRET = "SEKq9w8e7r6t5"

#: A separator, spelled every way a log may spell it.
EQUALS = ["=", "%3D", "%3d", "&#61;", "&#x3d;", "&#X3D;", "&equals;", "\\u003d", "\\u003D", "\\x3d", "＝"]
COLONS = [":", "%3A", "&#58;", "&colon;", "\\u003a", "："]
WORDS = ["password", "PASSWORD", "Passwd", "token", "api_key", "client_secret", "ＰＡＳＳＷＯＲＤ", "pass%77ord",
         "p&#97;ssword"]


@pytest.mark.parametrize(("word", "sep"), list(itertools.product(WORDS, EQUALS + COLONS)))
def test_a_secret_word_and_separator_in_any_spelling(word, sep):
    text = f"prefix {word}{sep}{SECRET} tail"
    masked = redact_secrets(text)
    assert SECRET not in masked and "q9w8e7" not in masked, masked
    assert masked.startswith("prefix ") and masked.endswith(" tail"), masked  # the rest stays as written
    assert word in masked and sep in masked  # the original span only is masked


@pytest.mark.parametrize("text", [
    "100% done, 50%3D is a file", "caf\u00e9 at 20%", "&amp; &lt;b&gt;", "path\\u002fto", "ｆｕｌｌｗｉｄｔｈ words",
    "password＝", "a%20b%20c"])
def test_decoding_keeps_what_holds_no_secret(text):
    assert redact_secrets(text) == text


ELEMENTS = ["add", "property", "entry", "setting", "Param"]
ATTRS = ["key", "name", "KEY", "Name"]
NAMES = ["password", "ClearTextPassword", "ApiKey", "db.password", "aws_secret_access_key", "auth-token"]


@pytest.mark.parametrize(("element", "attr", "name", "quote"),
                         list(itertools.product(ELEMENTS, ATTRS, NAMES, ['"', "'"])))
def test_xml_named_value_and_keyed_text(element, attr, name, quote):
    q = quote
    pair = f"<{element} {attr}={q}{name}{q} value={q}{SECRET}{q} />"
    text = f"<{element} {attr}={q}{name}{q}>{SECRET}</{element}>"
    for each in (pair, text):
        masked = redact_secrets(each)
        assert SECRET not in masked, masked
        if attr.lower() == "name":  # (`key="…"` is a key's value to the `NAME=value` rule, masked whole)
            assert name in masked, masked


def test_xml_look_alikes_stay():
    for text in ('<add name="KeyboardLayout" value="us-intl" />', '<property name="db.url" value="jdbc:h2:mem"/>',
                 '<entry key="timeout">30</entry>'):
        assert redact_secrets(text) == text


@pytest.mark.parametrize("text", [
    ':password => "{}"', ":api_key => '{}'", '"secret_token" => "{}"', "'Password'=>{}",
    'conn.setPassword("{}")', "ds.setApiKey('{}')", 'cfg.setSecretAccessKey("{}")',
    "jdbc:oracle:thin:scott/{}@db.lab:1521/orcl", "JDBC:ORACLE:OCI:app_user/{}@//h:1521/svc",
    "sqlplus scott/{}@orcl", "sqlplus -s sys/{}@db as sysdba",
    "AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCY{}", "ASIAIOSFODNN7EXAMPLE,wJalrXUtnFEMI+K7MDENGbPxRfiCY{}",
    "AKIAIOSFODNN7EXAMPLE secret=wJalrXUtnFEMI/K7MDENG/bPxRfiCY{}",
    "wandb login {}", "wandb login --relogin {}", "vault login {}", "gh auth login --with-token <<< {}",
    "gh auth login --with-token {}", "keytool -list -storepass {}", "keytool -importkeystore -srcstorepass {}",
    "keytool -genkey -keypass {}", "ldapsearch -x -D cn=admin -w {}", "ldapmodify -D cn=x -w {} -f a.ldif",
    "kaggle config set -n key -v {}", "npm config set //registry.lab/:_authToken {}",
    "yarn config set npmAuthToken {}", "rclone config create r s3 secret_access_key {}",
    "pip config set global.password {}", "password {}", "passphrase {}",
])
def test_next_argument_and_code_forms(text):
    masked = redact_secrets(text.format(SECRET))
    assert SECRET not in masked and "q9w8e7" not in masked, masked
    assert "<redacted>" in masked


@pytest.mark.parametrize("text", [
    "vault login failed", "wandb login --relogin", "password for alice", "Enter password again",
    "gh auth login --with-token < token.txt", "keytool -list -storepass $STOREPASS", "ldapsearch -x -W",
    "npm config set registry https://registry.lab/", "setTimeout('done')", "setKeyboardLayout(\"us\")",
    ":timeout => 30", "sqlplus /nolog", "AKIAIOSFODNN7EXAMPLE is the example id",
])
def test_look_alikes_stay(text):
    masked = redact_secrets(text)
    assert masked == text or (text.startswith("AKIA") and masked.endswith(" is the example id")), masked


def test_json_channel_masks_an_escaped_separator():
    """A `--json` line's value with `password\\u003d…` (as JSON reads it back: `password=`)."""
    line = '{"evidence": ["conn password%3D' + SECRET + '"]}\n'
    assert SECRET not in redact_output(line)
