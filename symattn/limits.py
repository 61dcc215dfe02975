"""Every input limit and cost-gate constant in one place (docs/limits.md says what each refuses).

Each bound is checked before the work it bounds: past it the input is refused with the one-line
error (file, key, column, reason) and exit code 2.
"""

from __future__ import annotations

# One entry of user text (a matrix entry, a temperature, a scale, an answer)
MAX_LENGTH = 1000  # characters
MAX_TOKENS = 300
MAX_DEPTH = 30  # nesting of parentheses, functions, unary signs and exponents
MAX_DIGITS = 100  # digits in one number
MAX_DECIMAL_EXPONENT = 100  # 1e100
MAX_POWER_BITS = 4096  # an exact power of a rational
MAX_SYMBOLIC_POWER = 32  # an integer power of an irrational or symbolic value
MAX_ROOT_DENOMINATOR = 1000  # root degree
MAX_EXP_ARGUMENT = 10_000
MAX_TRIG_ARGUMENT = 10_000
MAX_EXP_NESTING = 3
MAX_ROOT_BITS = 1024
"""Rationals that SymPy must factor (under roots, in logs, in exp of logs) have at most this many
bits in all: SymPy factors them with primality tests whose cost explodes with their size."""
MAX_TRIAL_FACTOR_BITS = 4096  # ln of larger numbers is kept whole rather than split into primes

# Files and tables
MAX_FILE_BYTES = 1_000_000  # a problem file (each file of a problem set too)
MAX_ANSWERS_BYTES = 1_000_000  # an --answers file
MAX_SIDE = 512  # rows or columns of one matrix
MAX_SHAPE = 100_000  # a side of a shape-only problem
MAX_LABEL = 200  # characters of a token label or title
MAX_SYMBOL_NAME = 32
MAX_PLACES = 50  # [derivation] places, --places
MAX_SIGFIGS = 50  # [grading] sigfigs
MAX_PAGE_TEXT = 2000  # characters of one prediction, claim or reason ([page])
MAX_PREDICTIONS = 12  # predictions in [page]

# Sweeps ([sweep])
MAX_SWEEP_STEPS = 101
MAX_SWEEP_LISTED = 50
MAX_SWEEP_POINTS = 400
MAX_SWEEP_MAGNITUDE = 1000

# The exact pipeline
MAX_EXACT_FACTOR_BITS = 8192  # an exact factor of exp(logit); past it thousands of digits
MAX_LOGIT_DIGITS = 1000
"""A logit (S + M)/τ without symbols is refused from 10^1000 in size on: exp of it is known to
d digits only from its own first d + 1000 digits (the decimals, the cross-check)."""
MAX_WORKING_DIGITS = 2500
"""Numerics raise their precision with the size of exp arguments up to here (--digits 1000
plus logits of 10^1000 fit); past it a numeric check at symbols' sample values is not decided."""

# Answers and grading
MAX_CLAIM_LENGTH = 20_000  # one claimed answer as text
MAX_CLAIM_EXPONENT = 400  # a claimed decimal may be written as float64 prints it: 1.38e-142
MAX_PRINTOUT_AXES = 8  # axes of one pasted printout or nested list (batch, heads, rows, columns)
MAX_SUBMISSIONS_BYTES = 50_000_000  # a --submissions CSV
MAX_CSV_CELL = 131_072  # characters of one submissions cell; past it that answer is invalid
WORKER_MEMORY_BYTES = 4 * 2**30  # address space of a grading worker
MAX_MISTAKE_ENTRIES = 4096  # n_q x n_k past which the classic mistakes are not diagnosed
MISTAKE_CPU_SECONDS = 10.0  # CPU time one classic mistake may take; past it: no diagnosis
LIMITS_CPU_SECONDS = 20.0  # CPU time SymPy's temperature limits may take; past it: refused
GRADIENT_CPU_SECONDS = 30.0  # CPU time the exact gradients may take; past it: refused
MAX_PROOF_TERMS = 10_000  # terms an equality proof may expand to; past it: undecided
MAX_EXPAND_TERMS = 400  # the same for SymPy's expand(), about 1 ms a term (exponentials combine)
MAX_ROUNDING_DIGITS = 2000  # digits a value is refined to when it lies near a rounding half;
# nearer than that it is taken as the half (rounded away from zero)

# Command line
MAX_CHECK_DIGITS = 1000  # --digits of check and of a derivation's cross-check
MAX_TEMPERATURES = 12  # page --temperatures
MAX_PROBLEMS = 500  # files of a problem set
