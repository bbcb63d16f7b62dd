"""`gc-wizard lock`, `gc-wizard bundle` and `gc-wizard module install`: the lab admin's commands.

Rendering only; the work is `wizard.flows.cluster`'s (lock and bundle) and `wizard.flows.after_install`'s
(the module file).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from wizard.commands import options
from wizard.commands.output import emit_json, say, warn
from wizard.errors import UserError
from wizard.flows.after_install import module_install
from wizard.flows.cluster import (
    BUNDLE_PLACEHOLDER,
    bundle_install_line,
    check_lock_out,
    compile_lock,
    default_lock_name,
    for_python,
    install_wizard_line,
    lock_install_lines,
    make_offline_bundle,
    python_for,
    recipe_to_pin,
)
from wizard.flows.options import given_sources
from wizard.paths import wizard_command
from wizard.security import expand_home, shell_word

#: What `lock` and `bundle` take without `--python` (`lockfile.default_python_version`), said once for both helps.
#: Walk 26 #13: bundle's help said "the wizard's own", and for a recipe that does not take it (JAX 0.12 needs 3.12+)
#: it rightly used 3.13.
PYTHON_DEFAULT_WORDS = "default: the wizard's own if the recipe takes it, else the newest the recipe takes"


def run_lock(args: argparse.Namespace) -> int:
    alternative = getattr(args, "alternative", None)
    recipe = recipe_to_pin(args.recipe, args.recipes_dir, alternative)
    python = python_for(recipe, args.python)
    out = Path(expand_home(args.out)) if args.out else Path.cwd() / default_lock_name(recipe.id)
    check_lock_out(out)  # a name that is no lock's, a FIFO nothing reads: refused before "Resolving …" (P10)
    if not args.json:
        say(f"Resolving recipe {recipe.id} for Python {python}" + (f" on {args.platform}" if args.platform else "")
            + " with hashes …")
    _, find_links = given_sources(None, getattr(args, "find_links", None))  # GC_WIZARD_FIND_LINKS too
    result = compile_lock(recipe, out, python_version=python, platform=args.platform,
                          find_links=find_links, offline=bool(args.offline), say=warn)
    if args.json:
        emit_json(result.to_dict())
        return 0
    say(f"Wrote {result.path} ({result.format}): {len(result.packages)} packages, each with its sha256.")
    # Quoted for the shell: the line is for pasting, and a folder may hold a space (tenth hostile pass L37).
    first, *rest = lock_install_lines(wizard_command(), recipe, str(result.path), alternative,
                                      given_sources(None, None)[0], find_links, offline=bool(args.offline))
    say(f"Install from it:  {first}")
    for line in rest:
        say(line)
    return 0


def run_bundle(args: argparse.Namespace) -> int:
    recipe = recipe_to_pin(args.recipe, args.recipes_dir)
    python = python_for(recipe, args.python)
    graphcast_src, find_links = given_sources(args.graphcast_src, getattr(args, "find_links", None))
    out = Path(expand_home(args.out)).absolute()
    if not args.with_assets and (args.assets or args.model or args.dataset):
        raise UserError("--assets, --model and --dataset choose the forecast's files: add --with-assets.")
    log = sys.stderr if args.json else sys.stdout

    def step(line: str) -> None:
        log.write(f"{line}\n")
        log.flush()

    made = make_offline_bundle(recipe, out, python=python, graphcast_src=graphcast_src, find_links=find_links,
                               installer=args.installer, with_wizard=not args.without_wizard, with_assets=args.with_assets,
                               assets=args.assets, model=args.model, dataset=args.dataset, say=step)
    manifest, wizard_wheels = made.manifest, made.wizard_wheels
    if args.json:
        emit_json({"ok": True, "bundle": str(out), **{k: manifest[k] for k in ("recipe", "python", "graphcast")},
                   "files": len(manifest["files"]), "mib": round(made.mib, 1), "seconds": manifest["seconds"],
                   "assets": made.assets, "wizard": wizard_wheels,
                   "install_wizard": install_wizard_line(str(out)) if wizard_wheels else None})
        return 0
    say(f"\nBundle ready: {out} ({len(manifest['files'])} files, {made.mib:.0f} MiB, GraphCast "
        f"{manifest['graphcast']['wheel']}).")
    say(f"Copy {out} to the offline machine; {BUNDLE_PLACEHOLDER} below is where you copy it to.")
    if wizard_wheels:  # walk 26 #2: gc-wizard itself, from the bundle, with no index
        say(f"gc-wizard there ({len(wizard_wheels)} wheels for {for_python()}):")
        say(f"    {install_wizard_line(BUNDLE_PLACEHOLDER)}")
    say(f"On the offline machine:  {bundle_install_line('gc-wizard', recipe, out, BUNDLE_PLACEHOLDER)}")
    if made.assets:
        say(f"then:                    gc-wizard forecast   (it takes the files from {BUNDLE_PLACEHOLDER}/assets)")
    say(f"Log: {made.installer_log}")
    return 0


def run_module(args: argparse.Namespace) -> int:
    if args.action != "install":
        raise UserError(f"unknown module action {args.action!r}; use: gc-wizard module install")
    result = module_install(args.env, args.dir)
    if args.json:
        emit_json(result)
        return 0
    say(f"{'Updated' if result['replaced'] else 'Wrote'} the Lmod module {result['module']}: {result['path']}")
    if not result.get("verified"):
        say("  note: this environment has not passed the GraphCast check yet (gc-wizard verify).")
    say(f"Use it:  {result['use']}")
    say(f"  (add `module use {shell_word(result['dir'])}` to ~/.bashrc to find it in every shell)")
    return 0


def configure(sub) -> list[argparse.ArgumentParser]:
    lock = options.add_command(sub, "lock", "write a recipe's full closure with sha256 hashes (pylock.toml or "
                               "requirements.txt)", "gc-wizard lock jax0.4.23-cpu --python 3.11 --out pylock.cpu.toml",
                               run_lock)
    lock.add_argument("recipe", metavar="RECIPE", help="a recipe id (see `gc-wizard recipes`)")
    lock.add_argument("--python", metavar="X.Y", help=f"the Python version to lock for ({PYTHON_DEFAULT_WORDS})")
    lock.add_argument("--platform", metavar="TAG", help="lock for another platform, as uv names it "
                      "(e.g. x86_64-manylinux_2_28, aarch64-manylinux_2_28)")
    options.alternative_option(lock)
    lock.add_argument("--out", metavar="FILE", help="pylock.NAME.toml (PEP 751) or FILE.txt (requirements with "
                      "hashes); default: pylock.RECIPE.toml in this folder")
    lock.add_argument("--find-links", action="append", default=[], metavar="DIR",
                      help="a folder of wheels to resolve from as well (repeatable)")
    lock.add_argument("--offline", action="store_true", help="resolve from local wheels and uv's cache only")
    options.json_option(lock)

    bundle = options.add_command(sub, "bundle", "gather every wheel of a recipe, GraphCast built as a wheel and a "
                                 "hashed manifest, for servers without internet",
                                 "gc-wizard bundle jax0.4.23-cpu --out ~/gc-bundle --graphcast-src ~/graphcast",
                                 run_bundle)
    bundle.add_argument("recipe", metavar="RECIPE", help="a recipe id (see `gc-wizard recipes`)")
    bundle.add_argument("--out", metavar="DIR", required=True, help="a new or empty folder for the bundle")
    bundle.add_argument("--python", metavar="X.Y", help=f"the target's Python version ({PYTHON_DEFAULT_WORDS})")
    options.installer_choice_option(bundle, "whose certificate settings the download trusts: pip downloads the "
                                    "wheels, and uv, which resolves the lock, is given pip's CA with pip")
    bundle.add_argument("--without-wizard", action="store_true", help="leave out gc-wizard's own wheels (by default "
                        "the bundle carries them in DIR/wizard, so the offline machine can install gc-wizard too)")
    bundle.add_argument("--graphcast-src", metavar="SRC",
                        help="GraphCast from a local checkout, a wheel/sdist or a pip URL (default: the recipe's pin)")
    bundle.add_argument("--find-links", action="append", default=[], metavar="DIR",
                        help="a folder of wheels to take packages from as well (repeatable)")
    bundle.add_argument("--with-assets", action="store_true",
                        help="add the forecast's files (the model, an example batch that fits it, the statistics)")
    bundle.add_argument("--assets", metavar="DIR|URL", help="where those come from (default: the public bucket)")
    bundle.add_argument("--model", metavar="PARAMS", help="with --with-assets: the model (default: the small 1° one)")
    bundle.add_argument("--dataset", metavar="DATASET", help="with --with-assets: the example batch")
    options.json_option(bundle)

    module = options.add_command(sub, "module", "write an Lmod module file for the environment "
                                 "(module load graphcast/RECIPE)", "gc-wizard module install --dir ~/modulefiles",
                                 run_module)
    module.add_argument("action", choices=["install"], help="install: write the module file")
    options.env_option(module, "the environment (default: the current one)")
    module.add_argument("--dir", metavar="DIR", help="the module folder for `module use` (default: the state "
                        "folder's modules/)")
    options.json_option(module)
    return [lock, bundle, module]
