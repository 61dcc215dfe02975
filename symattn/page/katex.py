"""KaTeX shipped with symattn (package data): its script for the page, and its CSS with used fonts.

The page typesets its own math in the browser with this copy of KaTeX (release files of the
version pinned in tools/katex, MIT licence beside them), so writing a page needs neither node nor
a checkout. Only the font faces the page's TeX can use are embedded, as woff2 data URLs.
"""

from __future__ import annotations

import base64
import re
from functools import cache
from pathlib import Path

KATEX = Path(__file__).resolve().parent / "katex"
VERSION = "0.16.22"
_FACE = re.compile(r"@font-face\{[^}]*\}")
_FILE = re.compile(r"url\(fonts/([\w-]+)\.woff2\)")
_SOURCES = re.compile(r'url\((fonts/[\w-]+\.woff2)\) format\("woff2"\)'
                      r'(?:,url\([^)]*\) format\("(?:woff|truetype)"\))*')
ALWAYS = ("KaTeX_Main-Regular", "KaTeX_Math-Italic")
# a command in the TeX -> the faces KaTeX may set it in (big delimiters: any of the four sizes)
SIZES = ("KaTeX_Size1-Regular", "KaTeX_Size2-Regular", "KaTeX_Size3-Regular",
         "KaTeX_Size4-Regular")
BY_COMMAND = {
    r"\mathbf": ("KaTeX_Main-Bold",), r"\textbf": ("KaTeX_Main-Bold",),
    r"\boldsymbol": ("KaTeX_Math-BoldItalic", "KaTeX_Main-Bold"),
    r"\mathsf": ("KaTeX_SansSerif-Regular",), r"\textsf": ("KaTeX_SansSerif-Regular",),
    r"\mathit": ("KaTeX_Main-Italic",), r"\textit": ("KaTeX_Main-Italic",),
    r"\mathcal": ("KaTeX_Caligraphic-Regular",), r"\mathbb": ("KaTeX_AMS-Regular",),
    r"\mathtt": ("KaTeX_Typewriter-Regular",), r"\texttt": ("KaTeX_Typewriter-Regular",),
    r"\left": SIZES, r"\big": SIZES, r"\Big": SIZES, r"\sum": SIZES, r"\prod": SIZES,
    r"\sqrt": SIZES, r"\begin{pmatrix}": SIZES, r"\begin{bmatrix}": SIZES,
    r"\begin{cases}": SIZES, r"\lesssim": ("KaTeX_AMS-Regular",),
    r"\gtrsim": ("KaTeX_AMS-Regular",), r"\nleq": ("KaTeX_AMS-Regular",),
}


@cache
def katex_script() -> str:
    """katex.min.js, as the page runs it (defines window.katex)."""
    return (KATEX / "katex.min.js").read_text(encoding="utf-8")


def used_faces(texts: list[str]) -> set[str]:
    """The font files (without .woff2) KaTeX may use for these TeX strings."""
    faces = set(ALWAYS)
    joined = "\n".join(texts)
    for command, names in BY_COMMAND.items():
        if command in joined:
            faces.update(names)
    return faces


def katex_css(texts: list[str]) -> str:
    """katex.min.css with the faces these TeX strings use as woff2 data URLs, the others dropped."""
    css = (KATEX / "katex.min.css").read_text(encoding="utf-8")
    faces = used_faces(texts)

    def face(match: re.Match[str]) -> str:
        name = _FILE.search(match.group(0))
        return match.group(0) if name and name.group(1) in faces else ""

    def inline(match: re.Match[str]) -> str:
        data = base64.b64encode((KATEX / match.group(1)).read_bytes()).decode("ascii")
        return f'url(data:font/woff2;base64,{data}) format("woff2")'

    css = _SOURCES.sub(inline, _FACE.sub(face, css))
    if "url(fonts/" in css:
        raise ValueError("KaTeX's stylesheet refers to a font this page cannot inline")
    return css
