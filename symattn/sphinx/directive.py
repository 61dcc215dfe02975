"""The `symattn` directive: a problem file's derivation (answers, course page) or a directory's
problem set, computed at build time; Sphinx math for HTML, symattn's own LaTeX for LaTeX."""

from __future__ import annotations

import os
from pathlib import Path

from docutils import nodes, utils
from docutils.parsers.rst import directives
from myst_parser.config.main import MdParserConfig
from myst_parser.mdit_to_docutils.sphinx_ import SphinxRenderer
from myst_parser.parsers.mdit import create_md_parser
from sphinx import addnodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from ..errors import SymattnError
from ..vocabulary import CHECKS, HEADINGS, LANGUAGES
from .content import DETAILS, FORMATS, Shown, shown
from .frame import frame_node

logger = logging.getLogger(__name__)
MARKDOWN = MdParserConfig(enable_extensions={"dollarmath"})
"""How symattn's Markdown is read: Pandoc's `$` rules (MyST's dollarmath), whatever the site sets."""


class SymattnDirective(SphinxDirective):
    """```{symattn} path/to/problem.toml``` with :format:, :lang:, :detail:, :heading: and
    :checks:."""

    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {
        "format": lambda text: directives.choice(text, FORMATS),
        "lang": lambda text: directives.choice(text, LANGUAGES),
        "detail": lambda text: directives.choice(text, DETAILS),
        "heading": lambda text: directives.choice(text, HEADINGS),
        "checks": lambda text: directives.choice(text, CHECKS),
    }

    def run(self) -> list[nodes.Node]:
        relative, absolute = self.env.relfn2path(self.arguments[0], self.env.docname)
        absolute = os.path.normpath(absolute)  # "/../worked_examples/..." names the file plainly
        self.env.note_dependency(absolute)  # a fix to a failing file rebuilds the page too
        form = self.options.get("format", "derivation")
        try:
            out = shown(Path(absolute), form, self.options.get("lang"),
                        self.options.get("detail"), self.options.get("heading", "paragraph"),
                        checks=self.options.get("checks"))
        except SymattnError as error:
            logger.error("symattn: %s", error, location=self.get_location())
            return []
        for path in out.files:
            self.env.note_dependency(str(path))
        for note in out.notes:
            logger.warning("symattn: %s", note, location=self.get_location())
        if not hasattr(self.env, "symattn_packages"):
            self.env.symattn_packages = {}
        self.env.symattn_packages.setdefault(self.env.docname, set()).update(
            set(out.packages) | self._packages_of(out))
        return self._nodes(out, relative)

    def _packages_of(self, out: Shown) -> set:
        """ctex for Chinese text, unless the site is Chinese (Sphinx then loads xeCJK itself)."""
        chinese = self.options.get("lang") == "zh" and out.latex
        site_zh = (self.config.language or "").startswith("zh")
        return {("ctex", "scheme=plain")} if chinese and not site_zh else set()

    def _nodes(self, out: Shown, relative: str) -> list[nodes.Node]:
        if out.literal:
            return [nodes.literal_block(out.literal, out.literal, classes=["symattn-answers"])]
        html_part = addnodes.only(expr="not format_latex")  # the LaTeX builder takes latex_part
        html_part += [frame_node(out.page, relative)] if out.page else self._markdown(out.markdown)
        latex_part = nodes.raw("", out.latex, format="latex")
        box = nodes.container(classes=["symattn"])
        box += [html_part, latex_part]
        return [box]

    def _markdown(self, text: str) -> list[nodes.Node]:
        """symattn's Markdown read by MyST into docutils nodes: its math becomes Sphinx math,
        its headings rubrics (a derivation's parts stay out of the page's table of contents)."""
        document = utils.new_document(self.get_source_info()[0], self.state.document.settings)
        parser = create_md_parser(MARKDOWN, SphinxRenderer)
        parser.options["document"] = document
        parser.render(text)
        return rubrics(document.children)


def rubrics(children: list[nodes.Node]) -> list[nodes.Node]:
    """Sections flattened: each title a rubric, followed by the section's body."""
    out: list[nodes.Node] = []
    for child in children:
        if isinstance(child, nodes.section):
            title = child[0]
            out.append(nodes.rubric(title.rawsource, "", *title.children))
            out += rubrics(child.children[1:])
        else:
            out.append(child.deepcopy())
    return out
