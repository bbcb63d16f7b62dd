"""The forecast's files — weights, an example batch, normalization statistics — found, fetched and checked.

Why this module: the demo notebook streams its files from the public `dm_graphcast` bucket with checksums
off and caches nothing; the rivals keep a cache but never check it, and a download broken mid-file starts
again from zero. A GPU node behind a firewall has no bucket at all. So a source here is a folder or an
HTTP(S) URL laid out like the bucket (`params/`, `dataset/`, `stats/`, optionally under `graphcast/`),
with an optional `SHA256SUMS` (as `sha256sum` writes it) that is then enforced — for every file the forecast
reads: one it does not list is refused, as one that fails its hash is:

- a local folder is read in place; its files are hashed against `SHA256SUMS` when it has one;
- an HTTP source is downloaded into the state folder's `assets/` cache (shared by every environment):
  to `<name>.part`, resumed with a `Range` request when a `.part` is already there (a 206 answer, or the
  download starts again), then hashed and moved into place in one rename — nothing half-written is ever
  used. The hash is checked against the source's `SHA256SUMS`, else recorded on first download
  (`assets/recorded.json`) and checked on every later use, so a cached file that changes is refused.

Listing: a local folder is walked; an HTTP source is listed by its `SHA256SUMS`, and the public bucket by
Google Cloud Storage's anonymous JSON API. File names hold spaces and `<`: they are percent-encoded in URLs.
"""

from __future__ import annotations

import errno
import hashlib
import http.client
import io
import json
import os
import re
import stat
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from wizard import bounded, paths
from wizard.errors import UserError, WizardError, note_left
from wizard.installer_files import CertificatesRefused, tls_context
from wizard.patterns import ascii_digits
from wizard.security import (
    expand_home,
    make_folders,
    one_line,
    redact_credentials,
    redact_secrets,
    shell_word,
)
from wizard.source_trust import refuse_swappable_source
from wizard.web_login import RedirectRefused, login_opener, split_login
from wizard.web_read import Cancelled, Deadline, TooSlow, chunks, open_url, read_whole
from wizard.web_read import shown_url as shown_url

#: The public bucket, as the newer notebooks and every rival read it.
BUCKET_URL = "https://storage.googleapis.com/dm_graphcast/"
BUCKET_LISTING = "https://storage.googleapis.com/storage/v1/b/dm_graphcast/o"
#: Where in a source the files are: the bucket keeps GraphCast's under `graphcast/`, GenCast's under `gencast/`
#: and, for now, a copy of GraphCast's at the top level (v0.1.1's notebook reads the top level); a mirror may
#: hold any of them.
PREFIXES = ("graphcast/", "gencast/", "")
KINDS = ("params", "dataset", "stats")
STATS_FILES = ("diffs_stddev_by_level.nc", "mean_by_level.nc", "stddev_by_level.nc")
#: GenCast's NaN cleaner fills sea-surface temperature from a fourth file.
GENCAST_STATS_FILES = (*STATS_FILES, "min_by_level.nc")
SUMS_FILE = "SHA256SUMS"
CHUNK = 1 << 20
#: The longest wait for the server's next bytes (one socket operation).
TIMEOUT = 30.0
#: The whole of a small answer (a SHA256SUMS, a page of the bucket's listing): status line, headers and body. A
#: timeout per read alone let a server trickling a byte every few seconds keep a listing waiting for days (37th
#: hostile pass (part A) P1); every read goes through `web_read`, with this deadline or the download's rate.
TEXT_SECONDS = 60.0
#: A download's status line and headers (its body may rightly take hours: it is held to `MIN_RATE` instead).
HEADER_SECONDS = 60.0
#: The least a download must bring, in bytes a second over each `RATE_WINDOW` seconds: 60 KB a minute, far below
#: any link a multi-GB checkpoint is fetched over, far above a server trickling a byte at a time.
MIN_RATE = 1024
RATE_WINDOW = 60.0

#: The most a download may bring when neither the listing nor the server states its size, by kind of file: an endless
#: answer (no Content-Length) filled the state's disk and was kept to "resume" (38th hostile pass (part A) P1). The
#: one place these are set, and generous: the published checkpoints are hundreds of MB (GenCast 1p0deg Mini: 230,105,815
#: bytes), the example batches up to a few GB at 0.25° with many steps, the statistics files a few MB.
CEILINGS = {"params": 8 << 30, "dataset": 64 << 30, "stats": 1 << 30}

#: The notebook's defaults: the small 1° model and a 1° example batch it takes (by GraphCast version).
DEFAULT_MODEL = ("GraphCast_small - ERA5 1979-2015 - resolution 1.0 - pressure levels 13 - mesh 2to5 - "
                 "precipitation input and output.npz")

#: The example batch the notebook pairs with that model for one step: with the model and the statistics, the five
#: files a first forecast needs.
DEFAULT_DATASET = "source-era5_date-2022-01-01_res-1.0_levels-13_steps-01.nc"


def first_forecast_files() -> tuple[str, ...]:
    """The files a first forecast reads, relative to a source's root (`params/…`, `dataset/…`, `stats/…`)."""
    return (f"params/{DEFAULT_MODEL}", f"dataset/{DEFAULT_DATASET}", *(f"stats/{name}" for name in STATS_FILES))


#: What the gathering command names until the words are given the environment's recipe (`for_recipe`).
RECIPE_PLACEHOLDER = "RECIPE"


@dataclass(frozen=True)
class SourceWords:
    """How a face names the place the forecast's files are given, for the refusals built here once with them.

    Why: walk 33 #13, the app's Assets dialog said "give --assets a folder laid out like the bucket", the CLI's option,
    where the app has none (and cut the CLI's gathering paragraph out of the sentence afterwards). The CLI passes its
    option (`CLI_WORDS`); the app passes "" (the place is what is typed in its dialog), and no gathering paragraph,
    which its dialog says above the input."""

    option: str = "--assets"
    """What comes before the place in a refusal (`--assets DIR`); "" where the place stands alone."""
    gather: bool = True
    """Whether a refusal for a source without the files ends with how to gather them (`local_copy_words`)."""

    def place(self, location: str) -> str:
        """The place as a refusal names it: `--assets DIR`, or DIR alone."""
        return f"{self.option} {location}" if self.option else location

    def give(self, what: str) -> str:
        """What to do instead: "give --assets WHAT", or "give WHAT"."""
        return f"give {self.place(what)}"

    def gathering(self) -> str:
        """The paragraph on gathering the files, after a space, or nothing."""
        return f" {local_copy_words()}" if self.gather else ""


