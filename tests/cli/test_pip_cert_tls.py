"""Walk 25 #1: behind an HTTPS-inspecting proxy the admin put the site's CA in pip.conf (`cert = …`); uv, which reads
no pip.conf, failed on TLS a second into the install while pip worked. The plan now says so before anything runs
(pip has a `cert`, uv no matching SSL_CERT_FILE / UV_SYSTEM_CERTS), and the TLS failure leads with the switch that
works (`--installer pip`) before bundles and wheelhouses. Real parts: an HTTPS index on 127.0.0.1 whose certificate
only its own CA signs (`tls_index`), a real pip.conf, the real uv and pip. One uv switch in every sentence: the one
the shipped uv takes (`UV_SYSTEM_CERTS`, checked against its own help)."""

from __future__ import annotations

import subprocess

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from wizard.installer_files import UV_SYSTEM_CERTS
from wizard.uv_tool import uv_bin


def _behind_the_proxy(monkeypatch, tmp_path, index) -> None:
    """Both installers sent to the HTTPS index; pip told its CA in a pip.conf, as /etc/pip.conf does on the walk."""
    conf = tmp_path / "pip.conf"
    conf.write_text(f"[global]\ncert = {index.ca}\ntimeout = 60\n")
    monkeypatch.setenv("PIP_CONFIG_FILE", str(conf))
    for name in ("UV_INDEX_URL", "UV_DEFAULT_INDEX", "PIP_INDEX_URL"):
        monkeypatch.setenv(name, index.url)
    for name in ("SSL_CERT_FILE", "SSL_CERT_DIR", "UV_SYSTEM_CERTS", "UV_NATIVE_TLS", "PIP_CERT", "REQUESTS_CA_BUNDLE",
                 "CURL_CA_BUNDLE"):  # requests takes its bundle over pip.conf's cert
        monkeypatch.delenv(name, raising=False)


def test_the_plan_says_uv_lacks_pips_cert_and_the_failure_leads_with_pip(tiny, tls_index, isolated_state,
                                                                          monkeypatch, tmp_path):
    _behind_the_proxy(monkeypatch, tmp_path, tls_index)
    # uv chosen: since walk 27 #2 the plan's own default is pip here (test_pip_is_the_default_where_uv_fails_on_tls)
    args = ("--recipes-dir", str(tiny.recipes), "--graphcast-src", str(tiny.graphcast), "--installer", "uv")
    plan = " ".join(run_inproc("plan", "tiny-a", *args).stdout.split())
    said = plan.split("Installer uv")[1].split("Sources:")[0]
    assert f"! pip here trusts the certificates in {tls_index.ca}" in said, plan
    assert "`--installer pip`" in said and f"SSL_CERT_FILE={tls_index.ca}" in said and UV_SYSTEM_CERTS in said
    assert last_json(run_inproc("plan", "tiny-a", *args, "--json"))["installer_caution"].startswith("pip here")
    assert "pip here trusts" not in run_inproc("plan", "tiny-a", *args[:-2], "--installer", "pip").stdout

    failed = run_inproc("install", "tiny-a", "--yes", "--json", "--no-verify", *args)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    error = last_json(failed)["error"]
    assert "invalid peer certificate" in error, error  # the real uv refused the proxy's certificate
    advice = error.split("The installer said:")[0]
    assert advice.index("Switch the installer to pip (`--installer pip`; in the app: p, then i") \
        < advice.index("was reached but answered with a TLS certificate"), advice
    assert advice.index("--installer pip") < advice.index("gc-wizard bundle"), advice
    # Walk 27 #3: with the switch the fix, the offline routes are one pointer, not a bundle command and a pip download
    # line of every pin pushing the installer's own words off an 80×24 screen.
    assert "`gc-wizard bundle --help`" in advice and "pip download" not in advice and "--out gc-bundle" not in advice
    assert "UV_NATIVE_TLS" not in error and "--native-tls" not in error and UV_SYSTEM_CERTS in advice

    # The fix it leads with gets past TLS: pip reads the pip.conf's cert and is answered by the index (which has no
    # pip wheel for its upgrade step, so that step ends there, on "no version", never on the certificate).
    with_pip = run_inproc("install", "tiny-a", "--yes", "--json", "--no-verify", *args[:-2], "--installer", "pip")
    log = open(last_json(with_pip)["log"]).read()
    assert f"Looking in indexes: {tls_index.url}" in log, log
    assert "CERTIFICATE_VERIFY_FAILED" not in log and "certificate" not in last_json(with_pip)["error"], log


