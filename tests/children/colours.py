"""Writes colours, a window title and a cursor move with each escape cut in two between flushed writes."""
import sys
import time

for piece in ("\x1b[3", "1mred\x1b[0m and \x1b]0;ti", "tle\x07plain\x1b", "[?25l shown\x1b(", "B\n",
              "50%\r\x1b[2K", "100%\x1b[0", "m\n"):
    sys.stdout.write(piece)
    sys.stdout.flush()
    time.sleep(0.05)
