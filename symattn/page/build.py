"""symattn page: one self-contained, offline, interactive HTML course page from a problem file.

Data flows one way: the problem -> every state of the controls computed exactly (page_data, as
JSON with math as TeX) -> the math typeset once by KaTeX on node (page_katex) -> one HTML file
holding KaTeX's stylesheet with its fonts, the page's own CSS and script, the JSON, and the
typeset math (gzip, base64). A Content-Security-Policy allows only that script and that style.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import html
import json
import re
from pathlib import Path
from typing import Any

import sympy as sp

from ..errors import InputError
from ..limits import MAX_TEMPERATURES
from ..model import Problem, ShapeProblem
from ..parse.expressions import parse_expression
from ..renderers.phrases import LANGUAGES
from .data import MathStore, collect
from .katex import katex_css, katex_dir, render_math

ASSETS = Path(__file__).resolve().parent / "assets"
DEFAULT_TEMPERATURES = "1/2,17/20,1,3/2,2"
_SLOT = re.compile(r"\{\{(p:)?(\w+)\}\}")


def parse_temperatures(text: str) -> list[sp.Expr]:
    """A comma-separated list of positive exact values ("1/2,17/20,1,3/2,2")."""
    parts = [part.strip() for part in text.split(",")]
    if not all(parts):
        raise InputError("--temperatures: give positive values separated by commas, e.g. 1/2,1,2")
    if len(parts) > MAX_TEMPERATURES:
        raise InputError(f"--temperatures: {len(parts)} values (limit {MAX_TEMPERATURES})")
    values = []
    for number, part in enumerate(parts, start=1):
        try:
            value = parse_expression(part)
        except InputError as error:
            raise InputError(f"value {number} ({part!r}): {error.reason}",
                             key="--temperatures") from None
        if value.is_positive is not True:
            raise InputError(f"value {number} ({part!r}) must be positive", key="--temperatures")
        values.append(value)
    return values


def build_page(problem: Problem | ShapeProblem, *, lang: str | None = None,
               temperatures: list[sp.Expr] | None = None) -> str:
    """The page as one HTML string. lang None: the problem's [derivation] lang, else English.

    Raises:
        InputError: every state of the controls fails (the first state's reason).
        PageToolError: node or KaTeX is missing (the message says how to install them).
    """
    if not isinstance(problem, (Problem, ShapeProblem)):
        heads = len(getattr(problem, "heads", ()))
        raise InputError(f"a course page shows one attention head; this file has {heads} heads "
                         "(give each head its own problem file)",
                         source=getattr(problem, "source", None))
    if getattr(problem, "start", "Q") != "Q":
        raise InputError(f"a course page shows Q, K and V; this problem gives {problem.start} "
                         "(use symattn solve for its derivation)", source=problem.source)
    lang = lang or str(dict(getattr(problem, "presentation", ())).get("lang", "en"))
    if lang not in LANGUAGES:
        raise InputError(f"unknown language {lang!r}; languages are {', '.join(LANGUAGES)}")
    directory = katex_dir()
    store = MathStore()
    data = collect(problem, temperatures or parse_temperatures(DEFAULT_TEMPERATURES), lang, store)
    return fill_template(data, render_math(store.items, directory), katex_css(directory))


def fill_template(data: dict[str, Any], math_html: list[str], katex_style: str) -> str:
    """Put style, script, data and math into the template, in one pass (inserted text is not read)."""
    style = katex_style + "\n" + (ASSETS / "page.css").read_text(encoding="utf-8")
    script = (ASSETS / "page.js").read_text(encoding="utf-8")
    if "</" in script or "</" in style:
        raise ValueError("an asset would close its own element")
    slots = {"lang": data["lang"], "title": html.escape(data["title"]), "csp": policy(script, style),
             "style": style, "script": script, "data": script_json(data), "math": packed(math_html)}
    phrases = data["phrases"]
    slots["intro"] = html.escape(phrases["intro" if data["kind"] == "values" else "shapes_only"])

    def slot(match: re.Match[str]) -> str:
        return html.escape(phrases[match.group(2)]) if match.group(1) else slots[match.group(2)]

    return _SLOT.sub(slot, (ASSETS / "page.html").read_text(encoding="utf-8"))


def policy(script: str, style: str) -> str:
    """Only the page's own script and stylesheet run; fonts come from data URLs; nothing is fetched."""
    return "; ".join([
        "default-src 'none'", f"script-src '{digest(script)}'", f"style-src '{digest(style)}'",
        "style-src-attr 'unsafe-inline'", "font-src data:", "img-src data:", "base-uri 'none'",
        "form-action 'none'"])


def digest(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def script_json(data: dict[str, Any]) -> str:
    """JSON that cannot end its <script> element: <, > and & written as \\u escapes."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def packed(math_html: list[str]) -> str:
    """The typeset math, a JSON list, gzip-compressed (reproducibly) and base64-encoded."""
    raw = json.dumps(math_html, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")
