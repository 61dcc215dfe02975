"""KaTeX at generation time: math -> HTML through node, and KaTeX's CSS with its woff2 fonts inlined.

The page then needs no KaTeX script and no network: its math is HTML + MathML, its fonts are
data URLs. KaTeX is the copy pinned in tools/katex (or SYMATTN_KATEX_DIR).
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

from ..errors import SymattnError

KATEX_ENV = "SYMATTN_KATEX_DIR"
INSTALL_HINT = ("install node, then run `npm ci --prefix tools/katex` in the symattn checkout "
                f"(or set {KATEX_ENV} to a folder holding node_modules/katex)")
SCRIPT = Path(__file__).resolve().parent / "assets" / "katex_render.js"
_FONT = re.compile(r'url\((fonts/[\w-]+\.woff2)\) format\("woff2"\)'
                   r'(?:,url\([^)]*\) format\("(?:woff|truetype)"\))*')


class PageToolError(SymattnError):
    """node or KaTeX is missing or failed: one line saying how to install them."""


def katex_dir() -> Path:
    """The folder holding node_modules/katex: $SYMATTN_KATEX_DIR, else tools/katex of the checkout."""
    given = os.environ.get(KATEX_ENV)
    root = Path(__file__).resolve().parents[2]  # the checkout: symattn/page/katex.py
    candidates = [Path(given)] if given else [root / "tools" / "katex", Path.cwd() / "tools" / "katex"]
    for candidate in candidates:
        if (candidate / "node_modules" / "katex" / "dist" / "katex.min.css").is_file():
            return candidate
    raise PageToolError(f"the page's math is typeset by KaTeX, which was not found: {INSTALL_HINT}")


def render_math(items: list[tuple[str, bool]], directory: Path) -> list[str]:
    """KaTeX HTML (with MathML) for each (tex, display) item, strict mode, trust off."""
    node = shutil.which("node")
    if node is None:
        raise PageToolError(f"the page's math is typeset by KaTeX on node, which was not found: "
                            f"{INSTALL_HINT}")
    request = json.dumps({"katex": str(directory),
                          "items": [{"tex": tex, "display": display} for tex, display in items]})
    try:
        done = subprocess.run([node, str(SCRIPT)], input=request, capture_output=True, text=True,
                              encoding="utf-8", timeout=600)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise PageToolError(f"KaTeX on node did not run: {error}") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise PageToolError(f"KaTeX on node failed: {last}")
    result = json.loads(done.stdout)
    if "error" in result:
        tex = items[result["index"]][0]
        raise PageToolError(f"KaTeX cannot typeset {tex[:80]!r}: {result['error']}")
    return result["html"]


def katex_css(directory: Path) -> str:
    """katex.min.css with every font as an inline woff2 data URL (woff and ttf sources dropped)."""
    dist = directory / "node_modules" / "katex" / "dist"
    css = (dist / "katex.min.css").read_text(encoding="utf-8")

    def inline(match: re.Match[str]) -> str:
        data = base64.b64encode((dist / match.group(1)).read_bytes()).decode("ascii")
        return f'url(data:font/woff2;base64,{data}) format("woff2")'

    css = _FONT.sub(inline, css)
    if "url(fonts/" in css:
        raise PageToolError("KaTeX's stylesheet refers to a font this page cannot inline; "
                            "reinstall with `npm ci --prefix tools/katex`")
    return css
