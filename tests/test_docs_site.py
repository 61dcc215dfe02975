"""The documentation site in docs/ (Sphinx + MyST) built as CI builds it, warnings as errors: every
worked example derived by the directive in both languages, typeset by MathJax in headless Chromium
with no error node, and the API reference generated from the docstrings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT
from sites import check_math, sphinx_build

DOCS = ROOT / "docs"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = sphinx_build(DOCS, "html", out)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_worked_example_is_derived_on_the_site(lang):
    text = (DOCS / "examples" / f"{lang}.md").read_text(encoding="utf-8")
    page = re.sub(r"^````md\n.*?^````$", "", text, flags=re.M | re.S)  # the sample shown as code
    named = re.findall(r"^```\{symattn\} /\.\./worked_examples/(\w+)/problem\.toml\n"
                       + (":lang: zh\n" if lang == "zh" else "") + "```$", page, re.M)
    assert named == sorted(p.parent.name for p in EXAMPLES.glob("*/problem.toml"))


def test_the_sites_math_renders_with_no_error_node(site):
    seen = check_math({lang: (site / "examples" / f"{lang}.html", "mathjax") for lang in ("en", "zh")})
    for lang, page in seen.items():
        assert page["typeset"] and page["errors"] == [] and page["console"] == [], lang
        assert page["written"] == page["rendered"] > 400, lang  # every example (426 in English)


def test_the_api_reference_comes_from_the_docstrings(site):
    page = (site / "api.html").read_text(encoding="utf-8")
    for name in ("symattn.api.render", "symattn.api.attention", "symattn.parse.spec.load_problem",
                 "symattn.api.parameter_sweep", "symattn.errors.InputError"):
        assert f'id="{name}"' in page, name
    assert "Exact attention from matrices given as lists of rows" in page


@pytest.mark.parametrize("name", ["problem-format", "answers", "semantics", "limits", "performance"])
def test_the_guides_are_pages_of_the_site(site, name):
    title = (DOCS / f"{name}.md").read_text(encoding="utf-8").splitlines()[0].lstrip("# ")
    page = (site / f"{name}.html").read_text(encoding="utf-8")
    assert re.sub(r"`([^`]*)`", r"\1", title) in re.sub(r"<[^>]+>", "", page)
