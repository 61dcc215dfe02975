"""Real clients for rendered output: the TeX engine (latexmk) and KaTeX (node), or a clear skip.

With SYMATTN_REQUIRE_CLIENTS=1 (set by .ci/run) a missing client fails instead of skipping.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from conftest import ROOT

KATEX_DIR = ROOT / "tools" / "katex"
REQUIRED = os.environ.get("SYMATTN_REQUIRE_CLIENTS") == "1"
ENGINES = {"en": ["latexmk", "-pdf"], "zh": ["latexmk", "-xelatex"]}


def need(available: bool, reason: str) -> None:
    """Skip (or, when clients are required, fail) if a client is missing."""
    if not available:
        (pytest.fail if REQUIRED else pytest.skip)(reason)


def compile_tex(text: str, lang: str, name: str = "doc") -> Path:
    """Compile a standalone document with \\tracinglostchars=3; returns the PDF path (kept in a
    temporary folder for the session) or fails with the TeX error lines."""
    need(shutil.which("latexmk") is not None,
         "latexmk is not installed (apt-get install latexmk texlive-xetex texlive-lang-chinese ...)")
    work = Path(tempfile.mkdtemp(prefix="symattn-tex-"))
    strict = re.sub(r"^(\\documentclass.*)$", r"\1\n\\tracinglostchars=3", text, count=1,
                    flags=re.MULTILINE)
    (work / f"{name}.tex").write_text(strict, encoding="utf-8")
    done = subprocess.run(ENGINES[lang] + ["-interaction=nonstopmode", "-halt-on-error",
                                           f"{name}.tex"], cwd=work, capture_output=True,
                          text=True, timeout=300)
    log = (work / f"{name}.log").read_text(encoding="utf-8", errors="replace") \
        if (work / f"{name}.log").exists() else done.stdout
    errors = [line for line in log.splitlines() if line.startswith("!") or "Missing character" in line]
    assert done.returncode == 0 and not errors, "\n".join(errors) or done.stdout[-2000:]
    return work / f"{name}.pdf"


def pdf_text(pdf: Path) -> str:
    need(shutil.which("pdftotext") is not None, "pdftotext is not installed (poppler-utils)")
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout


def math_blocks(markdown: str) -> list[dict]:
    """Every $$ display block and $inline$ math of a Markdown text (escaped \\$ is not math)."""
    blocks = [{"tex": m, "display": True} for m in re.findall(r"\$\$\n(.*?)\n\$\$", markdown, re.S)]
    prose = re.sub(r"\$\$\n.*?\n\$\$", "", markdown, flags=re.S)
    blocks += [{"tex": m, "display": False} for m in re.findall(r"(?<![\\$])\$([^$\n]+?)(?<!\\)\$", prose)]
    return blocks


def katex_errors(blocks: list[dict]) -> list[dict]:
    """Render with KaTeX in strict mode (throwOnError, trust off); returns the errors."""
    need(shutil.which("node") is not None, "node is not installed")
    need((KATEX_DIR / "node_modules" / "katex").is_dir(),
         "KaTeX is not installed (npm ci --prefix tools/katex)")
    done = subprocess.run(["node", str(KATEX_DIR / "check.js")], input=json.dumps(blocks),
                          capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout)


MARKDOWN_MODULES = ("katex", "markdown-it", "@mdit/plugin-tex")


def render_markdown(documents: list[str]) -> list[dict]:
    """Render whole Markdown documents as a math-aware site does (tools/katex/markdown.js:
    markdown-it, @mdit/plugin-tex's $..$ and $$..$$ rules, KaTeX strict with throwOnError), all
    in one node process. One dict per document: html, errors, math (= display + inline rendered),
    rendered [{tex, display}], leaks [{match, context, line, where, escaped}] (math-looking text
    left outside KaTeX; escaped says when a Markdown escape or entity in the source made it)."""
    need(shutil.which("node") is not None, "node is not installed")
    missing = [m for m in MARKDOWN_MODULES if not (KATEX_DIR / "node_modules" / m).is_dir()]
    need(not missing, f"{', '.join(missing)} not installed (npm ci --prefix tools/katex)")
    done = subprocess.run(["node", str(KATEX_DIR / "markdown.js")], input=json.dumps(documents),
                          capture_output=True, text=True, encoding="utf-8", timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(done.stdout)
    assert len(results) == len(documents)
    return results
