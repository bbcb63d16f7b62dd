"""Overall progress of an install, read from the installers' own counters in their output lines.

Why from the output: uv and pip already say what they fetch and how big it is, and nothing else
knows. uv (with `UV_NO_PROGRESS=1`) prints `Downloading jaxlib (73.6MiB)` when a download starts,
` Downloaded jaxlib` when it ends, and `Prepared N packages` / `Installed N packages`; pip (with
`--progress-bar raw`) prints `Collecting NAME`, `Downloading FILE (77.2 MB)`, `Progress DONE of TOTAL`
and `Using cached FILE`. Each line updates the counters; `summary()` is one short line. The plan's
download size (wizard.install.cost) gives the expected total when known — as an upper bound: from a
warm cache uv prints no download at all (only `Resolved N` and `Installed N`, no `Prepared`), so the
summary then says how many came from the cache instead of a byte count that never moves. Thread-safe enough for one
writer (the runner's thread) and one reader (a screen's timer): only ints and a set are touched.
"""

from __future__ import annotations

import re

from wizard.install.cost import human

_UNITS = {"B": 1, "KB": 1000, "MB": 1000**2, "GB": 1000**3, "KIB": 1024, "MIB": 1024**2, "GIB": 1024**3,
          "K": 1000, "M": 1000**2, "G": 1000**3}
_UV_DOWNLOADING = re.compile(r"^\s*Downloading (\S+) \(([0-9.]+)\s*([KMG]i?B)\)", re.I)
_UV_DOWNLOADED = re.compile(r"^\s*Downloaded (\S+)\s*$")
_PIP_DOWNLOADING = re.compile(r"^\s*Downloading (\S+) \(([0-9.]+) ([kKMG]B)\)")
_PIP_PROGRESS = re.compile(r"^\s*Progress ([0-9]+) of ([0-9]+)")
_PIP_CACHED = re.compile(r"^\s*Using cached (\S+)")
_PIP_COLLECTING = re.compile(r"^\s*Collecting (\S+)")
_COUNT = re.compile(r"^\s*(Prepared|Installed|Resolved) ([0-9]+) packages?")
_PIP_DONE = re.compile(r"^\s*Successfully installed (.+)$")
_PIP_INSTALLING = re.compile(r"^\s*Installing collected packages")
#: pip taking a file from a local folder (a `--find-links`/PIP_FIND_LINKS wheelhouse): nothing is downloaded for it.
_PIP_PROCESSING = re.compile(r"^\s*Processing (\S+)")


#: Said once pip begins its install phase, the longest stretch it prints nothing in (minutes, for a GPU recipe's
#: gigabytes): a newcomer watched only a spinner for two minutes and thought it stuck (walk 28 #4). One row at 80.
PIP_QUIET_WORDS = "pip prints nothing while it unpacks them: often a few minutes; nothing is stuck."


def quiet_stretch_words(line: str) -> str | None:
    """The sentence for an installer's line that starts a long silence, or None: both faces say it after the line."""
    return PIP_QUIET_WORDS if _PIP_INSTALLING.match(line) else None


def _bytes(number: str, unit: str) -> int:
    return int(float(number) * _UNITS.get(unit.upper(), 1))


