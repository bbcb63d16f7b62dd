"""The indexes the user's environment sends the installer to, named with their variable, and a failure that
reached a server told apart from one that did not (t24g S4, W4)."""

from __future__ import annotations

from wizard.install.indexes import index_for_host, index_settings
from wizard.install.lockfile import unreachable_sentence
from wizard.install.reach import find_answered, find_unreachable, unreachable_advice
from wizard.recipes.loader import get_recipe

ENV = {"UV_INDEX_URL": "http://ann:S3cretPw@127.0.0.1:9/simple", "UV_DEFAULT_INDEX": "https://first.lab/simple",
       "UV_INDEX": "internal=https://internal.lab/simple https://other.lab/simple",
       "UV_EXTRA_INDEX_URL": "https://extra.lab/simple", "PIP_INDEX_URL": "https://pip.lab/simple",
       "PIP_EXTRA_INDEX_URL": "https://pipextra.lab/simple"}


def test_each_installer_reads_its_own_variables_default_first():
    uv = [(s.variable, s.url, s.extra) for s in index_settings("uv", ENV)]
    assert uv == [("UV_DEFAULT_INDEX", "https://first.lab/simple", False),  # wins over UV_INDEX_URL, as in uv
                  ("UV_INDEX", "https://internal.lab/simple", True), ("UV_INDEX", "https://other.lab/simple", True),
                  ("UV_EXTRA_INDEX_URL", "https://extra.lab/simple", True)]
    pip = [(s.variable, s.url, s.extra) for s in index_settings("pip", ENV)]
    assert pip == [("PIP_INDEX_URL", "https://pip.lab/simple", False),
                   ("PIP_EXTRA_INDEX_URL", "https://pipextra.lab/simple", True)]
    assert index_settings("uv", {}) == []


def test_a_setting_is_shown_masked_with_its_variable():
    setting = index_settings("uv", {"UV_INDEX_URL": ENV["UV_INDEX_URL"]})[0]
    assert setting.describe() == "the index http://ann:***@127.0.0.1:9/simple (from UV_INDEX_URL)"
    assert setting.to_dict() == {"url": "http://ann:***@127.0.0.1:9/simple", "variable": "UV_INDEX_URL",
                                 "extra": False, "kind": "index"}
    assert index_for_host("127.0.0.1", ENV | {"UV_DEFAULT_INDEX": ""}).variable == "UV_INDEX_URL"
    assert index_for_host("127.0.0.1", ENV) is None  # UV_DEFAULT_INDEX wins: uv never asks 127.0.0.1 then


UV_REFUSED = """\
error: Request failed after 3 retries in 6.9s
  cause: Failed to fetch: http://127.0.0.1:9/simple/six/
  cause: error sending request for url (http://127.0.0.1:9/simple/six/)
  cause: client error (Connect)
  cause: tcp connect error
  cause: Connection refused (os error 111)
"""
#: uv's words, captured against a local server: a reply with two status lines, and HTTP 500.
UV_NOT_HTTP = """\
error: Failed to read `--find-links` URL: http://127.0.0.1:18932/redir/
  cause: Request failed after 3 retries in 4.8s
  cause: Failed to fetch: http://127.0.0.1:18932/redir/
  cause: error sending request for url (http://127.0.0.1:18932/redir/)
  cause: client error (SendRequest)
  cause: invalid HTTP header parsed
"""
UV_500 = """\
error: Request failed after 3 retries in 8.9s
  cause: Failed to fetch: http://127.0.0.1:18931/err/simple/six/
  cause: HTTP status server error (500 Internal Server Error) for url (http://127.0.0.1:18931/err/simple/six/)
"""
UV_REDIRECTS = """\
error: Failed to fetch: `https://mirror.lab/simple/six/`
  Caused by: error following redirect for url (https://mirror.lab/simple/six/)
  Caused by: too many redirects
"""
PIP_404 = "ERROR: HTTP error 404 while getting https://mirror.lab/simple/six/six-1.17.0.whl\nERROR: Could not " \
          "install requirement six==1.17.0 from https://mirror.lab/simple/six/six-1.17.0.whl"


