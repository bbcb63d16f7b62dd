"""Stage 2: recipes — load the YAML stacks, find Pythons for them, and match them to the machine's facts."""
