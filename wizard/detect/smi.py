"""Reads the driver through `nvidia-smi`, the fallback when NVML cannot be loaded by Python.

Three formats, most structured first:
- `nvidia-smi -q -x`: XML with `<driver_version>`, `<cuda_version>` and one `<gpu>` per device
  (name, memory, UUID) — every driver since CUDA 11 prints the CUDA version there;
- `--query-gpu=index,uuid,compute_cap --format=csv,noheader,nounits`, run alongside it for the
  compute capability; drivers older than 510 refuse the field (`Field "compute_cap" is not a valid
  field to query.`), and then the capability comes from the product name (`COMPUTE_CAPS`);
- the summary table (`NVIDIA-SMI 470.57.02    Driver Version: 470.57.02    CUDA Version: 11.4`),
  parsed only when the XML is unusable.

nvidia-smi's own failure lines are kept verbatim in `Reading.detail`: "couldn't communicate with
the NVIDIA driver" means installed but not loaded; "Driver/library version mismatch" means a driver
upgrade without a reboot.
"""

from __future__ import annotations

import re

from wizard.children import SKIPPED_PROGRAMS, which
from wizard.detect import deadline
from wizard.detect.facts import Gpu
from wizard.detect.reading import Reading
from wizard.patterns import LazyPattern

NOT_LOADED_RE = LazyPattern(r"couldn't communicate with the NVIDIA driver|Driver Not Loaded", re.I)
MISMATCH_RE = LazyPattern(r"Driver/library version mismatch|version mismatch", re.I)
HEADER_RE = LazyPattern(r"Driver Version:\s*([0-9]+(?:\.[0-9]+)+)\s+CUDA Version:\s*([0-9]+\.[0-9]+|N/A)")
ROW_RE = LazyPattern(r"^\|\s+([0-9]+)\s+(.+?)\s+(?:On|Off)\s+\|\s*([0-9A-Fa-f:.]+)\s")
MEM_RE = LazyPattern(r"([0-9]+)MiB\s*/\s*([0-9]+)MiB")

#: Compute capability from the product name, for drivers too old (< 510) to report it.
#: First match wins; only GPUs that such drivers can drive are listed.
COMPUTE_CAPS = (
    (r"\bA100\b|\bA30\b", "8.0"),
    (r"\bA10G?\b|\bA40\b|\bA16\b|\bA2\b|RTX A[0-9]{4}|RTX 30[0-9]0", "8.6"),
    (r"\bT4\b|RTX 20[0-9]0|TITAN RTX|Quadro RTX|GTX 16[0-9]0", "7.5"),
    (r"\bV100|TITAN V\b", "7.0"),
    (r"\bP100\b", "6.0"),
    (r"\bP40\b|\bP4\b|GTX 10[0-9]0|TITAN Xp|Quadro P[0-9]+", "6.1"),
    (r"\bM60\b|\bM40\b|GTX 9[0-9]0|TITAN X\b", "5.2"),
    (r"\bK80\b", "3.7"),
    (r"\bK40\b|\bK20", "3.5"),
)


def compute_cap_from_name(name: str) -> str | None:
    for pattern, cap in COMPUTE_CAPS:
        if re.search(pattern, name):
            return cap
    return None


def _failure(completed: deadline.Completed, exe: str) -> Reading | None:
    """A Reading for a run that did not work, or None when it did.

    Why three different failures: an nvidia-smi that is on PATH but never answers (a hung driver or GPU: the
    deadline stops it), one that ends with an exit status, and one that cannot be started at all are three
    different things to tell a user, and none of them is "no nvidia-smi". A hung one was reported as "no NVIDIA
    driver was found (… no nvidia-smi …)" on a server whose driver was wedged (hostile pass P5). So each
    keeps its `path`, its `exit_code` and how long it ran, and `absent` is only `_Absent`'s, for a PATH without it.
    """
    if completed.missing:
        return Reading("nvidia-smi", "failed", path=exe,
                       detail=f"{exe} is there but could not be started ({completed.stderr or 'no reason given'})")
    if completed.too_much:  # it printed without end (a wedged driver's loop): stopped, and said so
        return Reading("nvidia-smi", "failed", path=exe, seconds=round(completed.seconds, 1),
                       detail=completed.too_much)
    if completed.timed_out:
        return Reading("nvidia-smi", "timeout", path=exe, seconds=round(completed.seconds, 1),
                       detail=f"{exe} is there but gave no answer within {completed.seconds:.0f} s and was stopped")
    if completed.returncode == 0:
        return None
    text = completed.output
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    said = dict(path=exe, exit_code=completed.returncode, seconds=round(completed.seconds, 1))
    if NOT_LOADED_RE.search(text):
        return Reading("nvidia-smi", "not_loaded", detail=first, **said)
    if MISMATCH_RE.search(text):
        return Reading("nvidia-smi", "mismatch", detail=first, **said)
    status = f"exit status {completed.returncode}"
    return Reading("nvidia-smi", "failed", detail=f"{exe} failed with {status}" + (f": {first}" if first else ""),
                   **said)


def _mib(text: str | None) -> int | None:
    match = re.match(r"\s*([0-9]+)", text or "")
    return int(match.group(1)) if match else None


