"""Checking: invariants proved on the exact trace and the mpmath cross-check -> Report."""
