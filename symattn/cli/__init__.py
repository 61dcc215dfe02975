"""The command line: argparse commands, their output and exit codes (see cli/main.py)."""

from .main import main

__all__ = ["main"]