def test_an_unreachable_index_from_the_environment_is_named_with_its_variable():
    """S4: "cannot reach 127.0.0.1. Here the packages come from the package index", no variable named."""
    advice = unreachable_advice(UV_REFUSED, get_recipe("jax0.4.23-cpu"), environ=ENV | {"UV_DEFAULT_INDEX": ""})
    assert advice.startswith("This server cannot reach 127.0.0.1.")
    assert "The packages come from the index http://ann:***@127.0.0.1:9/simple (from UV_INDEX_URL)" in advice
    assert "unset UV_INDEX_URL" in advice and "S3cretPw" not in advice
    assert "the package index." not in advice and "Or bring everything on a bundle" in advice
    plain = unreachable_advice(UV_REFUSED, get_recipe("jax0.4.23-cpu"), environ={})
    assert "Here the packages come from the package index" in plain and "UV_INDEX_URL" not in plain


def test_a_server_that_answered_is_never_called_unreachable():
    """W4: a redirect loop (and a reply that is not HTTP, an HTTP error) from 127.0.0.1 was "cannot reach"."""
    for text, words, where in ((UV_NOT_HTTP, "a reply that is not valid HTTP", "http://127.0.0.1:18932/redir/"),
                               (UV_500, "HTTP error 500", "http://127.0.0.1:18931/err/simple/six/"),
                               (UV_REDIRECTS, "a redirect loop", "https://mirror.lab/simple/six/"),
                               (PIP_404, "HTTP error 404", "https://mirror.lab/simple/six/six-1.17.0.whl")):
        assert find_unreachable(text) == [], text
        [answered] = find_answered(text)
        assert answered.answer == words and answered.where() == where
        advice = unreachable_advice(text, get_recipe("jax0.4.23-cpu"), environ={})
        assert "cannot reach" not in advice
        assert f"The server at {where} was reached but answered with {words}" in advice
    assert find_answered(UV_REFUSED) == []


def test_lock_names_an_answer_and_the_variable_too():
    recipe = get_recipe("jax0.4.23-cpu")
    sentence = unreachable_sentence(recipe, UV_500, {"UV_INDEX_URL": "http://127.0.0.1:18931/err/simple"})
    assert sentence.startswith("the server at http://127.0.0.1:18931/err/simple/six/ was reached but answered "
                               "with HTTP error 500")
    assert "(from UV_INDEX_URL)" in sentence and "cannot reach" not in sentence
    sentence = unreachable_sentence(recipe, UV_REFUSED, {"UV_INDEX_URL": "http://127.0.0.1:9/simple"})
    assert sentence.startswith("this server cannot reach 127.0.0.1") and "unset UV_INDEX_URL" in sentence


_TLS = ("error: Request failed after 3 retries\n  Caused by: Failed to fetch: `https://127.0.0.1:18926/x/`\n"
        "  Caused by: error sending request for url (https://127.0.0.1:18926/x/)\n  Caused by: client error (Connect)\n"
        "  Caused by: invalid peer certificate: {reason}\n")


def test_a_certificate_the_machine_does_not_trust_is_an_answer_with_its_fix_not_an_unreachable_host():
    """Tenth hostile pass W29/W30/W31: uv's "invalid peer certificate" (a self-signed certificate) was "this server
    cannot reach 127.0.0.1", and diagnose called it host_unreachable. Each of rustls' reasons is the TLS cause."""
    from wizard.verify.diagnose import diagnose_text

    for reason in ("UnknownIssuer", "CaUsedAsEndEntity", "NotValidForName", "Expired"):
        text = _TLS.format(reason=reason)
        assert find_unreachable(text) == []
        (answered,) = find_answered(text)
        assert answered.host == "127.0.0.1" and answered.answer.startswith("a TLS certificate this machine does not "
                                                                           "trust") and "SSL_CERT_FILE" in answered.answer
        assert [f.id for f in diagnose_text(text)][:1] == ["tls_certificate_untrusted"], reason


