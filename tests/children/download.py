"""A slow "download": a \r progress bar that never finishes on its own (Ctrl-C stops it like pip)."""
import sys
import time

print("Collecting bigpackage", flush=True)
pct = 0
while True:
    sys.stdout.write(f"\r\x1b[2K  Downloading bigpackage-1.0.whl  {pct % 100:3d}%")
    sys.stdout.flush()
    pct += 1
    time.sleep(0.05)