#: The CLI's words (`forecast --assets`, `bundle --assets`): the default of every function that refuses a source.
CLI_WORDS = SourceWords()


def local_copy_words() -> str:
    """What a server that cannot reach the bucket needs, by name, and the two ways to bring it: the five files copied
    by hand first (the simpler one), then the command that gathers them on a machine that can reach it, with how
    gc-wizard gets there (`self_install.carry_words`: it is not on PyPI). Why: "give a local copy with --assets DIR" named
    neither the files nor how to make that folder, and a new lab member stopped there (the seventeenth walk's second
    problem); walk 28 #17: the CLI's fix sent them to run `gc-wizard bundle` elsewhere without saying how gc-wizard
    gets there, as the app's lines did. The command for this machine is the one that works in a new shell here
    (`wizard_command`: walk 18 found a bare `gc-wizard` that was not on PATH); the one for the other machine is
    `paths.elsewhere_command`'s, as installed there (walk 37 #4)."""
    # Deferred: reads gc-wizard's own install, only for these words.
    from wizard.self_install import carry_words

    files = "; ".join(f"'{name}'" for name in first_forecast_files())
    return (f"On a machine that can reach it, copy these five files from {BUCKET_URL}{PREFIXES[0]} into DIR/assets, "
            f"keeping their folders: {files}. Or there, `{paths.elsewhere_command(f'bundle {RECIPE_PLACEHOLDER} --out DIR --with-assets')}` "
            f"gathers them into DIR/assets, with every wheel of the recipe ({carry_words()}). Copy that folder here, "
            f"then `{paths.wizard_command()} forecast --assets DIR/assets`.")


def for_recipe(text: str, recipe: str | None) -> str:
    """`text` (an error holding `local_copy_words`) with the environment's recipe in the gathering command."""
    if not recipe:
        return text
    return text.replace(f"bundle {RECIPE_PLACEHOLDER} --out", f"bundle {recipe} --out")


class AssetError(WizardError):
    """A file that cannot be fetched or fails its checksum (exit 1: the run failed, the input was fine).

    `cause` and `fix` apart, when the sentence has both: a forecast shows the cause as its error and the fix once,
    as its finding's (walk 19 #5: the same fix was printed twice, once with the recipe, once with `RECIPE`);
    anything else shows the whole sentence."""

    def __init__(self, message: str, *, cause: str | None = None, fix: str | None = None) -> None:
        super().__init__(message)
        self.cause = cause or message
        self.fix = fix


@dataclass(frozen=True)
class Asset:
    """One file of a source: its path relative to the source root (`graphcast/params/X.npz`) and size."""

    relpath: str
    size: int | None = None

    @property
    def kind(self) -> str:
        return self.relpath.rstrip("/").split("/")[-2]

    @property
    def name(self) -> str:
        return self.relpath.rsplit("/", 1)[-1]


@dataclass
class Source:
    """Where the files come from: a local folder or an HTTP(S) base URL (ending in `/`)."""

    location: str
    sums: dict[str, str] = field(default_factory=dict)
    """relpath -> sha256 from the source's SHA256SUMS (enforced when present)."""
    sums_file: str | None = None
    """Where the source's SHA256SUMS is, when it has one: then every file used must be listed in it (`fetch`)."""

    @property
    def is_local(self) -> bool:
        return "://" not in self.location

    @property
    def is_bucket(self) -> bool:
        return self.location == BUCKET_URL

    def describe(self) -> str:
        """For people, logs and --json: a mirror's password (https://user:pw@host/) never appears."""
        return "the public GraphCast bucket" if self.is_bucket else redact_credentials(self.location)

    def url(self, relpath: str) -> str:
        return self.location + urllib.parse.quote(relpath)


def open_source(location: str | None, words: SourceWords = CLI_WORDS) -> Source:
    """`--assets DIR|URL` (or GC_WIZARD_ASSETS, else the public bucket), its SHA256SUMS read if it has one; a refusal
    names the place in the face's `words`."""
    given = words.option if location else "GC_WIZARD_ASSETS"
    location = (location or os.environ.get("GC_WIZARD_ASSETS") or BUCKET_URL).strip()
    if location.startswith(("http://", "https://")):
        _check_url(given, location)
        source = Source(location.rstrip("/") + "/")
        if not source.is_bucket:
            text = _get_text(source.url(SUMS_FILE), missing_ok=True)
            source.sums = parse_sums(text, shown_url(source.url(SUMS_FILE))) if text is not None else {}
            source.sums_file = shown_url(source.url(SUMS_FILE)) if text is not None else None
        return source
    if "://" in location:
        raise UserError(f"{words.place(repr(location))}: only a folder or an http(s):// URL is taken.")
    named = words.place(location) if given != "GC_WIZARD_ASSETS" else f"GC_WIZARD_ASSETS={location}"
    folder = refuse_local(named, Path(expand_home(location)), "the asset folder")
    if not folder.is_dir():
        raise UserError(f"{words.place(location)}: {bounded.not_a_folder(folder)}.")
    inside = _layout_below(folder)
    if inside:  # the folder above the assets (walk 25 #8): name the one that holds them, not the five files
        raise UserError(f"{words.place(location)} holds no params/, dataset/ or stats/, but {' and '.join(inside)} "
                        f"inside it does: {words.give(shell_word(inside[0]))}.")
    sums_path = folder / SUMS_FILE
    if not os.path.lexists(sums_path):
        return Source(str(folder) + os.sep)
    return Source(str(folder) + os.sep, parse_sums(_read_sums(sums_path), str(sums_path)), str(sums_path))


def refuse_local(named: str, path: Path, what: str) -> Path:
    """Where a local asset folder or file leads once every link is followed, after the swap rule every other source
    is held to (`source_trust.refuse_swappable_source`: the folders on its way, the links it follows, and for a folder
    everything in it and where its links lead); UserError naming the place another user could change, before any file
    is read.

    Why: 36th hostile pass (part B) P3 — `--assets DIR` and GC_WIZARD_ASSETS were only `resolve()`d: root's forecast,
    `forecast --list` and `bundle --with-assets` read another user's folder and followed their links (one to
    /etc/shadow), and the bundle vouched for their files as the published ones."""
    return refuse_swappable_source(named, path, what, harm="use their files as the forecast's weights and data "
                                   "(and a bundle would carry them as the published ones)",
                                   untouched="no file in it was read")


