"""Names the host an install step could not reach, and the fix that works without it.

Why: most GPU nodes reach PyPI but not GitHub (GraphCast's source) or storage.googleapis.com (JAX's
CUDA wheels), and some reach nothing but a proxy. The installers' own messages ("Could not resolve
host: github.com", uv's "dns error", pip's "Failed to establish a new connection") say what broke but
not what to do. The fix is always one of two local sources: a GraphCast checkout (`--graphcast-src`),
or a wheelhouse made on a machine with internet (`--find-links DIR --offline`).

`find_unreachable(text)` reads a log (any installer's output) and returns each unreachable host once,
with its role; `unreachable_advice(text, recipe)` turns that into the sentences both faces show.
The `diagnose` command's finding for these failures (wizard/data/known_failures.yaml) can use the same
functions. No network access happens here: only text is read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from wizard.install.indexes import IndexSetting, index_for_host
from wizard.installer_files import UV_SYSTEM_CERTS, uv_trust_gap
from wizard.paths import elsewhere_command
from wizard.recipes.alternatives import python_download_words
from wizard.security import redact_secrets, shell_word

#: Words that mean "the network did not get there" in git, curl, pip (urllib3), uv (reqwest) output.
_FAILURE_RE = re.compile(
    r"Could not resolve (?:host|proxy)|Temporary failure in name resolution|Name or service not known"
    r"|dns error|failed to lookup address|Failed to establish a new connection|Network is unreachable"
    r"|No route to host|Connection refused|Connection timed out|connect timed out|operation timed out"
    r"|Failed to connect to|ProxyError|Cannot connect to proxy|error sending request|tcp connect error"
    r"|Max retries exceeded|Could not fetch URL|Failed to fetch|Failed to read --find-links URL"
    r"|unable to access '", re.IGNORECASE)
_HOST_RES = (
    re.compile(r"Could not resolve (?:host|proxy):? '?([A-Za-z0-9.-]+)"),
    re.compile(r"Failed to connect to ([A-Za-z0-9.-]+)"),
    re.compile(r"host='([A-Za-z0-9.-]+)'"),
    re.compile(r"[a-z+]+://(?:[^@/\s'\"]+@)?([A-Za-z0-9.-]+\.[A-Za-z]{2,}|[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+)"),
)
_PROXY_FAILURE_RE = re.compile(r"Could not resolve proxy|ProxyError|Cannot connect to proxy|proxy error",
                               re.IGNORECASE)
#: How far (lines) a host name may sit from the failure words (uv puts the URL and "dns error" on
#: different "Caused by" lines).
_NEAR = 4
#: The words for a certificate the installer does not trust; one uv switch, the one the shipped uv takes
#: (`installer_files.UV_SYSTEM_CERTS`, walk 25 #1/#3).
_TLS_WORDS = ("a TLS certificate this machine does not trust (a self-signed one, or an HTTPS-inspecting proxy's: give "
              f"its CA with SSL_CERT_FILE=FILE, or {UV_SYSTEM_CERTS} to use the system's certificates)")


def tls_words() -> str:
    """How a server's untrusted certificate is said (one wording, with the uv switch that gives uv a CA)."""
    return _TLS_WORDS


def tls_refused(text: str) -> bool:
    """Whether an installer's output says a server answered with a certificate this machine does not trust."""
    return any(reply.answer == _TLS_WORDS for reply in find_answered(text))


