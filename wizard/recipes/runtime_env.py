"""Decides which environment variables a recipe (or an env marker) may set when an environment runs.

Why an allowlist: `runtime_env` ends up in `eval "$(gc-wizard activate)"`, in Jupyter kernelspecs and
in the GraphCast check's process. A variable such as `PROMPT_COMMAND`, `BASH_ENV`, `ENV`,
`GIT_SSH_COMMAND`, `LD_PRELOAD` or `PYTHONSTARTUP` makes a shell, git, the loader or Python *run*
something — so a recipe that set one would run code on every prompt of the user who activated it.
A recipe only ever needs to tune the libraries GraphCast runs on, so only their families are
accepted (the list is in docs/interface.md, "Recipe runtime variables"):

- `JAX_*`      JAX's own configuration flags (`JAX_PLATFORMS`, `JAX_ENABLE_X64`, ...)
- `XLA_*`      XLA's client and compiler (`XLA_PYTHON_CLIENT_PREALLOCATE`, `XLA_PYTHON_CLIENT_MEM_FRACTION`,
               `XLA_FLAGS`, ...)
- `TF_CPP_*`   the TensorFlow/XLA C++ logging levels (`TF_CPP_MIN_LOG_LEVEL`, `TF_CPP_MAX_VLOG_LEVEL`,
               `TF_CPP_VMODULE`)
- `CUDA_*`     the CUDA runtime's device selection and caching (`CUDA_VISIBLE_DEVICES`,
               `CUDA_DEVICE_ORDER`, `CUDA_MODULE_LOADING`, `CUDA_CACHE_*`)
- `NCCL_*`     NCCL's communication settings (`NCCL_DEBUG`, `NCCL_P2P_DISABLE`, ...)
- `NVIDIA_TF32_OVERRIDE` (one name)

and within them no name ending in `_COMMAND` (the convention for "a command to run"), and no name that
tells a library what to *load*: the families hold such variables too — `CUDA_INJECTION64_PATH` (the
CUDA driver loads that library into every process that starts CUDA), `NCCL_NET_PLUGIN`,
`NCCL_TUNER_PLUGIN`, `NCCL_PROFILER_PLUGIN` (NCCL dlopens them), `NCCL_CONF_FILE` (which can set those),
`CUDA_HOME` (where ptxas is run from). They are the same hole as `LD_PRELOAD`, so any name with
INJECTION, PLUGIN, PRELOAD or LIBRARY in it is refused, and so is any name for a location (`…_PATH`,
`…_HOME`, `…_ROOT`, `…_DIR`, `…_FILE`, `…_LIB`, `…_BIN`), data locations included: a debug or dump
file is still written, and NCCL truncates its NCCL_DEBUG_FILE. `XLA_FLAGS` is read as what it is, a
list of `--xla_…` flags (so its leading `--` is expected), and a flag that names where XLA finds
programs or code, or reads or writes files (`--xla_gpu_cuda_data_dir`, `--xla_gpu_ptx_file`,
`--xla_dump_to`, any value with a `/`), or hands options to another program (`--xla_gpu_asm_extra_flags`
reaches ptxas; `--xla_backend_extra_options` reaches LLVM, whose `-info-output-file=F` appends to a file: any
flag named `…extra…`, `…_options`, `…_opts`, `…_args`, `…_flags`, and any value that itself holds an option —
a `=` or a word starting with `-`), is refused for the same reason. A location word counts anywhere in a name
(`TF_CPP_VLOG_FILENAME`, `CUDA_MPS_PIPE_DIRECTORY`, `JAX_DUMP_IR_TO`), not only at its end. Values must be
one line of printable text (Python's `str.isprintable`: no control character, line or paragraph
separator, byte-order mark or other format character) without shell syntax (`$`, backquote, `;`, `|`, `&`, `<`, `>`, `(`, `)`,
backslash), at most 1024 characters: the activation script quotes them anyway, but a value that needs
any of these is not a library setting.
"""

from __future__ import annotations

import re

from wizard.security import redact_secrets, show_characters, unshowable_characters

