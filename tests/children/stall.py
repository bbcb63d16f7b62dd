"""Prints a line ending in ':' and then works silently (reads nothing) before finishing: not a question."""
import sys
import time

sys.stdout.write("Building wheel for graphcast (pyproject.toml): ")
sys.stdout.flush()
time.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
print("done")