def parse_xml(text: str) -> tuple[str | None, str | None, list[dict]]:
    """(driver version, CUDA version, [{index, name, memory_total_mib, uuid}]) from `-q -x` output; raises
    `ValueError` for output that is not the XML."""
    # Deferred for start-up time: nvidia-smi is read only when NVML did not answer, and the XML parser
    # costs every `detect` a few milliseconds otherwise.
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(text.strip())
    except ET.ParseError as exc:
        raise ValueError(f"nvidia-smi -q -x printed no XML: {exc}") from None
    driver = (root.findtext("driver_version") or "").strip() or None
    cuda = (root.findtext("cuda_version") or "").strip() or None
    gpus = []
    for index, gpu in enumerate(root.findall("gpu")):
        gpus.append({
            "index": index,
            "name": (gpu.findtext("product_name") or "").strip() or "unknown NVIDIA GPU",
            "memory_total_mib": _mib(gpu.findtext("fb_memory_usage/total")),
            "uuid": (gpu.findtext("uuid") or "").strip() or None,
        })
    if cuda in ("N/A", "Not Found"):
        cuda = None
    return driver, cuda, gpus


def parse_compute_caps(text: str) -> dict[str, str]:
    """{index or uuid: "8.0"} from `--query-gpu=index,uuid,compute_cap --format=csv,noheader,nounits`."""
    caps: dict[str, str] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.split(",")]
        if len(cells) == 3 and re.fullmatch(r"[0-9]+\.[0-9]+", cells[2]):
            caps[cells[0]] = cells[2]
            caps[cells[1]] = cells[2]
    return caps


def parse_table(text: str) -> tuple[str | None, str | None, list[dict]]:
    """(driver version, CUDA version, GPUs) from the summary table; names may be cut ("Tesla V100-SXM2...")."""
    match = HEADER_RE.search(text)
    driver = match.group(1) if match else None
    cuda = match.group(2) if match and match.group(2) != "N/A" else None
    gpus = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        row = ROW_RE.match(line)
        if not row:
            continue
        memory = MEM_RE.search(lines[i + 1]) if i + 1 < len(lines) else None
        gpus.append({"index": int(row.group(1)), "name": row.group(2).strip(),
                     "memory_total_mib": int(memory.group(2)) if memory else None, "uuid": None})
    return driver, cuda, gpus


class Running:
    """nvidia-smi's two runs (the XML and the compute capabilities), started together; `finish()` reads them."""

    def __init__(self, exe: str, env: dict[str, str], timeout: float) -> None:
        self.exe, self.env, self.timeout = exe, env, timeout
        self.xml_run = deadline.start([exe, "-q", "-x"], env=env, timeout=timeout)
        self.cap_run = deadline.start([exe, "--query-gpu=index,uuid,compute_cap", "--format=csv,noheader,nounits"],
                                      env=env, timeout=timeout)

    def finish(self) -> Reading:
        """Driver, CUDA version and GPUs; never raises."""
        xml_done, cap_done = self.xml_run.finish(), self.cap_run.finish()
        failed = _failure(xml_done, self.exe)
        if failed is not None:
            return failed
        try:
            driver, cuda, gpus = parse_xml(xml_done.stdout)
        except ValueError:
            table = deadline.run([self.exe], env=self.env, timeout=self.timeout)
            failed = _failure(table, self.exe)
            if failed is not None:
                return failed
            driver, cuda, gpus = parse_table(table.stdout)
        caps = parse_compute_caps(cap_done.stdout) if cap_done.ok else {}
        result = []
        for gpu in gpus:
            cap = caps.get(gpu["uuid"] or "") or caps.get(str(gpu["index"])) or compute_cap_from_name(gpu["name"])
            result.append(Gpu(index=gpu["index"], name=gpu["name"], memory_total_mib=gpu["memory_total_mib"],
                              compute_capability=cap, source="nvidia-smi", uuid=gpu["uuid"]))
        if driver is None and cuda is None:
            return Reading("nvidia-smi", "failed", path=self.exe, exit_code=0,
                           detail=f"{self.exe} printed no driver version")
        return Reading("nvidia-smi", "ok", version=driver, cuda=cuda, gpus=result, path=self.exe, exit_code=0,
                       seconds=round(xml_done.seconds, 1))


class _Absent:
    """No nvidia-smi on PATH: its reading, with nothing started."""

    def finish(self) -> Reading:
        # One refused by the PATH trust rule is named (25th hostile pass (part B) P5), not called missing.
        skipped = [note for note in SKIPPED_PROGRAMS if note.startswith("nvidia-smi: ")]
        detail = (f"nvidia-smi is not on PATH in a folder gc-wizard runs programs from ({skipped[0].split(' ')[1]} "
                  "was not run: see the note at the end)" if skipped else "nvidia-smi is not on PATH")
        return Reading("nvidia-smi", "absent", detail=detail)


def start(*, env: dict[str, str] | None = None, timeout: float = 10.0) -> Running | _Absent:
    """Start nvidia-smi (found on `PATH`) now; `finish()` on the result gives its `Reading`."""
    env = deadline.probe_env(env)
    exe = which("nvidia-smi", env.get("PATH", ""))
    if exe is None:
        return _Absent()
    return Running(exe, env, timeout)


def probe(*, env: dict[str, str] | None = None, timeout: float = 10.0) -> Reading:
    """Driver, CUDA version and GPUs from nvidia-smi found on `PATH`; never raises."""
    return start(env=env, timeout=timeout).finish()
