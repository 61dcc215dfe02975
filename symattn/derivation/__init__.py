"""Trace + Report -> Derivation: names, display forms, decimals and rows, decided before any
renderer runs."""

from .approx import Approx
from .build import Derivation, RowSteps, derive
from .heads import HeadsDerivation, derive_heads
from .names import Name
from .options import DETAILS, HEADINGS, WIDTHS, Options

__all__ = ["DETAILS", "HEADINGS", "WIDTHS", "Approx", "Derivation", "HeadsDerivation", "Name",
           "Options", "RowSteps", "derive", "derive_heads"]