def _holds_layout(folder: Path) -> bool:
    """Whether `folder` is laid out like the bucket: a params/, dataset/ or stats/ (or graphcast/… , gencast/…)."""
    return any((folder / f"{prefix}{kind}").is_dir() for prefix in PREFIXES for kind in KINDS)


def _layout_below(folder: Path, limit: int = 200) -> list[str]:
    """The folders directly inside `folder` laid out like the bucket, when `folder` itself is not (at most two, of
    the first `limit` entries): walk 25 #8, `--assets /lab` for `/lab/assets` repeated the five-file recipe and never
    named the folder right there."""
    if _holds_layout(folder):
        return []
    found = []
    try:
        with os.scandir(folder) as entries:
            for n, entry in enumerate(entries):
                if n >= limit:
                    break
                if entry.is_dir() and _holds_layout(Path(entry.path)):
                    found.append(entry.path)
    except OSError:  # an unreadable folder: the forecast says what it cannot read, as before
        return []
    return sorted(found)[:2]


def _check_url(given: str, url: str) -> None:
    """Refuse, as the user's input (exit 2) and with its password masked, an address no HTTP client can open: a
    control character in it, a host or port that cannot be read. Such a URL reached urlopen and came back as
    "gc-wizard stopped on an error of its own", with the password in the sentence and in the crash log (23rd hostile
    pass P2). The usual cause is a password holding a `/`, `+` or `=` pasted as it is (a base64 token): its `/` ends
    the host part, and what follows the `:` is read as the port."""
    shown = one_line(redact_secrets(url, keep_user=True))
    if any(ord(c) < 32 or ord(c) == 127 for c in url):
        raise UserError(f"{(given + ' ') if given else ''}{shown}: the address holds a control character (a line end or a tab); give it on "
                        "one line.")
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 (read for its ValueError: a port that is no number)
        host = parts.hostname
    except ValueError as exc:
        said = str(exc).lower()
        if "port" in said and "@" in url.split("://", 1)[1]:
            raise UserError(f"{(given + ' ') if given else ''}{shown}: its password holds a `/` (or the host part ends early), so what "
                            "follows the `:` is read as a port; write the password's `/` as %2F, `+` as %2B and `=` "
                            "as %3D.") from None
        why = "its port is not a number" if "port" in said else "its host cannot be read (an unclosed `[`?)"
        raise UserError(f"{(given + ' ') if given else ''}{shown}: {why}.") from None
    if not host:
        raise UserError(f"{(given + ' ') if given else ''}{shown}: it names no host.")


def _read_sums(path: Path) -> str:
    """A folder's SHA256SUMS, bounded: one that is huge, endless (a link to /dev/zero), a FIFO or unreadable is
    refused by name — never skipped, since a present SHA256SUMS is enforced."""
    try:
        return bounded.read_regular_text(path, bounded.ASSET_INDEX_BYTES)
    except bounded.ParseLimitError as exc:
        raise UserError(f"{path} cannot be used: {exc}. A SHA256SUMS is a small text file as sha256sum writes "
                        "it; fix or remove it.") from None
    except OSError as exc:
        raise UserError(f"{path} cannot be read: {exc.strerror or exc}.") from None


_SUM_LINE = re.compile(r"^([0-9a-fA-F]{64}) [ *](.+)$")


def parse_sums(text: str, where: str) -> dict[str, str]:
    """`sha256sum` output: 64 hex digits, a space, a space or `*`, the relative path (which may hold spaces).
    UserError naming the listing (`where`), the line and the name, shown escaped, for a name that is no file's path
    inside the source (`listed_path_problem`)."""
    sums: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        match = _SUM_LINE.match(line.rstrip("\r"))
        if not match:
            raise UserError(f"{where} line {number} is not '<64 hex digits>  <file>' as sha256sum writes it.")
        name = match.group(2).removeprefix("./")
        problem = listed_path_problem(name)
        if problem:
            raise UserError(f"{where} line {number} lists '{one_line(name)}', which is not a file's path inside the "
                            f"source ({problem}), so the listing was not used and nothing was downloaded; fix or "
                            "remove that line, or give another source.")
        sums[name] = match.group(1).lower()
    return sums


def listed_path_problem(relpath: str) -> str | None:
    """Why `relpath`, a name a source's listing gives, cannot be a path inside the source, or None: every name on it
    plain (`plain_name`). Why: 38th hostile pass (part A) P3 — a SHA256SUMS listing `params/..` had the download
    renamed over the cache folder itself, and the error blamed the state folder."""
    if relpath.startswith("/"):
        return "it starts with /"
    for name in relpath.split("/"):
        if name in ("", ".", ".."):
            return f"it holds the name '{name}'" if name else "it holds an empty name (`//`, or a / at its end)"
        if not plain_name(name):
            return "it holds a backslash" if "\\" in name else "it holds a control character or a line break"
    return None


# ------------------------------------------------------------------------------------------------ listing


def list_assets(source: Source) -> list[Asset]:
    """Every params/dataset/stats file the source holds (both layouts), sorted by path."""
    if source.is_local:
        root = Path(source.location)
        found = [Asset(str(p.relative_to(root)), p.stat().st_size) for prefix in PREFIXES for kind in KINDS
                 for p in sorted((root / prefix / kind).glob("*")) if p.is_file() and not p.name.endswith(".part")]
    elif source.is_bucket:
        found = [a for prefix in PREFIXES for a in _bucket_listing(prefix)]
    else:
        found = [Asset(rel) for rel in source.sums if _kind_of(rel)]
    return sorted(found, key=lambda a: a.relpath)


def _kind_of(relpath: str) -> str | None:
    """The kind folder (`params`, …) a listed file is in, when it is a plain file name (`plain_name`) directly in one
    (under a known prefix); else None, and the file is not one of the source's: the bucket's listing too (38th hostile
    pass (part A) P3: `params/..` was taken as a params file)."""
    parts = relpath.split("/")
    if (len(parts) >= 2 and parts[-2] in KINDS and "/".join(parts[:-2] + [""]) in PREFIXES
            and plain_name(parts[-1])):
        return parts[-2]
    return None


