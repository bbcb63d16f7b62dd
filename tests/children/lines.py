"""Prints N numbered lines as fast as it can."""
import sys

n = int(sys.argv[1])
out = sys.stdout
for i in range(n):
    out.write(f"line {i} " + "x" * 60 + "\n")
out.flush()
