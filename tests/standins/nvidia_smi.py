"""A stand-in `nvidia-smi` that prints what the real tool prints, for the GPU server in a profile.

Installed by `tests.standins.standin_env` as `<bin>/nvidia-smi` (with this interpreter in the
shebang); the profile file is named by $GC_WIZARD_STANDIN_PROFILE. It covers the invocations
detection uses and the failures it must survive:

- no arguments: the summary table (the 79-column layout of drivers < 530, the 89-column one after);
- `-L`; `--query-gpu=FIELDS --format=csv[,noheader][,nounits]`; `-q -x` (XML, tab-indented);
- `smi=driver_not_loaded`: "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA
  driver. ..." (exit 9); `smi=version_mismatch`: "Failed to initialize NVML: Driver/library version
  mismatch" (exit 18);
- drivers older than 510 reject `compute_cap`: `Field "compute_cap" is not a valid field to query.`
  (exit 2), as seen on 470.x (huggingface/candle#733, canonical/inference-snaps#128);
- `smi=gpu_lost`: "Unable to determine the device handle for GPU …: Unknown Error" (exit 15), a GPU off the bus;
- `smi=hang`: never answers, as on a server whose driver or GPU is wedged (the caller's deadline must stop it).

Standard library only: it runs with `-I`.
"""

from __future__ import annotations

import os
import sys
import time

TIMESTAMP = "Tue Sep 12 10:27:46 2023"


def load_profile() -> dict:
    path = os.environ.get("GC_WIZARD_STANDIN_PROFILE", "")
    values: dict[str, str] = {}
    try:
        with open(path) as handle:
            for line in handle:
                line = line.strip()
                if line and not line.startswith("#") and "=" in line:
                    key, value = line.split("=", 1)
                    values[key.strip()] = value.strip()
    except OSError:
        pass
    gpus = []
    for i in range(int(values.get("gpu_count", "0"))):
        gpus.append({
            "index": i,
            "name": values.get(f"gpu{i}.name", "NVIDIA Graphics Device"),
            "uuid": values.get(f"gpu{i}.uuid", f"GPU-00000000-0000-0000-0000-00000000000{i}"),
            "memory_mib": int(values.get(f"gpu{i}.memory_mib", "0")),
            "cc": values.get(f"gpu{i}.cc", ""),
            "bus_id": values.get(f"gpu{i}.bus_id", f"00000000:{7 + 8 * i:02X}:00.0"),
            "power_cap": values.get(f"gpu{i}.power_cap_w", "300"),
        })
    cuda = int(values.get("cuda_version", "0"))
    return {
        "smi": values.get("smi", "ok"),
        "driver": values.get("driver_version", ""),
        "cuda": f"{cuda // 1000}.{cuda % 1000 // 10}",
        "gpus": gpus,
    }


def driver_major(profile: dict) -> int:
    try:
        return int(profile["driver"].split(".")[0])
    except ValueError:
        return 0


