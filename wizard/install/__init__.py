"""Stage 3: install — a recipe becomes a plan of argv steps, run live in a pty into a new environment."""