def test_pip_is_the_default_where_uv_fails_on_tls(tiny, tls_index, isolated_state, monkeypatch, tmp_path):
    """Walk 27 #2: the plan warned that uv would fail on TLS here and still defaulted to uv, which failed two seconds
    later. Where the caution holds, the default is pip, said why in one line; `--installer uv` still forces uv, and
    the pasted install line keeps that choice. Where uv has its own CA, uv stays the default."""
    _behind_the_proxy(monkeypatch, tmp_path, tls_index)
    args = ("plan", "tiny-a", "--recipes-dir", str(tiny.recipes), "--graphcast-src", str(tiny.graphcast))
    shown = run_inproc(*args)
    flat = " ".join(shown.stdout.split())
    assert "Installer pip" in flat and "Installer uv" not in flat, shown.stdout
    assert f"Installer pip, not uv: pip here trusts the certificates in {tls_index.ca}" in flat, flat
    assert "`--installer uv` (in the app: i) still picks uv" in flat, flat
    # walk 28 #5: said under the Installer line, where a newcomer looks, and not again among the notes at the end
    lines = shown.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Installer pip"))
    below = next(line for line in lines[at + 1:] if not line.startswith("    "))  # past the line's own wrap
    assert below.startswith("  Installer pip, not uv: pip here trusts"), lines[at:at + 4]
    assert flat.count("Installer pip, not uv") == 1, flat
    data = last_json(run_inproc(*args, "--json"))
    assert data["installer"] == "pip" and data["installer_caution"] is None, data
    forced = last_json(run_inproc(*args, "--json", "--installer", "uv"))
    assert forced["installer"] == "uv" and forced["installer_caution"].startswith("pip here"), forced
    assert "--installer uv" in " ".join(run_inproc(*args, "--installer", "uv").stdout.split())
    monkeypatch.setenv("SSL_CERT_FILE", str(tls_index.ca))  # uv has the CA too: uv, the plain default
    assert last_json(run_inproc(*args, "--json"))["installer"] == "uv"


def test_no_caution_when_uv_has_its_own_trust(tiny, tls_index, isolated_state, monkeypatch, tmp_path):
    """SSL_CERT_FILE (or UV_SYSTEM_CERTS) gives uv a CA: then uv is not said to lack one, and the plan says nothing."""
    _behind_the_proxy(monkeypatch, tmp_path, tls_index)
    args = ("plan", "tiny-a", "--recipes-dir", str(tiny.recipes), "--graphcast-src", str(tiny.graphcast))
    for name, value in (("SSL_CERT_FILE", str(tls_index.ca)), ("UV_SYSTEM_CERTS", "1")):
        monkeypatch.setenv(name, value)
        assert "pip here trusts" not in run_inproc(*args).stdout, name
        monkeypatch.delenv(name)
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")  # pip names no cert: nothing to compare
    assert "pip here trusts" not in run_inproc(*args).stdout


def test_the_named_uv_switch_is_one_the_shipped_uv_takes():
    """Walk 25 #3: `UV_NATIVE_TLS=1` on the install screen, `--system-certs` in uv's hint, `--native-tls` in diagnose.
    The one name every sentence uses is in the shipped uv's own help."""
    help_text = subprocess.run([uv_bin(), "pip", "install", "--help"], capture_output=True, text=True,
                               timeout=60).stdout
    assert UV_SYSTEM_CERTS.split("=")[0] in help_text
    from wizard.verify.diagnose import load_known_failures

    entry = next(e for e in load_known_failures() if e.id == "tls_certificate_untrusted")
    assert UV_SYSTEM_CERTS.split("=")[0] in entry.fix and "native-tls" not in entry.fix.lower()