def table(profile: dict) -> str:
    drv, cuda = profile["driver"], profile["cuda"]
    if driver_major(profile) < 530:
        # The layout of the 4xx/5xx-before-530 drivers: 79 columns, names cut at 18 characters.
        out = [f"{TIMESTAMP}       ", "+" + "-" * 77 + "+",
               f"| NVIDIA-SMI {drv:<13}Driver Version: {drv:<13}CUDA Version: {cuda:<9}|",
               "|-------------------------------+----------------------+----------------------+",
               "| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |",
               "| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |",
               "|                               |                      |               MIG M. |",
               "|===============================+======================+======================|"]
        for gpu in profile["gpus"]:
            name = gpu["name"] if len(gpu["name"]) <= 18 else gpu["name"][:15] + "..."
            memory = f"0MiB / {gpu['memory_mib']}MiB"
            power = f"24W / {gpu['power_cap']}W"
            out += [f"| {gpu['index']:>3}  {name:<18}  On   | {gpu['bus_id']} Off |                    0 |",
                    f"| N/A   34C    P0  {power:>12} | {memory:>20} |      0%      Default |",
                    "|                               |                      |                  N/A |",
                    "+-------------------------------+----------------------+----------------------+"]
        out += ["                                                                               ",
                "+" + "-" * 77 + "+",
                "| Processes:" + " " * 66 + "|",
                "|  GPU   GI   CI        PID   Type   Process name                  GPU Memory |",
                "|        ID   ID                                                   Usage      |",
                "|" + "=" * 77 + "|",
                "|  No running processes found" + " " * 49 + "|",
                "+" + "-" * 77 + "+"]
        return "\n".join(out) + "\n"
    out = [f"{TIMESTAMP}       ", "+" + "-" * 87 + "+",
           f"| NVIDIA-SMI {drv:<23}Driver Version: {drv:<13}CUDA Version: {cuda:<9}|",
           "|-----------------------------------------+----------------------+----------------------+",
           "| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |",
           "| Fan  Temp   Perf          Pwr:Usage/Cap |         Memory-Usage | GPU-Util  Compute M. |",
           "|                                         |                      |               MIG M. |",
           "|=========================================+======================+======================|"]
    for gpu in profile["gpus"]:
        name = gpu["name"] if len(gpu["name"]) <= 29 else gpu["name"][:26] + "..."
        memory = f"4MiB / {gpu['memory_mib']}MiB"
        power = f"62W / {gpu['power_cap']}W"
        out += [f"| {gpu['index']:>3}  {name:<31}On  | {gpu['bus_id']} Off |                    0 |",
                f"| N/A   31C    P0 {power:>23} | {memory:>20} |      0%      Default |",
                "|                                         |                      |             Disabled |",
                "+-----------------------------------------+----------------------+----------------------+"]
    out += [" " * 89, "+" + "-" * 87 + "+",
            "| Processes:" + " " * 76 + "|",
            "|  GPU   GI   CI        PID   Type   Process name                            GPU Memory |",
            "|        ID   ID                                                             Usage      |",
            "|" + "=" * 87 + "|",
            "|  No running processes found" + " " * 59 + "|",
            "+" + "-" * 87 + "+"]
    return "\n".join(out) + "\n"


def listing(profile: dict) -> str:
    return "".join(f"GPU {g['index']}: {g['name']} (UUID: {g['uuid']})\n" for g in profile["gpus"])


FIELDS = {
    # field: (header, unit, value)
    "index": ("index", None, lambda p, g: str(g["index"])),
    "name": ("name", None, lambda p, g: g["name"]),
    "gpu_name": ("name", None, lambda p, g: g["name"]),
    "uuid": ("uuid", None, lambda p, g: g["uuid"]),
    "gpu_uuid": ("uuid", None, lambda p, g: g["uuid"]),
    "driver_version": ("driver_version", None, lambda p, g: p["driver"]),
    "count": ("count", None, lambda p, g: str(len(p["gpus"]))),
    "pci.bus_id": ("pci.bus_id", None, lambda p, g: g["bus_id"]),
    "memory.total": ("memory.total [MiB]", "MiB", lambda p, g: str(g["memory_mib"])),
    "memory.used": ("memory.used [MiB]", "MiB", lambda p, g: "4"),
    "memory.free": ("memory.free [MiB]", "MiB", lambda p, g: str(max(g["memory_mib"] - 4, 0))),
    "compute_cap": ("compute_cap", None, lambda p, g: g["cc"]),
}


def query(profile: dict, fields_arg: str, format_arg: str) -> tuple[str, int]:
    fields = [f.strip() for f in fields_arg.split(",") if f.strip()]
    known = dict(FIELDS)
    if driver_major(profile) < 510:
        del known["compute_cap"]  # added in the 510 driver
    for field in fields:
        if field not in known:
            return f'Field "{field}" is not a valid field to query.\n\n', 2
    options = format_arg.split(",")
    if "csv" not in options:
        return '"--format=" switch is missing. Please run \'nvidia-smi -h\' for help.\n', 2
    rows = []
    if "noheader" not in options:
        rows.append(", ".join(known[f][0] for f in fields))
    for gpu in profile["gpus"]:
        cells = []
        for field in fields:
            _header, unit, value = known[field]
            text = value(profile, gpu)
            cells.append(text if unit is None or "nounits" in options else f"{text} {unit}")
        rows.append(", ".join(cells))
    return "".join(row + "\n" for row in rows), 0


