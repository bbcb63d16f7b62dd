"""Asks `Proceed ([y]/n)? ` until it hears 'yes' (a rule answering 'y' would loop forever)."""
while input("Proceed ([y]/n)? ") != "yes":
    print("please type yes")
print("thanks")
