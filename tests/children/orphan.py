"""Starts a grandchild that ignores the pty's hang-up (it writes its pid to a file once it does) and
exits as soon as the file is there, leaving the grandchild running."""
import os
import subprocess
import sys
import time

code = ("import os, signal, sys, time; signal.signal(signal.SIGHUP, signal.SIG_IGN); "
        "open(sys.argv[1] + '.tmp', 'w').write(str(os.getpid())); os.rename(sys.argv[1] + '.tmp', sys.argv[1]); "
        "time.sleep(600)")
subprocess.Popen([sys.executable, "-c", code, sys.argv[1]])
while not os.path.exists(sys.argv[1]):
    time.sleep(0.01)
print("left one running", flush=True)
