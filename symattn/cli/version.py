"""symattn --version: the installed version, read from the package metadata only when asked."""

from __future__ import annotations

import argparse
import sys
from typing import Any


class Version(argparse.Action):
    """--version: print symattn's version and exit (read from the metadata only when asked)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        from .. import version  # lazy: importlib.metadata costs every other command 30 ms

        print(f"{parser.prog} {version()}", file=sys.stdout)
        parser.exit()
