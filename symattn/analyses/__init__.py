"""Analyses: parameter sweeps, exact gradients, non-uniqueness of weights, temperature limits."""
