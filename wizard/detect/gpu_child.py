"""The probe child: NVML, then (when NVML gave no CUDA version) libcuda, printed as one JSON line.

Run by `wizard.detect` as `python -E -s -S .../gpu_child.py [--path PYNVML_DIR]` under a timeout, with
`CUDA_VISIBLE_DEVICES` removed from its environment. Running the driver's libraries in a separate,
killable process keeps a wedged GPU from hanging the wizard, keeps `libcuda` out of the wizard's
own address space, and lets the loader see the `LD_LIBRARY_PATH` the user has *now*. Its sibling
modules are imported as plain modules (this folder is `sys.path[0]`), so they use only the stdlib.
"""

import json
import sys


def main(argv: list) -> int:
    if argv[:1] == ["--path"]:  # where pynvml is: the child runs without `site` (-S), for a faster start
        sys.path.append(argv[1])
        argv = argv[2:]
    import libcuda
    import nvml

    wanted = set(argv) or {"nvml", "libcuda"}
    result = {}
    if "nvml" in wanted:
        result["nvml"] = nvml.query()
    if "libcuda" in wanted and not result.get("nvml", {}).get("cuda_version"):
        result["libcuda"] = libcuda.query()
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
