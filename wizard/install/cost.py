"""What an install will download: the size of each pinned package's file, from the wheelhouse or the index.

Why: a CUDA recipe is about 3 GB of wheels, and on a slow link that decides whether to start now.
The recipes pin their whole closure, so the pins are exactly what gets downloaded (plus GraphCast,
which is small). Each pin's file is looked up first in the plan's local `--find-links` folders (its
real size on disk), then — unless the plan is offline — in PyPI's JSON metadata
(PyPI's simple index as JSON, PEP 691: the `size` of the wheel that fits the plan's Python on Linux). A pin found in neither (JAX's CUDA jaxlib lives on its own release page) is counted as
unknown, and said so. Nothing is downloaded but that metadata; every request has a short timeout and
the first network failure stops further requests.

Why the look-ups are shaped as they are (a cold plan asks about 80 projects): a few workers share the
work, each keeping one connection to the index open (one DNS look-up and one TLS handshake per worker, not
per project), and all of them share one TLS context (building one reads the system's CA certificates,
which cost more CPU than the look-up itself). Through a proxy (`https_proxy`, unless `no_proxy` names the
index's host) each look-up goes through urllib, which speaks to proxies, with the same shared context.
"""

from __future__ import annotations

import http.client
import json
import os
import platform
import queue
import re
import ssl
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field, replace
from pathlib import Path

from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename

from wizard import bounded, paths
from wizard.install.package_files import wheels_in
from wizard.install.pinned import same_version
from wizard.installer_files import CertificatesRefused, as_read, tls_context
from wizard.security import redact_secrets
from wizard.web_login import login_opener, split_login
from wizard.web_read import Deadline, TooSlow, answer_within, open_url, read_whole

#: PyPI's simple index in its JSON form (PEP 691): what pip and uv read, with each file's size.
PYPI_SIMPLE = "https://pypi.org/simple/"
#: Where uv and pip are told to find their index, in the order uv reads them: a lab's mirror (or a
#: firewalled node's closed index) is asked instead of PyPI, as the install itself will be.
INDEX_VARIABLES = ("UV_DEFAULT_INDEX", "UV_INDEX_URL", "PIP_INDEX_URL")
#: How many look-ups run at once: enough to hide the round trips, few enough that a cold plan opens only
#: this many connections (and DNS look-ups) to the index.
WORKERS = 8
#: One project page, its headers and body together, in socket timeouts (`web_read`: a timeout alone restarts with
#: every byte; 37th hostile pass (part A) P1).
PAGE_TIMEOUTS = 4
#: The most of a project page that is read (numpy's, the largest, is about 2 MB).
PAGE_BYTES = 20_000_000
_ACCEPT = {"Accept": "application/vnd.pypi.simple.v1+json", "User-Agent": "gc-wizard"}


def index_url(environ: dict[str, str] | None = None) -> str:
    """The simple index the install will use: the first index variable set, else PyPI."""
    environ = os.environ if environ is None else environ
    for name in INDEX_VARIABLES:
        value = as_read(environ.get(name) or "")
        if value.startswith(("https://", "http://")):
            return value.rstrip("/") + "/"
    return PYPI_SIMPLE


def unreachable_index(environ: dict[str, str] | None = None, timeout: float | None = None) -> str | None:
    """The package index the install would use (`index_url`), masked, when its host does not answer from here (one
    HEAD request, the reach check GitHub's and the recipe pages' hosts get: `alternatives.reachable`); else None.
    Asked only where a bundle of a recipe is here (walk 26 #7: the offline machine's list recommended a recipe that
    needs the index)."""
    from urllib.parse import urlsplit  # deferred: only a machine with a bundle asks

    from wizard.recipes.alternatives import REACH_TIMEOUT, reachable

    url = index_url(environ)
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    if not host or reachable(f"{parts.scheme}://{host}/", REACH_TIMEOUT if timeout is None else timeout):
        return None
    return redact_secrets(url.rstrip("/"))


def index_name(url: str) -> str:
    return "PyPI" if url == PYPI_SIMPLE else f"the index at {url}"