def test_a_redirect_nowhere_and_https_to_a_plain_server_are_answers_not_unreachable_hosts():
    """Tenth hostile pass W8/W20, uv's own words (uv pip compile against loopback servers): both were "this server
    cannot reach 127.0.0.1"."""
    redirect = ("error: Failed to read `--find-links` URL: http://127.0.0.1:18978/redir/\n"
                "  cause: Failed to fetch: http://127.0.0.1:18978/redir/\n"
                "  cause: HTTP 302 Found 'Location' value `file:///etc/passwd` is not a valid HTTP URI: invalid format\n")
    plain = ("error: Failed to read `--find-links` URL: https://127.0.0.1:18979/x/\n"
             "  cause: Request failed after 3 retries in 10.1s\n  cause: Failed to fetch: https://127.0.0.1:18979/x/\n"
             "  cause: error sending request for url (https://127.0.0.1:18979/x/)\n  cause: client error (Connect)\n"
             "  cause: received corrupt message of type InvalidContentType\n")
    for text, says in ((redirect, "a redirect to an address that is not a web page"),
                       (plain, "plain HTTP where TLS was expected")):
        assert find_unreachable(text) == []
        (answered,) = find_answered(text)
        assert answered.host == "127.0.0.1" and answered.answer.startswith(says)


def _home(tmp_path, monkeypatch) -> dict[str, str]:
    """A home of the test's own, and no system-wide settings files (the machine's /etc is not the test's)."""
    from wizard import installer_settings

    monkeypatch.setattr(installer_settings, "SYSTEM_FILES", {"uv": (), "pip": (str(tmp_path / "etc" / "pip.conf"),)})
    (tmp_path / "home").mkdir()
    return {"HOME": str(tmp_path / "home"), "XDG_CONFIG_DIRS": str(tmp_path / "xdg")}


def test_find_links_variables_and_settings_files_are_named_where_they_come_from(tmp_path, monkeypatch):
    """Twelfth pass #7: `UV_FIND_LINKS`, a `uv.toml` and a `pip.conf` send the installer elsewhere (the runner passes
    HOME and every UV_*/PIP_* to it) and the plan named none of them. Each setting now comes with its variable or
    file; a variable replaces a file's value of the same kind and the nearest file a farther one, as both tools do."""
    env = _home(tmp_path, monkeypatch)
    user_uv = tmp_path / "home" / ".config" / "uv" / "uv.toml"
    user_uv.parent.mkdir(parents=True)
    user_uv.write_text('index-url = "https://mirror.lab/simple"\nfind-links = ["/srv/wheels"]\n'
                       '[[index]]\nname = "gpu"\nurl = "https://gpu.lab/simple"\n')
    project = tmp_path / "state" / "pyproject.toml"
    project.parent.mkdir()
    project.write_text('[project]\nname = "x"\n[tool.uv.pip]\nextra-index-url = ["https://proj.lab/simple"]\n')
    (tmp_path / "state" / "envs").mkdir()
    uv = [(s.kind, s.url, s.variable, s.extra) for s in index_settings("uv", env, cwd=tmp_path / "state" / "envs")]
    assert uv == [("index", "https://mirror.lab/simple", str(user_uv), False),  # the default first
                  ("index", "https://proj.lab/simple", str(project), True),  # the project's extras beat the user's
                  ("find-links", "/srv/wheels", str(user_uv), True)]
    uv = [(s.kind, s.url, s.variable) for s in index_settings("uv", {**env, "UV_FIND_LINKS": "/a,/b"})]
    assert ("find-links", "/a", "UV_FIND_LINKS") in uv and ("find-links", "/b", "UV_FIND_LINKS") in uv
    assert ("find-links", "/srv/wheels", str(user_uv)) not in uv  # the variable replaces the file's value
    assert index_settings("uv", {**env, "UV_NO_CONFIG": "1"}) == []
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "pip.conf").write_text("[global]\nindex-url = https://sys.lab/simple\nfind-links = /sys\n")
    pip_user = tmp_path / "home" / ".config" / "pip" / "pip.conf"
    pip_user.parent.mkdir(parents=True)
    pip_user.write_text("[install]\nfind-links =\n    /mine\n    https://tok:S3cretTok@wheels.lab/\n")
    pip = index_settings("pip", env)
    assert [(s.kind, s.url, s.variable) for s in pip] == [
        ("index", "https://sys.lab/simple", str(tmp_path / "etc" / "pip.conf")),
        ("find-links", "/mine", str(pip_user)), ("find-links", "https://tok:S3cretTok@wheels.lab/", str(pip_user))]
    assert "S3cretTok" not in " ".join(s.describe() for s in pip) + str([s.to_dict() for s in pip])
    assert index_settings("pip", {**env, "PIP_CONFIG_FILE": "/dev/null"}) == []


