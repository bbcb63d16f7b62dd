"""A prompt that ends in neither '?' nor ':' (only the kernel can tell the child is waiting)."""
import sys

print("1) cpu  2) cuda12  3) cuda11")
choice = input("Choose a backend > ")
print(f"chose {choice!r}")
sys.exit(0 if choice == "2" else 6)
