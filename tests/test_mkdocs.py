"""The MkDocs recipe of docs/course-material.md (docs/mkdocs: pymdown-extensions' arithmatex and
KaTeX) on every worked example's Markdown derivation and analysis, built with `mkdocs build
--strict` and opened in headless Chromium: every formula typeset, no error, and the TeX KaTeX
received is the TeX symattn wrote (no `\\\\` lost on the way). Without arithmatex, Markdown
eats those backslashes, as README says."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from clients import math_blocks, need
from conftest import EXAMPLES, ROOT
from sites import KATEX_DIST, check_math, need_module

RECIPE = ROOT / "docs" / "mkdocs"
PAGES = sorted(EXAMPLES.glob("*/*.md"))
CDN = "https://cdn.jsdelivr.net/npm/katex@0.16.22/dist/"


def build(tmp_path: Path, arithmatex: bool = True) -> Path:
    """The recipe's site with every example's Markdown, KaTeX from tools/katex (offline)."""
    need_module("mkdocs")
    need_module("pymdownx")
    need(KATEX_DIST.is_dir(), "KaTeX is not installed (npm ci --prefix tools/katex)")
    site = tmp_path / "recipe"
    shutil.copytree(RECIPE, site)
    shutil.copytree(KATEX_DIST, site / "docs" / "katex")
    config = (site / "mkdocs.yml").read_text(encoding="utf-8").replace(CDN, "katex/")
    config += "theme:\n  name: mkdocs\n  highlightjs: false\n"  # the theme's own CDN script
    if not arithmatex:  # plain Markdown, then auto-render over the whole page with $ delimiters
        config = config.replace("  - pymdownx.arithmatex:\n      generic: true\n", "")
        (site / "docs" / "javascripts" / "katex.js").write_text(
            'document.addEventListener("DOMContentLoaded", () => renderMathInElement(document.body,'
            ' {delimiters: [{left: "$$", right: "$$", display: true},'
            ' {left: "$", right: "$", display: false}], throwOnError: false}));\n', encoding="utf-8")
    (site / "mkdocs.yml").write_text(config, encoding="utf-8")
    for page in PAGES:  # with the pictures they show (sweep.svg)
        folder = site / "docs" / page.parent.name
        folder.mkdir(exist_ok=True)
        for path in [page, *page.parent.glob("*.svg")]:
            shutil.copy(path, folder / path.name)
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q"], cwd=site,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return site / "site"


def test_every_example_renders_under_the_recipe(tmp_path):
    out = build(tmp_path)
    names = {f"{p.parent.name}/{p.stem}": p for p in PAGES}
    seen = check_math({name: (out / name / "index.html", "katex") for name in names})
    for name, page in seen.items():
        assert page["typeset"] and page["errors"] == [] and page["unrendered"] == [], name
        assert page["console"] == [], name
        written = [b["tex"].strip() for b in math_blocks(names[name].read_text(encoding="utf-8"))]
        assert Counter(t.strip() for t in page["tex"]) == Counter(written), name
    assert len(seen) == len(PAGES) >= 28


def test_without_arithmatex_markdown_eats_the_row_breaks(tmp_path):
    out = build(tmp_path, arithmatex=False)
    source = EXAMPLES / "02_causal_three_positions" / "derivation.en.md"
    page = check_math({"plain": (out / "02_causal_three_positions" / "derivation.en" / "index.html",
                                 "katex")})["plain"]
    written = [b["tex"].strip() for b in math_blocks(source.read_text(encoding="utf-8"))]
    assert written and all(r"\\" not in t for t in page["tex"])
    assert any(r"\\" in t for t in written)
