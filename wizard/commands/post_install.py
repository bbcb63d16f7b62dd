"""Renders `gc-wizard activate`, `gc-wizard kernel install|remove|list` and `gc-wizard report` (logic in the core)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from wizard.commands import options
from wizard.commands.cluster_options import job_reporter, slurm_target
from wizard.commands.output import emit_json, say, warn, width, wrapped
from wizard.commands.streams import write_verbatim
from wizard.errors import UserError, for_terminal
from wizard.flows.after_install import (
    activate_script,
    kernel_install,
    kernel_list,
    kernel_remove,
    named_env,
    resolve_env,
    support_report,
    unsupported_shell_note,
)
from wizard.flows.machine import machine_facts
from wizard.outputs import check_output_file, write_output_file
from wizard.security import expand_home


def run_activate(args: argparse.Namespace) -> int:
    write_verbatim(activate_script(args.env, args.shell))  # shell code: not redacted (see streams)
    note = None if args.shell else unsupported_shell_note()
    if note:
        warn(note)
    if sys.stdout.isatty():
        warn('this is shell code for your shell to run; use it as:  eval "$(gc-wizard activate'
             + (f" --env {args.env}" if args.env else "") + ')"')
    return 0


def run_kernel(args: argparse.Namespace) -> int:
    if args.action == "remove":
        return _remove_kernel(args)
    if args.action == "list":
        return _list_kernels(args)
    env = resolve_env(args.env).path
    result = kernel_install(env, args.name)
    if args.json:
        emit_json(result)
        return 0
    say(f"{'Updated' if result['replaced'] else 'Registered'} the Jupyter kernel \"{result['display_name']}\".")
    say(f"  name:   {result['name']}")
    say(f"  spec:   {result['path']}")
    say(f"  python: {result['env']}/bin/python")
    for removal in result["removed"]:
        say(f"  kept out of the kernel's {removal['variable']}: {removal['folder']} ({removal['reason']})")
    for note in result.get("notes", []):
        say(f"  not in the kernel: {note}")
    for notebook in result.get("notebook_paths", []):
        say(f"  notebook: {notebook}")
    if result.get("frozen"):  # what kernel.json keeps as it is now, and how to refresh it (walk 25 #8)
        for line in wrapped(result["frozen"], width(), indent="  ", rest="    "):
            say(line)
    if result.get("jupyter_server", True):  # else a caution says where it can be picked (walk 23 #6)
        say("Pick it in Jupyter's kernel list (Kernel → Change kernel); restart Jupyter if it is not listed yet.")
    for caution in result.get("cautions", []):
        for line in wrapped(caution, width(), indent="  ! ", rest="    "):
            say(line)
    return 0


def _list_kernels(args: argparse.Namespace) -> int:
    """`kernel list`: the kernels gc-wizard wrote, each with the environment it runs (walk 25 #8)."""
    if args.env or args.name:
        raise UserError("`kernel list` lists every kernel gc-wizard wrote; it takes neither --env nor --name.")
    result = kernel_list()
    if args.json:
        emit_json(result)
        return 0
    if not result["kernels"]:
        say(f"No Jupyter kernel of gc-wizard's in {result['dir']}; `gc-wizard kernel install` registers one.")
        return 0
    say(f"gc-wizard's Jupyter kernels in {result['dir']}:")
    for kernel in result["kernels"]:
        say(f"  {kernel['name']}  ({kernel.get('recipe') or 'recipe unknown'})")
        say(f"    env:  {kernel['env']}{'' if kernel['env_exists'] else ' (gone: `gc-wizard kernel remove --name ' + kernel['name'] + '` takes the kernel away)'}")
        say(f"    spec: {kernel['path']}")
    return 0


def _remove_kernel(args: argparse.Namespace) -> int:
    """`kernel remove`: the kernel named --name, or every kernel the wizard wrote for the environment
    (--env DIR, which may be gone already, else the current one). Kernels it did not write stay."""
    env = None
    if args.env:
        env = str(named_env(args.env).path)  # its folder may be gone already
    elif not args.name:
        env = str(resolve_env(None).path)
    result = kernel_remove(env, args.name)
    if args.json:
        emit_json(result)
        return 0
    if not result["removed"]:
        say("No Jupyter kernel of gc-wizard's runs this environment; nothing was removed.")
        say(f"  env:     {env}")
        say(f"  kernels: {result['dir']}")
        return 0
    for kernel in result["removed"]:
        say(f"Removed the Jupyter kernel {kernel['name']}.")
        say(f"  spec:   {kernel['path']}")
        # "(untouched)" for a folder that is gone read as if it were still there (24th hostile pass (part B) P4)
        say(f"  env:    {kernel['env']} ({'untouched' if kernel['env'] and Path(kernel['env']).exists() else 'gone'})")
    say("Restart Jupyter if it still lists the kernel.")
    return 0


def run_report(args: argparse.Namespace) -> int:
    if args.out:
        target = Path(expand_home(args.out))
        # a FIFO nothing reads, a socket (P10), a file where a folder must be (25th pass (A) P3): before the work
        check_output_file(args.out, "the report to")
        if not target.parent.is_dir():  # a typo in the folder must not create folders (as root: anywhere)
            raise UserError(f"cannot write the report to {target}: the folder {target.parent} does not exist; "
                            "create it first or choose another --out.")
    target = slurm_target(args)
    facts = None
    if target is not None:
        facts = machine_facts(target, on_state=job_reporter(sys.stderr, "gc-wizard: "))  # a refused partition is the user's to fix
    text = support_report(facts)
    if not args.out:
        sys.stdout.write(text)
        sys.stdout.flush()
        return 0
    target = write_output_file(args.out, text, what="the report to")  # a full disk: exit 1, one sentence
    # Wrapped between words on a terminal, as an error line is (walk 38 #6: the terminal broke `GPU` / ` UUIDs`).
    say(for_terminal(f"Wrote the support report to {target} (host, user, home folder and GPU UUIDs redacted; read it "
                     "before sending).", sys.stdout))
    return 0


def configure(sub) -> list[argparse.ArgumentParser]:
    activate = options.add_command(sub, "activate", 'print shell code for: eval "$(gc-wizard activate)"',
                                   'eval "$(gc-wizard activate)"', run_activate)
    options.env_option(activate, "activate this environment instead of the current one")
    activate.add_argument("--shell", choices=["bash", "zsh", "sh"], default=None,
                          help="the shell that will run the code (default: from $SHELL)")
    kernel = options.add_command(sub, "kernel", "register the environment as a Jupyter kernel, or remove that "
                                 "kernel again", "gc-wizard kernel install   (later: gc-wizard kernel remove)", run_kernel)
    kernel.add_argument("action", choices=["install", "remove", "list"],
                        help="install: register or update the kernel; remove: delete the kernels gc-wizard wrote "
                             "for the environment (or the one named --name), never anyone else's; list: the "
                             "kernels gc-wizard wrote and the environment each runs")
    options.env_option(kernel, "this environment instead of the current one (for remove: it may be deleted already)")
    kernel.add_argument("--name", metavar="NAME", help="the kernel's name (default: from the recipe)")
    options.json_option(kernel)
    report = options.add_command(sub, "report", "a redacted Markdown support report to paste to an admin",
                                 "gc-wizard report --out report.md", run_report)
    report.add_argument("--out", metavar="FILE", help="write it here (mode 600) instead of printing it")
    options.slurm_options(report)
    return [activate, kernel, report]
