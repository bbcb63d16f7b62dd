"""The installer settings that change how uv or pip picks or checks packages are found by variable and by settings
file, each as its installer reads it (`install.resolution_settings`), and a failure they cause names them.

Before (32nd hostile pass, part B, P2): `UV_REQUIRE_HASHES=1` made every install fail ("In `--require-hashes` mode,
all requirements must have a hash"), and neither the plan nor the failure named it."""

from __future__ import annotations

import ssl

from wizard.install.resolution_settings import SETTINGS, found_settings, resolution_advice, resolution_notes


def _env(tmp_path, **values):
    """An environment that reads no settings file of the user's or the machine's."""
    return {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_CONFIG_DIRS": str(tmp_path / "etc"),
            **values}


def test_every_variable_of_the_table_is_named_when_set_and_not_when_off(tmp_path):
    for setting in [s for s in SETTINGS if s.variable]:
        on = {"value": "2020-01-01", "trust": "1" if setting.variable.startswith("UV_") else "/site/ca.pem"}.get(
            setting.kind, "1")
        words = resolution_notes(setting.installer, _env(tmp_path, **{setting.variable: on}), tmp_path)
        # a TLS trust variable is the user's, passed on as set: named, with no way to undo it (fixers' leftover)
        undo = "passed on as set" if setting.kind == "trust" else f"env -u {setting.variable}"
        assert len(words) == 1 and words[0].startswith(f"{setting.variable}={on} ") \
            and undo in words[0], (setting, words)
        off = setting.default or ("" if setting.kind == "value" else "0")  # a date has no "off" but empty
        assert resolution_notes(setting.installer, _env(tmp_path, **{setting.variable: off}), tmp_path) == []


def test_require_hashes_is_found_in_a_uv_toml_and_a_pip_conf(tmp_path):
    uv_toml = tmp_path / "uv.toml"
    uv_toml.write_text("[pip]\nrequire-hashes = true\nprerelease = \"allow\"\n")
    found = found_settings("uv", _env(tmp_path, UV_CONFIG_FILE=str(uv_toml)), tmp_path)
    assert [f.where for f in found] == [f"`[pip] require-hashes = true` in {uv_toml}",
                                        f"`[pip] prerelease = allow` in {uv_toml}"]
    conf = tmp_path / "pip.conf"
    conf.write_text("[install]\nrequire_hashes = yes\npre = off\n")
    found = found_settings("pip", _env(tmp_path, PIP_CONFIG_FILE=str(conf)), tmp_path)
    assert [f.where for f in found] == [f"`require-hashes = yes` in {conf}"]
    assert "take it out of that file" in found[0].words


def test_the_variable_set_off_wins_over_the_settings_file(tmp_path):
    uv_toml = tmp_path / "uv.toml"
    uv_toml.write_text("[pip]\nrequire-hashes = true\n")
    assert found_settings("uv", _env(tmp_path, UV_CONFIG_FILE=str(uv_toml), UV_REQUIRE_HASHES="false"), tmp_path) == []


def test_the_failure_names_the_setting_as_its_cause_or_as_what_may_be(tmp_path):
    said = "error: In `--require-hashes` mode, all requirements must have a hash, but none were provided for: pkg-a"
    advice = resolution_advice("uv", said, _env(tmp_path, UV_REQUIRE_HASHES="1"), tmp_path)
    assert advice.startswith("The cause is your setting: UV_REQUIRE_HASHES=1") and "env -u UV_REQUIRE_HASHES" in advice
    advice = resolution_advice("pip", "ERROR: No matching distribution", _env(tmp_path, PIP_PRE="1"), tmp_path)
    assert "may be why" in advice and "PIP_PRE=1" in advice
    assert resolution_advice("uv", said, _env(tmp_path), tmp_path) is None