ALLOWED_PREFIXES = ("JAX_", "XLA_", "TF_CPP_", "CUDA_", "NCCL_")
ALLOWED_NAMES = ("NVIDIA_TF32_OVERRIDE",)
MAX_VALUE = 1024
#: Within the families: a variable that names a library, a plugin, or a location code is loaded from.
#: A location is any word of the name, not only its last one (`TF_CPP_VLOG_FILENAME`, `CUDA_MPS_PIPE_DIRECTORY`,
#: `JAX_DUMP_IR_TO`: the fifth fault pass found these passing a rule that only read the name's ending).
#: A dump (`CUDA_ENABLE_COREDUMP_ON_EXCEPTION`, `CUDA_ENABLE_USER_TRIGGERED_COREDUMP`) writes a file too, wherever
#: the library defaults to (the fifth hostile pass found the COREDUMP switches passing).
#: The recipe rule and the user-shell rule are one (`loaded_from`): this pattern is its name part, the library words
#: (`_LOADS_LIBRARY`) anywhere in a name and the location words (`_LOCATION`) within the library families.
_LOADS_LIBRARY = re.compile(r"INJECTION|PLUGIN|PRELOAD|LIBRAR(?:Y|IES)")
_LOCATION = re.compile(r"DUMP|(?:^|_)(?:PATHS?|HOME|ROOT|DIRS?|DIRECTORY|DIRECTORIES|FILES?|FILENAMES?|LIBS?|BIN"
                       r"|TO|FROM|PIPE)(?:_|$)")
_LOADS_CODE = re.compile(f"{_LOADS_LIBRARY.pattern}|{_LOCATION.pattern}")
#: Locations a recipe may choose: none. A "data" location is still a file the library writes: NCCL truncates
#: its NCCL_DEBUG_FILE (the fourth fault pass pointed one at a ~/.bashrc), XLA writes where --xla_dump_to
#: says. Where files go is the user's choice, never a recipe's.
DATA_LOCATIONS: frozenset[str] = frozenset()
#: One XLA flag: `--xla_name` or `--xla_name=value`.
_XLA_FLAG = re.compile(r"--(?P<name>xla_[a-z0-9_]+)(?:=(?P<value>\S*))?")
#: XLA flags that say where XLA finds programs (ptxas, nvlink) or code (PTX, LLVM IR, plugins) to run, or
#: where it reads or writes files (dumps, autotune results, caches).
#: A cache is such a place by its location (`…_cache_dir`), not by its mode (`…_autotune_cache_mode=update` only says
#: whether results are read or written; eighth hostile pass C1b refused it as a place).
_XLA_LOADS_CODE = re.compile(r"cuda_data_dir|_file$|_files$|_filename$|plugin|librar|ptxas_path|_path$|_dir$"
                             r"|_to$|_from$|cache_(?:dir|path|file|location)|output|extra|_options?$|_opts$"
                             r"|_args$|_flags$")
#: A flag value that is itself an option for someone else: `k=v` pairs or a `-word` (LLVM's `-info-output-file`).
_HANDS_ON = re.compile(r"=|(?:^|[,;:\s])-(?![0-9])")
_NAME_RE = re.compile(r"^[A-Z][A-Z0-9_]*$")
_BAD_VALUE = set("$`;|&<>()\\")


def name_problem(name: str) -> str | None:
    """Why `name` may not be set by a recipe, or None when it may."""
    if not isinstance(name, str) or not _NAME_RE.match(name):
        return (f"'{_show(name)}' is not an upper-case variable name; runtime_env takes only JAX_*, XLA_*, "
                "TF_CPP_*, CUDA_*, NCCL_* variables")
    if name.endswith("_COMMAND"):
        return f"{name} names a command to run, and a recipe may not run anything"
    if name in ALLOWED_NAMES or name.startswith(ALLOWED_PREFIXES):
        if loaded_from(name) is not None and name not in DATA_LOCATIONS:
            return (f"{name} tells a library what to load, or where to load from, read or write files (like "
                    "LD_PRELOAD or NCCL_DEBUG_FILE), and nothing from a recipe may choose code to run or a file")
        return None
    return (f"{name} is not a JAX/XLA/CUDA/NCCL/TF logging variable; runtime_env takes only JAX_*, XLA_*, "
            "TF_CPP_*, CUDA_*, NCCL_* (and NVIDIA_TF32_OVERRIDE), because other variables can make a shell, "
            "git, the loader or Python run code")


