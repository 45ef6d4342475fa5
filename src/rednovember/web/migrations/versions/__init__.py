"""One module per schema revision, oldest first (``0001_…``)."""