#: Words that mean the server was reached and answered, only not with a package page: an HTTP error status, a
#: redirect loop, a reply that is not HTTP. Such a failure is the address's (or the server's), never "cannot
#: reach" — the tester's redirect loop on 127.0.0.1 was called unreachable, and the advice (bring a wheelhouse,
#: the network is closed) was beside the point (t24g W4). Each with the words the advice uses.
_ANSWERED = (
    (re.compile(r"too many redirects|redirect loop|TooManyRedirects|Exceeded [0-9]+ redirects|error following redirect"
                r"|maximum number of redirects", re.IGNORECASE), "a redirect loop"),
    (re.compile(r"invalid HTTP|BadStatusLine|bad status line|InvalidChunkLength|malformed HTTP", re.IGNORECASE),
     "a reply that is not valid HTTP"),
    (re.compile(r"HTTP status (?:client|server) error \(([0-9]{3})|HTTP error ([0-9]{3})|\b([0-9]{3}) (?:Client|Server) Error"
                r"|status code:? ([0-9]{3})", re.IGNORECASE), "HTTP error {code}"),
    (re.compile(r"Missing `Content-Type` header|unsupported Content-Type|unexpected content type", re.IGNORECASE),
     "a page that is not a package index"),
    # Tenth hostile pass W8/W20 (uv's words): a redirect to where no installer goes (`file:///etc/passwd`), and
    # https:// sent to a plain http server, were "this server cannot reach 127.0.0.1".
    (re.compile(r"'Location' value `[^`]*` is not a valid HTTP URI|redirect(?:ed)? to a (?:non-HTTP|file) URL",
                re.IGNORECASE), "a redirect to an address that is not a web page"),
    (re.compile(r"received corrupt message of type InvalidContentType|wrong version number|http request to an https "
                r"server|tls handshake eof", re.IGNORECASE),
     "plain HTTP where TLS was expected (is it an http:// address given as https://?)"),
    # Tenth hostile pass W29/W30: a self-signed certificate was "this server cannot reach 127.0.0.1".
    (re.compile(r"invalid peer certificate|UnknownIssuer|certificate verify failed|CERTIFICATE_VERIFY_FAILED"
                r"|self[- ]signed certificate|unable to get local issuer certificate", re.IGNORECASE),
     _TLS_WORDS),
)

GRAPHCAST_HOSTS = ("github.com", "codeload.github.com", "objects.githubusercontent.com")
JAX_RELEASE_HOSTS = ("storage.googleapis.com",)
INDEX_HOSTS = ("pypi.org", "files.pythonhosted.org", "pypi.python.org")


#: A URL of a Python build uv downloads (python-build-standalone on github.com by default, or the mirror
#: `UV_PYTHON_INSTALL_MIRROR` names: same file names). Walk 25 #2: uv's failed download of Python 3.13 from
#: github.com was blamed on GraphCast's source, whose local copy had been given already.
_PYTHON_DOWNLOAD_RE = re.compile(r"python-build-standalone|/cpython-[0-9]+\.[0-9]+[\w.%+-]*-install_only", re.IGNORECASE)


@dataclass(frozen=True)
class Unreachable:
    host: str
    role: str
    """graphcast (GraphCast's source), python (uv's Python download), jax-releases (JAX's CUDA wheel page), index,
    proxy or other."""
    evidence: str


def _role(host: str, line: str, near: str = "") -> str:
    if _PROXY_FAILURE_RE.search(line):
        return "proxy"
    if _PYTHON_DOWNLOAD_RE.search(line) or _PYTHON_DOWNLOAD_RE.search(near):
        return "python"
    if host in GRAPHCAST_HOSTS or host.endswith(".github.com"):
        return "graphcast"
    if host in JAX_RELEASE_HOSTS:
        return "jax-releases"
    if host in INDEX_HOSTS:
        return "index"
    return "other"


def find_unreachable(text: str) -> list[Unreachable]:
    """Each host the output could not reach, once, in the order met. A failure whose own lines show the
    server answered (`_ANSWERED`: an HTTP error, a redirect loop) is no unreachable host: see `find_answered`."""
    lines = text.splitlines()
    found: dict[str, Unreachable] = {}
    for number, line in enumerate(lines):
        if not _FAILURE_RE.search(line) or _answer(lines[max(0, number - _NEAR): number + _NEAR + 1]):
            continue
        host = _host_near(lines, number)
        if host and host not in found:
            near = "\n".join(lines[max(0, number - _NEAR): number + _NEAR + 1])
            found[host] = Unreachable(host=host, role=_role(host, line, near), evidence=line.strip()[:300])
    return list(found.values())


