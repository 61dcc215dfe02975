"""Derivations on paper: every worked example and the wide cases, English (pdfLaTeX) and Chinese
(XeLaTeX), as a standalone article and as a fragment \\input into a book with only the lines
`--preamble` prints, compile with zero overfull boxes (none too wide, none too high, a matrix
taller than a page included), and so do the published exercises of tests/corpus; no phrase is
left with an empty value (", ,", "with , gives", "记，得"); the lesson's Example 2 fits one page.
So does every analysis document (gradient, limits, sweep, nonunique, mistakes, problemset) of
the worked examples and of the wide cases, its Chinese title from title_zh. `-k NAME` compiles
the selected cases alone."""

from __future__ import annotations

import itertools
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest
from clients import compile_tex
from conftest import MULTI_HEAD, ROOT, SHAPE_ONLY, VALUE_EXAMPLES

from symattn import cli
from symattn.exercises.generator import KINDS as SET_KINDS
from symattn.exercises.generator import Settings, generate, write_problems

WIDE = sorted((ROOT / "tests" / "wide").glob("*.toml"))
TALL = sorted((ROOT / "tests" / "tall").glob("*.toml"))
CORPUS = sorted((ROOT / "tests" / "corpus").glob("*/problem.toml"))  # published exercises
SOURCES = VALUE_EXAMPLES + sorted(MULTI_HEAD | SHAPE_ONLY) + WIDE + TALL + CORPUS
KINDS = ("article", "book")
FIVE = ROOT / "worked_examples" / "05_five_tokens_temperature" / "problem.toml"
DETAILS = {path: ("textbook", "full", "summary") if path in WIDE else
           ("textbook", "summary") if path == FIVE or path in TALL else ("textbook",)
           for path in SOURCES}
"""The default detail everywhere; the wide cases every row step by step and in summary too, the
five tokens and the tall case in summary (a display of more lines than a page holds)."""


def _name(path) -> str:
    if path.name != "problem.toml":
        return path.stem
    return f"corpus-{path.parent.name}" if path.parent.parent.name == "corpus" else path.parent.name


def _solve(capsys, path, lang: str, *extra: str) -> str:
    assert cli.main(["solve", str(path), "--format", "latex", "--lang", lang, *extra]) == 0
    return capsys.readouterr().out


def _document(capsys, path, lang: str, kind: str, detail: str) -> str:
    """The standalone article, or a book (ctexbook) holding the fragment as a numbered chapter
    with labels, after a chapter of its own (so page heads carry the fragment's titles)."""
    if kind == "article":
        return _solve(capsys, path, lang, "--standalone", "--detail", detail)
    fragment = _solve(capsys, path, lang, "--heading-level", "section", "--numbered",
                      "--label-prefix", "ex:one", "--detail", detail)
    preamble = _solve(capsys, path, lang, "--preamble")
    book = "ctexbook" if lang == "zh" else "book"
    return (f"\\documentclass{{{book}}}\n{preamble}\\begin{{document}}\n\\chapter{{Attention}}\n"
            f"Text before the example.\n\n{fragment}\n\\end{{document}}\n")


def _compile(capsys, wanted: list[tuple]) -> dict:
    """Each wanted (path, language, kind, detail) compiled once, two at a time: its log, pages
    and source, by (name, language, kind, detail)."""
    jobs = {(_name(path), lang, kind, detail): _document(capsys, path, lang, kind, detail)
            for path, lang, kind, detail in wanted}

    def one(item):
        """(log, pages, source); a document that does not compile gives its TeX errors as the
        log and no pages, so that its own test fails and the others still read their results."""
        (name, lang, kind, detail), text = item
        try:
            pdf = compile_tex(text, lang, name=f"{name}-{lang}-{kind}-{detail}")
        except AssertionError as error:
            return (name, lang, kind, detail), (f"did not compile:\n{error}", 0, text)
        log = pdf.with_suffix(".log").read_text(encoding="utf-8", errors="replace")
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
        pages = int(re.search(r"Pages:\s+(\d+)", info.stdout).group(1))
        return (name, lang, kind, detail), (log, pages, text)
    with ThreadPoolExecutor(2) as pool:
        return dict(pool.map(one, jobs.items()))


class _Results(dict):
    """The compiled documents by (name, language, kind, detail): the cases the session's
    selected tests ask for compiled together at first, any other when it is first read (so that
    `-k dk64` compiles the d_k = 64 documents alone)."""

    def __init__(self, capsys, wanted: list[tuple]):
        super().__init__(_compile(capsys, wanted))
        self.capsys = capsys

    def __missing__(self, key):
        name, lang, kind, detail = key
        path = next(p for p in SOURCES if _name(p) == name)
        self.update(_compile(self.capsys, [(path, lang, kind, detail)]))
        return self[key]


