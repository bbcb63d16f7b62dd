"""Another source for the same stack, offered when a recipe's own wheel page cannot be reached.

Why: the JAX 0.4.23 CUDA jaxlib lives only on JAX's wheel page (storage.googleapis.com), which many
GPU nodes cannot reach while PyPI works. PyPI has JAX's CUDA 12 plugin for 0.4.23 too; JAX recommended
and then withdrew it in its release week, so it is offered, never chosen silently, and always marked as
needing the GraphCast check on a GPU (`gpu_checked: false` in the recipe). The alternative is data in the
recipe (`alternatives:`); this module only applies it and checks whether the recipe's find-links pages
answer (a HEAD request each, a few seconds at most, nothing else is sent).
"""

from __future__ import annotations

import dataclasses
import os
import ssl
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from wizard.errors import UserError
from wizard.installer_files import CertificatesRefused, tls_context, uv_setting
from wizard.paths import elsewhere_command
from wizard.patterns import ascii_digits
from wizard.recipes.loader import Alternative, Recipe
from wizard.web_read import Deadline, open_url

REACH_TIMEOUT = 4.0
GPU_CHECK = "NEEDS A GPU CHECK"


def get_alternative(recipe: Recipe, alt_id: str) -> Alternative:
    for alt in recipe.alternatives:
        if alt.id == alt_id:
            return alt
    known = ", ".join(a.id for a in recipe.alternatives) or "none"
    raise UserError(f"recipe {recipe.id} has no alternative source '{alt_id}' (it has: {known}).")


def apply_alternative(recipe: Recipe, alt_id: str) -> Recipe:
    """The recipe with the alternative's pins swapped in and its find-links in place of the recipe's."""
    alt = get_alternative(recipe, alt_id)
    replaced = {canonicalize_name(Requirement(r).name): r for r in alt.requirements}
    drop = set(alt.remove)
    requirements: list[str] = []
    for text in recipe.requirements:
        name = canonicalize_name(Requirement(text).name)
        if name in drop:
            continue
        requirements.append(replaced.pop(name, text))
    requirements += list(replaced.values())
    mark = "" if alt.gpu_checked else f" — {GPU_CHECK}"
    note = f"Alternative source '{alt.id}': {alt.title}{mark}. {alt.why}"
    return dataclasses.replace(recipe, requirements=tuple(requirements), find_links=alt.find_links,
                               title=f"{recipe.title} via {alt.id}{mark}", notes=(note, *recipe.notes),
                               alternatives=())


def reachable(url: str, timeout: float = REACH_TIMEOUT) -> bool:
    """Whether an https page answers at all (any HTTP status counts: the host is there).

    A CA variable another user could swap is not trusted here either (`installer_files.tls_context`, the rule of
    every connection gc-wizard opens): nothing is sent, and the host counts as answering — nothing was learnt, and
    the plan, the install and the forecast refuse that variable in their own sentence — never as unreachable (which
    would stop an install or offer another source for a host that may well answer). An http:// address is held to it
    too: its server may redirect to an https:// one."""
    request = urllib.request.Request(url, method="HEAD", headers={"User-Agent": "gc-wizard"})
    try:
        context = tls_context("gc-wizard's reach checks", "trust a server of their choosing", "nothing was asked")
    except CertificatesRefused:
        return True
    try:
        # Its headers awaited for `timeout` in all (`web_read`): a socket timeout alone restarts with every byte, and a
        # host trickling them kept the check waiting without end (37th hostile pass (part A) P1). Too slow: no answer.
        opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=context))
        with open_url(opener, request, timeout=timeout, deadline=Deadline(timeout)):
            return True
    except urllib.error.HTTPError:
        return True
    except urllib.error.URLError as exc:
        # A certificate this Python does not trust is a host that answered (git or uv may trust it: a site's own
        # CA); only no answer at all counts as unreachable, now that an install is refused on it.
        return isinstance(exc.reason, ssl.SSLError)
    except (OSError, ValueError):
        return False


def unreachable_links(recipe: Recipe, timeout: float = REACH_TIMEOUT) -> list[str]:
    """The recipe's https find-links pages and extra indexes that do not answer from here: every place its packages
    come from besides the package index the user's settings choose (walk 24 #1)."""
    places = dict.fromkeys((*recipe.find_links, *getattr(recipe, "extra_index_urls", ())))
    # The host alone is asked (any answer counts), never the page: a URL's user:password or token stays unsent.
    return [link for link in places if link.startswith("https://") and not reachable(f"https://{_host(link)}/", timeout)]


#: Where uv downloads the Pythons it installs (python-build-standalone's releases), unless `UV_PYTHON_INSTALL_MIRROR`
#: names a mirror: a host a recipe's install needs when no fitting Python is on the machine (walk 25 #2).
PYTHON_DOWNLOADS = "https://github.com/astral-sh/python-build-standalone/releases/download"
#: The variables that move uv's Python download, the one that decides first first: a list of builds (each with its
#: own address) replaces uv's, and a mirror replaces github.com in the addresses. Each is also a uv settings file's
#: key (`installer_files.TRUSTED_VARIABLES`), read with it.
PYTHON_SOURCE_VARIABLES = ("UV_PYTHON_DOWNLOADS_JSON_URL", "UV_PYTHON_INSTALL_MIRROR")


def python_download_setting(environ: Mapping[str, str] | None = None, cwd: str | os.PathLike[str] | None = None
                            ) -> tuple[str, str] | None:
    """(the address, where it is set) of the list of builds, else the mirror, that sends uv's Python download
    elsewhere than python-build-standalone — the variable or a uv settings file's key (`installer_files.uv_setting`)
    — or None."""
    environ = os.environ if environ is None else environ
    return next(filter(None, (uv_setting(name, environ, cwd) for name in PYTHON_SOURCE_VARIABLES)), None)


