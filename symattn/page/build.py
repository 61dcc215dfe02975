"""symattn page: one self-contained, offline, interactive HTML course page from a problem file.

Data flows one way: the problem -> every state of the controls computed exactly (page_data, as
JSON with math as TeX) -> one HTML file holding KaTeX's stylesheet with the fonts its math uses,
the page's own CSS, and, gzip-compressed and base64-encoded, the JSON, the TeX, KaTeX's script and
the page's script, which a small inline loader unpacks and runs. The page typesets its math in the
browser with that KaTeX (package data: no node, no checkout). A Content-Security-Policy allows
only the loader, those two scripts (by hash) and the page's style.
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
from ..kinds import refuse_kind
from ..model import MultiHeadProblem, Problem, ShapeProblem
from ..parse.expressions import parse_expression
from ..words import LANGUAGES
from ..words.page import TEMPLATE_ONLY
from .data import MathStore, collect, key
from .heads import heads_data
from .katex import katex_css, katex_script

ASSETS = Path(__file__).resolve().parent / "assets"
DEFAULT_TEMPERATURES = "1/2,17/20,1,3/2,2"
# the page script's parts, ES modules, in the order they run (each file's first line says what it
# holds); page_script joins them into one scope without their import lines and export keywords
SCRIPT_PARTS = ("core", "float", "state", "controls", "render", "edit", "speed", "walk", "heads",
                "lesson", "start")
SCRIPT_HEADER = """\
// symattn course page (run by loader.js after KaTeX): reads the embedded JSON and math (TeX), then
// draws the state chosen by the controls (query row, temperature, causal mask, walkthrough step).
// Every exact value was computed when the page was written; this script only shows it. User text
// is set as text (textContent); only KaTeX's output for the page's own TeX is inserted as HTML."""
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


def build_page(problem: Problem | ShapeProblem | MultiHeadProblem, *, lang: str | None = None,
               temperatures: list[sp.Expr] | None = None) -> str:
    """The page as one HTML string. lang None: the problem's [derivation] lang, else English.

    Raises:
        InputError: every state of the controls fails (the first state's reason).
    """
    refuse_kind(problem, "page")  # heads read X: only a single-head problem gives scores
    lang = lang or str(dict(getattr(problem, "presentation", ())).get("lang", "en"))
    if lang not in LANGUAGES:
        raise InputError(f"unknown language {lang!r}; languages are {', '.join(LANGUAGES)}")
    store = MathStore()
    gather = heads_data if isinstance(problem, MultiHeadProblem) else collect
    data = gather(problem, temperatures or parse_temperatures(DEFAULT_TEMPERATURES), lang, store)
    if temperatures:
        refuse_failing(data, temperatures)
    return fill_template(data, store.items)


def refuse_failing(data: dict[str, Any], asked: list[sp.Expr]) -> None:
    """A temperature asked for at which no state of the page can be computed is refused, with
    the first state's reason (a default one stays, its states saying why)."""
    asked_keys = {key(t) for t in asked}
    for k, tau in enumerate(data.get("temperatures") or []):
        states = [v for name, v in data["variants"].items() if name.split(":")[0] == str(k)]
        if tau["key"] in asked_keys and states and all("error" in v for v in states):
            shown = tau["key"] if len(tau["key"]) <= 24 else f"{tau['value']:.3g}"
            raise InputError(f"no state of the page can be computed at τ = {shown}: "
                             f"{states[0]['error']}", key="--temperatures")


def fill_template(data: dict[str, Any], math: list[tuple[str, bool]]) -> str:
    """Put style, scripts, data and math into the template, in one pass (inserted text is not read)."""
    style = katex_css([tex for tex, _ in math]) + "\n" + compact_css((ASSETS / "page.css").read_text(encoding="utf-8"))
    script = without_comment_lines(page_script())
    loader = (ASSETS / "loader.js").read_text(encoding="utf-8")
    if "</" in loader or "</" in style:
        raise ValueError("an asset would close its own element")
    katex = katex_script()
    slots = {"lang": data["lang"], "title": html.escape(data["title"]),
             "csp": policy([loader, katex, script], style), "style": style, "loader": loader,
             "script": packed(script), "data": packed(script_data(data)),
             "math": packed([[tex, int(d)] for tex, d in math]), "katex": packed(katex)}
    phrases = data["phrases"]
    intro = "shapes_only" if data["kind"] != "values" else "intro" if data["free"] else "intro_exact"
    slots["intro"] = html.escape(phrases[intro])

    def slot(match: re.Match[str]) -> str:
        return html.escape(phrases[match.group(2)]) if match.group(1) else slots[match.group(2)]

    # the template's indentation is for its reader: a line's leading spaces change nothing shown
    template = "\n".join(line.lstrip() for line in (ASSETS / "page.html").read_text(encoding="utf-8").splitlines())
    return _SLOT.sub(slot, template + "\n")


