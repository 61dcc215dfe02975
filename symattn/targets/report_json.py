"""`symattn check --format json`: a check report as JSON, each check with its machine name,
status and the words the text report gives it."""

from __future__ import annotations

import json
from typing import Any

from ..model import ShapeProblem
from ..reports import CheckResult, HeadsReport, Report
from ..words import phrase
from ..derivation.orientation import said
from ..documents.checks import check_detail
from .text import MARKS

STATUS = {True: "passed", False: "failed", None: "undecided"}


def report_json(report: Report | HeadsReport, title: str | None, lang: str = "en",
                columns: bool = False) -> str:
    """Every check (with its head, for several heads), the largest difference from mpmath and
    whether all passed."""
    if isinstance(report, HeadsReport):
        checks = [_check(result, lang, columns, head=k)
                  for k, head in enumerate(report.reports, start=1) for result in head.results]
        extra = {"output_difference": f"{float(report.difference):.1e}"}
    else:
        checks = [_check(result, lang, columns) for result in report.results]
        extra = {"max_difference": None if report.max_difference is None
                 else f"{float(report.max_difference):.1e}"}  # type: ignore[arg-type]
    return _document(title, report.passed, checks, extra)


def shapes_json(p: ShapeProblem, lang: str = "en") -> str:
    """The two constraints a problem of shapes meets, as passed checks."""
    checks = [{"check": f"shape_{name}", "head": None, "status": "passed", "mark": phrase("mark_ok", lang),
               "name": name, "detail": phrase(f"shapes_check_{name}", lang, d_k=p.d_k,
                                               n_q=p.n_q, n_k=p.n_k, d_v=p.d_v), "values": {}}
              for name in ("d_k", "n_k")]
    return _document(p.title, True, checks, {})


def _check(result: CheckResult, lang: str, columns: bool, head: int | None = None
           ) -> dict[str, Any]:
    return {"check": result.check, "head": head, "status": STATUS[result.passed],
            "mark": phrase(f"mark_{MARKS[result.passed]}", lang),
            "name": phrase(said(f"check_name_{result.check}", columns), lang),
            "detail": check_detail(result, lang, columns),
            "values": {key: str(value) for key, value in result.values}}


def _document(title: str | None, passed: bool, checks: list[dict[str, Any]],
              extra: dict[str, Any]) -> str:
    document = {"title": title, "passed": passed, "checks": checks, **extra}
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
