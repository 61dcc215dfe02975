"""Documentation sites built for real: sphinx-build and mkdocs in a subprocess, and the built pages
opened in headless Chromium (tools/browser/check_math.js), or a clear skip (a failure under
SYMATTN_REQUIRE_CLIENTS=1)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

from clients import need
from conftest import ROOT

BROWSER = ROOT / "tools" / "browser"
MATHJAX = BROWSER / "node_modules" / "mathjax" / "es5" / "tex-chtml.js"
KATEX_DIST = ROOT / "tools" / "katex" / "node_modules" / "katex" / "dist"
CHROMIUM = "/usr/bin/chromium"


def need_module(name: str, extra: str = "docs") -> None:
    need(importlib.util.find_spec(name) is not None,
         f"{name} is not installed (pip install -e '.[{extra}]')")


def sphinx_build(source: Path, builder: str, out: Path, *options: str) -> subprocess.CompletedProcess:
    """`python -m sphinx -W -b BUILDER SOURCE OUT`, MathJax from tools/browser (offline)."""
    need_module("sphinx")
    need_module("myst_parser")
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", builder,
                           "-D", f"mathjax_path={MATHJAX.as_uri()}", *options, str(source),
                           str(out)], capture_output=True, text=True, timeout=600)


def check_math(pages: dict[str, tuple[Path, str]]) -> dict[str, dict]:
    """name -> (page, engine) opened in Chromium: written, rendered, errors, console per page."""
    need(shutil.which("node") is not None, "node is not installed")
    need(Path(CHROMIUM).exists(), "chromium is not installed (apt-get install chromium)")
    need(MATHJAX.is_file(), "MathJax is not installed (npm ci --prefix tools/browser)")
    jobs = [{"name": name, "page": str(page), "engine": engine}
            for name, (page, engine) in pages.items()]
    done = subprocess.run(["node", str(BROWSER / "check_math.js")],
                          input=json.dumps({"chromium": CHROMIUM, "pages": jobs}),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)
