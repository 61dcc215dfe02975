"""The front door: options settled once, the kinds each verb takes, and the derivation of a
trace built once and written in every format asked for.

The command line, the Python API, the Sphinx directive and the notebook helpers all call these;
none of them reads [derivation], checks a range or runs the checks on its own.
"""

from __future__ import annotations

from ..kinds import TAKES, kind_of, refuse_kind
from .options import OptionError, Settings, settle

__all__ = ["OptionError", "Settings", "TAKES", "kind_of", "refuse_kind", "settle"]
