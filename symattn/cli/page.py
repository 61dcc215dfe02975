"""symattn page FILE [--lang] [--temperatures] [-o OUT]: write the offline course page."""

from __future__ import annotations

import argparse

from ..page.build import build_page, parse_temperatures
from .loading import load
from .output import EXIT_OK, write


def run(args: argparse.Namespace) -> int:
    """Write the page of args.file."""
    problem = load(args)
    temperatures = parse_temperatures(args.temperatures)
    write(build_page(problem, lang=args.lang, temperatures=temperatures), args)
    return EXIT_OK
