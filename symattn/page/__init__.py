"""The offline course lab: one self-contained interactive HTML page from a problem file."""