_RESULTS: dict = {}  # filled by the first test that asks, shared by the rest of the module


@pytest.fixture
def results(capsys, request):
    """The compiled documents (built once; the CLI's output is captured with capsys)."""
    if not _RESULTS:
        keys = ("path", "lang", "kind", "detail")  # this module's selected cases (-k NAME)
        selected = {tuple(item.callspec.params[k] for k in keys) for item in request.session.items
                    if item.module is request.module and getattr(item, "callspec", None)
                    and all(k in item.callspec.params for k in keys)}
        _RESULTS["all"] = _Results(capsys, [c for c in CASES if c in selected])
    _RESULTS["all"].capsys = capsys
    return _RESULTS["all"]


CASES = [(path, lang, kind, detail) for path in SOURCES
         for lang, kind, detail in itertools.product(("en", "zh"), KINDS, DETAILS[path])]


@pytest.mark.parametrize("path, lang, kind, detail", CASES,
                         ids=["-".join((_name(c[0]),) + c[1:]) for c in CASES])
def test_no_overfull_box(results, path, lang, kind, detail):
    log, pages, _ = results[(_name(path), lang, kind, detail)]
    assert pages > 0, log
    overfull = re.findall(r"^Overfull \\hbox \(([\d.]+)pt too wide\)[^\n]*", log, re.M)
    assert overfull == []
    assert "Overfull \\vbox" not in log  # a display taller than the page runs off its foot


EMPTY_PHRASES = (", ,", "with , gives", "with ,", "记，得", "，，", "，。")
"""What a phrase with a missing value leaves: "Exponentiating each row, with , gives"."""


@pytest.mark.parametrize("path, lang, kind, detail", CASES,
                         ids=["-".join((_name(c[0]),) + c[1:]) for c in CASES])
def test_no_empty_phrase(results, path, lang, kind, detail):
    _, _, text = results[(_name(path), lang, kind, detail)]
    assert [phrase for phrase in EMPTY_PHRASES if phrase in text] == []


def test_example_2_fits_one_page_in_english_with_every_row_sum(results):
    _, pages, text = results[("02_causal_three_positions", "en", "article", "textbook")]
    assert pages == 1
    assert r"with sums \(1\), \(10\) and \(6\)" in text


UNDERFULL_VBOX = re.compile(r"^Underfull \\vbox", re.M)
"""A page TeX could not fill (in a book, whose pages are stretched to the foot, a display that
could not break left the rest of the page as stretched glue)."""


def test_example_5_fits_three_pages_and_its_book_pages_fill(results):
    """The textbook derivation of example 05 with its row walk, heatmap and checks paragraph:
    6 pages before its displays could break and before S = R/√d_k and the row walk said once
    what they said twice, 4 while the walk's lines and the rows over Z_i held stacked
    fractions (5 in Chinese); 2 underfull pages in the book then."""
    _, pages, _ = results[("05_five_tokens_temperature", "en", "article", "textbook")]
    assert pages <= 3
    _, pages, _ = results[("05_five_tokens_temperature", "zh", "article", "textbook")]
    assert pages <= 4
    log, _, _ = results[("05_five_tokens_temperature", "en", "book", "textbook")]
    assert UNDERFULL_VBOX.findall(log) == []


def test_the_sweep_fits_four_pages_and_its_book_pages_fill(capsys):
    """Example 09's sweep: 13 pages when every point's exact values were written out (27
    displays) and no display could break; 10 underfull pages in the book."""
    argv = ["sweep", str(ROOT / "worked_examples" / "09_parameter_sweep" / "problem.toml")]
    for kind in KINDS:
        pdf = compile_tex(_analysis(capsys, argv, "en", kind), "en", name=f"sweep-length-{kind}")
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
        log = pdf.with_suffix(".log").read_text(encoding="utf-8", errors="replace")
        assert int(re.search(r"Pages:\s+(\d+)", info.stdout).group(1)) <= (4 if kind == "article"
                                                                          else 5)
        assert UNDERFULL_VBOX.findall(log) == [] and "Overfull" not in log


