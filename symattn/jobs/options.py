"""Options settled once: defaults, the file's [derivation], then what the caller gave, aliases
resolved, ranges checked, one error type."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from collections.abc import Mapping

from ..errors import InputError
from ..model import MultiHeadProblem, Problem, ShapeProblem
from ..parse.layout import WIDTHS, check_label_prefix, parse_width
from ..vocabulary import (CHECK_DIGITS_RANGE, CHECKS, DETAIL_ALIASES, DETAILS, FORMATS, HEADINGS, LANGUAGES,
                         PLACES_RANGE, Checks, Detail, Language)

if TYPE_CHECKING:  # the emitters load when a document is written
    from ..targets.emit import Page  # lazy: not at start

AnyProblem = Problem | ShapeProblem | MultiHeadProblem


class OptionError(InputError):
    """An option outside its vocabulary or range: one line, exit code 2 on the command line."""


@dataclass(frozen=True)
class Settings:
    """Every presentation option of one job, settled: what to write and how to lay it out."""

    lang: Language = "en"
    to: str = "text"
    detail: Detail = "textbook"
    row: int | None = None  # 1-based; None: the last row for the worked example, none written out
    places: int = 4
    figure: bool = False
    digits: int = 50
    width: float = WIDTHS["article"]
    heading: str = "section"
    numbered: bool = False
    label: str | None = None
    standalone: bool = False
    preamble: bool = False
    checks: Checks = "short"

    def page(self) -> Page:
        """How a document is laid out: width, headings, fragment, document or preamble."""
        from ..targets.emit import Page  # lazy: text and JSON start without the emitters
        return Page(self.width, self.heading, self.numbered, self.label, self.standalone,
                    self.preamble)

    def layout(self) -> dict[str, Any]:
        """The derivation's layout options (width, heading, numbered, label)."""
        return {"width": self.width, "heading": self.heading, "numbered": self.numbered,
                "label": self.label}


FILE_KEYS = ("lang", "detail", "row", "places", "figure", "checks")
"""What a problem file's [derivation] table may set (the rest is the caller's)."""


def settle(problem: AnyProblem | None, given: Mapping[str, Any], *, flags: bool = False,
           formats: tuple[str, ...] = FORMATS) -> Settings:
    """The options of one job: defaults, then the file's [derivation], then `given` (a value of
    None is not given); `flags` names options as the command line spells them (--places).

    Raises:
        OptionError: a value outside its vocabulary or range, named as the caller spelled it.
    """
    def name(key: str) -> str:
        return "--" + key.replace("_", "-") if flags else key

    chosen: dict[str, Any] = dict(getattr(problem, "presentation", ()) or ())
    chosen.update({k: v for k, v in given.items() if v is not None})
    to = chosen.get("to", "text")
    if to not in formats:
        raise OptionError(f"unknown format {to!r}; formats are {', '.join(formats)}")
    lang = chosen.get("lang", "en")
    if lang not in LANGUAGES:
        raise OptionError(f"unknown language {lang!r}; languages are {', '.join(LANGUAGES)}")
    detail = DETAIL_ALIASES.get(chosen.get("detail", "textbook"), chosen.get("detail", "textbook"))
    if detail not in DETAILS:
        raise OptionError(f"unknown detail {detail!r}; details are {', '.join(DETAILS)}")
    places = _within(name("places"), chosen.get("places", 4), PLACES_RANGE)
    digits = _within(name("digits"), chosen.get("digits", 50), CHECK_DIGITS_RANGE)
    rows = _rows(problem)
    row = chosen.get("row")
    if row is not None and rows is not None:
        _within(name("row"), row, (1, rows))
    heading = chosen.get("heading", "section")
    if heading not in HEADINGS:
        raise OptionError(f"unknown heading {heading!r}; headings are {', '.join(HEADINGS)}")
    width = chosen.get("width", "article")
    points = float(width) if isinstance(width, (int, float)) and not isinstance(width, bool) \
        else parse_width(str(width))
    label = chosen.get("label")
    checks = chosen.get("checks", "short")
    if checks not in CHECKS:
        raise OptionError(f"unknown {name('checks')} {checks!r}; they are {', '.join(CHECKS)}")
    if given.get("checks") is not None and to not in ("latex", "markdown"):
        raise OptionError(f"{name('checks')} goes with {'--format' if flags else 'to='} latex or "
                          "markdown (the check command reports them in text)")
    if chosen.get("preamble") and to != "latex":
        raise OptionError(f"{name('preamble')} goes with {'--format' if flags else 'to='} latex")
    return Settings(lang=lang, to=to, detail=detail, row=row, places=places,
                    figure=bool(chosen.get("figure", False)), digits=digits, width=points,
                    heading=heading, numbered=bool(chosen.get("numbered", False)),
                    label=check_label_prefix(label) if label is not None else None,
                    standalone=bool(chosen.get("standalone", False)),
                    preamble=bool(chosen.get("preamble", False)), checks=checks)


def _within(name: str, value: Any, bounds: tuple[int, int]) -> int:
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OptionError(f"{name} must be from {low} to {high}")
    return value


def _rows(problem: AnyProblem | None) -> int | None:
    """How many query rows a --row may name (None: no problem to ask)."""
    if isinstance(problem, MultiHeadProblem):
        return problem.heads[0].n_q
    return None if problem is None else problem.n_q
