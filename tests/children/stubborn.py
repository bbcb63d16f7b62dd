"""Starts a grandchild, ignores SIGINT, writes both pids to a file, then waits forever."""
import os
import signal
import subprocess
import sys
import time

signal.signal(signal.SIGINT, signal.SIG_IGN)
grandchild = subprocess.Popen([sys.executable, "-c", "import signal, time; signal.signal(signal.SIGINT, signal.SIG_IGN); time.sleep(600)"])
with open(sys.argv[1], "w") as f:
    f.write(f"{os.getpid()} {grandchild.pid}")
print("downloading", flush=True)
while True:
    time.sleep(0.1)