def script_data(data: dict[str, Any]) -> dict[str, Any]:
    """The data as the page script reads it: without the words only the template says."""
    phrases = {key: text for key, text in data["phrases"].items() if key not in TEMPLATE_ONLY}
    return {**data, "phrases": phrases}


_IMPORT = re.compile(r'^import \{ ([\w$, ]+) \} from "\./(\w+)\.js";\n', re.M)
_EXPORT = re.compile(r"^export (?:async )?(?:function|const|let) (?:([\w$]+)|\[([\w$, ]+)\])", re.M)


def page_script() -> str:
    """The page's script: its parts (assets/script/, one ES module per part of the page, in the
    order they must run) inside one strict async function, so they share its names: each part's
    import lines go and so does its export keyword, once every name it imports is one that the
    part it names exports (tools/browser/eslint.config.mjs checks that each name is imported)."""
    texts = {name: (ASSETS / "script" / f"{name}.js").read_text(encoding="utf-8") for name in SCRIPT_PARTS}
    exports = {name: {n.strip() for m in _EXPORT.finditer(text) for n in (m[1] or m[2]).split(",")}
               for name, text in texts.items()}
    for name, text in texts.items():
        for imported, part in _IMPORT.findall(text):
            unknown = set(imported.split(", ")) - exports.get(part, set())
            if unknown:
                raise ValueError(f"script/{name}.js imports {', '.join(sorted(unknown))} from {part}.js, "
                                 "which does not export it")
        if re.search(r"^(?:import|export)\b", _EXPORT.sub("", _IMPORT.sub("", text)), re.M):
            raise ValueError(f"script/{name}.js has an import or export the page script cannot join")
    body = "\n".join(re.sub(r"^export ", "", _IMPORT.sub("", text), flags=re.M) for text in texts.values())
    return f'{SCRIPT_HEADER}\n"use strict";\n(async () => {{\n{body}}})();\n'


def without_comment_lines(script: str) -> str:
    """The page script without its // comments and its indentation (for the reader of the script,
    not of the page: 6 KB of the page's weight). The script has no string literal that spans lines,
    so no string changes."""
    lines = (without_trailing_comment(line.strip()) for line in script.splitlines())
    return "\n".join(line for line in lines if line and not line.startswith("//"))


def without_trailing_comment(line: str) -> str:
    """A line of script without the comment after its code (" // …" outside string literals; a
    line whose quotes do not pair, as a quote in a regular expression, keeps its comment)."""
    quote, k = "", 0
    while k < len(line):
        c = line[k]
        if quote:
            if c == "\\":
                k += 1  # the escaped character is part of the string
            elif c == quote:
                quote = ""
        elif c in "'\"`":
            quote = c
        elif line.startswith(" // ", k):
            return line[:k].rstrip()
        k += 1
    return line


_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_CSS_SPACE = re.compile(r"\s+")
_CSS_AROUND = re.compile(r"\s*([{};,>])\s*")
_CSS_STRING = re.compile(r'"[^"]*"')


def compact_css(css: str) -> str:
    """The page's stylesheet without its comments and the spaces no rule needs (2.4 KB of every
    page, which carries it uncompressed). Only whitespace next to braces, semicolons, commas, child
    combinators and after a declaration's colon goes (never before a colon: "a :hover" is not
    "a:hover"); the quoted strings must come through unchanged, or the stylesheet is kept as is."""
    text = _CSS_COMMENT.sub("", css)
    text = _CSS_AROUND.sub(r"\1", _CSS_SPACE.sub(" ", text))
    text = re.sub(r":\s+", ":", text).replace(";}", "}").strip()
    return text if _CSS_STRING.findall(text) == _CSS_STRING.findall(_CSS_COMMENT.sub("", css)) else css


def policy(scripts: list[str], style: str) -> str:
    """Only the page's own scripts and stylesheet run; fonts come from data URLs; nothing is fetched."""
    hashes = " ".join(f"'{digest(script)}'" for script in scripts)
    return "; ".join([
        "default-src 'none'", f"script-src {hashes}", f"style-src '{digest(style)}'",
        "style-src-attr 'unsafe-inline'", "font-src data:", "img-src data:", "base-uri 'none'",
        "form-action 'none'"])


def digest(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def packed(content: Any) -> str:
    """A text as is, anything else as JSON, gzip-compressed (reproducibly) and base64-encoded."""
    text = content if isinstance(content, str) else \
        json.dumps(content, ensure_ascii=False, separators=(",", ":"))
    raw = text.encode("utf-8")
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")