def _bucket_listing(prefix: str) -> list[Asset]:
    found: list[Asset] = []
    for kind in KINDS:
        query = urllib.parse.urlencode({"prefix": f"{prefix}{kind}/", "fields": "items(name,size)"})
        text = _get_text(f"{BUCKET_LISTING}?{query}", missing_ok=False)
        try:
            items = bounded.loads_json(text or "{}").get("items") or []
        except ValueError as exc:
            raise AssetError(f"the bucket's listing could not be read ({exc}).") from None
        for item in items:
            name = str(item.get("name", ""))
            if _kind_of(name) and not name.endswith("/"):  # the listing has a zero-byte `params/` folder object
                found.append(Asset(name, int(item.get("size") or 0)))
    return found


def _get_text(url: str, *, missing_ok: bool) -> str | None:
    # Only "not found" is a missing file: a 401 or 403 is the server refusing the request, which is said as such
    # (nineteenth hostile pass P7: a mirror answering 403 to everything was listed as "ok" with no files). A mirror
    # is listed by its SHA256SUMS, so one that refuses it has nothing the wizard could use anyway.
    deadline = Deadline(TEXT_SECONDS)  # the headers and the body together (`web_read`)
    response = _open(url, allow=(404, 410) if missing_ok else (), deadline=deadline)
    if response is None:
        return None
    with response:
        try:
            data = read_whole(response, url, bounded.ASSET_INDEX_BYTES, deadline=deadline)
            return bounded.read_stream_text(io.BytesIO(data), bounded.ASSET_INDEX_BYTES)
        except bounded.ParseLimitError as exc:
            raise AssetError(f"{redact_credentials(url)} cannot be used: {exc}.") from None
        except TooSlow as exc:
            raise _unreadable(url, f"{exc}.") from None
        except (OSError, ValueError, http.client.HTTPException) as exc:  # the connection broke mid-answer
            raise _unreadable(url, f"{shown_url(url)} could not be read whole ({getattr(exc, 'reason', exc)}).") \
                from None


def _unreadable(url: str, cause: str) -> AssetError:
    """The refusal of a source's server that could not be read (`cause`), with what to do: a local copy (how to make
    one, for the public bucket)."""
    try:
        host = urllib.parse.urlsplit(url).hostname
    except ValueError:
        host = None
    fix = (f"The forecast's files come from the public GraphCast bucket. {local_copy_words()}"
           if host == urllib.parse.urlsplit(BUCKET_URL).hostname else "Give a local copy with --assets DIR.")
    return AssetError(f"{cause} {fix}", cause=cause, fix=fix)


def _open(url: str, headers: dict[str, str] | None = None, *, allow: tuple[int, ...] = (), deadline: Deadline,
          cancel: threading.Event | None = None):
    """The response for `url`, its headers in by `deadline` (`web_read.open_url`); None for an HTTP status in
    `allow`; any other failure is one AssetError naming the address (its password left out) or the host that
    cannot be reached. A CA variable another user could swap
    is refused first, by the installers' rule (`installer_files.tls_context`: 35th hostile pass (part B) P4),
    for an http:// address too: its server may send it on to an https:// one."""
    try:
        context = tls_context("the forecast's downloads", "trust a server of their choosing and use the checkpoint "
                              "and datasets it serves", "nothing was downloaded")
    except CertificatesRefused as exc:
        raise AssetError(str(exc)) from None
    try:
        # Every request through the login's opener, which keeps a login to its own host (36th hostile pass (A) P3).
        opener = login_opener(urllib.request.HTTPSHandler(context=context))
        return open_url(opener, _request(url, headers), timeout=TIMEOUT, deadline=deadline, cancel=cancel)
    except Cancelled:
        raise KeyboardInterrupt from None
    except TooSlow as exc:
        raise _unreadable(url, f"{exc}.") from None
    except RedirectRefused as exc:
        cause = f"{shown_url(url)} cannot be used: {exc.reason}."
        fix = "Give the address the files are served from over https://, or a local copy with --assets DIR."
        raise AssetError(f"{cause} {fix}", cause=cause, fix=fix) from None
    except urllib.error.HTTPError as exc:
        if exc.code in allow:
            return None
        if exc.code in REFUSED:
            cause = (f"{shown_url(url)} answered HTTP {exc.code} ({exc.reason}): the server refused the request, "
                     "so none of the source's files can be had from it.")
            fix = ("A signed URL may have expired, or the mirror may need a login (a user name and password in the "
                   "address, sent as basic auth); check that the address opens in a browser, or give a local copy "
                   "with --assets DIR.")
            raise AssetError(f"{cause} {fix}", cause=cause, fix=fix) from None
        raise AssetError(f"{shown_url(url)} answered HTTP {exc.code} ({exc.reason}).") from None
    except (OSError, ValueError, http.client.HTTPException) as exc:  # InvalidURL is an HTTPException
        try:
            host = urllib.parse.urlsplit(url).hostname
        except ValueError:
            host = None
        host = host or "the address given"
        fix = (f"The forecast's files come from the public GraphCast bucket. {local_copy_words()}"
               if host == urllib.parse.urlsplit(BUCKET_URL).hostname else "Give a local copy with --assets DIR.")
        cause = f"cannot reach {host}: {getattr(exc, 'reason', exc)}."
        raise AssetError(f"{cause} {fix}", cause=cause, fix=fix) from None


#: HTTP answers by which a server refuses the request itself, whatever the file: no login, or not this one.
REFUSED = (401, 403)


def _request(url: str, headers: dict[str, str] | None = None) -> urllib.request.Request:
    """The request for `url`; a mirror's `user:password@` becomes a basic-auth header (as pip takes it), never
    part of the address that is sent or shown."""
    url, login = split_login(url)
    return urllib.request.Request(url, headers={"User-Agent": "gc-wizard", **login, **(headers or {})})


# ------------------------------------------------------------------------------------------------ choosing


def file_parts(name: str) -> dict[str, str]:
    """The notebook's `parse_file_parts`: `source-era5_date-2022-01-01_res-1.0_levels-13_steps-01.nc`."""
    stem = name.removesuffix(".nc")
    return dict(part.split("-", 1) for part in stem.split("_") if "-" in part)


