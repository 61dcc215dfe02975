"""What the symattn directive shows, as text: a problem file's derivation, answers or course page,
or a directory's problem set, in Markdown (for HTML) and LaTeX (for the LaTeX builder)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from ..answers.verify import verify
from ..exact.heads import attend_any
from ..exercises.problemset import exercises, problem_files
from ..jobs import settle
from ..jobs.writing import derivation, write_derivation
from ..model import ShapeProblem
from ..page.build import build_page
from ..parse.spec import load_problem
from ..targets import latex, markdown
from ..documents.problemset import problemset_blocks
from ..targets.shapes import render_shapes
from ..targets.verdicts import render_verification_text
from ..vocabulary import DETAIL_CHOICES

FORMATS = ("derivation", "answers", "problemset", "page")
DETAILS = DETAIL_CHOICES
USEPACKAGE = re.compile(r"\\usepackage(?:\[([^]]*)\])?\{([^}]*)\}")


@dataclass(frozen=True)
class Shown:
    """One directive's output: Markdown for HTML, LaTeX for the LaTeX builder, or a literal
    report (both builders), or a course page (HTML); the LaTeX packages; the files read."""

    markdown: str = ""
    latex: str = ""
    literal: str = ""
    page: str = ""
    packages: tuple[tuple[str, str | None], ...] = ()
    files: tuple[Path, ...] = ()
    notes: tuple[str, ...] = ()  # what the build says without failing: a file a set skipped


def shown(path: Path, form: str, lang: str | None, detail: str | None, heading: str, *,
          checks: str | None = None) -> Shown:
    """The directive's output for `path` (a problem file; a directory for a problem set), its
    derivations closed by `checks` (short, full or none; else the file's, else short).

    Raises:
        InputError: the file or directory cannot be read, computed or derived; names where.
    """
    if form == "problemset":
        s = settle(None, {"lang": lang, "checks": checks, "to": "latex"})
        return _problemset(path, s.lang, heading, s.checks)
    problem = load_problem(path)
    lang = settle(problem, {"lang": lang}).lang  # the file's [derivation] lang, else English
    if form == "answers":
        return Shown(literal=render_verification_text(verify(problem), lang), files=(path,))
    page = build_page(problem, lang=lang) if form == "page" else ""
    return replace(_derivation(problem, lang, detail, heading, checks), page=page, files=(path,))


def _derivation(problem, lang: str, detail: str | None, heading: str,
                checks: str | None = None) -> Shown:
    """Markdown and LaTeX of one problem's derivation (the shape argument for a shapes-only one)."""
    if isinstance(problem, ShapeProblem):
        return Shown(render_shapes(problem, "markdown", lang), render_shapes(problem, "latex", lang))
    trace = attend_any(problem)
    markdown_settings = settle(problem, {"lang": lang, "detail": detail, "to": "markdown",
                                         "checks": checks})
    latex_settings = replace(markdown_settings, to="latex", heading=heading)
    derived = derivation(trace, latex_settings)  # the checks run once for all three texts
    preamble = write_derivation(derived, "latex", latex_settings, preamble=True)
    return Shown(write_derivation(derived, "markdown", markdown_settings),
                 write_derivation(derived, "latex", latex_settings), packages=packages(preamble))


def _problemset(directory: Path, lang: str, heading: str, checks: str = "short") -> Shown:
    """Questions, solutions and an answer key of every problem file in `directory`."""
    files = problem_files(directory)
    parts, skipped = exercises(files, lang, checks=checks)
    blocks = problemset_blocks(parts, lang)
    wide = any(e.wide_labels for e in parts)
    fragment = latex.fragment(blocks, latex.Headings(heading, False, None), lang, wide)
    preamble = "\n".join(latex.preamble(blocks, lang, wide))
    return Shown(markdown.document(blocks), fragment, packages=packages(preamble),
                 files=tuple(files), notes=tuple(f"skipped {s.source}: {s.reason}" for s in skipped))


def packages(preamble: str) -> tuple[tuple[str, str | None], ...]:
    """(package, options) of each \\usepackage line of a fragment's preamble, one per package."""
    out = []
    for options, names in USEPACKAGE.findall(preamble):
        out += [(name.strip(), options or None) for name in names.split(",")]
    return tuple(dict.fromkeys(out))