def python_download_source(environ: Mapping[str, str] | None = None,
                           cwd: str | os.PathLike[str] | None = None) -> str:
    """The address uv downloads a Python from: the list of builds the user's `UV_PYTHON_DOWNLOADS_JSON_URL` (or a
    settings file's `python-downloads-json-url`) names, else their mirror, else python-build-standalone.

    Why the list first: with it set uv downloaded and ran the build it listed while the plan said github.com (30th
    hostile pass (part B) P6; the settings file's key, 31st (part B) P2); a local one is held to the swap rule
    (`installer_files.TRUSTED_VARIABLES`)."""
    found = python_download_setting(environ, cwd)
    return found[0] if found else PYTHON_DOWNLOADS


def python_download_origin(host: str, environ: Mapping[str, str] | None = None,
                           cwd: str | os.PathLike[str] | None = None) -> str:
    """What uv's Python download from `host` is, in words for a sentence after the host: python-build-standalone's
    builds, or the variable or settings file that sent uv there (`python_download_setting`)."""
    environ = os.environ if environ is None else environ
    for value, where in filter(None, (uv_setting(name, environ, cwd) for name in PYTHON_SOURCE_VARIABLES)):
        if host in (_host(value), urllib.parse.urlsplit(value).hostname, value):
            return f"the builds your {where} names"
    return "its python-build-standalone builds"


def unreachable_python_download(timeout: float = REACH_TIMEOUT, environ: Mapping[str, str] | None = None,
                                cwd: str | os.PathLike[str] | None = None) -> list[str]:
    """[the Python download's address] when its host does not answer from here, else []: the same check as a recipe's
    wheel pages (`unreachable_links`), for the one more host an install needs when uv must download the Python
    (walk 25 #2: "fits this machine", then the install failed on github.com)."""
    source = python_download_source(environ, cwd)
    return [source] if source.startswith("https://") and not reachable(f"https://{_host(source)}/", timeout) else []


def python_download_words(host: str, version: str | None, wanted: str | None = None,
                          cwd: str | os.PathLike[str] | None = None) -> str:
    """What to do when uv would download the environment's Python from `host` and cannot: the one sentence the
    recipe list, the plan, a failed install and `diagnose` say (walk 25 #2). `version`: the Python uv would fetch
    ("3.13"); `wanted`: the recipe's range ("Python 3.12–3.13", `python_range_words`); `cwd`: the folder uv runs in (its project settings)."""
    short = ".".join(version.split(".")[:2]) if version and ascii_digits(version[:1]) else ""
    which = f"Python {short}" if short else "a Python"
    needed = f" (the recipe needs {wanted})" if wanted else ""
    return (f"No fitting Python is on this machine{needed}, and uv downloads {which} from {host} "
            f"({python_download_origin(host, cwd=cwd)}), which does not answer from here. Install "
            f"python{short or '3.X'} (your admin's package, conda or pyenv) or give `--python PATH` to one you have.")


def with_python_reach(matches: list, timeout: float = REACH_TIMEOUT, environ: Mapping[str, str] | None = None) -> list:
    """The matches, each fitting one that needs uv's Python download (`RecipeMatch.python_download`) flagged when the
    download's host does not answer: its `unreachable` names the host and its download caveat becomes
    `python_download_words`. The host is asked once, and only when such a recipe is listed."""
    needing = [m for m in matches if m.compatible and m.python_download]
    if not needing:
        return matches
    missing = unreachable_python_download(timeout, environ)
    if not missing:
        return matches
    host = _host(missing[0])
    flagged = {}
    for match in needing:
        words = python_download_words(host, match.python_download, _python_range(match.recipe.machine.python))
        warnings = tuple(words if "uv will download one" in w else w for w in match.warnings)
        flagged[id(match)] = dataclasses.replace(match, warnings=warnings, unreachable=(host,))
    return [flagged.get(id(m), m) for m in matches]


def _python_range(spec: str) -> str:
    from wizard.recipes.match import python_range_words  # deferred: match loads this module's neighbours

    return python_range_words(spec)


def _host(link: str) -> str:
    """`host[:port]` of a URL, without the user and password a private index's URL may carry."""
    parts = urllib.parse.urlsplit(link)
    try:
        port = parts.port
    except ValueError:
        port = None
    return f"{parts.hostname or ''}{f':{port}' if port else ''}"


def links_sentence(recipe: Recipe, unreachable: list[str] | tuple[str, ...]) -> str | None:
    """The sentence for a plan whose recipe's wheel pages do not answer from here: the install would fail at the
    packages' step, and the way that works here (walk 24 #1/#2): the recipe's alternative source first (the
    walker's Alt src installed in a minute where the recipe's page could not be reached), else a bundle."""
    if not unreachable:
        return None
    hosts = ", ".join(dict.fromkeys(_host(link) for link in unreachable))  # no user:password said
    text = f"{hosts} cannot be reached from here, so the packages' step would fail (the recipe's wheels come from there)."
    if recipe.alternatives:
        offers = "; ".join(f"--alternative {a.id} ({a.title}{'' if a.gpu_checked else ', ' + GPU_CHECK})"
                           for a in recipe.alternatives)
        return f"{text} The same stack can come from PyPI instead: {offers}."
    return (f"{text} Bring the wheels on a bundle made where {hosts} answers (`{elsewhere_command(f'bundle {recipe.id}')}`), "
            "or as a wheelhouse given with --find-links DIR --offline.")