def family(model_name: str) -> str:
    """"gencast" for a GenCast checkpoint (by its name, as the bucket names them), else "graphcast"."""
    return "gencast" if "gencast" in model_name.lower() else "graphcast"


def model_traits(name: str) -> dict[str, str]:
    """Resolution, levels and precipitation input, read from a params file's name where it says them."""
    traits = {}
    if match := re.search(r"resolution ([0-9.]+)", name):
        traits["res"] = match.group(1)
    elif match := re.search(r"\b([0-9]+)p([0-9]+)deg\b", name):  # GenCast: "GenCast 1p0deg Mini <2019.npz"
        traits["res"] = f"{match.group(1)}.{match.group(2)}"
    if family(name) == "gencast":
        traits.update({"levels": "13", "sources": "era5 fake"})  # GenCast takes no precipitation input
    if match := re.search(r"pressure levels ([0-9]+)", name):
        traits["levels"] = match.group(1)
    if "precipitation input" in name:
        traits["sources"] = "era5 fake"
    elif "precipitation output only" in name:
        traits["sources"] = "hres fake"
    return traits


def dataset_fits(dataset: str, model: str, steps: int) -> bool:
    """The notebook's `data_valid_for_model`, by the names alone, and enough steps for the rollout."""
    parts, traits = file_parts(dataset), model_traits(model)
    try:
        if "res" in traits and "res" in parts and float(parts["res"]) != float(traits["res"]):
            return False
        if "levels" in traits and "levels" in parts and int(parts["levels"]) != int(traits["levels"]):
            return False
        if "sources" in traits and "source" in parts and parts["source"] not in traits["sources"].split():
            return False
        return "steps" not in parts or int(parts["steps"]) >= steps
    except ValueError:
        return False


def _pick(assets: list[Asset], kind: str, wanted: str | None, default: str | None, what: str,
          hint: str = "gc-wizard forecast --list", words: SourceWords = CLI_WORDS) -> Asset:
    choices = [a for a in assets if a.kind == kind]
    # The `graphcast/` copy first: GraphCast's README says the top-level copies will go.
    choices.sort(key=lambda a: (not a.relpath.startswith(PREFIXES[0]), a.relpath))
    if wanted:
        exact = [a for a in choices if a.name == wanted]
        matching = exact or [a for a in choices if wanted.lower() in a.name.lower()]
        names = sorted({a.name for a in matching})
        if len(names) == 1:
            return matching[0]
        if not names:
            raise UserError(f"{what} {wanted!r}: no file under {kind}/ matches; `{hint}` shows what the source "
                            "holds.")
        raise UserError(f"{what} {wanted!r} matches {len(names)} files ({'; '.join(map(one_line, names[:3]))}); give more of "
                        "the name.")
    if default:
        for asset in choices:
            if asset.name == default:
                return asset
    names = sorted({a.name for a in choices})
    if len(names) == 1:
        return choices[0]
    if not names:
        raise UserError(f"the source has no {kind}/ files; "
                        f"{words.give('a folder laid out like the bucket (params/, dataset/, stats/)')}."
                        f"{words.gathering()}")
    raise UserError(f"the source holds {len(names)} {kind} files and none is the default; choose one with "
                    f"{what} (`{hint}` shows them).")


@dataclass(frozen=True)
class Selection:
    """The files of one forecast: the model, the example batch and the three statistics files."""

    model: Asset
    dataset: Asset
    stats: tuple[Asset, ...]
    model_note: str | None = None
    """Why the model is not the one announced (`DEFAULT_MODEL`) though none was asked for: the words a forecast
    shows beside its result (walk 23 #5). None when it is the default or the one asked for."""

    def all(self) -> tuple[Asset, ...]:
        return (self.model, self.dataset, *self.stats)


def select(assets: list[Asset], *, model: str | None, dataset: str | None, steps: int,
           hint: str = "gc-wizard forecast --list", words: SourceWords = CLI_WORDS) -> Selection:
    """The model (`--model`, else the small 1° one), a dataset that fits it with `steps` steps, the stats.
    `hint` is the command that lists this source (its --assets included), for the refusals; `words` how the face
    says to give another source (`SourceWords`)."""
    chosen_model = _pick(assets, "params", model, DEFAULT_MODEL, "--model", hint, words)
    if dataset:
        chosen_data = _pick(assets, "dataset", dataset, None, "--dataset", hint, words)
        if not dataset_fits(chosen_data.name, chosen_model.name, steps):
            raise UserError(f"--dataset {one_line(chosen_data.name)} does not fit {one_line(chosen_model.name)} for {steps} step(s) "
                            "(resolution, pressure levels, source or steps differ).")
    else:
        prefix = chosen_model.relpath[: -len(f"params/{chosen_model.name}")]
        fitting = [a for a in assets if a.kind == "dataset" and dataset_fits(a.name, chosen_model.name, steps)]
        # A model's own folder's datasets (gencast/ for GenCast: 12-hourly) before any other's.
        fitting = [a for a in fitting if a.relpath.startswith(f"{prefix}dataset/")] or fitting
        fitting.sort(key=lambda a: (not a.relpath.startswith(PREFIXES[0]), int(file_parts(a.name).get("steps", "0")
                                    if ascii_digits(file_parts(a.name).get("steps", "0")) else 0), a.name))
        if not fitting:
            most = max((int(file_parts(a.name)["steps"]) for a in assets if a.kind == "dataset"
                        and ascii_digits(file_parts(a.name).get("steps", "")) and dataset_fits(a.name, chosen_model.name, 1)),
                       default=0)
            longest = f" (the longest that fits it here allows --steps {most})" if most else ""
            raise UserError(f"no example dataset in the source fits {one_line(chosen_model.name)} for {steps} step(s){longest}; "
                            f"`{hint}` shows what there is.")
        chosen_data = fitting[0]
    prefix = chosen_model.relpath[: -len(f"params/{chosen_model.name}")]
    by_path = {a.relpath: a for a in assets}
    stats = []
    for name in GENCAST_STATS_FILES if family(chosen_model.name) == "gencast" else STATS_FILES:
        found = by_path.get(f"{prefix}stats/{name}") or next(
            (by_path[f"{p}stats/{name}"] for p in PREFIXES if f"{p}stats/{name}" in by_path), None)
        if found is None:
            raise UserError(f"the source has no stats/{name}, which every forecast needs.")
        stats.append(found)
    note = None if model or chosen_model.name == DEFAULT_MODEL else substitute_words(chosen_model.name)
    return Selection(chosen_model, chosen_data, tuple(stats), note)


