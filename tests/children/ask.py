"""Asks a question without a newline and exits with a code that depends on the answer."""
import sys

question = sys.argv[1] if len(sys.argv) > 1 else "Proceed ([y]/n)? "
answer = input(question)
print(f"got {answer!r}")
sys.exit(3 if answer == "y" else 4)
