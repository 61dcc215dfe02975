"""The interactive course page (symattn page): its data, its HTML, and the page in a real browser.

The browser tests open the generated pages from disk in headless Chromium (Debian's chromium,
driven by playwright-core from tools/browser) and assert on what tools/browser/check_page.js
observed. Without node, KaTeX, Chromium or playwright-core they skip with the reason (they fail
instead when SYMATTN_REQUIRE_CLIENTS=1, as in .ci/run).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import math
import statistics
import os
import re
import shutil
import subprocess
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from string import Formatter

import pytest
from clients import KATEX_DIR, need
from conftest import EXAMPLE_FILES, EXAMPLES, MULTI_HEAD, ROOT, SHAPE_ONLY

from symattn import cli, load_problem, parse_problem
from symattn.errors import InputError
from symattn.page.build import DEFAULT_TEMPERATURES, build_page, compact_css, parse_temperatures, without_comment_lines
from symattn.page.data import MathStore, collect
from symattn.page.katex import ALWAYS, BY_COMMAND, KATEX, VERSION, katex_script
from symattn.words.page import PAGE_PHRASES, page_phrases
from symattn.words import LANGUAGES

BROWSER_DIR = ROOT / "tools" / "browser"
ARTIFACTS = ROOT / "build" / "page"
DEMO = ROOT / "worked_examples" / "05_five_tokens_temperature"
COMMITTED = {"en": DEMO / "page.html", "zh": DEMO / "page.zh.html"}
PAGE_EXAMPLES = [p for p in EXAMPLE_FILES if p not in MULTI_HEAD]
LAYOUTS = [(1280, 900), (390, 844), (320, 568)]  # desktop; phones (iPhone 12-15, SE 1st gen)
HOSTILE = """title = "</script><script>alert(1)</script>"
tokens = ["<b>x</b>", "\\\\input{a}", "50%_a&b", "上下文"]
[input]
Q = [[1], [2], [0], [1]]
K = [[0], ["ln(3)"], [1], [0]]
V = [[2], [0], [4], [1]]
[attention]
mask = "causal"
"""


def demo_data(lang: str = "en", temperatures: str = DEFAULT_TEMPERATURES) -> tuple[dict, MathStore]:
    store = MathStore()
    problem = load_problem(DEMO / "problem.toml")
    return collect(problem, parse_temperatures(temperatures), lang, store), store


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}


# ---- words, temperatures, data --------------------------------------------------------------

@pytest.mark.parametrize("key", sorted(PAGE_PHRASES))
def test_every_page_phrase_in_both_languages_with_the_same_placeholders(key):
    texts = {lang: page_phrases(lang, heads=True, symbolic=True)[key] for lang in LANGUAGES}
    assert all(texts[lang].strip() for lang in LANGUAGES)
    assert fields(texts["en"]) == fields(texts["zh"])


def test_temperatures_are_read_exactly():
    assert [str(t) for t in parse_temperatures("1/2, 0.85 ,1,3/2,2,sqrt(2)")] == \
        ["1/2", "17/20", "1", "3/2", "2", "sqrt(2)"]


@pytest.mark.parametrize("text, message", [
    ("", "--temperatures: give positive values separated by commas, e.g. 1/2,1,2"),
    ("1,,2", "--temperatures: give positive values separated by commas, e.g. 1/2,1,2"),
    ("1,0", "--temperatures: value 2 ('0') must be positive"),
    ("-1/2", "--temperatures: value 1 ('-1/2') must be positive"),
    ("1,x", "--temperatures: value 2 ('x'): unknown name 'x'"),
    (",".join(["1"] * 13), "--temperatures: 13 values (limit 12)"),
], ids=["empty", "gap", "zero", "negative", "name", "too-many"])
def test_bad_temperatures_are_refused_in_one_line(text, message):
    with pytest.raises(InputError) as caught:
        parse_temperatures(text)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize("asked", ["1e-100", "1e-100,1"])
def test_a_temperature_no_state_can_be_computed_at_is_refused(capsys, tmp_path, asked):
    """At 10^-100 the logits of example 02 are 10^100 ln 3: every state fails, so the value
    asked for is refused in one line (exit 2), not written as a page of error states."""
    out = tmp_path / "page.html"
    code = cli.main(["page", str(EXAMPLES / "02_causal_three_positions" / "problem.toml"),
                     "--temperatures", asked, "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists() and err.count("\n") == 1
    assert err.startswith("error: --temperatures: no state of the page can be computed at "
                          "τ = 1e-100: problem.toml, input: query row ")
    bits = re.search(r"about (\S+) bits", err).group(1)
    assert bits == f"{2e100 * math.log2(3):.2e}"  # exp(2·10^100 ln 3): its size, not 101 digits


def test_the_demo_data_has_every_state_of_the_controls():
    data, store = demo_data()
    assert [t["key"] for t in data["temperatures"]] == ["1/2", "17/20", "1", "3/2", "2"]
    assert [t["dec"] for t in data["temperatures"]] == ["0.5", "0.85", None, "1.5", None]
    assert data["defaults"] == {"row": 3, "tau": "17/20", "mask": "on", "step": 1}
    assert sorted(data["variants"]) == sorted(f"{k}:{m}" for k in range(5) for m in ("on", "off"))
    assert data["rowLabels"] == ["模型", "根据", "上下文", "分配", "权重"]
    causal = data["variants"]["1:on"]
    assert causal["readable"][2] == [1, 1, 1, 0, 0]
    assert causal["weights"][2] == ["0.376", "0.175", "0.448", "0", "0"]  # the lesson's row
    assert [store.items[cell[0]][0] for cell in causal["tables"]["A"][2][3:]] == ["0", "0"]
    assert [store.items[cell[0]][0] for cell in causal["tables"]["M"][2]] == \
        ["0", "0", "0", r"-\infty", r"-\infty"]
    assert causal["outputs"][2] == ["1.273", "0.624"] and causal["passed"] is True
    hot = data["variants"]["3:on"]
    assert hot["weights"][2][3:] == ["0", "0"] and hot["weights"][2] != causal["weights"][2]
    assert data["variants"]["1:off"]["readable"][2] == [1, 1, 1, 1, 1]


def test_the_row_derivation_is_the_derivation_renderers_text():
    data, store = demo_data()
    row3 = data["variants"]["1:on"]["rows"][2]
    heading = row3[0]["s"]
    assert "".join(s for s in heading if isinstance(s, str)) == "Row 3 (上下文) step by step"
    displays = [store.items[b["m"]][0] for b in row3 if b["k"] == "d"]
    assert any(r"R_{3,1} &= \mathbf q_{3} \cdot \mathbf k_{1} = 1.34 \cdot 0 + 1 \cdot 1 + "
               r"2 \cdot 1 = 3" in d for d in displays)
    markdown = (DEMO / "derivation.en.md").read_text(encoding="utf-8")
    assert all(d in markdown for d in displays)  # the same math as the Markdown derivation


def test_the_problems_own_temperature_is_added_in_order():
    data, _ = demo_data(temperatures="2,1")
    assert [t["key"] for t in data["temperatures"]] == ["17/20", "1", "2"]
    assert data["defaults"]["tau"] == "17/20"


def test_a_state_that_cannot_be_computed_shows_its_reason():
    text = ('[input]\nQ = [[1], [1]]\nK = [[1], [2]]\nV = [[1], [2]]\n'
            '[attention]\nkeep = [[false, true], [true, true]]\n')
    data = collect(parse_problem(text), parse_temperatures("1"), "en", MathStore())
    assert "query row 1 may read no key" in data["variants"]["0:on"]["error"]
    assert data["variants"]["0:off"]["weights"][0] == ["0", "1"]  # exact: no 0.0000


def test_a_problem_whose_every_state_fails_is_refused(capsys, tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('[input]\nQ = [[1]]\nK = [[1]]\nV = [[1]]\n[attention]\nkeep = [[false]]\n',
                    encoding="utf-8")
    assert cli.main(["page", str(path), "-o", str(tmp_path / "out.html")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "may read no key" in err and err.count("\n") == 1


def test_a_shape_only_problem_gives_its_shapes():
    (path,) = sorted(SHAPE_ONLY)
    data = collect(load_problem(path), [], "en", MathStore())
    assert data["kind"] == "shapes"
    assert data["shapes"]["R"] == [4, 6] and data["shapes"]["O"] == [4, 3]


def test_the_page_stylesheet_loses_only_comments_and_spaces_no_rule_needs():
    css = ('/* a note */\n.a > .b:not(.c) ,  .d :first-child {\n  font-family: "Segoe UI", serif;\n'
           '  margin: 0 0 4px;\n}\n@media (max-width: 700px) { .e { gap: 4px 12px; } }\n')
    assert compact_css(css) == ('.a>.b:not(.c),.d :first-child{font-family:"Segoe UI",serif;margin:0 0 4px}'
                                '@media (max-width:700px){.e{gap:4px 12px}}')
    kept = '.f::after { content: "a , b"; }'  # a string the spacing rules would change: kept whole
    assert compact_css(kept) == kept


def test_the_page_script_loses_its_comments_but_no_string():
    script = ('  // a whole-line comment\n  const a = "x // y"; // gone\n  f(`a // b`, \'c\\\' // d\'); // gone\n'
              '  s.replace(/"/g, "") // kept: the quote in the expression pairs with no other\n  g(1);\n')
    assert without_comment_lines(script) == ('const a = "x // y";\nf(`a // b`, \'c\\\' // d\');\n'
                                             's.replace(/"/g, "") // kept: the quote in the '
                                             'expression pairs with no other\ng(1);')


# ---- the KaTeX symattn ships -------------------------------------------------------------------

def test_the_shipped_katex_is_the_pinned_release():
    """symattn/page/katex/ holds the release files of the KaTeX pinned in tools/katex (refreshed by
    tools/katex_fonts.py), and every face a page may ask for."""
    pinned = json.loads((KATEX_DIR / "package.json").read_text(encoding="utf-8"))
    assert pinned["dependencies"]["katex"] == VERSION
    release = KATEX_DIR / "node_modules" / "katex" / "dist"
    if release.is_dir():
        for name in ("katex.min.js", "katex.min.css"):
            assert (KATEX / name).read_bytes() == (release / name).read_bytes(), name
    coverage = json.loads((KATEX / "fonts" / "coverage.json").read_text(encoding="utf-8"))
    faces = set(ALWAYS).union(*BY_COMMAND.values())
    assert set(coverage) == faces
    assert {p.stem for p in (KATEX / "fonts").glob("*.woff2")} == faces
    assert katex_script().startswith("!function(e,t){")  # the UMD build: defines window.katex


# ---- the HTML ---------------------------------------------------------------------------------

def unpack(html: str, name: str):
    """The content of the page's <script id="symattn-NAME"> (gzip, base64): text, or JSON data."""
    packed = re.search(rf'<script type="application/octet-stream" id="symattn-{name}">([^<]*)<',
                       html).group(1)
    text = gzip.decompress(base64.b64decode(packed)).decode("utf-8")
    return text if name in ("katex", "script") else json.loads(text)