def substitute_words(name: str) -> str:
    """Why a forecast runs `name` when the announced model (`DEFAULT_MODEL`) was neither asked for nor there: the
    source holds no copy of it, so its only model is used (`_pick`). walk 23 #5: the Done screen
    announced GraphCast_small at 1°, and a lab folder's 10° test model ran without a word."""
    short = one_line(name.split(" - ")[0].removesuffix(".npz"))
    what = []
    if " - test - " in f" {name} ":
        what.append("a test model")
    resolution = re.search(r"resolution ([0-9.]+)", name)
    if resolution:
        what.append(f"at {float(resolution.group(1)):g}°")
    kind = f", {' '.join(what)}" if what else ""
    return f"the source has no {DEFAULT_MODEL.split(' - ')[0]}; used the only model there ({short}{kind})"


# ------------------------------------------------------------------------------------------------ fetching

Progress = Callable[[str, int, int | None], None]
"""progress(file name, bytes so far, total bytes or None)."""


class ProgressText:
    """One file's download in words — bytes, share, rate — the same in both faces; feed it `progress` calls."""

    def __init__(self) -> None:
        self._started: dict[str, tuple[float, int]] = {}

    def __call__(self, name: str, done: int, total: int | None) -> str:
        now = time.monotonic()
        began, base = self._started.setdefault(name, (now, done))
        rate = (done - base) / (now - began) if now - began > 0.2 else None
        text = f"{name[:44]}  {done / 2**20:.1f}"
        text += f" of {total / 2**20:.1f} MiB ({100 * done / total:.0f}%)" if total else " MiB"
        if rate:
            text += f" at {rate / 2**20:.1f} MiB/s"
        return text


def cache_dir() -> Path:
    return paths.state_dir() / "assets"


def sha256_of(path: Path, cancel: threading.Event | None = None) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(CHUNK):
            if cancel is not None and cancel.is_set():
                raise KeyboardInterrupt
            digest.update(block)
    return digest.hexdigest()