#: Library settings whose names hold a credential's word but whose values are none: InfiniBand's partition key.
NAMED_LIKE_SECRETS = frozenset({"NCCL_IB_PKEY"})


def value_problem(name: str, value: object) -> str | None:
    """Why `value` may not be the value of `name`, or None when it may."""
    if not isinstance(value, str):
        return f"the value of {name} must be text"
    if len(value) > MAX_VALUE:
        return f"the value of {name} is longer than {MAX_VALUE} characters"
    bad = sorted({c for c in value if c in _BAD_VALUE or not c.isprintable()} | set(unshowable_characters(value)))
    if bad:
        shown = " ".join(repr(c) if c in _BAD_VALUE else show_characters([c]) for c in bad)
        return f"the value of {name} holds characters a library setting never needs ({shown})"
    named_secret = name not in NAMED_LIKE_SECRETS and redact_secrets(f"{name}={value}") != f"{name}={value}"
    if redact_secrets(value) != value or named_secret:
        # A value an output masks would be exported exact into shells, kernels and the env's marker (fifteenth
        # hostile pass R6), and so would one under a name that says it is a credential (`JAX_PASSWORD_X`, masked by
        # `plan --json`; sixteenth pass P2): a library setting is never a credential, so the recipe is refused.
        return (f"the value of {name} looks like a credential (a token or password, or a value under a name that "
                "says it is one), which a recipe never carries; set it in your own shell instead")
    if name == "XLA_FLAGS":
        return xla_flags_problem(value)
    return None


def xla_flags_problem(value: str) -> str | None:
    """Why an XLA_FLAGS value is refused: a word that is not an `--xla_…` flag, or a flag that names
    where XLA finds programs or code to run; None when every word is a plain flag."""
    for word in value.split():
        match = _XLA_FLAG.fullmatch(word)
        if match is None:
            return (f"XLA_FLAGS holds '{_show(word)}', which is not an XLA flag (XLA_FLAGS is a list of "
                    "--xla_name=value words)")
        flag_value = match.group("value") or ""
        if _XLA_LOADS_CODE.search(match.group("name")) or "/" in flag_value or _HANDS_ON.search(flag_value):
            return (f"the XLA flag --{match.group('name')} names a place XLA runs programs or code from, or "
                    "reads or writes files in, or options it hands another program, and nothing from a recipe may "
                    "choose that")
    return None


#: XLA flags whose value is a place XLA reads or writes (a dump folder, the CUDA data folder, autotune results, a
#: cache), and TensorFlow's XLA bridge's (`--tf_dump_graph_prefix`): the recipe rule refuses them all
#: (`xla_flags_problem`); the user's own are held to the swap rule.
_XLA_PLACE = re.compile(r"cuda_data_dir|_file$|_files$|_filename$|_path$|_dir$|_to$|_from$|_prefix$"
                        r"|cache_(?:dir|path|file|location)")
