"""Crashes as pip did on a --find-links name that is not UTF-8: a line of its own, then a real Python traceback
(through the standard library's `pathname2url`, pip's own last frames), chained to an earlier error."""

import sys
import urllib.request

print("Looking in links: /srv/wheels", flush=True)
print("ERROR: Exception:", flush=True)
try:
    {}["index"]
except KeyError:
    urllib.request.pathname2url("/srv/wheels/pkg_c-1.0-py3-none-any\udcff.whl")
sys.exit(2)