@dataclass(frozen=True)
class Answered:
    """A host that was reached and answered with something no installer can use."""

    host: str
    answer: str
    """What it answered, in words: "a redirect loop", "HTTP error 500"."""
    evidence: str
    url: str = ""
    """The address asked, as the installer printed it (masked when shown: `where`)."""

    def where(self) -> str:
        """The address asked, a password or token in it masked; the host when no address was printed."""
        return redact_secrets(self.url, keep_user=True) if self.url else self.host


def find_answered(text: str) -> list[Answered]:
    """Each host the output reached but got an error from (`_ANSWERED`), once, in the order met."""
    lines = text.splitlines()
    found: dict[str, Answered] = {}
    for number, line in enumerate(lines):
        answer = _answer([line])
        host = _host_near(lines, number) if answer else None
        if answer and host and host not in found:
            found[host] = Answered(host=host, answer=answer, evidence=line.strip()[:300], url=_url_near(lines, number))
    return list(found.values())


def _answer(lines: list[str]) -> str | None:
    """The words for the first server answer (`_ANSWERED`) among `lines`, or None."""
    for line in lines:
        for pattern, words in _ANSWERED:
            match = pattern.search(line)
            if match:
                return words.format(code=next((g for g in match.groups() if g), ""))
    return None


def _url_near(lines: list[str], number: int) -> str:
    """The URL printed on line `number`, else on the nearest line within `_NEAR` of it; "" when none."""
    window = range(max(0, number - _NEAR), min(len(lines), number + _NEAR + 1))
    for index in sorted(window, key=lambda i: abs(i - number)):
        match = _URL_RE.search(lines[index])
        if match:
            return match.group(0).rstrip(".,;:")
    return ""


_URL_RE = re.compile(r"\bhttps?://[^\s'\"()<>`]+")


def _host_near(lines: list[str], number: int) -> str | None:
    """The host named on line `number`, else on the nearest line within `_NEAR` of it."""
    window = range(max(0, number - _NEAR), min(len(lines), number + _NEAR + 1))
    for index in sorted(window, key=lambda i: abs(i - number)):
        for pattern in _HOST_RES:
            match = pattern.search(lines[index])
            if match and match.group(1).lower() not in ("localhost",) and "." in match.group(1):
                return match.group(1).lower().rstrip(".")
    return None


def wheelhouse_command(recipe, python_version: str = "3.11") -> str:
    """The command that makes the recipe's wheelhouse on a machine with internet (same Python, Linux)."""
    pins = " ".join(shell_word(r) for r in recipe.requirements)
    links = "".join(f" -f {shell_word(link)}" for link in recipe.find_links)
    short = ".".join(python_version.split(".")[:2])
    return (f"pip download --only-binary=:all: --no-deps --python-version {short} "
            f"--platform manylinux2014_x86_64 -d wheels{links} {pins}")


def short_version(version: str) -> str:
    return ".".join(str(version).split(".")[:2])


