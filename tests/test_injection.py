"""Injection: labels, titles and symbol names reach LaTeX and Markdown as literal, inert text.

The clients are the real ones: the PDF that latexmk (pdfLaTeX and XeLaTeX) makes is read back
with pdftotext, and every math block of the Markdown is rendered by KaTeX with the project's
configuration (tools/katex/check.js: strict, trust false, a maxSize) and read back from its
MathML. Each hostile label must appear there character for character, and nothing may run.
tests/test_render.py pins the escaping itself; this file checks what the clients make of it.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess

import pytest
from clients import KATEX_DIR, compile_tex, katex_errors, math_blocks, need, pdf_text
from conftest import ROOT

import symattn
from symattn import cli
from symattn.targets.markdown import SETUPS, escape_markdown
from symattn.printing.printer import escape_text

CANARY = "symattn_canary"  # relative: it would appear in the folder TeX runs in
LABELS = [
    r"\input{/etc/hostname}",
    rf"\immediate\write18{{touch {CANARY}}}",
    "^^5c^^5cinput",
    r"# $ % & _ { } ~ ^ \ < > |",
    "[CLS]",
    "</script><script>alert(1)</script>",
    "$$x$$",
    "a--b---c ,,d",
    "*em* _u_ ~~s~~ [l](x) <b> ![i](x)",
    r"\(x\) \[y\] \\",
    "%comment",
    r"\end{document}\bye",
    "\u6a21\u578b",
]
"""Hostile labels; each at a row start in the labelled arrays and the heatmap ([CLS] after
a \\\\), in the prose, and as the title. (A single ' or ` prints as a typographic quote in TeX
and KaTeX alike: docs/semantics.md.)"""
TITLE = r"\write18{rm -rf ~} 100% $$ [CLS] </script> ^^5c"
COLUMNS = ["[CLS]", "$$"]


def squash(text: str) -> str:
    """Text without white space: pdftotext guesses spaces from glyph gaps."""
    return re.sub(r"\s+", "", text)


def hostile_trace():
    n = len(LABELS)
    return symattn.attention([[i % 3] for i in range(n)], [[1], [2]], [[1], [2]],
                             tokens=LABELS, key_tokens=COLUMNS, title=TITLE)


@pytest.fixture(scope="module")
def trace():
    return hostile_trace()


# ---------------------------------------------------------------- LaTeX, through TeX


@pytest.mark.parametrize("label, latex", [
    ("a--b", "a-{}-b"), ("a---b", "a-{}-{}-b"), (",,", ",{},"), ("``x''", "`{}`x'{}'"),
    ("?`", "?{}`"), ("!`", "!{}`"), ("x-y, z", "x-y, z"), ("~~s~~", r"\textasciitilde{}" * 2 + "s"
                                                          + r"\textasciitilde{}" * 2),
], ids=["en-dash", "em-dash", "low-quotes", "quotes", "inverted-question", "inverted-bang",
        "single-hyphen-and-comma", "tildes"])
def test_ligatures_are_broken(label, latex):
    assert escape_text(label) == latex


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hostile_labels_print_literally_and_run_nothing_in_tex(trace, lang):
    tex = symattn.render(trace, "latex", lang=lang, standalone=True, figure=True)
    for word in ("input", "write18", "end{document}", "bye"):  # only ever as printed text
        assert not re.search(r"(?<!textbackslash\{\})\\" + re.escape(word), tex.split(
            r"\begin{document}")[1].replace(r"\end{document}" + "\n", "")), word
    pdf = compile_tex(tex, lang)
    text = squash(pdf_text(pdf))
    for label in LABELS + COLUMNS + [TITLE]:
        assert squash(label) in text, label
    assert not (pdf.parent / CANARY).exists()


def test_fragment_compiles_inside_a_host_document(trace):
    """The fragment is \\input into the author's own document: labels stay literal there too."""
    body = symattn.render(trace, "latex", figure=True)
    host = ("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{lmodern}\n"
            "\\usepackage{amsmath,amssymb,tikz,CJKutf8}\n\\usepackage[margin=2cm]{geometry}\n"
            "\\begin{document}\n\\begin{CJK}{UTF8}{gbsn}\n" + body + "\\end{CJK}\n"
            "After the fragment.\n\\end{document}\n")
    text = squash(pdf_text(compile_tex(host, "en", name="host")))
    assert "Afterthefragment." in text
    for label in LABELS + COLUMNS:
        assert squash(label) in text, label


# ---------------------------------------------------------------- Markdown, through KaTeX

_RENDER = r"""
const katex = require(process.argv[1]);
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const rendered = JSON.parse(input).map((item) => katex.renderToString(item.tex,
    Object.assign(OPTIONS, { output: "mathml" })));
  process.stdout.write(JSON.stringify(rendered));
});
"""


