"""Benchmark harness comparing symattn with naive SymPy and mpmath attention."""
