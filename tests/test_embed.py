"""The course page embedded as courses embed it, served over http://127.0.0.1 (not file://, where
Chromium blocks what a served site allows): on its own, in an <iframe src> of the same site, in
a sandboxed frame, in a frame of another origin (an LMS), in a srcdoc frame, and the Sphinx
directive's frame. Changing the lab's controls keeps the state in the lab's own address and never
loads or changes the host page."""

from __future__ import annotations

import functools
import html
import json
import shutil
import subprocess
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from clients import need
from conftest import EXAMPLES
from sites import sphinx_build
from test_page import BROWSER_DIR, chromium

from symattn import load_problem
from symattn.page.build import build_page
from symattn.sphinx.frame import FOLDER
from symattn.words.page import page_phrases

CAUSAL = EXAMPLES / "02_causal_three_positions" / "problem.toml"
FRAME = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>host</title></head><body>' \
        '<h1>A course</h1><iframe {} title="lab" style="width:100%;height:700px"></iframe></body></html>'


class Quiet(SimpleHTTPRequestHandler):
    """A static server that keeps its log to itself."""

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def embedded(tmp_path_factory) -> dict:
    need(shutil.which("node") is not None, "node is not installed")
    need((BROWSER_DIR / "node_modules" / "playwright-core").is_dir(),
         "playwright-core is not installed (npm ci --prefix tools/browser)")
    browser = chromium()
    need(browser is not None, "Chromium is not installed")
    root = tmp_path_factory.mktemp("served")
    page = build_page(load_problem(CAUSAL))
    (root / "lab.html").write_text(page, encoding="utf-8")
    hosts = {"same": 'src="lab.html"', "sandboxed": 'src="lab.html" sandbox="allow-scripts"',
             "srcdoc": f'sandbox="allow-scripts" srcdoc="{html.escape(page, quote=True)}"'}
    for name, attributes in hosts.items():
        (root / f"{name}.html").write_text(FRAME.format(attributes), encoding="utf-8")
    site = root / "site"
    (site / "problems").mkdir(parents=True)
    shutil.copy(CAUSAL, site / "problems" / "causal.toml")
    (site / "conf.py").write_text('extensions = ["symattn.sphinx"]\nproject = "course"\n'
                                  'exclude_patterns = ["_build"]\n', encoding="utf-8")
    (site / "chapter").mkdir()
    (site / "index.md").write_text("# Course\n\n```{toctree}\nchapter/lab\n```\n", encoding="utf-8")
    (site / "chapter" / "lab.md").write_text(
        "# The lab\n\n```{symattn} ../problems/causal.toml\n:format: page\n```\n", encoding="utf-8")
    done = sphinx_build(site, "html", site / "_build")
    assert done.returncode == 0, done.stderr
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    base = f"http://127.0.0.1:{port}"
    (root / "other.html").write_text(FRAME.format(f'src="http://localhost:{port}/lab.html"'),
                                     encoding="utf-8")  # another origin, as an LMS frames a file
    urls = {"top": f"{base}/lab.html", **{name: f"{base}/{name}.html" for name in hosts},
            "other": f"{base}/other.html", "sphinx": f"{base}/site/_build/chapter/lab.html"}
    try:
        run = subprocess.run(["node", str(BROWSER_DIR / "check_embed.js"), browser, json.dumps(urls)],
                             capture_output=True, text=True, timeout=300)
    finally:
        server.shutdown()
    assert run.returncode == 0, run.stderr[-3000:]
    return {"seen": json.loads(run.stdout), "urls": urls, "site": site, "page": page}


def state(url: str) -> dict[str, str]:
    """The lab's state as its address holds it."""
    return dict(part.split("=", 1) for part in unquote(urlsplit(url).fragment).split("&") if part)


@pytest.mark.parametrize("name", ["top", "same", "sandboxed", "other", "sphinx"])
def test_the_state_lives_in_the_labs_own_address_and_the_host_stays(embedded, name):
    seen, host = embedded["seen"][name], embedded["urls"][name]
    assert seen["errors"] == [] and seen["row"] == "1"
    assert seen["host"] == host and seen["frames"] == (1 if name == "top" else 2)
    if name == "top":
        assert seen["hostAfter"].split("#")[0] == host
    else:
        assert seen["hostAfter"] == host  # the host page never changes or reloads
        assert seen["after"].split("#")[0] == seen["before"].split("#")[0] != host
    assert (state(seen["after"])["row"], state(seen["after"])["step"]) == ("1", "3")
    assert seen["share"] == seen["after"] and not seen["copyDisabled"]


def test_a_srcdoc_frame_keeps_the_host_and_says_it_has_no_link(embedded):
    seen = embedded["seen"]["srcdoc"]
    assert seen["hostAfter"] == embedded["urls"]["srcdoc"] and seen["frames"] == 2
    assert seen["after"].startswith("about:srcdoc") and seen["row"] == "1"
    assert seen["share"] == "" and seen["copyDisabled"]
    assert seen["sharePlaceholder"] == page_phrases("en")["share_none"]


def test_the_sphinx_frame_is_the_page_written_beside_the_site_and_sized_to_it(embedded):
    seen = embedded["seen"]["sphinx"]
    built = embedded["site"] / "_build"
    written = sorted((built / FOLDER).glob("*.html"))
    expected = build_page(load_problem(embedded["site"] / "problems" / "causal.toml"))
    assert [p.read_text(encoding="utf-8") for p in written] == [expected]
    base = embedded["urls"]["top"].rsplit("/", 1)[0]
    assert seen["before"].split("#")[0] == f"{base}/site/_build/{FOLDER}/{written[0].name}"
    chapter = (built / "chapter" / "lab.html").read_text(encoding="utf-8")
    assert f'src="../{FOLDER}/{written[0].name}"' in chapter and "srcdoc" not in chapter
    # as tall as the page, up to the window (52em, the height without the host's script, is
    # 832 px), and its 1 px border
    tall = min(seen["pageHeight"] + 2, seen["windowHeight"] - 40)
    assert seen["frameHeight"] == pytest.approx(tall + 2, abs=1) != 832 + 2


def test_the_latex_builder_leaves_the_frame_out(embedded, tmp_path):
    done = sphinx_build(embedded["site"], "latex", tmp_path / "latex")
    assert done.returncode == 0, done.stderr
    tex = next((tmp_path / "latex").glob("*.tex")).read_text(encoding="utf-8")
    assert "iframe" not in tex and "7/3 & 8/3" in tex  # the derivation instead
    assert not Path(tmp_path / "latex" / FOLDER).exists()