def write_page(job: tuple[str, str, str, Path]) -> None:
    source, text, lang, target = job
    target.write_text(build_page(parse_problem(text, source=source), lang=lang), encoding="utf-8")


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    """Every worked example's page (English), the demo in Chinese, and a page with hostile labels."""
    folder = tmp_path_factory.mktemp("pages")
    sources = {path.parent.name: (path, "en") for path in PAGE_EXAMPLES}
    sources |= {"demo.zh": (DEMO / "problem.toml", "zh"), "hostile": (HOSTILE, "en")}
    out = {name: folder / f"{name}.html" for name in sources}
    jobs = [(str(p) if isinstance(p, Path) else "hostile.toml",
             p.read_text(encoding="utf-8") if isinstance(p, Path) else p, lang, out[name])
            for name, (p, lang) in sources.items()]
    with ProcessPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        list(pool.map(write_page, jobs))  # SymPy in each process; node typesets meanwhile
    return out


@pytest.fixture(scope="module")
def wheel_page(tmp_path_factory) -> Path:
    """The demo's page written by `symattn page` from a wheel installed in a fresh venv, run from
    another folder with no node on PATH (SymPy and mpmath from this environment, no network)."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copyfile(ROOT / name, source / name)
    shutil.copytree(ROOT / "symattn", source / "symattn",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    python = Path(os.sys.executable)
    run = lambda *args, **kw: subprocess.run(args, check=True, capture_output=True, text=True,  # noqa: E731
                                             timeout=300, **kw)
    run(str(python), "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
        "-w", str(work / "dist"), str(source))
    (wheel,) = (work / "dist").glob("symattn-*.whl")
    venv = work / "venv"
    run(str(python), "-m", "venv", "--without-pip", str(venv))
    site = next((venv / "lib").glob("python*/site-packages"))
    import mpmath
    import sympy
    (site / "deps.pth").write_text(f"{Path(sympy.__file__).parents[1]}\n"
                                   f"{Path(mpmath.__file__).parents[1]}\n", encoding="utf-8")
    run(str(python), "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q",
        "--no-deps", "--no-index", str(wheel))
    folder = work / "elsewhere"
    folder.mkdir()
    shutil.copyfile(DEMO / "problem.toml", folder / "problem.toml")
    env = {"PATH": str(venv / "bin"), "HOME": str(work), "LANG": "C.UTF-8"}
    assert shutil.which("node", path=env["PATH"]) is None
    where = run(str(venv / "bin" / "python"), "-c", "import symattn; print(symattn.__file__)",
                cwd=folder, env=env).stdout
    assert where.startswith(str(site)), where  # the wheel's copy, not the checkout's
    run(str(venv / "bin" / "symattn"), "page", "problem.toml", "-o", "page.html", cwd=folder, env=env)
    return folder / "page.html"


def inline(html: str, tag: str) -> list[str]:
    return re.findall(rf"<{tag}(?: [^>]*)?>(.*?)</{tag}>", html, re.S)


def test_pages_are_one_self_contained_file_under_2_mb(pages):
    for name, path in pages.items():
        html = path.read_text(encoding="utf-8")
        assert path.stat().st_size < 2_000_000, name
        assert not re.search(r"\b(src|href|action)\s*=", html), name
        assert set(re.findall(r"url\((\w+):", html)) == {"data"}, name
        assert len(re.findall(r"<script\b", html)) == 5, name


def test_the_policy_allows_only_the_pages_own_scripts_and_style(pages):
    html = pages["05_five_tokens_temperature"].read_text(encoding="utf-8")
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)

    def digest(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"

    loader, katex, script = inline(html, "script")[-1], unpack(html, "katex"), unpack(html, "script")
    style = inline(html, "style")[0]
    assert policy == (f"default-src 'none'; script-src {digest(loader)} {digest(katex)} "
                      f"{digest(script)}; style-src {digest(style)}; "
                      "style-src-attr 'unsafe-inline'; font-src data:; img-src data:; "
                      "base-uri 'none'; form-action 'none'")
    assert katex == katex_script()
    for code in (loader, script):
        assert "eval(" not in code and "Function(" not in code and "innerHTML = data" not in code


def test_labels_are_escaped_and_the_math_is_typeset_strictly(pages):
    html = pages["hostile"].read_text(encoding="utf-8")
    assert "<script>alert" not in html and "<b>x</b>" not in html
    assert "<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; · exact attention lab</title>" \
        in html
    data = unpack(html, "data")
    assert data["rowLabels"] == ["<b>x</b>", "\\input{a}", "50%_a&b", "上下文"]
    math = [tex for tex, _ in unpack(html, "math")]
    assert math and not any(r"\input" in tex or "<b>" in tex for tex in math)  # labels stay text


def test_the_committed_demo_pages_are_current_so_a_page_is_reproducible(pages):
    demo = pages["05_five_tokens_temperature"].read_text(encoding="utf-8")
    for lang, path in COMMITTED.items():
        fresh = demo if lang == "en" else pages["demo.zh"].read_text(encoding="utf-8")
        assert path.is_file() and path.read_text(encoding="utf-8") == fresh, (
            f"{path.relative_to(ROOT)} is out of date: python -m symattn page "
            f"{(DEMO / 'problem.toml').relative_to(ROOT)} --lang {lang} -o {path.relative_to(ROOT)}")


def test_the_page_command_writes_the_page(capsys, tmp_path):
    out = tmp_path / "page.html"
    code = cli.main(["page", str(DEMO / "problem.toml"), "--lang", "zh", "--temperatures", "1,2",
                     "-o", str(out)])
    assert (code, capsys.readouterr().err) == (0, "")
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>\n<html lang=\"zh\">")
    assert "精确注意力实验" in html
    keys = [t["key"] for t in unpack(html, "data")["temperatures"]]
    assert keys == ["17/20", "1", "2"]


# ---- in the browser ---------------------------------------------------------------------------

def chromium() -> str | None:
    """$SYMATTN_CHROMIUM, else Debian's chromium."""
    candidates = (os.environ.get("SYMATTN_CHROMIUM"), shutil.which("chromium"), "/usr/bin/chromium")
    return next((c for c in candidates if c and Path(c).is_file()), None)