class _Recorded:
    """`assets/recorded.json`: the hash of each downloaded file on first download, checked after."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "recorded.json"

    def read(self) -> dict[str, dict]:
        try:
            data = bounded.read_json(self.path, bounded.ASSET_INDEX_BYTES)
        except (OSError, ValueError):  # a ParseLimitError too: an unreadable record is started again
            return {}
        return data if isinstance(data, dict) else {}

    def write(self, key: str, sha256: str, size: int) -> None:
        data = self.read()
        data[key] = {"sha256": sha256, "size": size}
        tmp = self.path.with_name(f"recorded.json.{os.getpid()}")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(tmp, self.path)


@dataclass(frozen=True)
class Fetched:
    """A file ready to use: where it is, and whether a checksum from the source vouched for it."""

    asset: Asset
    path: Path
    sha256: str
    verified: bool
    downloaded: bool


def fetch(source: Source, asset: Asset, *, progress: Progress | None = None,
          cancel: threading.Event | None = None) -> Fetched:
    """The file on disk, checked: in place for a folder, through the cache for a URL (see the docstring)."""
    expected = source.sums.get(asset.relpath)
    if source.sums_file is not None and expected is None:
        _unlisted(source, asset)
    if source.is_local:
        shown = Path(source.location) / asset.relpath
        # Each file again, as it is read (the folder was judged when opened): what is checked is what is read.
        path = refuse_local(str(shown), shown, "the file")
        if not path.is_file():
            raise UserError(f"{shown} does not exist.")
        digest = sha256_of(path, cancel) if expected else ""
        _check(path, digest, expected, "its SHA256SUMS", shown=shown)
        check_format(path, shown=shown)
        return Fetched(asset, path, digest, bool(expected), False)
    paths.ensure_state_dir()
    recorded = _Recorded(_made(cache_dir()))
    target = _cache_target(source, asset)
    key = redact_credentials(source.url(asset.relpath))  # recorded.json never holds a password
    if target.is_file():
        digest = sha256_of(target, cancel)
        known = recorded.read().get(key, {}).get("sha256")
        _check(target, digest, expected or known, "its SHA256SUMS" if expected else "the hash recorded when it "
               "was downloaded")
        check_format(target)
        if not known:
            recorded.write(key, digest, target.stat().st_size)
        return Fetched(asset, target, digest, bool(expected), False)
    _made_in_cache(target.parent)
    part = target.with_name(target.name + ".part")
    _refuse_odd_part(part)
    # Asked for with the address as given, login and all: `key` writes the password `***` (a mirror behind a login
    # refused every file the listing had named); every sentence about it shows the address masked (`shown_url`).
    _download(source.url(asset.relpath), part, asset.name, progress, cancel, listed=asset.size, kind=asset.kind)
    digest = sha256_of(part, cancel)
    try:
        _check(part, digest, expected, "its SHA256SUMS", shown=target)
        check_format(part, shown=target)
    except AssetError:
        part.unlink(missing_ok=True)  # a wrong file is not kept to resume from
        raise
    os.replace(part, target)
    recorded.write(key, digest, target.stat().st_size)
    return Fetched(asset, target, digest, bool(expected), True)


#: What each kind of file must start with: params are numpy's .npz (a zip archive), datasets and statistics
#: NetCDF3 (`CDF`) or NetCDF4/HDF5. An HTML error page saved under the file's name fails here, by name, before
#: anything loads it (numpy would only say "Cannot load file containing pickled data").
MAGIC = {".npz": ((b"PK\x03\x04",), "a numpy .npz (zip) archive"),
         ".nc": ((b"CDF", b"\x89HDF"), "a NetCDF file")}


def check_format(path: Path, shown: Path | None = None) -> None:
    """AssetError naming the file when its first bytes are not what its kind must start with."""
    rule = MAGIC.get(path.suffix if path.suffix != ".part" else Path(path.stem).suffix)
    if rule is None:
        return
    with open(path, "rb") as handle:
        head = handle.read(16)
    starts, what = rule
    if not head.startswith(starts):
        # Never the bytes themselves (36th hostile pass (part B) P3: a link to /etc/shadow printed its first bytes
        # to the terminal and the log): what the file is not, and what it looks like where that is known.
        looks = " (it looks like an HTML page: an error page saved under the file's name?)" \
            if head.lstrip().lower().startswith((b"<!doctype", b"<html", b"<?xml")) else ""
        raise AssetError(f"{shown or path} is not {what}: its first bytes are not those of one{looks}. It is "
                         "damaged or not the published file, and was not used; copy it again from where it came from.")


def _made(folder: Path) -> Path:
    return make_folders(folder)


def plain_name(name: str) -> bool:
    """Whether `name` can stand as one file or folder name on disk as it is: not empty, `.` or `..`, and without a
    `/`, a backslash, a control character (NUL included) or a line break."""
    return (name not in ("", ".", "..") and "/" not in name and "\\" not in name
            and not any(ord(ch) < 32 or 127 <= ord(ch) < 160 or ch in "\u2028\u2029" for ch in name))


def _folder_name(name: str) -> str:
    """One name of a URL (its host, a segment of its path) as one folder name: itself when plain (`plain_name`), else
    percent-encoded — `..` as `%2E%2E`, a backslash as `%5C` — so it can never lead out of the folder it is made in."""
    if plain_name(name):
        return name
    if name.strip(".") == "":
        return "%2E" * len(name)
    return urllib.parse.quote(name, safe="")


def _cache_target(source: Source, asset: Asset) -> Path:
    """Where a URL source's file is cached: `<state>/assets/<host>[_<port>]/<the URL's path>/<relpath>`, never a
    password; each name of the URL one folder name (`_folder_name`), the listed path's names plain (the listing was
    checked when read: `parse_sums`, `_kind_of`), and the whole checked to be inside `assets/` by its names.

    Why: 38th hostile pass (part A) P2 — the URL's path was joined to the cache as it was, so
    `--assets http://host/../../../tmp/x/` wrote the downloads to /tmp/x (outside the state, into another user's
    folder, through their link at the `.part` name), and a host `..` named the state folder itself."""
    where = urllib.parse.urlsplit(source.location)
    names = [f"{where.hostname}{f'_{where.port}' if where.port else ''}",
             *(name for name in where.path.split("/") if name)]
    folder = cache_dir()
    for name in names:
        folder = folder / _folder_name(name)
    listed = asset.relpath.split("/")
    inside = os.path.normpath(folder / asset.relpath)
    if (not all(plain_name(name) for name in listed)
            or os.path.commonpath([inside, os.path.normpath(cache_dir())]) != os.path.normpath(cache_dir())):
        raise AssetError(f"the source's file '{one_line(asset.relpath)}' is not a file's path inside the source "
                         f"({source.describe()}), so it was not downloaded.")
    return folder / asset.relpath


def _made_in_cache(folder: Path) -> Path:
    """`folder` made one level at a time below the state's `assets/`, each one, made or found, held to the state's
    sub-folder rule (`paths.refuse_state_folder`: another user's folder, one every user can write, or a link the
    state's link rule refuses is refused by name) before anything is made in it or written there (38th hostile pass
    (part A) P2: the way below `assets/<host>` was never asked)."""
    base = cache_dir()
    current = base
    for name in folder.relative_to(base).parts:
        current = current / name
        make_folders(current)
        paths.refuse_state_folder(current)
    return folder


def _refuse_odd_part(part: Path) -> None:
    """AssetError when something other than a regular file is at a download's `.part` name (a link, a FIFO, a
    folder): it is not a download gc-wizard left, and it is neither followed, appended to nor replaced (38th hostile
    pass (part A) P2: a link planted there had root's download overwrite the file it led to)."""
    try:
        info = os.lstat(part)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(info.st_mode):
        what = "a link" if stat.S_ISLNK(info.st_mode) else "not a regular file"
        raise AssetError(f"{part} is {what}, not a download gc-wizard left there, so it was not followed or "
                         "written to, and nothing was downloaded. Remove it, then run again.")


def _open_part(part: Path, resume: bool):
    """The `.part` file a download writes, as a binary stream: appended to when `resume`, else made new (a file left
    there is removed first, and the new one made with O_EXCL); always with O_NOFOLLOW, so a link at that name is
    never written through, and only a regular file is written (`_refuse_odd_part` said so up front; this holds
    against a swap since). Raises OSError."""
    flags = os.O_WRONLY | os.O_NOFOLLOW | os.O_NOCTTY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if resume:
        flags |= os.O_APPEND
    else:
        try:
            os.unlink(part)
        except FileNotFoundError:
            pass
        flags |= os.O_CREAT | os.O_EXCL
    fd = os.open(part, flags, 0o644)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(part))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "ab" if resume else "wb")
    except BaseException:
        os.close(fd)
        raise


def _unlisted(source: Source, asset: Asset) -> None:
    """A source with a SHA256SUMS vouches for every file by it: one it does not list is refused, never passed on
    unchecked (nineteenth hostile pass P11: a SHA256SUMS listing only stats/ let a tampered params file through)."""
    shown = Path(source.location) / asset.relpath if source.is_local else shown_url(source.url(asset.relpath))
    cause = f"{shown} is not listed in {source.sums_file}, so nothing vouches for it and it was not used."
    fix = (f"Add its line (`sha256sum {shell_word(asset.relpath)} >> {SUMS_FILE}` in the source's folder, from a copy you trust) "
           f"or remove the {SUMS_FILE} to use the folder unchecked.")
    raise AssetError(f"{cause} {fix}", cause=cause, fix=fix)


def _check(path: Path, digest: str, expected: str | None, against: str, shown: Path | None = None) -> None:
    if expected and digest != expected:
        raise AssetError(f"{shown or path} fails its checksum against {against} (sha256 {digest[:12]}…, expected "
                         f"{expected[:12]}…): it is damaged or not the published file, and was not used; copy it "
                         "again from where it came from.")


def resume_words(command: str = "the forecast") -> str:
    """What to do after a download that broke with its `.part` kept: run `command` again, which resumes it. The
    bundle says its own command (`bundle_assets`): "run the forecast again" inside `bundle` sent the user to
    another command (38th hostile pass (part A) P1)."""
    return f"Run {command} again to resume it."


