"""One module per screen; each screen returns its answer with `dismiss`."""