def advice_for(hosts: list[Unreachable], recipe=None, python_version: str = "3.11", *,
               answered: list[Answered] | tuple[Answered, ...] = (), answered_role: str = "other",
               environ: Mapping[str, str] | None = None, installer: str | None = None,
               bundle_here: str | None = None, bundle_install: str | None = None) -> str:
    """Plain sentences: which host, what it was needed for, and what to do instead. `answered`: hosts that
    were reached and answered with an error (said as such, never "cannot reach"). A host that an index
    variable of the user's environment names (`UV_INDEX_URL`, `PIP_INDEX_URL`, …) is said to be that index,
    with the variable: that setting, not the network, is then the first thing to check. `installer`: the one
    that failed; uv failing on TLS where pip's settings name a `cert` leads with the switch to pip (walk 25 #1).
    `bundle_here`: a bundle of this recipe already on this machine (the last install's): offered as it is, never
    "make one elsewhere and copy it here" (walk 26 #7); `bundle_install`: the install it came from, in words
    (`flows.history.attempt_words`: "your last install of R", or the attempt that failed or was stopped)."""
    if not hosts and not answered:
        return ""
    parts: list[str] = []
    if installer == "uv" and any(reply.answer == _TLS_WORDS for reply in answered):
        import os  # deferred: only a TLS failure reads the settings

        gap = uv_trust_gap(os.environ if environ is None else environ, keys="p, then i on the Plan screen")
        parts += [gap] if gap else []
        switch = bool(gap)
    else:
        switch = False
    python = [h for h in hosts if h.role == "python"]
    hosts = [h for h in hosts if h.role != "python"]
    if python:
        built = re.search(r"cpython-([0-9]+\.[0-9]+)", python[0].evidence)  # the version uv asked for, as its URL says
        parts.append(python_download_words(python[0].host, built.group(1) if built else
                                           python_version if recipe is not None else None))
        if not hosts and not answered:
            return " ".join(parts)
    if hosts:
        parts.append(f"This server cannot reach {', '.join(h.host for h in hosts)}.")
    for reply in answered:
        parts.append(f"The server at {reply.where()} was reached but answered with {reply.answer}, so that "
                     "address is not a working package page.")
    roles = {h.role for h in hosts} | ({answered_role} if answered else set())
    version = getattr(getattr(recipe, "graphcast", None), "version", None)
    if "proxy" in roles:
        parts.append("The proxy itself does not answer: check https_proxy / HTTPS_PROXY (your admin knows the "
                     "right one), or install from local sources as below.")
    if "graphcast" in roles:
        # The version of the recipe that ran, never a fixed one: with no recipe known (a pasted log that names none),
        # "the recipe's version" (walk 25 #2: diagnose said `checkout v0.1.1` of a v0.2 install's log).
        checkout = (f"`git clone https://github.com/google-deepmind/graphcast && git -C graphcast checkout v{version}`"
                    if version else "`git clone https://github.com/google-deepmind/graphcast`, then check out the "
                    "recipe's version (its tag: `git -C graphcast checkout vVERSION`)")
        parts.append(f"GraphCast's source is fetched from there. Give a local GraphCast instead: on a machine with internet, "
                     f"{checkout}, copy the folder here, then use it with `--graphcast-src DIR` (in the app: g on "
                     f"the Plan screen; or set GC_WIZARD_GRAPHCAST_SRC=DIR).")
    alternatives = [a for a in getattr(recipe, "alternatives", ()) or ()
                    if not any(h.host in link for h in hosts for link in a.find_links)]
    pages = [h for h in hosts if h.role == "jax-releases"
             or any(f"://{h.host}/" in link for link in getattr(recipe, "find_links", ()) or ())]
    if pages and alternatives:
        # Walk 24 #2: the fix that works on the same server (the walker's Alt src installed in a minute) comes first,
        # before a bundle made elsewhere.
        offers = " or ".join(f"`--alternative {a.id}`" for a in alternatives)
        parts.append(f"The same stack can come from PyPI instead: install again with {offers} ("
                     f"{alternatives[0].title}{'' if alternatives[0].gpu_checked else '; it needs the GPU check'}; "
                     "in the app: a on the Plan screen).")
    if roles & {"jax-releases", "index", "other", "proxy"}:
        setting = configured_index([*(h.host for h in hosts), *(a.host for a in answered)], environ)
        if setting is not None:
            parts.append(index_sentence(setting))
        what = ("JAX's CUDA wheels come from storage.googleapis.com" if "jax-releases" in roles
                else "the packages come from the package index")
        command = wheelhouse_command(recipe, python_version) if recipe is not None else \
            "pip download --only-binary=:all: --no-deps -d wheels PINS…"
        rid = getattr(recipe, "id", "RECIPE")
        # deferred: only a host that does not answer needs the recipe loader
        from wizard.recipes.loader import recipes_dir_for

        folder = recipes_dir_for(recipe)
        given = f" --recipes-dir {shell_word(folder)}" if folder else ""
        lead = "Or bring everything on a bundle" if setting is not None else \
            f"Here {what}. Bring everything on a bundle instead"
        if bundle_here:
            lead = "Or install from the bundle" if setting is not None else f"Here {what}. Install from the bundle"
            carried = Path(bundle_here) / "recipes"  # the recipe's copy the bundle carries (`bundle.RECIPES`)
            if folder and (carried / f"{rid}.yaml").is_file():
                given = f" --recipes-dir {shell_word(str(carried))}"
            parts.append(f"{lead} {bundle_install or f'your last install of {rid}'} came from, which is here: "
                         f"`gc-wizard install {rid}"
                         f"{given} --bundle {shell_word(bundle_here)}` (no network at all).")
            return " ".join(parts)
        if switch:
            # Walk 27 #3: pip reaches the index here, so the switch above is the fix; the bundle's and the wheelhouse's
            # commands (and a pip download line of every pin, ~20 lines at 80×24) pushed the installer's own words off
            # the screen. They stay one pointer away.
            parts.append("If pip cannot reach it either, `gc-wizard bundle --help` says how to bring everything from a "
                         "machine with internet.")
            return " ".join(parts)
        parts.append(f"{lead}: on a machine with internet (same OS "
                     f"and CPU) run `{elsewhere_command(f'bundle {rid}{given}')} --out gc-bundle --python "
                     f"{short_version(python_version)} --graphcast-src DIR`, copy `gc-bundle` here, then `gc-wizard "
                     f"install {rid}{' --recipes-dir gc-bundle/recipes' if folder else ''} --bundle gc-bundle` (no "
                     f"network at all). Or a wheelhouse: `{command}`, copied here, then "
                     "`--find-links wheels --offline` (in the app: w on the Plan screen; or set "
                     "GC_WIZARD_FIND_LINKS=DIR).")
    return " ".join(parts)


