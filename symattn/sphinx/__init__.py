"""Sphinx extension (`extensions = ["symattn.sphinx"]`): the `symattn` directive puts a problem
file's derivation into a Sphinx or MyST page when the site is built; see docs/course-material.md."""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from .directive import SymattnDirective
from .frame import page_frame, skip, visit_html

SPHINX_LOADS = {"amsmath", "amssymb"}
"""Packages Sphinx's LaTeX preamble already has."""
CJK_PASS_THROUGH = "\n\\ifdefined\\CJK\\else\\newenvironment{CJK}[2]{}{}\\fi\n"
"""Under XeLaTeX or LuaLaTeX, ctex sets CJK labels itself: the CJK environment (CJKutf8, which
clashes with it) around English derivations with such labels becomes a plain group."""


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directive and the bookkeeping of the LaTeX packages derivations need."""
    # symattn's Markdown is read by MyST: myst_nb (Jupyter Book 1) carries its own myst_parser,
    # and registering both fails ('.md' already registered), whichever comes first
    notebooks = "myst_nb" in app.extensions or "myst_nb" in app.config.extensions
    app.setup_extension("myst_nb" if notebooks else "myst_parser")
    app.add_directive("symattn", SymattnDirective)
    app.add_node(page_frame, html=(visit_html, None), latex=(skip, None), text=(skip, None),
                 man=(skip, None), texinfo=(skip, None))
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-updated", _latex_packages)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": 1}


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    getattr(env, "symattn_packages", {}).pop(docname, None)


def _merge(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
    packages = getattr(env, "symattn_packages", {})
    packages.update({d: p for d, p in getattr(other, "symattn_packages", {}).items() if d in docnames})
    env.symattn_packages = packages


def _latex_packages(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Every package a derivation of the site needs, added to the LaTeX builder's preamble."""
    if app.builder.format != "latex":
        return []
    known = {name for name, _ in app.registry.latex_packages} | SPHINX_LOADS
    needed = set().union(*getattr(env, "symattn_packages", {}).values())
    if app.config.latex_engine in ("xelatex", "lualatex") and ("CJKutf8", None) in needed:
        needed.discard(("CJKutf8", None))
        if not (app.config.language or "").startswith("zh"):  # a Chinese site has xeCJK
            needed.add(("ctex", "scheme=plain"))
        app.builder.context["preamble"] += CJK_PASS_THROUGH
    for name, options in sorted(needed, key=str):
        if name not in known:
            app.add_latex_package(name, options)
            known.add(name)
    return []