@pytest.fixture(scope="module")
def browser(request) -> dict:
    """One run of tools/browser/check_page.js over every page; the screenshots go to build/page/."""
    need(chromium() is not None, "Chromium is not installed (apt-get install chromium)")
    need((BROWSER_DIR / "node_modules" / "playwright-core").is_dir(),
         "playwright-core is not installed (npm ci --prefix tools/browser)")
    pages = request.getfixturevalue("pages")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    demo = str(pages["05_five_tokens_temperature"])
    pages = {**pages, "wheel": request.getfixturevalue("wheel_page")}
    jobs = [{"name": name, "page": str(path), "scenario": "smoke"} for name, path in pages.items()]
    jobs += [{"name": "demo", "page": demo, "scenario": "demo",
              "screenshot": str(ARTIFACTS / "demo.png")},
             {"name": "reduced", "page": demo, "scenario": "reduced"},
             {"name": "free", "page": demo, "scenario": "free"}]
    jobs += [{"name": f"layout-{w}", "page": demo, "scenario": "layout", "width": w, "height": h,
              "screenshot": str(ARTIFACTS / f"layout-{w}.png")} for w, h in LAYOUTS]
    jobs += [{"name": "timing", "page": demo, "scenario": "timing", "runs": 5},
             {"name": "timing-slow", "page": demo, "scenario": "timing", "runs": 3, "slowdown": 4}]
    jobs += [{"name": f"layout-zh-{w}", "page": str(pages["demo.zh"]), "scenario": "layout",
              "width": w, "height": h} for w, h in LAYOUTS[1:]]
    return run_jobs("check_page.js", jobs)


