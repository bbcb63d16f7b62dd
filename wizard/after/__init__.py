"""After the install: activation for shells, Jupyter kernels, support reports and replayable answers."""
