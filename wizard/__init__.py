"""gc-wizard: get GraphCast running on a shared GPU server.

Kept import-free on purpose: `gc-wizard --version` and every CLI command must not pay for
Textual, Rich or pexpect unless they use them.
"""

__version__ = "0.1.0"
