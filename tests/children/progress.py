"""Prints a \r progress bar in colour, then a normal line."""
import sys
import time

for pct in (10, 50, 100):
    sys.stdout.write(f"\r\x1b[32mDownloading {pct}%\x1b[0m")
    sys.stdout.flush()
    time.sleep(0.05)
print()
print("\x1b[1mdone\x1b[0m")