def configured_index(hosts: list[str], environ: Mapping[str, str] | None = None) -> IndexSetting | None:
    """The index an environment variable sends the installer to, on one of `hosts`, or None."""
    return next((found for host in hosts if (found := index_for_host(host, environ)) is not None), None)


def index_sentence(setting: IndexSetting) -> str:
    """Where the packages came from, and the setting to check: "The packages come from the index URL (from
    UV_INDEX_URL), which your environment sets: check that address, or unset UV_INDEX_URL …"."""
    instead = "besides PyPI" if setting.extra else "instead of PyPI"
    return (f"The packages come from {setting.describe()}, which your environment sets ({instead}): check that "
            f"address, or unset {setting.variable} to leave it out.")


def unreachable_advice(text: str, recipe=None, python_version: str = "3.11", *, graphcast_url: bool = False,
                       environ: Mapping[str, str] | None = None, installer: str | None = None,
                       bundle_here: str | None = None, bundle_install: str | None = None) -> str:
    """`advice_for(find_unreachable(text), answered=find_answered(text))`: empty when the text shows no host
    that could not be reached or answered with an error.

    `graphcast_url`: the text is the GraphCast step's, fetching GraphCast from a URL, so whatever host
    failed (a mirror, a proxy-less GitHub Enterprise) was GraphCast's source.
    """
    hosts = find_unreachable(text)
    if graphcast_url:
        hosts = [Unreachable(h.host, "graphcast", h.evidence) if h.role != "proxy" else h for h in hosts]
    return advice_for(hosts, recipe, python_version, answered=find_answered(text),
                      answered_role="graphcast" if graphcast_url else "other", environ=environ, installer=installer,
                      bundle_here=bundle_here, bundle_install=bundle_install)
