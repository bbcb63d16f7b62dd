"""The probe child: NVML, then (when NVML gave no CUDA version) libcuda, printed as one line.

Run by `wizard.detect.gpu_probe` as `python -I -S .../gpu_child.py` under a timeout, with
`CUDA_VISIBLE_DEVICES` removed from its environment. Running the driver's libraries in a separate,
killable process keeps a wedged GPU from hanging the wizard, keeps `libcuda` out of the wizard's
own address space, and lets the loader see the `LD_LIBRARY_PATH` the user has *now*.

Why `-I -S`: the child needs the standard library, its two sibling modules and pynvml, so it skips
`site` (no .pth files, no site-packages) and the user's Python variables (a PYTHONPATH with a stray
module cannot break detection): its start-up is a bare interpreter's. Isolated mode leaves the script's
folder off `sys.path`, so it is put there by hand, and the parent passes pynvml's folder (`--path`).

The answer is one line of JSON (plain dicts, lists, strings, numbers, booleans and None), written by
`json_text` below: the `json` module would bring `re` into the child, a quarter of its whole run. It used to be a
Python literal read with `ast.literal_eval`, which put `ast` on the start-up path of every `detect` (issue 23);
the parent has `json` already.
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
    sys.stdout.write(json_text(result) + "\n")
    return 0


def json_text(value) -> str:
    """`value` as JSON: dicts (keys as strings), lists and tuples, strings, whole numbers, finite floats, booleans,
    None; anything else as its `str`. Every character outside printable ASCII is escaped, so the line is ASCII
    whatever the child's locale."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if value == value and abs(value) != float("inf") else "null"
    if isinstance(value, dict):
        return "{" + ",".join(json_text(str(k)) + ":" + json_text(v) for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(json_text(v) for v in value) + "]"
    if not isinstance(value, str):
        return json_text(str(value))
    return '"' + "".join(_json_char(c) for c in value) + '"'


def _json_char(char: str) -> str:
    if " " <= char < "\x7f" and char not in '"\\':
        return char
    code = ord(char)
    if code > 0xFFFF:  # outside the basic plane: JSON spells it as a surrogate pair
        code -= 0x10000
        return "\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF))
    return "\\u%04x" % code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