@dataclass(frozen=True)
class DownloadSize:
    bytes: int
    """Sum over the files whose size is known."""
    known: int
    unknown: tuple[str, ...] = ()
    from_wheelhouse: int = 0
    from_index: int = 0
    error: str | None = None
    per_package: dict[str, int] = field(default_factory=dict)
    index: str = "PyPI"
    """Which index answered (`index_name`), for the sentence."""
    late: int = 0
    """How many of `unknown` the index had not answered when the time budget ran out."""
    from_index_pins: tuple[tuple[str, str], ...] = ()
    """(name, version) of the packages counted in `from_index`."""
    cached: int = 0
    """How many of the index's packages uv's cache holds already (`in_uv_cache`): the install fetches nothing
    for them."""
    cached_bytes: int = 0
    local_bytes: int = 0
    """Sum over the `from_wheelhouse` files: local files, nothing downloaded for them."""
    local: str = "the wheelhouse"
    """What the local files are, for the sentence: the wheelhouse(s), or the bundle (`plan_download`)."""
    index_down: str | None = None
    """The index (masked) when reading it failed for want of an answer (no connection, a refused one): the plan marks
    its Packages line ✗ from this, the measurement already made, with no look-up of its own (walk 26 #7)."""

    def describe(self) -> str:
        """The plan's "Download:" words: what comes from the index (and how much of that uv's cache holds), apart
        from what local files bring, which is no download. Why apart: walk 26 #13 — offline, from a bundle, the plan
        said "Download: about 265 MB (94 from the wheelhouse)" when nothing was downloaded at all."""
        if not self.known and self.late:
            return "download size not known yet (the index had not answered in time)"
        if not self.known and self.unknown:
            return "download size unknown" + (f" ({self.error})" if self.error else "")
        if not self.known:
            return "nothing: the recipe pins no package"
        count = self.from_wheelhouse
        more = " more" if self.from_index else ""
        local = (f"{count}{more} {'package' if count == 1 else 'packages'} (about {human(self.local_bytes)}) "
                 f"{'is a local file' if count == 1 else 'are local files'}, in {self.local}")
        if not self.from_index:
            text = local if self.unknown or self.late else f"nothing: {'the' if count == 1 else 'all'} {local}"
        else:
            fetched = self.bytes - self.local_bytes
            where = [f"{self.from_index} {'package' if self.from_index == 1 else 'packages'} from {self.index}"]
            if self.cached and self.cached == self.from_index:
                where.append("all in uv's cache already")
            elif self.cached:
                where.append(f"{self.cached} of them in uv's cache already: about "
                             f"{human(max(0, fetched - self.cached_bytes))} to fetch")
            text = f"about {human(fetched)} ({'; '.join(where)})" + (f"; {local}" if count else "")
        if self.late:
            text += f"; {self.known} of {self.known + len(self.unknown)} sizes known so far"
        elif self.unknown:
            text += f"; {len(self.unknown)} of unknown size ({', '.join(self.unknown[:3])}"
            text += ", …)" if len(self.unknown) > 3 else ")"
        return text

    def to_dict(self) -> dict:
        return {"bytes": self.bytes, "known": self.known, "unknown": list(self.unknown),
                "from_wheelhouse": self.from_wheelhouse, "from_index": self.from_index, "error": self.error}