def run_jobs(script: str, jobs: list[dict]) -> dict:
    """Run tools/browser/SCRIPT over the jobs in Chromium; each job's result, none failed."""
    done = subprocess.run(["node", str(BROWSER_DIR / script)],
                          input=json.dumps({"chromium": chromium(), "jobs": jobs}),
                          capture_output=True, text=True, timeout=600, cwd=BROWSER_DIR)
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout)["results"]
    failures = {name: r["failure"] for name, r in results.items() if "failure" in r}
    assert not failures, failures
    return results


def clean(log: dict) -> bool:
    return not log["console"] and not log["pageErrors"] and \
        all(url.startswith(("file:", "data:")) for url in log["requests"])


@pytest.mark.parametrize("name", [p.parent.name for p in PAGE_EXAMPLES] + ["demo.zh", "wheel"])
def test_every_typeset_character_is_in_an_embedded_face(browser, name):
    """Over every state of the page: each character KaTeX set is drawn in a face the page embeds,
    and that face's (subset) font has the character (fonts/coverage.json). Chinese text is left to
    the system's CJK font, as KaTeX's own fonts have no CJK."""
    coverage = json.loads((KATEX / "fonts" / "coverage.json").read_text(encoding="utf-8"))
    styles = {"Regular": ("400", "normal"), "Bold": ("700", "normal"),
              "Italic": ("400", "italic"), "BoldItalic": ("700", "italic")}
    result = browser[name]
    assert result["faces"], result
    for face, chars in result["faces"].items():
        family, style = face.split("-")
        weight, slant = styles[style]
        assert f"{family}/{weight}/{slant}" in result["declared"], face
        missing = {c for c in chars if ord(c) not in coverage[face] and c not in "\u200b\xa0"
                   and not 0x2E80 <= ord(c) <= 0x9FFF and not 0xFF00 <= ord(c) <= 0xFFEF}
        assert not missing, (face, missing)


