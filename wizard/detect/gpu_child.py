"""The probe child: NVML, then (when NVML gave no CUDA version) libcuda, printed as one line.

Run by `wizard.detect.gpu_probe` as `python -I -S .../gpu_child.py` under a timeout, with
`CUDA_VISIBLE_DEVICES` removed from its environment. Running the driver's libraries in a separate,
killable process keeps a wedged GPU from hanging the wizard, keeps `libcuda` out of the wizard's
own address space, and lets the loader see the `LD_LIBRARY_PATH` the user has *now*.

Why `-I -S`: the child needs the standard library, its two sibling modules and pynvml, so it skips
`site` (no .pth files, no site-packages) and the user's Python variables (a PYTHONPATH with a stray
module cannot break detection): its start-up is a bare interpreter's. Isolated mode leaves the script's
folder off `sys.path`, so it is put there by hand, and the parent passes pynvml's folder (`--path`).

The answer is one Python literal (`repr` of plain dicts, lists, strings, numbers and None), which the
parent reads with `ast.literal_eval`: `json` would bring `re` into the child, a quarter of its whole run.
"""

import os
import sys


def main(argv: list) -> int:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    if argv[:1] == ["--path"]:  # where pynvml is: -I -S leave site-packages off sys.path
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
    sys.stdout.write(repr(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