def human(size: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit in ("B", "KB") else f"{size:.1f} {unit}" if size < 10 else \
                f"{size:.0f} {unit}"
        size /= 1000
    return f"{size:.0f} GB"


def _python_tag(python_version: str | None) -> str:
    parts = (python_version or platform.python_version()).split(".")
    return f"cp{parts[0]}{parts[1]}" if len(parts) > 1 else "cp311"


def _fits(filename: str, py_tag: str, machine: str) -> int:
    """How well a wheel fits (higher is better; 0: it does not)."""
    try:
        _, _, _, tags = parse_wheel_filename(filename)
    except InvalidWheelFilename:
        return 0
    best = 0
    for tag in tags:
        if tag.platform == "any":
            plat = 1
        elif tag.platform.endswith(machine) and ("linux" in tag.platform):
            plat = 2
        else:
            continue
        if tag.interpreter == py_tag:
            score = 3
        elif tag.abi == "abi3" or tag.interpreter in ("py3", f"py{py_tag[2]}"):
            score = 2
        else:
            continue
        best = max(best, score * 10 + plat)
    return best


def _local(name: str, version: str, folders: list[Path], py_tag: str, machine: str) -> int | None:
    best: tuple[int, int] | None = None
    for folder in folders:
        for wheel in wheels_in(folder):
            try:
                wname, wversion, _, _ = parse_wheel_filename(wheel.name)
            except InvalidWheelFilename:
                continue
            if wname != name or not same_version(str(wversion), version):
                continue
            score = _fits(wheel.name, py_tag, machine)
            if score and (best is None or score > best[0]):
                try:
                    best = (score, wheel.stat().st_size)
                except OSError:
                    continue
    return best[1] if best else None


class IndexStatus(Exception):
    """The index answered with an HTTP status other than 200 (a project it does not have: unknown size)."""


class _IndexReader:
    """One worker's way to the index's project pages (see the module docstring): a connection kept open
    when the index is reached directly, urllib through a proxy."""

    def __init__(self, index: str, context: ssl.SSLContext | None, timeout: float) -> None:
        self.index, self.context, self.timeout = index, context, timeout
        parts = urllib.parse.urlsplit(index)
        self.https = parts.scheme == "https"
        self.host, self.port, self.path = parts.hostname or "", parts.port, parts.path
        self.headers = dict(_ACCEPT)
        self.headers.update(split_login(index)[1])  # https://user:password@mirror/simple/: basic auth, as pip sends it
        proxies = urllib.request.getproxies()
        self.direct = parts.scheme not in proxies or bool(urllib.request.proxy_bypass(self.host))
        self.connection: http.client.HTTPConnection | None = None
        # Its own opener, built now: urlopen's shared one keeps the proxies of the first call in the process.
        # The login's opener: a redirect to another host does not take the login with it (36th hostile pass (A) P3).
        self.opener = None if self.direct else login_opener(
            urllib.request.ProxyHandler(proxies), urllib.request.HTTPSHandler(context=context))

    def project(self, name: str) -> bytes:
        """The project's PEP 691 page; raises `IndexStatus` for a status other than 200, `OSError` when the
        index cannot be read."""
        if not self.direct:
            request = urllib.request.Request(f"{self.index}{name}/", headers=self.headers)
            deadline = Deadline(self.timeout * PAGE_TIMEOUTS)
            try:
                with open_url(self.opener, request, timeout=self.timeout, deadline=deadline) as response:
                    return read_whole(response, request.full_url, PAGE_BYTES - 1, deadline=deadline)
            except urllib.error.HTTPError as exc:
                raise IndexStatus(exc.code) from None
        try:
            return self._get(f"{self.path}{name}/")
        except (ConnectionResetError, BrokenPipeError):  # RemoteDisconnected is one
            self.close()  # a kept-open connection the index closed while idle: once more, on a new one
            return self._get(f"{self.path}{name}/")

    def _get(self, path: str) -> bytes:
        if self.connection is None:
            if self.https:
                self.connection = http.client.HTTPSConnection(self.host, self.port, timeout=self.timeout,
                                                              context=self.context)
            else:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        connection, url = self.connection, f"{self.index}{path.removeprefix(self.path)}"

        def ask() -> http.client.HTTPResponse:
            connection.request("GET", path, headers=self.headers)
            return connection.getresponse()

        deadline = Deadline(self.timeout * PAGE_TIMEOUTS)  # the headers and body together (`web_read`)
        try:
            response = answer_within(ask, url, deadline=deadline)
            body = read_whole(response, url, PAGE_BYTES - 1, deadline=deadline)
        except TooSlow:
            self.close()  # the connection is mid-answer: a next project asks on a new one
            raise
        if response.will_close:
            self.close()
        if response.status != 200:  # a redirect or an error page: this project's size is not known here
            raise IndexStatus(response.status)
        return body

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


#: A file's name in a PEP 691 page (wheel names never need JSON escapes).
_FILENAME = re.compile(r'"filename"\s*:\s*"([^"\\]*)"')


def _loose(version: str) -> str:
    """"1.0.0" and "1.0" alike: a wheel's name may spell the pinned version with trailing zeros."""
    text = version.lower()
    while text.endswith(".0"):
        text = text[:-2]
    return text


def _version_files(page: bytes, version: str) -> list[dict]:
    """The entries of a project page (PEP 691) that name wheels of `version`, without parsing the whole page.

    Why: a popular project's page lists every file it ever published (numpy's is 2 MB, a plan's 80 pages
    22 MB), and parsing them all was most of a cold plan's CPU. The wheel names of this version are found
    with a regular expression, and only their entries are decoded: from the nearest `{` before the name
    that decodes to the entry naming that file (nested objects such as `core-metadata` may come first).
    A page laid out so that this fails is parsed whole, as before."""
    text = page.decode("utf-8", errors="replace")
    wanted = _loose(version)
    decoder = json.JSONDecoder()
    files = []
    for match in _FILENAME.finditer(text):
        parts = match.group(1).split("-")
        if not match.group(1).endswith(".whl") or len(parts) < 5 or _loose(parts[1]) != wanted:
            continue
        entry = _entry_at(decoder, text, match)
        if entry is None:
            data = bounded.loads_json(text)
            return (data.get("files") or []) if isinstance(data, dict) else []
        files.append(entry)
    return files


def _entry_at(decoder: json.JSONDecoder, text: str, match: re.Match) -> dict | None:
    """The JSON object around `match` (a `"filename": "…"` pair), or None."""
    start = match.start()
    for _ in range(8):
        start = text.rfind("{", 0, start)
        if start < 0:
            return None
        try:
            entry, end = decoder.raw_decode(text, start)
        except (ValueError, RecursionError, MemoryError):  # an index's page nested without end: not an entry
            continue
        if isinstance(entry, dict) and entry.get("filename") == match.group(1) and end >= match.end():
            return entry
    return None


def _size_in(files: list, version: str, py_tag: str, machine: str) -> int | None:
    """The size of the best-fitting wheel of `version` among a project page's file entries, or None."""
    best: tuple[int, int] | None = None
    for item in files:
        if not isinstance(item, dict):
            continue
        filename, size = item.get("filename", ""), item.get("size")
        if not filename.endswith(".whl") or not isinstance(size, int) or item.get("yanked"):
            continue
        try:
            if not same_version(str(parse_wheel_filename(filename)[1]), version):
                continue
        except InvalidWheelFilename:
            continue
        score = _fits(filename, py_tag, machine)
        if score and (best is None or score > best[0]):
            best = (score, size)
    return best[1] if best else None


def download_size(pins: dict[str, str], *, find_links: list[str] | tuple[str, ...] = (), offline: bool = False,
                  python_version: str | None = None, timeout: float = 4.0,
                  budget: float | None = None) -> DownloadSize:
    """The download of `pins` (name -> version) for an install with these sources (see the docstring)."""
    py_tag, machine = _python_tag(python_version), platform.machine() or "x86_64"
    folders = [Path(link) for link in find_links if "://" not in link and Path(link).is_dir()]
    sizes: dict[str, int] = {}
    wanted: list[tuple[str, str]] = []
    for raw_name, version in pins.items():
        name = str(canonicalize_name(raw_name))
        size = _local(name, version, folders, py_tag, machine)
        if size is not None:
            sizes[name] = size
        else:
            wanted.append((name, version))
    from_wheelhouse, local_bytes = len(sizes), sum(sizes.values())
    error = None
    index = index_url()
    late = 0
    index_down = None
    if wanted and not offline:
        cache = _SizeCache(index, py_tag, machine)
        remembered = cache.read()
        for name, version in wanted:
            if f"{name}=={version}" in remembered:
                sizes[name] = remembered[f"{name}=={version}"]
        asked = [item for item in wanted if item[0] not in sizes]
        found, failed, down = _ask_index(index, asked, py_tag, machine, timeout, budget)
        sizes.update({name: size for name, size in found.items() if size is not None})
        late = sum(1 for name, _ in asked if name not in found) if not failed else 0
        cache.add({f"{name}=={version}": found[name] for name, version in asked if found.get(name) is not None})
        if failed:
            where = "PyPI's metadata" if index == PYPI_SIMPLE else f"the index {index}"
            error = f"{where} could not be read: {failed[0]}"
            index_down = redact_secrets(index.rstrip("/")) if down else None
    unknown = tuple(name for name, _ in wanted if name not in sizes)
    return DownloadSize(bytes=sum(sizes.values()), known=len(sizes), unknown=unknown,
                        from_wheelhouse=from_wheelhouse, from_index=len(sizes) - from_wheelhouse, error=error,
                        local_bytes=local_bytes, local="the wheelhouses" if len(folders) > 1 else "the wheelhouse",
                        per_package=sizes, index=index_name(index), late=late,
                        from_index_pins=tuple((name, version) for name, version in wanted if name in sizes),
                        index_down=index_down)


def _ask_index(index: str, asked: list[tuple[str, str]], py_tag: str, machine: str, timeout: float,
               budget: float | None) -> tuple[dict[str, int | None], list[str], bool]:
    """Each (name, version)'s size from the index, on up to `WORKERS` daemon threads, for at most `budget`
    seconds (None: until done). Returns what answered in time and the first network failure (which stops
    the rest). Threads still asking when the budget ends are left to finish on their own; their answers
    are dropped. A CA variable another user could swap is not trusted here either: nothing is asked, and the
    installers' refusal (`installer_files.tls_context`) is the failure (35th hostile pass (part B) P4)."""
    context = None
    if asked and index.startswith("https://"):
        try:
            context = tls_context("gc-wizard's size queries", "trust a server of their choosing and show the sizes "
                                  "it gives", "nothing was asked")
        except CertificatesRefused as exc:
            return {}, [str(exc)], False
    found: dict[str, int | None] = {}
    failed: list[str] = []
    down: list[bool] = []
    todo: queue.Queue[tuple[str, str]] = queue.Queue()
    for item in asked:
        todo.put(item)
    over = threading.Event()  # the budget ended: take nothing more (what is in flight finishes on its own)

    def worker() -> None:
        reader = _IndexReader(index, context, timeout)
        try:
            while not failed and not over.is_set():
                try:
                    name, version = todo.get_nowait()
                except queue.Empty:
                    return
                try:
                    found[name] = _size_in(_version_files(reader.project(name), version), version, py_tag,
                                           machine)
                except IndexStatus:
                    found[name] = None  # not on the index (a CUDA build's local version): unknown, not an outage
                except (OSError, ValueError, http.client.HTTPException) as exc:
                    failed.append(str(getattr(exc, "reason", exc)))
                    # No answer at all (refused, no route, a name not found), not a server that answered badly.
                    if isinstance(exc, OSError) and not isinstance(exc, (urllib.error.HTTPError, TooSlow)):
                        down.append(True)
        finally:
            reader.close()

    threads = [threading.Thread(target=worker, daemon=True, name="gc-wizard-size")
               for _ in range(min(WORKERS, len(asked)))]
    for thread in threads:
        thread.start()
    deadline = None if budget is None else time.monotonic() + budget
    for thread in threads:
        thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
    over.set()
    return dict(found), list(failed), bool(down)


class _SizeCache:
    """Sizes already looked up, per index, Python tag and machine (`<state>/cache/download-sizes.json`): a
    published wheel's size never changes, so a second plan of the same recipe asks the index nothing."""

    def __init__(self, index: str, py_tag: str, machine: str) -> None:
        cache = paths.state_subfolder("cache")  # None: no state, or a cache another user could swap (35th pass B P3)
        self.path = cache / "download-sizes.json" if cache is not None else None
        self.key = f"{index} {py_tag} {machine}"

    def _all(self) -> dict:
        if self.path is None:
            return {}
        try:
            data = bounded.read_json(self.path, bounded.FACTS_BYTES)
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def read(self) -> dict[str, int]:
        entries = self._all().get(self.key)
        return {k: v for k, v in entries.items() if isinstance(v, int)} if isinstance(entries, dict) else {}

    def add(self, sizes: dict[str, int]) -> None:
        if not sizes or self.path is None:  # not a state (24th pass B P6), or its cache refused: nothing written
            return
        try:
            data = self._all()
            data.setdefault(self.key, {}).update(sizes)
            paths.write_state_cache(self.path, json.dumps(data, sort_keys=True))  # O_EXCL|O_NOFOLLOW, then a rename
        except OSError:  # a cache is a help: a read-only or full state folder must not stop a plan
            pass


def in_uv_cache(cache: Path, name: str, version: str) -> bool:
    """Whether uv's cache holds a wheel of `name`==`version` from PyPI already (its `wheels-vN/pypi/NAME/VERSION-TAGS`
    entries), so the install downloads nothing for it. Read-only and cheap; a cache laid out otherwise (another uv)
    reads as "not cached", and the plan then only counts high, as before. Walk 17: the plan said "237 MB (84 from
    PyPI)" when every one was cached. Another index's wheels are kept under a digest of its URL among all the
    indexes ever used (12 677 folders on this machine: listing them for every pin made `plan` take 7 s), so they are
    not looked for."""
    prefix = f"{version}-"
    for folder in cache.glob(f"wheels-v*/pypi/{name}"):
        try:
            if any(entry.name.startswith(prefix) for entry in folder.iterdir()):
                return True
        except OSError:
            continue
    return False


def plan_download(plan, timeout: float = 4.0, budget: float | None = None) -> DownloadSize:
    size = download_size(plan.recipe.pins, find_links=list(plan.find_links), offline=plan.offline,
                         python_version=plan.python.version or None, timeout=timeout, budget=budget)
    if getattr(plan, "bundle", None):
        size = replace(size, local="the bundle")  # its wheels folder is the plan's find-links
    cache = getattr(plan, "download_cache", None)
    if not cache or not size.from_index or getattr(plan, "installer", "uv") != "uv":  # only uv's cache is read here
        return size
    cached = [name for name, version in size.from_index_pins if in_uv_cache(Path(cache), name, version)]
    return replace(size, cached=len(cached), cached_bytes=sum(size.per_package[name] for name in cached))