@pytest.mark.parametrize("name", [p.parent.name for p in PAGE_EXAMPLES] + ["demo.zh", "hostile"])
def test_every_page_opens_offline_and_renders_its_tables(browser, name):
    result = browser[name]
    first = result["first"]
    assert clean(result["log"]), result["log"]
    assert first["error"] is None and first["katexErrors"] == 0 and first["katex"] > 0
    assert "KaTeX_Main" in first["fonts"]  # loaded from its data URL
    assert [s["src"] for s in first["scripts"]] == [""] * 7  # 5 in the file, KaTeX and the page
    given = {"11_policy_raises_wages_jobs": ["X", "W_Q", "W_K", "W_V"]}.get(name, [])
    assert sorted(first["tables"]) == sorted([*"QKVRSMLAO", *given])
    for table in first["tables"].values():
        assert table["shown"] in (None, [table["rows"], table["cols"]])
    assert first["withoutMathML"] == 0  # every formula's MathML copy is in once the page is settled
    for state in result["states"]:  # every row of every temperature and mask
        assert state["katexErrors"] == 0 and state["shownRow"] == str(state["row"])
        assert state["withoutMathML"] == 0
        assert state["error"] or state["derivationMath"] > 0 or state["tau"] is None or \
            (state["tau"] == "1.234" and state["freeNote"])


def test_row_3_with_the_causal_mask_has_zeros_in_columns_4_and_5(browser):
    seen = browser["demo"]["row3Causal"]
    assert seen["state"]["row"] == "3" and seen["state"]["mask"] is True
    row3 = seen["heat"]["3"]
    assert [c["readable"] for c in row3] == [True, True, True, False, False]
    assert [c["text"] for c in row3] == ["0.376", "0.175", "0.448", "0", "0"]
    assert seen["exactA"][2][3:] == ["0", "0"]
    for name in "QRSMLAO":
        assert seen["tables"][name]["current"] == [3], name
    assert seen["tables"]["K"]["current"] == [] and seen["tables"]["V"]["current"] == []
    assert "Masked, weight exactly 0: 分配 (future position), 权重 (future position)." in seen["summary"]
    assert "The rounded weights shown add up to 0.999, not 1" in seen["summary"]  # the lesson's note
    assert seen["checks"] == "passed"


def test_plain_numbers_are_text_in_katex_font_and_keep_their_tex(browser):
    """A formula whose TeX is a plain number (1.4, 0, M's -\\infty) is written as text, minus sign
    and infinity as KaTeX sets them, its TeX in data-tex; anything else is typeset."""
    seen = browser["demo"]["row3Causal"]
    plain = dict(seen["plain"])
    assert plain["-\\infty"] == "\u2212\u221e" and plain["1.4"] == "1.4" and plain["0"] == "0"
    assert all(re.fullmatch(r"-?(\d+(\.\d+)?|\\infty)", tex) for tex in plain), plain
    assert all(text == tex.replace("-", "\u2212").replace("\\infty", "\u221e") for tex, text in plain.items())
    assert all(tex.startswith(r"\frac{") for tex in seen["exactA"][2][:3])  # exact weights: typeset


