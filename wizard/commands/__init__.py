"""The CLI face's subcommand handlers: each turns core results into text or `--json`.

No domain logic here: handlers call the core (`wizard.detect`, `wizard.recipes.loader.loader`, …) and render.
"""