#: One word of a flag variable as XLA's flag parser may take it: any flag name, one dash or two.
_ANY_FLAG = re.compile(r"--?(?P<name>[A-Za-z0-9_]+)(?:=(?P<value>\S*))?")
#: The variables XLA's `parse_flags_from_env` reads (XLA itself; TensorFlow's XLA bridge and its JIT runtime, which
#: a process holding TensorFlow beside JAX also reads): a list of flags, or — when the value's first character that
#: is not blank is not a `-` — the name of a FILE the flags are read from.
FLAG_VARIABLES = ("XLA_FLAGS", "TF_XLA_FLAGS", "TF_JITRT_FLAGS")
#: The variables (beside `FLAG_VARIABLES`' flags) whose value is a PLACE that JAX, XLA, the CUDA driver, NCCL,
#: TensorFlow's logging, Triton or libtpu read or write, each with what is done there — the one table that the
#: activation (`activation._loaded_variables_part`: activate, kernel, verify's and forecast's probe) holds to the swap
#: rule when the value comes from the user's shell. A recipe may set none of them (`_LOADS_CODE` refuses each name).
#:
#: Why: 34th hostile pass (part A) P5 — `JAX_DUMP_IR_TO=<another user's folder>` reached verify's probe, which wrote
#: its IR there as root, through that user's links (a root file was overwritten), after 32B P3 and 33B P1 had held
#: only XLA_FLAGS' flags to the rule. Add a name here and every consumer holds it.
PLACE_VARIABLES: dict[str, str] = {
    "JAX_DUMP_IR_TO": "JAX writes the IR of every function it compiles there",
    "JAX_COMPILATION_CACHE_DIR": "JAX loads compiled programs from this cache and writes them into it",
    "JAX_PERSISTENT_CACHE_DIR": "JAX loads compiled programs from this cache and writes them into it",
    "CUDA_CACHE_PATH": "the CUDA driver loads compiled kernels from this cache and writes them into it",
    "CUDA_MPS_PIPE_DIRECTORY": "the CUDA driver talks to whichever MPS server owns the pipes there",
    "CUDA_MPS_LOG_DIRECTORY": "CUDA's MPS writes its logs there",
    "CUDA_INJECTION64_PATH": "the CUDA driver loads this library into the process",
    "NCCL_DEBUG_FILE": "NCCL truncates this file and writes its debug log into it",
    "NCCL_TOPO_DUMP_FILE": "NCCL writes the topology it found into this file",
    "NCCL_TOPO_FILE": "NCCL reads the machine's topology from this file",
    "NCCL_GRAPH_DUMP_FILE": "NCCL writes its communication graph into this file",
    "NCCL_GRAPH_FILE": "NCCL reads its communication graph from this file",
    "NCCL_CONF_FILE": "NCCL reads settings from this file (which may name a plugin it loads)",
    "TF_CPP_VLOG_FILENAME": "the XLA/TensorFlow C++ log is written into this file",
    "TRITON_CACHE_DIR": "Triton loads compiled kernels from this cache and writes them into it",
    "TRITON_DUMP_DIR": "Triton writes its intermediate code there",
    "TRITON_OVERRIDE_DIR": "Triton loads kernels from there in place of the ones it compiles",
    "TPU_DUMP_DIR": "libtpu writes its dumps there",
    "TPU_LOG_DIR": "libtpu writes its logs there",
}
#: The variables whose value names a LIBRARY (or a program) that JAX, XLA, the CUDA driver or NCCL loads into the
#: process (or runs) on its own — the same hole as LD_PRELOAD — each with what is done with it. A recipe may set none
#: of them (`name_problem`); from the user's shell each is held to the swap rule (`activation._loaded_variables_part`).
#: Read from jax's `xla_bridge` (`TPU_LIBRARY_PATH`, `PJRT_NAMES_AND_LIBRARY_PATHS`: `name:path,…`, a path may be a
#: `.json` naming the library) and its Mosaic GPU (`MOSAIC_GPU_…_PATH`, jax 0.10), NCCL's plugin loader (`NCCL_NET_PLUGIN` … : a path, or a name looked up along the
#: library path), CUDA's injection (`CUDA_INJECTION64_PATH`) and LLVM's crash handler inside XLA
#: (`LLVM_SYMBOLIZER_PATH`, a program it runs).
#:
#: Why: 36th hostile pass (part B) P1 — `TPU_LIBRARY_PATH` and `PJRT_NAMES_AND_LIBRARY_PATHS` naming another user's
#: library reached verify's probe, and jax loaded it as root; `activate` kept them and `NCCL_NET_PLUGIN` without a
#: word, while the recipe rule refused all of them by pattern: the user-shell side read only a fixed table. Both
#: sides now ask `loaded_from`, the table here and the families by pattern, so a new name of the same kind is caught.
LIBRARY_VARIABLES: dict[str, str] = {
    "TPU_LIBRARY_PATH": "JAX loads this library (libtpu) into the process as its TPU backend",
    "PJRT_NAMES_AND_LIBRARY_PATHS": "JAX loads each library named there (or the one a .json file there names) into "
                                    "the process as a PJRT plugin",
    "NCCL_NET_PLUGIN": "NCCL loads this network plugin library into the process",
    "NCCL_TUNER_PLUGIN": "NCCL loads this tuner plugin library into the process",
    "NCCL_PROFILER_PLUGIN": "NCCL loads this profiler plugin library into the process",
    "NCCL_ENV_PLUGIN": "NCCL loads this plugin library, which sets its other variables, into the process",
    "LLVM_SYMBOLIZER_PATH": "LLVM (inside XLA) runs this program when the process crashes",
    "MOSAIC_GPU_NVSHMEM_SO_PATH": "JAX's Mosaic GPU loads this library (NVSHMEM) into the process",
    "MOSAIC_GPU_RUNTIME_LIB_PATH": "JAX's Mosaic GPU kernels load this runtime library into the process",
    "MOSAIC_GPU_NVSHMEM_BC_PATH": "JAX's Mosaic GPU links this bitcode into the kernels it compiles",
}
#: The families of JAX, XLA, the CUDA driver, NCCL, TensorFlow's XLA bridge, Triton and libtpu: within them a name with
#: a location word (`_LOCATION`: `…_DIR`, `…_FILE`, `…_PATH`, `…_TO` …) is a place the library reads or writes. The
#: recipe allowlist's families (`ALLOWED_PREFIXES`) are among them.
PLACE_FAMILIES = (*ALLOWED_PREFIXES, "TF_XLA_", "TF_JITRT_", "TPU_", "LIBTPU_", "PJRT_", "TRITON_", "LLVM_",
                  "MOSAIC_GPU_")