def shapes(observed: dict) -> dict:
    return {name: (t["rows"], t["cols"], t["shown"]) for name, t in observed["tables"].items()}


def test_changing_the_temperature_changes_the_weights_not_the_shapes(browser):
    demo = browser["demo"]
    causal, hottest, coldest = demo["row3Causal"], demo["hottest"], demo["coldest"]
    assert (causal["state"]["tau"], hottest["state"]["tau"], coldest["state"]["tau"]) == \
        ("17/20", "5", "0.05")
    weights = [[c["weight"] for c in seen["heat"]["3"]] for seen in (causal, hottest, coldest)]
    assert len({tuple(w[:3]) for w in weights}) == 3
    assert all(w[3:] == ["0", "0"] for w in weights)
    assert shapes(causal) == shapes(hottest) == shapes(coldest)
    assert "tau=5&" in hottest["hash"] and "tau=0.05&" in coldest["hash"]
    assert [c["readable"] for c in demo["row3Open"]["heat"]["3"]] == [True] * 5


def test_the_share_url_restores_the_state_after_a_reload(browser):
    before, after = browser["demo"]["before"], browser["demo"]["restored"]
    assert before["hash"] == "#row=2&tau=0.853&mask=off&step=4"  # one slider step above 17/20
    assert before["share"].endswith(before["hash"])
    assert after["hash"] == before["hash"] and after["state"] == before["state"]
    assert after["state"]["step"] == "Step 4 / 5" and after["state"]["mask"] is False
    assert after["heat"] == before["heat"] and not browser["demo"]["sharedLog"]["pageErrors"]


def test_the_walkthrough_steps_by_keyboard(browser):
    steps = browser["demo"]["steps"]
    assert [s["step"] for s in steps] == ["Step 1 / 5", "Step 2 / 5", "Step 5 / 5", "Step 4 / 5",
                                          "Step 2 / 5"]
    assert all(s["tab"] == s["panel"] == s["step"][5] for s in steps)
    assert steps[-1]["focus"] == "walk-tab-2"  # arrows on a tab move the focus with the step
    assert browser["demo"]["normalMotion"]["barTransition"] == "0.7s"
    assert clean(browser["demo"]["log"])


def test_reduced_motion_gives_the_same_steps_without_motion(browser):
    reduced = browser["reduced"]
    assert reduced["first"]["motionNote"] and reduced["first"]["playDisabled"]
    assert reduced["after"]["state"]["step"] == "Step 4 / 5"
    assert reduced["motion"] == {"barTransition": "0s", "cellAnimation": "none"}
    assert clean(reduced["log"])


def test_the_chinese_page_speaks_chinese(browser):
    first = browser["demo.zh"]["first"]
    assert first["lang"] == "zh" and first["state"]["step"] == "第 1 步 / 共 5 步"
    assert first["h1"] == "五个 token、因果掩码、温度 0.85"  # the file's title_zh
    assert first["headings"][:3] == ["打开实验前", "注意力权重矩阵 A", "机制动画：五个步骤"]


def test_hostile_labels_are_shown_literally(browser):
    first = browser["hostile"]["first"]
    assert first["h1"] == "</script><script>alert(1)</script>"
    assert "may read 4 of 4 keys: <b>x</b>, \\input{a}, 50%_a&b, 上下文." in first["summary"]
    assert len(first["scripts"]) == 7  # the five of the file, then KaTeX and the page's own


def test_a_wheel_without_node_writes_the_page_that_a_checkout_writes(browser, pages, wheel_page):
    assert wheel_page.read_bytes() == pages["05_five_tokens_temperature"].read_bytes()
    first = browser["wheel"]["first"]
    assert first["error"] is None and first["katex"] > 100 and first["katexErrors"] == 0
    assert clean(browser["wheel"]["log"]) and len(browser["wheel"]["states"]) == 12


