"""Prints a few slow lines, then a burst of N lines at once, then asks `Proceed ([y]/n)? `."""
import sys
import time

n = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
for i in range(3):
    print(f"resolving {i}", flush=True)
    time.sleep(0.05)
sys.stdout.write("".join(f"burst {i} {'y' * 40}\n" for i in range(n)))
sys.stdout.flush()
answer = input("Proceed ([y]/n)? ")
print(f"got {answer!r} after {n} lines")
sys.exit(0 if answer == "y" else 4)