#: The variables with a rule of their own in the activation (the loader's and Python's search paths, XLA's flags):
#: `loaded_from` names them too, and their own rule holds them.
OWN_RULE_VARIABLES = frozenset({"PATH", "LD_LIBRARY_PATH", "LD_PRELOAD", "LD_AUDIT", "PYTHONPATH", *FLAG_VARIABLES})
#: A piece of a value naming a shared library (`libx.so`, `libx.so.1`).
_SHARED_OBJECT = re.compile(r"\.so(?:\.[0-9]+)*$")
#: Where a library variable's value is split into the libraries it names: `PJRT_NAMES_AND_LIBRARY_PATHS`' `name:path,…`,
#: a `:` or `;` list, blanks (ld.so's LD_PRELOAD way).
_LIBRARY_PIECES = re.compile(r"[,:;\s]+")


def library_pieces(value: str) -> list[str]:
    """The pieces of a library variable's value that may each name a library: split at `,`, `:`, `;` and blanks."""
    return [piece for piece in _LIBRARY_PIECES.split(value) if piece]


def loaded_from(name: str, value: str | None = None) -> tuple[str, str] | None:
    """(kind, what is done with it) when `name` names a library, a plugin or a place that a library loads code from,
    reads or writes — kind "place" (the whole value is one file or folder: `PLACE_VARIABLES`, and a name within
    `PLACE_FAMILIES` that ends in a location word) or "paths" (each piece of the value with a `/` is a library, a
    program or a place: the `LIBRARY_VARIABLES` table, a library word anywhere in the name — INJECTION, PLUGIN,
    PRELOAD, LIBRARY —, any `PJRT_` name, a location word inside a family's name — `CUDA_ENABLE_COREDUMP_ON_EXCEPTION`
    is a switch whose value is no path —, and a `…_PATH(S)` whose value names a `.so`) — or None. `value`: the user's
    value, when known.

    The ONE rule both sides ask: a recipe may set no name it classifies (`name_problem`), and the activation holds
    every variable of the user's shell it classifies to the swap rule (`activation._loaded_variables_part`: activate,
    the kernel, the module file, verify's and the forecast's probe)."""
    if not isinstance(name, str):
        return None
    if name in PLACE_VARIABLES:
        return "place", PLACE_VARIABLES[name]
    if name in LIBRARY_VARIABLES:
        return "paths", LIBRARY_VARIABLES[name]
    if _LOADS_LIBRARY.search(name) or name.startswith("PJRT_"):
        return "paths", f"{name} names a library or plugin that is loaded into the process"
    if name.startswith(PLACE_FAMILIES) and _LOCATION.search(name):
        kind = "place" if _ENDS_IN_PLACE.search(name) else "paths"
        return kind, f"{name} names a place JAX, XLA, CUDA, NCCL, Triton or libtpu loads from, reads or writes files in"
    if value and re.search(r"_PATHS?$", name) and any(_SHARED_OBJECT.search(p) for p in library_pieces(value)):
        return "paths", f"{name} names a shared library (.so), which is loaded into the process"
    return None


