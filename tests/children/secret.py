"""Asks for a password with getpass (it reads /dev/tty) and prints only the answer's length."""
import getpass

password = getpass.getpass("Password: ")
print(f"got a password of {len(password)} characters")