class InstallProgress:
    """Counters over every step's lines; `feed` each line, `summary` when drawing."""

    def __init__(self, total_packages: int = 0, expected_bytes: int | None = None) -> None:
        self.total_packages = total_packages
        self.expected_bytes = expected_bytes
        self.fetched: set[str] = set()
        """Packages downloaded or taken from a cache."""
        self.bytes_done = 0
        self.installed = 0
        self.prepared = 0
        self.current: tuple[str, int, int] | None = None
        """The file pip is downloading now: (name, done, total)."""
        self.resolved = 0
        """Packages uv resolved (`Resolved N packages`): known before anything is fetched."""
        self.cached: set[str] = set()
        """Packages pip took from its cache (`Using cached FILE`)."""
        self.local: set[str] = set()
        """Packages pip took from a local folder (`Processing FILE`): counted, never downloaded (walk 21 #2: half an
        install's wheels came from the machine's wheelhouse, and the count sat at 43 of 85)."""
        self.uv_installed = 0
        """uv's own `Installed N` counts: those minus its `Prepared N` (fetched or built) came from its cache."""
        self._sizes: dict[str, int] = {}
        self._pip = False
        self.unpacking = False
        """pip has every file and is installing them (`Installing collected packages`), until it says it is done: the
        longest quiet stretch of a pip install, said on the overall line so the whole counts do not read as done."""
        """pip's lines were seen (`Collecting …`): it downloads one file at a time."""

    def feed(self, line: str) -> bool:
        """Take one output line; True when a counter changed."""
        match = _PIP_PROGRESS.match(line)
        if match:
            done, total = int(match.group(1)), int(match.group(2))
            name = self.current[0] if self.current else "?"
            if done >= total:
                self.bytes_done += total
                self.fetched.add(name)
                self.current = None
            else:
                self.current = (name, done, total)
            return True
        match = _UV_DOWNLOADING.match(line) or _PIP_DOWNLOADING.match(line)
        if match:
            if self._pip:
                self._finish_current()  # pip fetches one file at a time: the one before is whole
            name = match.group(1).split("-")[0].lower()
            size = _bytes(match.group(2), match.group(3))
            self._sizes[name] = size
            self.current = (name, 0, size)
            return True
        match = _UV_DOWNLOADED.match(line)
        if match:
            name = match.group(1).split("-")[0].lower()
            self.bytes_done += self._sizes.pop(name, 0)
            self.fetched.add(name)
            self.current = None
            return True
        match = _PIP_PROCESSING.match(line)
        if match:
            self._finish_current()
            name = match.group(1).rstrip("/").rsplit("/", 1)[-1].split("-")[0].lower()
            self.fetched.add(name)
            self.local.add(name)
            return True
        if _PIP_INSTALLING.match(line):
            self._finish_current()  # every file is here once pip starts installing
            self.unpacking = True
            return True
        match = _PIP_CACHED.match(line) or _PIP_COLLECTING.match(line)
        if match:
            self._pip = True
            if line.lstrip().startswith("Using cached"):
                name = match.group(1).split("-")[0].lower()
                self.fetched.add(name)
                self.cached.add(name)
            return True
        match = _COUNT.match(line)
        if match:
            count = int(match.group(2))
            if match.group(1) == "Installed":
                self.installed += count
                self.uv_installed += count
            elif match.group(1) == "Resolved":
                self.resolved = max(self.resolved, count)
            else:
                self.prepared += count
            return True
        match = _PIP_DONE.match(line)
        if match:
            self.unpacking = False
            self.installed += len(match.group(1).split())
            return True
        return False

    def _finish_current(self) -> None:
        """The file being downloaded is whole. pip prints no `Progress` line for a file of 512 kB or less, so its
        next file's `Downloading` (or `Installing collected packages`) is the only sign a small one is done: counting
        only `Progress … of …` left the count at 27 of 85 for most of an install (walk 19 #4)."""
        if self.current is not None:
            name, _done, total = self.current
            self.bytes_done += total
            self.fetched.add(name)
            self._sizes.pop(name, None)
            self.current = None

    def summary(self, elapsed: float) -> str:
        minutes, seconds = divmod(int(elapsed), 60)
        parts = []
        if self.total_packages:
            done = max(len(self.fetched), self.prepared, self.installed)
            parts.append(f"{min(done, self.total_packages)} of {self.total_packages} packages")
        got = self.bytes_done + (self.current[1] if self.current else 0)
        from_cache = len(self.cached) + max(0, self.uv_installed - self.prepared)
        # Short phrases: the line is one row of an 80-column install screen.
        if got or self.current:
            part = f"{human(got)} of ~{human(self.expected_bytes)}" if self.expected_bytes else f"{human(got)} downloaded"
            parts.append(part + (f", {from_cache} cached" if from_cache else "")
                         + (f", {len(self.local)} local" if self.local else ""))
        elif from_cache:
            parts.append(f"{from_cache} from the cache, {self.prepared} fetched" if self.prepared
                         else f"all {from_cache} from the cache")
        elif self.resolved:
            parts.append(f"{self.resolved} resolved" + (f", up to ~{human(self.expected_bytes)}"
                                                         if self.expected_bytes else ""))
        elif self.expected_bytes:
            parts.append(f"up to ~{human(self.expected_bytes)} to fetch")
        if self.unpacking:
            parts.append("installing")
        parts.append(f"{minutes}:{seconds:02d} so far")
        return " · ".join(parts)
