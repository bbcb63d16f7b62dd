"""Prints an error the way installers do and exits with the given code, or dies by the given signal."""
import os
import signal
import sys

print("Resolving dependencies", flush=True)
print("ERROR: No matching distribution found for jaxlib==0.4.23+cuda99", file=sys.stderr, flush=True)
how = sys.argv[1]
if how.startswith("SIG"):
    os.kill(os.getpid(), getattr(signal, how))
sys.exit(int(how))