def katex_options() -> str:
    """The options object tools/katex/check.js renders with (a JavaScript expression)."""
    script = (KATEX_DIR / "check.js").read_text(encoding="utf-8")
    return re.search(r"renderToString\(item\.tex, (\{.*?\})\);", script, re.S).group(1)


def test_katex_is_configured_with_trust_off_and_a_max_size():
    """Every place the project calls KaTeX (the test client, the course page) uses it so."""
    scripts = [p for p in [*ROOT.glob("tools/*/*.js"), *(ROOT / "symattn").rglob("*.js")]
               if "renderToString(" in p.read_text(encoding="utf-8")]
    assert KATEX_DIR / "check.js" in scripts
    for script in scripts:
        for options in re.findall(r"renderToString\([^,]+, (\{.*?\})\)", script.read_text(
                encoding="utf-8"), re.S):
            assert re.search(r"\btrust: false\b", options), script
            assert re.search(r"\bmaxSize: \d+\b", options), script
            assert re.search(r"\bstrict: \"error\"", options), script


def katex_render(blocks: list[dict]) -> list[str]:
    """Each block rendered by KaTeX with check.js's options, as MathML markup."""
    need(shutil.which("node") is not None, "node is not installed")
    need((KATEX_DIR / "node_modules" / "katex").is_dir(),
         "KaTeX is not installed (npm ci --prefix tools/katex)")
    script = _RENDER.replace("OPTIONS", katex_options())
    done = subprocess.run(["node", "-e", script, str(KATEX_DIR / "node_modules" / "katex")],
                          input=json.dumps(blocks), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def shown(mathml: str) -> str:
    """The text a reader sees in rendered MathML (the TeX source annotation left out)."""
    visible = re.sub(r"<annotation.*?</annotation>", "", mathml, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", visible)).replace("\u00a0", " ")


def test_untrusted_katex_commands_stay_inert():
    rendered = katex_render([{"tex": r"\href{javascript:alert(1)}{x}\url{https://example.org}"
                                     r"\includegraphics{x.png}", "display": False},
                             {"tex": r"\rule{5000em}{5000em}", "display": True}])
    assert not re.search(r"<a\b|href=|<img\b|javascript:", rendered[0].split("<annotation")[0])
    assert 'width="20em"' in rendered[1]  # clamped to maxSize


def commonmark_text(markdown: str) -> str:
    """Prose as a CommonMark renderer shows it: backslash escapes and entities resolved."""
    return html.unescape(re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown))


def test_hostile_labels_render_literally_with_katex(trace):
    md = symattn.render(trace, "markdown", figure=True, detail="full")
    blocks = math_blocks(md)
    assert katex_errors(blocks) == []
    rendered = katex_render(blocks)
    for markup in rendered:
        assert not re.search(r"<a\b|href=|<img\b|<script", markup.split("<annotation")[0])
    text = "\n".join(shown(m) for m in rendered)
    for label in LABELS + COLUMNS:
        assert label in text, label


def test_hostile_labels_stay_prose_in_markdown(trace):
    setups, md = symattn.render(trace, "markdown", figure=True).split("\n\n", 1)
    assert setups == SETUPS  # the one HTML comment, saying which set-ups render the math
    prose = re.sub(r"\$\$\n.*?\n\$\$", "", md, flags=re.S)
    assert "<" not in prose  # no HTML at all: < is &lt;
    shown_prose = commonmark_text(prose)
    assert commonmark_text(escape_markdown(TITLE)) == TITLE
    assert md.startswith("# " + escape_markdown(TITLE) + "\n")
    for label in LABELS:
        assert label in shown_prose, label
        escaped = escape_markdown(label)
        assert re.search(r"(?<!\\)[*_`\[\]$~^|#]", escaped.replace("&lt;", "")
                         .replace("&gt;", "").replace("&amp;", "")) is None, escaped


# ---------------------------------------------------------------- symbol names


SYMBOL_NAMES = ["input", "write18", "begin", "xscr", "xfrak", "xddddot", "xbm", "hslash",
                "varkappa", "lamda", "x__y", "a_b_c", "Digamma", "xnorm"]
"""Names SymPy's printer translates (Greek, modifiers such as xscr = script x, sub- and
superscripts): each must compile in TeX and render in KaTeX; plain names print as letters."""


def symbolic_trace():
    n = len(SYMBOL_NAMES)
    return symattn.attention([[name] for name in SYMBOL_NAMES], [[1]] * n, [[1]] * n,
                             symbols=dict.fromkeys(SYMBOL_NAMES, "real"))


def test_symbol_names_compile_in_tex_and_render_in_katex():
    trace = symbolic_trace()
    md = symattn.render(trace, "markdown", detail="full")
    blocks = math_blocks(md)
    assert katex_errors(blocks) == []
    text = "".join(shown(m) for m in katex_render(blocks))
    assert "input" in text and "begin" in text and "write18" in text
    pdf = pdf_text(compile_tex(symattn.render(trace, "latex", standalone=True), "en"))
    assert "input" in pdf and "begin" in pdf


def test_derivation_names_never_reuse_a_declared_symbol():
    trace = symattn.attention([["a"], [1]], [[1], ["sqrt(2)"]], [[1], [2]], scale="none",
                              symbols={"a": "real"})
    md = symattn.render(trace, "markdown", detail="full")
    assert not re.search(r"(?m)^a &= ", md), md


# --- -o never destroys an input, and writes whole or not at all ----------------------------

EXAMPLE = ROOT / "worked_examples" / "02_causal_three_positions" / "problem.toml"


@pytest.fixture
def folder(tmp_path):
    """A problem, a symbolic link to it, a hard link to it and a class's submissions."""
    problem = tmp_path / "problem.toml"
    problem.write_bytes(EXAMPLE.read_bytes())
    (tmp_path / "link.toml").symlink_to(problem)
    (tmp_path / "hard.toml").hardlink_to(problem)
    (tmp_path / "subs.csv").write_text('id,"A[3]"\nann,"(1/6, 1/2, 1/3)"\n', encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("argv, output, victim", [
    (["solve", "{problem}", "--format", "latex"], "{problem}", "{problem}"),
    (["solve", "{problem}"], "{link}", "{problem}"),
    (["solve", "{link}", "--format", "markdown"], "{problem}", "{link}"),
    (["solve", "{problem}"], "{hard}", "{problem}"),
    (["page", "{problem}"], "{problem}", "{problem}"),
    (["limits", "{problem}"], "{problem}", "{problem}"),
    (["grade", "{problem}", "--submissions", "{subs}"], "{subs}", "{subs}"),
    (["grade", "{problem}", "--submissions", "{subs}"], "{problem}", "{problem}"),
    (["problemset", "{folder}"], "{problem}", "{hard}"),  # the set's first file, hard-linked
], ids=["solve-itself", "through-a-symlink", "onto-a-symlinks-target", "hard-link", "page",
        "limits", "grade-submissions", "grade-problem", "problemset-member"])
def test_output_that_is_an_input_is_refused(folder, capsys, argv, output, victim):
    names = {"problem": folder / "problem.toml", "link": folder / "link.toml",
             "hard": folder / "hard.toml", "subs": folder / "subs.csv", "folder": folder}
    before = {p: p.read_bytes() for p in folder.iterdir()}
    fill = {k: str(v) for k, v in names.items()}
    code = cli.main([a.format(**fill) for a in argv] + ["-o", output.format(**fill)])
    err = capsys.readouterr().err
    assert code == 2
    assert err == (f"error: {output.format(**fill)}: -o would overwrite the input "
                   f"{victim.format(**fill)}; write the output elsewhere\n")
    assert {p: p.read_bytes() for p in folder.iterdir()} == before
    assert (folder / "link.toml").is_symlink()


def test_output_is_written_whole_or_not_at_all(folder, monkeypatch, capsys):
    from symattn.cli import output
    target = folder / "out.tex"
    target.write_text("the previous derivation\n", encoding="utf-8")
    target.chmod(0o640)

    def full_disk(*_):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(output.os, "replace", full_disk)
    argv = ["solve", str(folder / "problem.toml"), "--format", "latex", "-o", str(target)]
    assert cli.main(argv) == 2
    assert capsys.readouterr().err == f"error: {target}: cannot write: No space left on device\n"
    assert target.read_text(encoding="utf-8") == "the previous derivation\n"
    assert sorted(p.name for p in folder.iterdir()) == ["hard.toml", "link.toml", "out.tex",
                                                        "problem.toml", "subs.csv"]
    monkeypatch.undo()
    assert cli.main(argv) == 0
    assert target.read_text(encoding="utf-8").startswith(r"\section")
    assert target.stat().st_mode & 0o777 == 0o640  # an existing file keeps its mode


def test_a_symbolic_link_at_the_output_is_replaced_not_followed(folder):
    elsewhere = folder / "elsewhere.txt"
    elsewhere.write_text("keep me\n", encoding="utf-8")
    out = folder / "out.txt"
    out.symlink_to(elsewhere)
    assert cli.main(["solve", str(folder / "problem.toml"), "-o", str(out)]) == 0
    assert not out.is_symlink() and "A = softmax(L)" in out.read_text(encoding="utf-8")
    assert elsewhere.read_text(encoding="utf-8") == "keep me\n"
