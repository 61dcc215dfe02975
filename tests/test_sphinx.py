"""The Sphinx extension on a small site built for real: the directive's math is the CLI's, a fixed
problem file rebuilds the page, a broken one is a one-line Sphinx error, and the LaTeX builder's
PDF is symattn's own LaTeX with no overfull box."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clients import math_blocks, need
from conftest import EXAMPLES
from sites import check_math, need_module, sphinx_build

import symattn
from symattn.answers.verify import verify
from symattn.page.build import build_page
from symattn.targets.verdicts import render_verification_text

CAUSAL = EXAMPLES / "02_causal_three_positions" / "problem.toml"
TOKENS = EXAMPLES / "05_five_tokens_temperature" / "problem.toml"
PAGE = """# A course page

```{symattn} problems/causal.toml
```

Between the two.

```{symattn} problems/causal.toml
:lang: zh
:detail: full
```
"""
CONF = 'extensions = ["symattn.sphinx"]\nproject = "course"\nlatex_engine = "xelatex"\n' \
       'latex_elements = {"fontpkg": ""}\nexclude_patterns = ["_build"]\n' \
       'mathjax3_config = {"tex": {"packages": {"[-]": ["noundefined"]}}}\n'
"""xelatex for the Chinese derivation (Latin Modern, Sphinx's FreeSerif is not needed); MathJax
without noundefined, so an unknown macro is an error node instead of red text."""


@pytest.fixture
def site(tmp_path) -> Path:
    (tmp_path / "problems").mkdir()
    shutil.copy(CAUSAL, tmp_path / "problems" / "causal.toml")
    (tmp_path / "conf.py").write_text(CONF, encoding="utf-8")
    (tmp_path / "index.md").write_text(PAGE, encoding="utf-8")
    return tmp_path


def displays(page: str) -> list[str]:
    """The TeX of every display on a built page, without the wrapper Sphinx adds."""
    found = re.findall(r'<div class="math notranslate nohighlight">\s*\\\[(.*?)\\\]\s*</div>', page, re.S)
    return [re.sub(r"^\\begin\{split\}(.*)\\end\{split\}$", r"\1", html.unescape(t).strip(), flags=re.S)
            for t in found]


def test_the_page_shows_the_clis_math_and_follows_the_problem_file(site):
    done = sphinx_build(site, "html", site / "_build")
    assert done.returncode == 0, done.stderr
    page = (site / "_build" / "index.html").read_text(encoding="utf-8")
    trace = symattn.attend(symattn.load_problem(CAUSAL))
    expected = [b["tex"] for lang, detail in (("en", None), ("zh", "full"))
                for b in math_blocks(symattn.render(trace, "markdown", lang=lang, detail=detail))
                if b["display"]]
    assert displays(page) == expected
    assert '<p class="rubric">Causal attention, three positions</p>' in page
    assert '<p class="rubric">手算三位置因果注意力</p>' in page
    assert "8/3" in page and "11/3" not in page
    problem = site / "problems" / "causal.toml"  # V[3,2] = 2 -> 5: O[3,2] = 2 + 5/3 = 11/3
    problem.write_text(problem.read_text(encoding="utf-8").replace("[6, 2]]", "[6, 5]]"),
                       encoding="utf-8")
    again = sphinx_build(site, "html", site / "_build")
    assert again.returncode == 0, again.stderr
    page = (site / "_build" / "index.html").read_text(encoding="utf-8")
    assert r"7/3 &amp; 11/3 \end{array}" in page and r"7/3 &amp; 8/3" not in page


@pytest.mark.parametrize("first", ["myst_nb", "symattn.sphinx"])
def test_beside_myst_nb_a_notebook_page_shows_the_derivation(site, first):
    """Jupyter Book 1's set-up: myst_nb (which carries myst_parser) in either order; a notebook's
    Markdown cell holds the directive, and its math is the CLI's."""
    need_module("myst_nb")
    nbformat = pytest.importorskip("nbformat")
    extensions = [first, "myst_nb" if first == "symattn.sphinx" else "symattn.sphinx"]
    (site / "conf.py").write_text(f"extensions = {extensions!r}\nproject = 'course'\n"
                                  "exclude_patterns = ['_build']\nnb_execution_mode = 'off'\n",
                                  encoding="utf-8")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell(
        "# A notebook\n\n```{symattn} problems/causal.toml\n:lang: zh\n```\n"),
        nbformat.v4.new_code_cell("1 + 1")]
    nbformat.write(notebook, str(site / "notebook.ipynb"))
    (site / "index.md").write_text("# Course\n\n```{toctree}\nnotebook\n```\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", str(site),
                           str(site / "_build" / "html")], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    page = (site / "_build" / "html" / "notebook.html").read_text(encoding="utf-8")
    trace = symattn.attend(symattn.load_problem(CAUSAL))
    expected = [b["tex"] for b in math_blocks(symattn.render(trace, "markdown", lang="zh"))
                if b["display"]]
    assert displays(page) == expected and '<p class="rubric">手算三位置因果注意力</p>' in page