def test_build_isolation_and_tls_trust_variables_are_named_and_the_build_failure_names_its_cause(tmp_path):
    """34th hostile pass (part B) P5: UV_NO_BUILD_ISOLATION made GraphCast's source build fail on "No module named
    'setuptools'" and the fix advised installing setuptools; UV_INSECURE_HOST / PIP_TRUSTED_HOST (TLS checks off
    for a host) passed through the `UV_`/`PIP_` prefix unnamed."""
    for installer, variable, value in (("uv", "UV_NO_BUILD_ISOLATION", "1"), ("uv", "UV_INSECURE_HOST", "pypi.org"),
                                       ("pip", "PIP_TRUSTED_HOST", "pypi.org"), ("pip", "PIP_NO_BUILD_ISOLATION", "0"),
                                       ("uv", "UV_SKIP_WHEEL_FILENAME_CHECK", "1")):
        words = resolution_notes(installer, _env(tmp_path, **{variable: value}), tmp_path)
        assert len(words) == 1 and words[0].startswith(f"{variable}={value} "), (variable, words)
    said = "ModuleNotFoundError: No module named 'setuptools'"
    advice = resolution_advice("uv", said, _env(tmp_path, UV_NO_BUILD_ISOLATION="1"), tmp_path)
    assert advice.startswith("The cause is your setting: UV_NO_BUILD_ISOLATION=1") \
        and "env -u UV_NO_BUILD_ISOLATION" in advice
    uv_toml = tmp_path / "uv.toml"
    uv_toml.write_text('allow-insecure-host = ["pypi.org"]\n')
    found = found_settings("uv", _env(tmp_path, UV_CONFIG_FILE=str(uv_toml)), tmp_path)
    assert [f.setting.variable for f in found] == ["UV_INSECURE_HOST"]


def test_tls_trust_variables_and_keys_are_named_with_their_path_and_never_as_a_failures_cause(tmp_path, monkeypatch):
    """Fixers' leftover (TLS trust variables): SSL_CERT_FILE, SSL_CERT_DIR, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE,
    PIP_CERT, UV_NATIVE_TLS … were passed on to every step and named nowhere. Rows of the same table, kind "trust":
    named by the plan and each step's log with the path they give; the system's own store is not named."""
    ca = tmp_path / "site-ca.pem"
    named = {"uv": ["SSL_CERT_FILE", "SSL_CERT_DIR"],
             "pip": ["PIP_CERT", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR"]}
    for installer, variables in named.items():
        environ = _env(tmp_path, **dict.fromkeys(variables, str(ca)))
        words = resolution_notes(installer, environ, tmp_path)
        assert [w.split("=", 1)[0] for w in words] == variables, words
        assert all(w.startswith(f"{v}={ca} has {installer} trust the certificate authorities in that ")
                   for v, w in zip(variables, words, strict=True)), words
        # which CAs are trusted changes no pick: a failure is not blamed on them
        assert resolution_advice(installer, "ERROR: ResolutionImpossible", environ, tmp_path) is None
    uv_toml = tmp_path / "uv.toml"
    uv_toml.write_text("native-tls = true\n")
    assert resolution_notes("uv", _env(tmp_path, UV_CONFIG_FILE=str(uv_toml)), tmp_path) == [
        f"`native-tls = true` in {uv_toml} has uv trust the system's certificate store for its indexes and "
        "downloads, in place of its built-in roots (passed on as set)."]
    conf = tmp_path / "pip.conf"
    conf.write_text(f"[global]\ncert = {ca}\n")
    assert resolution_notes("pip", _env(tmp_path, PIP_CONFIG_FILE=str(conf)), tmp_path)[0].startswith(
        f"`cert = {ca}` in {conf} has pip trust")
    system = ssl.get_default_verify_paths()
    if system.openssl_cafile:  # the file OpenSSL reads anyway (a link to it too) changes nothing worth a line
        assert resolution_notes("pip", _env(tmp_path, SSL_CERT_FILE=system.openssl_cafile), tmp_path) == []


def test_index_strategy_sources_and_build_backend_options_are_named(tmp_path):
    """35th hostile pass (part B) P8: UV_INDEX_STRATEGY=unsafe-best-match (a package from whichever index offers the
    version), UV_NO_SOURCES and PIP_CONFIG_SETTINGS (options for GraphCast's build backend) passed the `UV_`/`PIP_`
    prefix unnamed; a uv.toml's `config-settings` too."""
    for installer, variable, value in (("uv", "UV_INDEX_STRATEGY", "unsafe-best-match"), ("uv", "UV_NO_SOURCES", "1"),
                                       ("pip", "PIP_CONFIG_SETTINGS", "--build-option=--x"),
                                       ("pip", "PIP_ONLY_DEPS", "1")):
        words = resolution_notes(installer, _env(tmp_path, **{variable: value}), tmp_path)
        assert len(words) == 1 and words[0].startswith(f"{variable}={value} "), (variable, words)
    assert resolution_notes("uv", _env(tmp_path, UV_INDEX_STRATEGY="first-index"), tmp_path) == []
    uv_toml = tmp_path / "uv.toml"
    uv_toml.write_text('[pip]\nconfig-settings = { "--build-option" = "--x" }\n')
    found = found_settings("uv", _env(tmp_path, UV_CONFIG_FILE=str(uv_toml)), tmp_path)
    assert [f.setting.key for f in found] == ["config-settings"]