def xml(profile: dict) -> str:
    dtd = "nvsmi_device_v12.dtd" if driver_major(profile) >= 525 else "nvsmi_device_v11.dtd"
    out = ['<?xml version="1.0" ?>', f'<!DOCTYPE nvidia_smi_log SYSTEM "{dtd}">', "<nvidia_smi_log>",
           f"\t<timestamp>{TIMESTAMP}</timestamp>",
           f"\t<driver_version>{profile['driver']}</driver_version>",
           f"\t<cuda_version>{profile['cuda']}</cuda_version>",
           f"\t<attached_gpus>{len(profile['gpus'])}</attached_gpus>"]
    for gpu in profile["gpus"]:
        out += [f'\t<gpu id="{gpu["bus_id"]}">',
                f"\t\t<product_name>{gpu['name']}</product_name>",
                "\t\t<product_brand>NVIDIA</product_brand>",
                "\t\t<display_mode>Disabled</display_mode>",
                "\t\t<persistence_mode>Enabled</persistence_mode>",
                "\t\t<mig_mode>", "\t\t\t<current_mig>Disabled</current_mig>",
                "\t\t\t<pending_mig>Disabled</pending_mig>", "\t\t</mig_mode>",
                f"\t\t<uuid>{gpu['uuid']}</uuid>",
                f"\t\t<minor_number>{gpu['index']}</minor_number>",
                "\t\t<pci>", f"\t\t\t<pci_bus_id>{gpu['bus_id']}</pci_bus_id>", "\t\t</pci>",
                "\t\t<fb_memory_usage>",
                f"\t\t\t<total>{gpu['memory_mib']} MiB</total>"]
        if driver_major(profile) >= 525:
            out.append("\t\t\t<reserved>0 MiB</reserved>")
        out += ["\t\t\t<used>4 MiB</used>",
                f"\t\t\t<free>{max(gpu['memory_mib'] - 4, 0)} MiB</free>",
                "\t\t</fb_memory_usage>",
                "\t\t<compute_mode>Default</compute_mode>",
                "\t</gpu>"]
    out += ["", "</nvidia_smi_log>", ""]
    return "\n".join(out)


def main(argv: list[str]) -> int:
    profile = load_profile()
    if profile["smi"] == "hang":  # a wedged driver: the real tool blocks in the kernel and never answers
        while True:
            time.sleep(3600)
    if profile["smi"] == "driver_not_loaded":
        sys.stdout.write("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
                         "Make sure that the latest NVIDIA driver is installed and running.\n\n")
        return 9
    if profile["smi"] == "version_mismatch":
        sys.stdout.write("Failed to initialize NVML: Driver/library version mismatch\n")
        return 18
    if profile["smi"] == "gpu_lost":
        sys.stdout.write("Unable to determine the device handle for GPU 0000:07:00.0: Unknown Error\n")
        return 15
    if not argv:
        sys.stdout.write(table(profile))
        return 0
    if argv == ["-L"]:
        sys.stdout.write(listing(profile))
        return 0
    if sorted(argv) == ["-q", "-x"]:
        sys.stdout.write(xml(profile))
        return 0
    fields = next((a.split("=", 1)[1] for a in argv if a.startswith("--query-gpu=")), None)
    format_arg = next((a.split("=", 1)[1] for a in argv if a.startswith("--format=")), "")
    if fields is not None:
        text, status = query(profile, fields, format_arg)
        sys.stdout.write(text)
        return status
    sys.stdout.write("Invalid combination of input arguments. Please run 'nvidia-smi -h' for help.\n\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