def test_a_broken_problem_file_is_one_line_naming_file_key_and_column(site):
    problem = site / "problems" / "causal.toml"
    problem.write_text(problem.read_text(encoding="utf-8").replace('"ln(2)"', '"ln(2"'),
                       encoding="utf-8")
    done = sphinx_build(site, "html", site / "_build")
    assert done.returncode != 0
    errors = [line for line in done.stderr.splitlines() if "ERROR" in line]
    assert len(errors) == 2 and "Traceback" not in done.stderr
    assert re.fullmatch(r".*index\.md:3: ERROR: symattn: .*problems/causal\.toml, input\.K\[3\]\[1\], "
                        r"column \d+: .+", errors[0]), errors


def test_the_latex_builder_sets_symattns_latex_with_no_overfull_box(site):
    need(shutil.which("latexmk") is not None, "latexmk is not installed")
    shutil.copy(TOKENS, site / "problems" / "tokens.toml")  # English, Chinese token labels
    with (site / "index.md").open("a", encoding="utf-8") as page:
        page.write("\n```{symattn} problems/tokens.toml\n```\n")
    out = site / "_build"
    done = sphinx_build(site, "latex", out)
    assert done.returncode == 0, done.stderr
    tex = (out / "course.tex").read_text(encoding="utf-8")
    trace = symattn.attend(symattn.load_problem(CAUSAL))
    for lang, detail in (("en", None), ("zh", "full")):
        fragment = symattn.render(trace, "latex", lang=lang, detail=detail, heading="paragraph")
        assert fragment.strip() in tex
    assert r"\usepackage[scheme=plain]{ctex}" in tex and "CJKutf8" not in tex  # they clash
    assert r"\begin{CJK}{UTF8}{gbsn}" in tex and r"\newenvironment{CJK}[2]{}{}" in tex
    run = subprocess.run(["latexmk", "-xelatex", "-interaction=nonstopmode", "-halt-on-error",
                          "course.tex"], cwd=out, capture_output=True, text=True, timeout=300)
    log = (out / "course.log").read_text(encoding="utf-8", errors="replace")
    assert run.returncode == 0, [line for line in log.splitlines() if line.startswith("!")]
    assert "Overfull" not in log and "Missing character" not in log


def test_every_derivation_renders_in_mathjax_in_chromium(site):
    done = sphinx_build(site, "html", site / "_build")
    assert done.returncode == 0, done.stderr
    seen = check_math({"index": (site / "_build" / "index.html", "mathjax")})["index"]
    assert seen["typeset"] and seen["errors"] == [] and seen["console"] == []
    assert seen["written"] == seen["rendered"] > 40


def test_answers_a_problem_set_and_a_course_page(site):
    (site / "index.md").write_text(
        "# Formats\n\n```{symattn} problems/causal.toml\n:format: answers\n```\n\n"
        "```{symattn} problems\n:format: problemset\n```\n\n"
        "```{symattn} problems/causal.toml\n:format: page\n```\n", encoding="utf-8")
    done = sphinx_build(site, "html", site / "_build")
    assert done.returncode == 0, done.stderr
    page = (site / "_build" / "index.html").read_text(encoding="utf-8")
    problem = symattn.load_problem(CAUSAL)
    report = render_verification_text(verify(problem))
    assert html.escape(report.splitlines()[1], quote=False) in page
    assert '<p class="rubric">Answer key</p>' in page
    assert "Question 1:" in page.split('<p class="rubric">Answer key</p>')[1]  # its first answer
    frame = re.search(r'<iframe class="symattn-page" src="(_symattn/[0-9a-f]{20}\.html)"', page)
    assert frame and (site / "_build" / frame.group(1)).read_text(encoding="utf-8") == \
        build_page(symattn.load_problem(site / "problems" / "causal.toml"))  # served: test_embed.py


def test_a_problem_set_says_which_file_it_skipped(site):
    """A shapes problem in the set's folder is left out with a warning naming it (it failed the
    whole directive); under -W, as every build here runs, that warning fails the build."""
    (site / "index.md").write_text("# Set\n\n```{symattn} problems\n:format: problemset\n```\n",
                                   encoding="utf-8")
    shapes = CAUSAL.parent.parent / "07_cross_attention_shapes" / "problem.toml"
    shutil.copy(shapes, site / "problems" / "shapes.toml")
    done = sphinx_build(site, "html", site / "_build")
    assert re.search(r"WARNING: symattn: skipped \S*shapes\.toml: 'problemset' does not take "
                     r"this shapes problem", done.stderr), done.stderr
    assert done.returncode == 1 and "Traceback" not in done.stderr
    done = sphinx_build(site, "html", site / "_build", "--keep-going", "-E")
    page = (site / "_build" / "index.html").read_text(encoding="utf-8")
    assert "Question 1:" in page.split('<p class="rubric">Answer key</p>')[1]  # the rest is set