def test_a_settings_file_that_is_not_data_is_passed_over(tmp_path, monkeypatch):
    """A broken, huge or special settings file is the installer's to complain about; the plan never fails on it."""
    import os

    env = _home(tmp_path, monkeypatch)
    folder = tmp_path / "home" / ".config" / "uv"
    folder.mkdir(parents=True)
    (folder / "uv.toml").write_text("index-url = [unclosed\n")
    assert index_settings("uv", env) == []
    (folder / "uv.toml").unlink()
    os.mkfifo(folder / "uv.toml")  # a FIFO never blocks the plan
    assert index_settings("uv", env) == []
    (folder / "uv.toml").unlink()
    (folder / "uv.toml").write_text("index-url = 'https://big.lab/simple'\n" + "#" * (1 << 20))
    assert index_settings("uv", env) == []


def test_a_uv_index_table_marked_default_is_the_index_not_an_extra_one(tmp_path, monkeypatch):
    """Eighteenth hostile pass P3: uv's `[[index]]` with `default = true` replaces PyPI, as `index-url` does, and the
    plan called it "the extra index". The others stay extras; a default named by a variable still wins."""
    env = _home(tmp_path, monkeypatch)
    user_uv = tmp_path / "home" / ".config" / "uv" / "uv.toml"
    user_uv.parent.mkdir(parents=True)
    user_uv.write_text('[[index]]\nname = "gpu"\nurl = "https://gpu.lab/simple"\n'
                       '[[index]]\nname = "lab"\nurl = "https://lab.mirror/simple"\ndefault = true\n')
    settings = index_settings("uv", env)
    assert [(s.url, s.extra) for s in settings] == [("https://lab.mirror/simple", False), ("https://gpu.lab/simple", True)]
    assert settings[0].describe() == f"the index https://lab.mirror/simple (from {user_uv})"
    named = index_settings("uv", {**env, "UV_DEFAULT_INDEX": "https://first.lab/simple"})
    assert [(s.url, s.extra) for s in named] == [("https://first.lab/simple", False), ("https://gpu.lab/simple", True)]


def test_a_tab_or_line_end_in_an_index_url_is_dropped_as_the_installers_drop_it():
    """Twenty-second hostile pass P2: a password read from a file with Windows line ends (`pw\\r@host`); uv and pip
    drop the `\\r` and use the password, while the plan split the value there and printed `https://user:pw`."""
    for installer, variable in (("uv", "UV_INDEX_URL"), ("pip", "PIP_INDEX_URL"), ("uv", "UV_DEFAULT_INDEX")):
        for char in "\r\n\t":
            settings = index_settings(installer, {variable: f"https://user:SEKpw9{char}@127.0.0.1:9/simple/"})
            assert [s.url for s in settings] == ["https://user:SEKpw9@127.0.0.1:9/simple/"]
            assert "SEKpw9" not in settings[0].describe() and "SEKpw9" not in str(settings[0].to_dict())
    extra = index_settings("uv", {"UV_EXTRA_INDEX_URL": "https://a.lab/simple https://u:p\r\nw@b.lab/simple"})
    assert [s.url for s in extra] == ["https://a.lab/simple", "https://u:pw@b.lab/simple"]
    pip_extra = index_settings("pip", {"PIP_EXTRA_INDEX_URL": "https://a.lab/simple\nhttps://b.lab/simple"})
    assert [s.url for s in pip_extra] == ["https://a.lab/simple", "https://b.lab/simple"]  # pip splits at any blank


def test_the_size_look_up_reads_the_index_variable_as_the_installer_does():
    from wizard.install.cost import index_url

    assert index_url({"UV_INDEX_URL": "https://u:p\r@lab.example/simple\n"}) == "https://u:p@lab.example/simple/"
