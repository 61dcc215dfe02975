"""Reading: user text and files -> exact values, a Problem, claims and options (never evaluated)."""