EXAMPLES = ROOT / "worked_examples"
EIGHT = ROOT / "tests" / "wide" / "eight_causal.toml"
ANALYSES = {
    "gradient-10": ["gradient", EXAMPLES / "10_gradient" / "problem.toml"],
    "gradient-eight": ["gradient", EIGHT, "--loss", "sum"],
    "sweep-09": ["sweep", EXAMPLES / "09_parameter_sweep" / "problem.toml"],
    "nonunique-08": ["nonunique", EXAMPLES / "08_same_output_different_weights" / "problem.toml"],
    "nonunique-eight": ["nonunique", EIGHT],
    "limits-05": ["limits", FIVE],
    "limits-14": ["limits", EXAMPLES / "14_symbolic_temperature" / "problem.toml"],
    "limits-float64": ["limits", ROOT / "tests" / "wide" / "float64_four_tokens.toml"],
    "mistakes-05": ["mistakes", FIVE],
    "mistakes-12": ["mistakes", EXAMPLES / "12_two_heads" / "problem.toml"],
    "problemset": ["problemset", None],  # a generated set of one problem of each single-head kind
    "problemset-worked": ["problemset", "worked"],  # worked_examples/ itself (07 skipped, shapes)
}
"""Each analysis document kind on a worked example, and on the eight-token case where its
displays are widest (before they were fitted: gradient 1223 pt and nonunique 28 boxes too wide,
limits of example 05 1185 pt, the sweep 19 boxes in a book; the derivative of float64 inputs,
its 68-digit exact entries, 2555 pt); the worked examples' problem set, whose answer key ran
897 pt past the margin before it was laid out as the solutions are."""
EMPTY = (", ,", "with , gives", "记，得", "，，", "、、", "（）")
"""What a phrase with an empty value leaves behind."""


def _analysis(capsys, argv: list[str], lang: str, kind: str, to: str = "latex") -> str:
    """The standalone article, or a book holding the fragment as a numbered section with labels
    and only the --preamble lines, as _document does for solve (to: latex, or markdown for the
    article alone)."""
    def run(*extra: str) -> str:
        assert cli.main([*argv, "--format", to, "--lang", lang, *extra]) == 0
        return capsys.readouterr().out
    if kind == "article":
        return run("--standalone")
    fragment = run("--heading-level", "section", "--numbered", "--label-prefix", "an:one")
    book = "ctexbook" if lang == "zh" else "book"
    return (f"\\documentclass{{{book}}}\n{run('--preamble')}\\begin{{document}}\n"
            f"\\chapter{{Attention}}\nText before the analysis.\n\n{fragment}\n\\end{{document}}\n")


_ANALYSED: dict = {}  # filled by the first test that asks, shared by the rest of the module


@pytest.fixture
def analysed(capsys, tmp_path_factory):
    """Every analysis document compiled once, two at a time: (log, pages, source)."""
    if not _ANALYSED:
        folder = tmp_path_factory.mktemp("set")
        write_problems([p for k in SET_KINDS if k != "multihead"
                        for p in generate(Settings(kind=k), 1, seed=11)], folder)
        jobs = {}
        for name, (command, path, *extra) in ANALYSES.items():
            argv = [command, str({None: folder, "worked": EXAMPLES}.get(path, path)), *extra]
            for lang, kind in itertools.product(("en", "zh"), KINDS):
                jobs[(name, lang, kind)] = _analysis(capsys, argv, lang, kind)

        def one(item):
            (name, lang, kind), text = item
            try:
                pdf = compile_tex(text, lang, name=f"{name}-{lang}-{kind}")
            except AssertionError as error:
                return (name, lang, kind), (f"did not compile:\n{error}", 0, text)
            log = pdf.with_suffix(".log").read_text(encoding="utf-8", errors="replace")
            info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True,
                                  check=True)
            return (name, lang, kind), (log, int(re.search(r"Pages:\s+(\d+)", info.stdout).group(1)),
                                        text)
        with ThreadPoolExecutor(2) as pool:
            _ANALYSED.update(pool.map(one, jobs.items()))
    return _ANALYSED


ANALYSIS_CASES = [(name, lang, kind) for name in ANALYSES
                  for lang, kind in itertools.product(("en", "zh"), KINDS)]


@pytest.mark.parametrize("name, lang, kind", ANALYSIS_CASES,
                         ids=["-".join(case) for case in ANALYSIS_CASES])
def test_analysis_has_no_overfull_box_and_no_empty_phrase(analysed, name, lang, kind):
    log, pages, text = analysed[(name, lang, kind)]
    assert pages > 0, log
    assert re.findall(r"^Overfull \\hbox \(([\d.]+)pt too wide\)[^\n]*", log, re.M) == []
    assert "Overfull \\vbox" not in log
    assert [gap for gap in EMPTY if gap in text] == []
    if kind == "article":
        assert "geometry" not in text  # the class's margins: overflow shows as it would in print