def kept_words(part: Path) -> str | None:
    """"kept to resume: PATH, N MB" for a `.part` left on disk, else None: a stop must say what it leaves behind
    (38th hostile pass (part A) P1: "nothing was left half-done" beside a 4.8 GB `.part`)."""
    try:
        size = part.stat().st_size
    except OSError:
        return None
    return f"kept to resume: {part}, {_megabytes(size)}" if size else None


def _free_bytes(folder: Path) -> int | None:
    """The bytes a download may still write in `folder` (its file system's free space for a user), or None."""
    try:
        info = os.statvfs(folder)
    except OSError:
        return None
    return info.f_bavail * info.f_frsize if info.f_blocks else None


def _assets_disk() -> str:
    """The assets folder and the disk it is on, as a sentence names the one that is full."""
    folder = cache_dir()
    real = Path(os.path.realpath(folder))
    mount = paths.mount_of(real)
    on = f"the {mount[1]} file system mounted at {mount[0]}: " if mount else ""
    return f"the disk of the assets folder {folder} ({on}`df -h {shell_word(str(real))}`)"


def _megabytes(size: int) -> str:
    return f"{size / 1e6:,.1f} MB" if size >= 1_000_000 else f"{size:,} bytes"


def _bound(listed: int | None, total: int | None, kind: str) -> tuple[int, str]:
    """The most a download may bring, and where that size comes from: the listing's, else the server's
    Content-Length, else the ceiling for its kind of file (`CEILINGS`)."""
    if listed:
        return listed, "the size the source's listing states"
    if total is not None:
        return total, "the size the server stated (Content-Length)"
    return CEILINGS.get(kind, max(CEILINGS.values())), f"the most gc-wizard takes for a {kind or 'forecast'} file of no stated size"


def _download(url: str, part: Path, name: str, progress: Progress | None, cancel: threading.Event | None, *,
              listed: int | None = None, kind: str = "") -> None:
    """Into `part`, resuming from its size with a Range request (206), else from the start; a stop (a signal,
    Ctrl-C, the app's cancel) carries a note of the `.part` it leaves (`kept_words`), which the faces say."""
    try:
        _download_into(url, part, name, progress, cancel, listed=listed, kind=kind)
    except KeyboardInterrupt as stop:
        kept = kept_words(part)
        if kept:
            note_left(stop, kept)
        raise


def _download_into(url: str, part: Path, name: str, progress: Progress | None, cancel: threading.Event | None, *,
                   listed: int | None, kind: str) -> None:
    """`_download`'s work. Held to a size (`_bound`) and to the disk's free space: more bytes than that, or a full
    disk, stop it and remove the `.part` (38th hostile pass (part A) P1: an endless body filled the state's disk and
    was kept to "resume" into the same full disk)."""
    have = part.stat().st_size if part.exists() else 0
    headers = {"Range": f"bytes={have}-"} if have else {}
    response = _open(url, headers, allow=(416,) if have else (), deadline=Deadline(HEADER_SECONDS),  # 416 to a Range:
                     cancel=cancel)                                                                 # already whole
    if response is None:
        return
    with response:
        resumed = have and response.status == 206
        length = response.headers.get("Content-Length")
        total = (int(length) + (have if resumed else 0)) if length and ascii_digits(length) else None
        done = have if resumed else 0
        bound, why = _bound(listed, total, kind)
        if total is not None and total > bound:
            part.unlink(missing_ok=True)  # a `.part` the source's own listing says cannot be that file's start
            raise AssetError(f"{shown_url(url)} was not downloaded: the server states {total:,} bytes, more than the "
                             f"{bound:,} of {why}; nothing of it was kept.")
        free = _free_bytes(part.parent)
        if free is not None and not resumed:
            free += have  # a `.part` the server would not resume is written anew over
        needed = (total if total is not None else listed or 0) - done
        if free is not None and needed > free:
            cause = (f"{shown_url(url)} was not downloaded: it needs {_megabytes(needed)} more, and {_assets_disk()} "
                     f"has {_megabytes(free)} free.")
            fix = "Free some space there, or point GC_WIZARD_HOME at a folder on a larger disk."
            raise AssetError(f"{cause} {fix}", cause=cause, fix=fix)
        try:
            with _open_part(part, bool(resumed)) as out:
                # As it arrives, held to a least rate, never to a deadline: a real multi-GB download may take hours.
                for block in chunks(response, url, min_rate=MIN_RATE, window=RATE_WINDOW, cancel=cancel):
                    if done + len(block) > bound:
                        raise _TooLong(done + len(block))
                    out.write(block)
                    done += len(block)
                    if progress is not None:
                        progress(name, done, total)
        except Cancelled:
            raise KeyboardInterrupt from None
        except _TooLong as exc:
            part.unlink(missing_ok=True)  # never kept to resume: the next run would only bring more of it
            raise AssetError(f"{shown_url(url)} was stopped at {exc.size:,} bytes, more than the {bound:,} of {why}; "
                             "its partial file was removed.") from None
        except (OSError, ValueError, http.client.HTTPException) as exc:
            if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
                part.unlink(missing_ok=True)  # a full disk is not kept full to resume into
                what = "is full" if exc.errno == errno.ENOSPC else "is over your quota"
                cause = (f"the download of {shown_url(url)} stopped after {_megabytes(done)}: {_assets_disk()} {what}; "
                         "its partial file was removed.")
                fix = "Free some space there, or point GC_WIZARD_HOME at a folder on a larger disk."
                raise AssetError(f"{cause} {fix}", cause=cause, fix=fix) from None
            if isinstance(exc, OSError) and exc.filename:
                raise
            cause = f"the download of {name} broke after {done} bytes ({exc}); {kept_words(part) or 'nothing was kept'}."
            raise AssetError(f"{cause} {resume_words()}", cause=cause, fix=resume_words()) from None
    if total is not None and done < total:
        cause = f"the download of {name} stopped after {done} of {total} bytes; {kept_words(part) or 'nothing was kept'}."
        raise AssetError(f"{cause} {resume_words()}", cause=cause, fix=resume_words())


class _TooLong(Exception):
    """A download that brought more than its bound (`_bound`): `size` bytes with the block that crossed it."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size
