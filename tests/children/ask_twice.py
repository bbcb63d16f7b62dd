"""Asks the same question twice; prints both answers (one answer per occurrence, none doubled)."""
import sys

first = input("Proceed ([y]/n)? ")
second = input("Proceed ([y]/n)? ")
print(f"got {first!r} {second!r}")
sys.exit(0 if (first, second) == ("y", "y") else 5)
