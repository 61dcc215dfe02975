"""The course page in a Sphinx site: a file of its own beside the built HTML, shown in a frame."""

from __future__ import annotations

import hashlib
import html
import os
import tempfile
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.util.osutil import relative_uri

FOLDER = "_symattn"
"""Where the pages go in the built site (one file per page, named by its content)."""
HEIGHT = "52em"
"""The frame's height until the page says its own (a script the host may block)."""
SIZE_SCRIPT = """<script>(function () {
  if (window.symattnFrames) return; window.symattnFrames = true;
  addEventListener("message", function (event) {
    var said = event.data;
    if (!said || said.symattn !== "height" || typeof said.height !== "number") return;
    document.querySelectorAll("iframe.symattn-page").forEach(function (frame) {
      if (frame.contentWindow !== event.source) return;
      frame.style.height = Math.min(said.height + 2, Math.max(innerHeight - 40, 320)) + "px";
    });
  });
})();</script>"""
"""The frame as tall as its page, up to the window's height (the page's controls stay in view)."""


class page_frame(nodes.General, nodes.Element):  # noqa: N801 (docutils names nodes in lower case)
    """A course page (its HTML in "page") to write beside the built document and frame."""


def frame_node(page: str, title: str) -> page_frame:
    """The node of one course page, its file named by its content."""
    name = hashlib.sha256(page.encode("utf-8")).hexdigest()[:20] + ".html"
    return page_frame(page=page, file=name, title=title)


def visit_html(translator: Any, node: page_frame) -> None:
    """Write the page into the site and frame it: a plain `<iframe src>`, sandboxed to its own
    scripts, whose state lives in its own address (never the host's)."""
    builder = translator.builder
    write_once(Path(builder.outdir) / FOLDER / node["file"], node["page"])
    base = builder.get_target_uri(builder.current_docname)
    src = relative_uri(base, f"{FOLDER}/{node['file']}")
    translator.body.append(
        f'<iframe class="symattn-page" src="{html.escape(src, quote=True)}" '
        f'title="{html.escape(node["title"], quote=True)}" sandbox="allow-scripts" '
        f'allow="clipboard-write" loading="lazy" '
        f'style="width:100%;height:{HEIGHT};border:1px solid #ccc"></iframe>{SIZE_SCRIPT}')
    raise nodes.SkipNode


def skip(translator: Any, node: page_frame) -> None:
    """Builders other than HTML leave the page out (the LaTeX builder sets the derivation)."""
    raise nodes.SkipNode


def write_once(path: Path, text: str) -> None:
    """The page's file, written whole (a parallel writer of the same page never sees half)."""
    data = text.encode("utf-8")
    if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".page-")
    with os.fdopen(handle, "wb") as out:
        out.write(data)
    os.chmod(temporary, 0o644)  # served as the site's other files are
    os.replace(temporary, path)