def test_a_screenshot_is_kept_for_review(browser):
    for name in ("demo.png", "demo.full.png"):
        assert (ARTIFACTS / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def float64_row(row: int, tau: float, places: int = 3) -> tuple[list[str], list[str]]:
    """Row `row` of A and O for the demo at temperature tau with the causal mask, in float64 here."""
    problem = load_problem(DEMO / "problem.toml")
    q = [float(x) for x in problem.Q.row(row - 1)]
    logits = [sum(a * float(b) for a, b in zip(q, problem.K.row(j))) / math.sqrt(3) / tau
              for j in range(row)]
    top = max(logits)
    e = [math.exp(x - top) for x in logits]
    weights = [x / sum(e) for x in e]
    out = [sum(w * float(problem.V[j, c]) for j, w in enumerate(weights)) for c in range(2)]
    return [f"{w:.{places}f}" for w in weights], [f"{o:.{places}f}" for o in out]


def test_a_free_temperature_from_a_link_shows_float64_weights_marked_approx(browser):
    linked = browser["free"]["linked"]
    weights, outputs = float64_row(3, 1.234)
    assert linked["hash"] == "#row=3&tau=1.234&mask=on&step=1"
    assert linked["state"]["tau"] == "1.234" and linked["state"]["tauText"].startswith("τ = 1.234")
    assert [c["text"] for c in linked["heat"]["3"]] == [f"≈{w}" for w in weights] + ["0", "0"]
    assert f"Output, row 3 of O: (≈ {outputs[0]}, ≈ {outputs[1]})." in linked["summary"]
    assert "sum to 1 up to float64 rounding" in linked["summary"]
    assert linked["heat"]["1"][0]["text"] == "1"  # one readable key: exactly 1, no ≈
    assert linked["exactA"][2][3:] == [None, None] and linked["checks"] is None
    assert "exact derivation and its checks are given at τ = 1/2, 17/20, 1, 3/2, 2" in \
        linked["derivation"]
    assert clean(browser["free"]["log"])


def test_typed_temperatures_fractions_generated_values_and_reset(browser):
    free = browser["free"]
    assert free["fraction"]["hash"] == "#row=3&tau=5%2F4&mask=on&step=1"
    weights, _ = float64_row(3, 1.25)
    assert [c["text"] for c in free["fraction"]["heat"]["3"]][:3] == [f"≈{w}" for w in weights]
    generated = free["generated"]  # 0.85 is 17/20 exactly: the exact state, its derivation
    assert generated["hash"] == "#row=3&tau=17%2F20&mask=on&step=1"
    assert [c["text"] for c in generated["heat"]["3"]] == ["0.376", "0.175", "0.448", "0", "0"]
    assert generated["exactA"][2][3:] == ["0", "0"] and generated["checks"] == "passed"
    outside = free["outside"]
    assert outside["state"]["tauError"] == ("Give τ between 0.05 and 5, as a decimal or a "
                                            "fraction (1.25 or 5/4).")
    assert outside["hash"] == generated["hash"]
    assert free["reset"]["hash"] == "#row=3&tau=17%2F20&mask=on&step=1"
    assert free["reset"]["state"]["tauError"] is None and free["reset"]["state"]["tau"] == "17/20"


def test_exactly_tied_weights_are_named_as_a_tie(browser):
    summary = browser["13_five_tokens_no_mask"]["first"]["summary"]
    assert "Largest weight: a tie of 2 keys, 模型, 分配, exactly equal (" in summary
    assert "Largest weight: 上下文" in browser["05_five_tokens_temperature"]["first"]["summary"]


def test_keyboard_focus_stays_on_a_button_when_next_or_previous_disables(browser):
    demo = browser["demo"]
    assert demo["atEnd"]["state"]["step"] == "Step 5 / 5" and demo["atEnd"]["focus"] == "walk-prev"
    assert demo["atStart"]["state"]["step"] == "Step 1 / 5"
    assert demo["atStart"]["focus"] == "walk-next"


@pytest.mark.parametrize("name", [f"layout-{w}" for w, _ in LAYOUTS] + ["layout-zh-390", "layout-zh-320"])
def test_no_cell_is_out_of_reach_and_sticky_controls_take_at_most_a_fifth(browser, name):
    seen = browser[name]
    assert seen["unreachable"] == [] and seen["overflow"] <= 0
    assert seen["sticky"]["share"] <= 0.20, seen["sticky"]
    assert clean(seen["log"])


@pytest.mark.parametrize("name", [f"layout-{w}" for w, _ in LAYOUTS] + ["layout-zh-390", "layout-zh-320"])
def test_axe_finds_no_serious_or_critical_violation(browser, name):
    serious = [v for v in browser[name]["axe"] if v["impact"] in ("serious", "critical")]
    assert serious == []


@pytest.mark.parametrize("name", ["layout-320", "layout-zh-320"])
def test_at_320_px_the_page_does_not_scroll_sideways(browser, name):
    """The document is no wider than the 320 px screen (a phone widens its layout viewport to
    the content, so innerWidth would follow a page too wide: the width asked is the measure)."""
    assert browser[name]["overflow"] == 0


def test_on_a_desktop_and_a_large_phone_the_controls_stay_in_view(browser):
    assert browser["layout-1280"]["sticky"]["stuck"] and browser["layout-390"]["sticky"]["stuck"]


def test_page_weight_and_speed_are_measured_and_kept(browser, pages):
    """Recorded, not asserted against a clock (docs/performance.md): the 5-token page's bytes, the
    time to usable (median of 5 loads; of 3 with the CPU slowed 4x) and each control change."""
    size = pages["05_five_tokens_temperature"].stat().st_size
    assert size <= 300_000, size
    record = {"bytes": size}
    for name in ("timing", "timing-slow"):
        seen = browser[name]
        assert all(t > 0 for t in seen["loads"]) and len(seen["changes"]) == 22
        changes = sorted(c["ms"] for c in seen["changes"])
        record[name] = {"usable_ms_median": round(statistics.median(seen["loads"])),
                        "change_ms_median": round(statistics.median(changes)),
                        "change_ms_max": round(changes[-1]),
                        "by_control_ms_median": {k: round(statistics.median(
                            [c["ms"] for c in seen["changes"] if c["name"] == k]))
                            for k in ("row", "tau slider", "mask")},
                        "parts_ms_median": {k: statistics.median(v) for k, v in seen["parts"].items()}}
    (ARTIFACTS / "performance.json").write_text(json.dumps(record, indent=1), encoding="utf-8")
    print(json.dumps(record))


def test_each_zero_weight_has_its_reason_and_rational_weights_are_fractions():
    data, _ = demo_data()
    assert data["variants"]["1:on"]["zeros"][2] == [None, None, None, "future", "future"]
    assert data["variants"]["1:off"]["zeros"][2] == [None] * 5
    padded = collect(load_problem(ROOT / "worked_examples" / "06_cross_attention_padding" /
                                  "problem.toml"), parse_temperatures("1"), "en", MathStore())
    assert "padding" in {reason for row in padded["variants"]["0:off"]["zeros"] for reason in row}
    text = ('[input]\nQ = [[1], [1]]\nK = [[0], [0]]\nV = [[1], [2]]\n'
            '[attention]\nkeep = [[true, false], [true, true]]\n')
    kept = collect(parse_problem(text), parse_temperatures("1"), "en", MathStore())
    assert kept["variants"]["0:off"]["zeros"] == [[None, "entry"], [None, None]]
    assert kept["variants"]["0:off"]["fractions"]["A"] == [[None, None], ["1/2", "1/2"]]
    assert kept["variants"]["0:off"]["fractions"]["O"] == [[None], ["3/2"]]


def test_the_course_answers_of_example_02_are_shown_as_fractions(browser):
    summary = browser["02_causal_three_positions"]["first"]["summary"]
    assert "Weights: A 1/6 ≈ 0.1667, B 1/2 = 0.5, C 1/3 ≈ 0.3333." in summary
    assert "Output, row 3 of O: (7/3 ≈ 2.3333, 8/3 ≈ 2.6667)." in summary
    heat = browser["02_causal_three_positions"]["first"]["heat"]["3"]
    assert [c["text"] for c in heat] == ["1/60.1667", "1/20.5", "1/30.3333"]  # fraction, decimal
    assert "Masked, weight exactly 0: <pad> (padding)." in \
        browser["06_cross_attention_padding"]["first"]["summary"]


def test_a_problem_given_by_projections_shows_x_and_the_three_matrices(browser):
    first = browser["11_policy_raises_wages_jobs"]["first"]
    assert [first["tables"][n]["rows"] for n in ("X", "W_Q", "W_K", "W_V")] == [4, 3, 3, 3]
    assert first["tables"]["X"]["current"] == [4] and first["tables"]["W_Q"]["current"] == []
    assert first["qkvHeadings"] == ["Q = XW_Q", "K = XW_K", "V = XW_V"]


def test_cross_attention_without_a_causal_mask_offers_no_causal_toggle(browser):
    data = collect(load_problem(ROOT / "worked_examples" / "06_cross_attention_padding" /
                                "problem.toml"), parse_temperatures("1"), "en", MathStore())
    assert data["maskLabel"] is None and sorted(data["variants"]) == ["0:off"]
    assert browser["06_cross_attention_padding"]["first"]["maskOffered"] is False
    assert browser["05_five_tokens_temperature"]["first"]["maskOffered"] is True


def test_the_classic_mistakes_panel_shows_each_mistake_beside_the_right_row(browser):
    rows = {r[0]: r[1:] for r in browser["05_five_tokens_temperature"]["first"]["mistakes"]}
    assert rows["Right"] == ["(0.376, 0.175, 0.448, 0.000, 0.000)", "(1.273, 0.624)"]
    problem = load_problem(DEMO / "problem.toml")  # no causal mask: row 3 reads all five keys
    q = [float(x) for x in problem.Q.row(2)]
    logits = [sum(a * float(b) for a, b in zip(q, problem.K.row(j))) / math.sqrt(3) / 0.85
              for j in range(5)]
    e = [math.exp(x - max(logits)) for x in logits]
    weights = [f"{x / sum(e):.3f}" for x in e]
    assert rows["omitting the causal mask"][0] == "(" + ", ".join(weights) + ")"
    assert rows["adding the mask after dividing by τ"] == ["does not apply to this problem"]
    assert len(rows) == 8