#: A name whose last word says its whole value is one file or folder.
_ENDS_IN_PLACE = re.compile(r"_(?:PATH|HOME|ROOT|DIR|DIRECTORY|FILE|FILENAME|TO|FROM)$")


#: The blanks `parse_flags_from_env` skips before it decides whether a value is flags or a file name.
_FLAG_BLANKS = " \t\r\n"


def flag_file(value: str) -> str | None:
    """The file XLA reads a flag variable's flags from (`FLAG_VARIABLES`), or None when the value is the flags.

    Why: 33rd hostile pass (part B) P1 — `XLA_FLAGS=<another user's file>` holding `--xla_dump_to=<their folder>`
    passed 32B P3's rule, which looked only at `--xla_…` words, and verify's probe dumped there as root, through
    their links. XLA opens the whole value as a file name when it does not start with `-` (after blanks)."""
    rest = value.lstrip(_FLAG_BLANKS)
    if not rest or rest.startswith("-"):
        return None
    return value


def xla_flag_places(value: str) -> list[tuple[str, list[str]]]:
    """The words of a flag variable's value (`FLAG_VARIABLES`: XLA_FLAGS, TF_XLA_FLAGS …) that name a place, each
    with its places (a `,` list split): a flag whose name says it is a place (`--xla_dump_to=DIR`), or any value
    with a `/`. A value XLA reads as a flag FILE (`flag_file`) is one place, the whole value: that file.

    Why: 32nd hostile pass (part B) P3 — the user's `XLA_FLAGS=--xla_dump_to=<another user's folder>` reached
    verify's probe, which wrote its dumps there as root, through that user's links; activation judges these places
    as it judges LD_PRELOAD's libraries. The file form was passed over (33rd hostile pass (part B) P1)."""
    file = flag_file(value)
    if file is not None:
        return [(value, [file])]
    found: list[tuple[str, list[str]]] = []
    for word in value.split():
        match = _ANY_FLAG.fullmatch(word)
        flag_value = (match.group("value") or "") if match else ""
        if not flag_value or not (_XLA_PLACE.search(match.group("name")) or "/" in flag_value):
            continue
        places = [part for part in flag_value.split(",") if part]
        if places:
            found.append((word, places))
    return found


def problem(name: str, value: object) -> str | None:
    return name_problem(name) or value_problem(name, value)


def allowed(runtime_env: object) -> tuple[dict[str, str], list[str]]:
    """(the variables that may be set, one sentence per one that was left out) — for env markers,
    which are files in the environment anyone with write access to it could have edited."""
    if not isinstance(runtime_env, dict):
        return {}, ["runtime_env is not a mapping; none of it is used"] if runtime_env else []
    kept: dict[str, str] = {}
    dropped: list[str] = []
    for name, value in runtime_env.items():
        why = problem(name, value)
        if why:
            dropped.append(f"left out the runtime variable {_show(name)}: {why}")
        else:
            kept[name] = value
    return kept, dropped


def _show(text: object) -> str:
    """Printable for a message: control characters (escape sequences) shown as \\x.. codes."""
    return "".join(c if " " <= c < "\x7f" or c > "\x9f" else f"\\x{ord(c):02x}" for c in str(text))