def test_chinese_analyses_carry_the_chinese_title(analysed):
    for name in ("gradient-10", "sweep-09", "nonunique-08", "limits-05", "mistakes-05"):
        _, _, text = analysed[(name, "zh", "article")]
        command, path = ANALYSES[name][:2]
        title = re.search(r'^title_zh = "(.*)"', path.read_text(encoding="utf-8"), re.M).group(1)
        english = re.search(r'^title = "(.*)"', path.read_text(encoding="utf-8"), re.M).group(1)
        assert title in text and english not in text, name


def test_limits_count_their_keys_in_words_and_name_nothing_unused(analysed):
    _, _, en = analysed[("limits-05", "en", "article")]
    assert "each of these 1 keys" not in en and "1/1" not in en and "G_{" not in en
    assert (r"\item Row 1: the largest logit is at “模型” alone, which gets all the weight, 1, in "
            r"the cold limit; it is the only key the row reads, so it keeps weight 1 in the hot "
            r"limit too.") in en
    assert r"each of the 5 keys the row reads gets \(1/5\) in the hot limit." in en
    _, _, zh = analysed[("limits-05", "zh", "article")]
    assert "第 5 行：最大 logit 只在 “分配”，低温极限下它得到全部权重 1；高温极限下该行可读取的 5 个 key 各得 " \
        r"\(1/5\)。" in zh


CJK = r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]"
MATH = re.compile(r"\\\[.*?\\\]|\\\(.*?\\\)|\$\$.*?\$\$|\$.*?\$|"
                  r"\\begin\{(align|gather|array|tikzpicture|axis)\*?\}.*?\\end\{\1\*?\}", re.S)
ASCII_BY_CHINESE = re.compile(rf"(?<={CJK}) ?[,;:.()!?]|[,;:()!?] ?(?={CJK})|[,;] (?=[A-Za-z])")
"""An ASCII comma, semicolon, colon, full stop or parenthesis just after or before Chinese text,
or an English list's ", " (math, a TikZ picture and command names taken out first)."""
NOT_THE_TERMS = ("各行之和", "各列之和", "其和为", "查询", "键（", "值（", "行为查询")
"""The sums of the exponentials are 指数之和, the weights' row sums 权重之和 (both were 各行之和);
Q, K and V are query, key and value, as the seed lessons write them (查询/键/值 in one place)."""


def _prose(text: str) -> str:
    """The text a reader reads: no math, commands or comment (Markdown's is for tools)."""
    text = re.sub(r"<!--.*?-->", " ", MATH.sub(" M ", text), flags=re.S)
    return re.sub(r"\\[a-zA-Z]+\*?(\[[^\]]*\])?", " ", text)


def test_every_chinese_document_keeps_its_terms_and_full_width_punctuation(capsys, tmp_path):
    """Every document kind (solve, gradient, limits, sweep, nonunique, mistakes) of every worked
    example that takes it, and a problem set, in Chinese LaTeX and Markdown: no ASCII
    punctuation beside Chinese text outside math, one term for each sum and Q/K/V named as the
    seeds name them (example 09's gradient check wrote "（符号取 theta = 3/7, tau = 5/7）")."""
    write_problems([p for k in SET_KINDS if k != "multihead"
                    for p in generate(Settings(kind=k), 1, seed=11)], tmp_path)
    argvs = [[verb, str(path)] + (["--loss", "sum"] if verb == "gradient" else [])
             for path in sorted(EXAMPLES.glob("*/problem.toml"))
             for verb in ("solve", "gradient", "limits", "sweep", "nonunique", "mistakes")]
    texts = {}
    for argv, to in itertools.product(argvs + [["problemset", str(tmp_path)]], ("latex", "markdown")):
        try:
            texts[(*argv[:2], to)] = _analysis(capsys, argv, "zh", "article", to)
        except AssertionError:  # a kind the verb refuses (exit 2, one sentence on stderr)
            assert "error:" in capsys.readouterr().err
    assert len(texts) == 2 * 62
    for key, text in texts.items():
        prose = _prose(text)
        found = [prose[max(0, m.start() - 20):m.end() + 20] for m in ASCII_BY_CHINESE.finditer(prose)]
        assert found == [], key
        assert [term for term in NOT_THE_TERMS if term in text] == [], key
