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
from dataclasses import dataclass

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
    re.compile(r"[a-z+]+://(?:[^@/\s'\"]+@)?([A-Za-z0-9.-]+\.[A-Za-z]{2,}|\d+\.\d+\.\d+\.\d+)"),
)
_PROXY_FAILURE_RE = re.compile(r"Could not resolve proxy|ProxyError|Cannot connect to proxy|proxy error",
                               re.IGNORECASE)
#: How far (lines) a host name may sit from the failure words (uv puts the URL and "dns error" on
#: different "Caused by" lines).
_NEAR = 4

GRAPHCAST_HOSTS = ("github.com", "codeload.github.com", "objects.githubusercontent.com")
JAX_RELEASE_HOSTS = ("storage.googleapis.com",)
INDEX_HOSTS = ("pypi.org", "files.pythonhosted.org", "pypi.python.org")


@dataclass(frozen=True)
class Unreachable:
    host: str
    role: str
    """graphcast (GraphCast's source), jax-releases (JAX's CUDA wheel page), index, proxy or other."""
    evidence: str


def _role(host: str, line: str) -> str:
    if _PROXY_FAILURE_RE.search(line):
        return "proxy"
    if host in GRAPHCAST_HOSTS or host.endswith(".github.com"):
        return "graphcast"
    if host in JAX_RELEASE_HOSTS:
        return "jax-releases"
    if host in INDEX_HOSTS:
        return "index"
    return "other"


def find_unreachable(text: str) -> list[Unreachable]:
    """Each host the output could not reach, once, in the order met."""
    lines = text.splitlines()
    found: dict[str, Unreachable] = {}
    for number, line in enumerate(lines):
        if not _FAILURE_RE.search(line):
            continue
        window = lines[max(0, number - _NEAR): number + _NEAR + 1]
        # The failure line itself first, then its neighbours (nearest first).
        order = [line] + sorted((w for w in window if w is not line), key=lambda w: abs(lines.index(w) - number))
        host = None
        for candidate in order:
            for pattern in _HOST_RES:
                match = pattern.search(candidate)
                if match and match.group(1).lower() not in ("localhost",) and "." in match.group(1):
                    host = match.group(1).lower().rstrip(".")
                    break
            if host:
                break
        if host and host not in found:
            found[host] = Unreachable(host=host, role=_role(host, line), evidence=line.strip()[:300])
    return list(found.values())


def wheelhouse_command(recipe, python_version: str = "3.11") -> str:
    """The command that makes the recipe's wheelhouse on a machine with internet (same Python, Linux)."""
    pins = " ".join(f"'{r}'" if any(c in r for c in "<>;[ ") else r for r in recipe.requirements)
    links = "".join(f" -f {link}" for link in recipe.find_links)
    short = ".".join(python_version.split(".")[:2])
    return (f"pip download --only-binary=:all: --no-deps --python-version {short} "
            f"--platform manylinux2014_x86_64 -d wheels{links} {pins}")


def short_version(version: str) -> str:
    return ".".join(str(version).split(".")[:2])


def advice_for(hosts: list[Unreachable], recipe=None, python_version: str = "3.11") -> str:
    """Plain sentences: which host, what it was needed for, and what to do instead."""
    if not hosts:
        return ""
    parts: list[str] = []
    names = ", ".join(h.host for h in hosts)
    parts.append(f"This server cannot reach {names}.")
    roles = {h.role for h in hosts}
    version = getattr(getattr(recipe, "graphcast", None), "version", "0.1.1")
    if "proxy" in roles:
        parts.append("The proxy itself does not answer: check https_proxy / HTTPS_PROXY (your admin knows the "
                     "right one), or install from local sources as below.")
    if "graphcast" in roles:
        parts.append(f"GraphCast's source is fetched from there. Give a local GraphCast instead: on a machine with internet, "
                     f"`git clone https://github.com/google-deepmind/graphcast && git -C graphcast checkout "
                     f"v{version}`, copy the folder here, then use it with `--graphcast-src DIR` (in the app: g on "
                     f"the Plan screen; or set GC_WIZARD_GRAPHCAST_SRC=DIR).")
    if roles & {"jax-releases", "index", "other", "proxy"}:
        what = ("JAX's CUDA wheels come from storage.googleapis.com" if "jax-releases" in roles
                else "the packages come from the package index")
        command = wheelhouse_command(recipe, python_version) if recipe is not None else \
            "pip download --only-binary=:all: --no-deps -d wheels PINS…"
        rid = getattr(recipe, "id", "RECIPE")
        parts.append(f"Here {what}. Bring everything on a bundle instead: on a machine with internet (same OS "
                     f"and CPU) run `gc-wizard bundle {rid} --out gc-bundle --python {short_version(python_version)}"
                     f" --graphcast-src DIR`, copy `gc-bundle` here, then `gc-wizard install {rid} --bundle "
                     f"gc-bundle` (no network at all). Or a wheelhouse: `{command}`, copied here, then "
                     "`--find-links wheels --offline` (in the app: w on the Plan screen; or set "
                     "GC_WIZARD_FIND_LINKS=DIR).")
    return " ".join(parts)


def unreachable_advice(text: str, recipe=None, python_version: str = "3.11", *, graphcast_url: bool = False) -> str:
    """`advice_for(find_unreachable(text))`: empty when the text shows no unreachable host.

    `graphcast_url`: the text is the GraphCast step's, fetching GraphCast from a URL, so whatever host
    failed (a mirror, a proxy-less GitHub Enterprise) was GraphCast's source.
    """
    hosts = find_unreachable(text)
    if graphcast_url:
        hosts = [Unreachable(h.host, "graphcast", h.evidence) if h.role != "proxy" else h for h in hosts]
    return advice_for(hosts, recipe, python_version)
