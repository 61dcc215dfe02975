"""The conformance matrix: every kind of problem through every command, every format and both
languages, run through the command line's entry point. No cell may exit 3 or print a
traceback; a kind a command takes gives 0 or 1, a kind it does not take is refused with exit 2
and one line saying why; and an option changes the output where it should.

Seven kinds come from published exercises nobody here wrote (tests/corpus 22-28); three more are
the book's conventions written here: a problem laid out in columns with biases, [[heads]] in
columns, and num_heads splitting whole projections with biases as nn.MultiheadAttention does.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from symattn.cli.main import main
from symattn.kinds import kind_of, refusal
from symattn.parse.spec import load_problem

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES, CORPUS = ROOT / "worked_examples", ROOT / "tests" / "corpus"

SYMBOLIC_HEADS = """title = "Two heads, one symbol"
[symbols]
theta = "positive"
[input]
X = [["theta", 0], [0, 1], [1, 1]]
W_O = [[1, 0], [0, 1], [1, 1]]
[attention]
mask = "causal"
[[heads]]
W_Q = [[1], [0]]
W_K = [["ln(2)"], [0]]
W_V = [[1], [0]]
[[heads]]
W_Q = [[0], [1]]
W_K = [[0], ["ln(3)"]]
W_V = [[0, 1], [1, 0]]
attention = {mask = "none", scale = "none"}
[derivation]
lang = "zh"
"""

COLUMNS_BIASES = """title = "The book's layout, three tokens with biases"
tokens = ["a", "b", "c"]
[input]
layout = "columns"
X = [[1, 0, 1], [0, 1, 1]]
W_Q = [[1, 0], [0, "ln(2)"]]
W_K = [["ln(3)", 0], [0, 1]]
W_V = [[1, 2], [0, 1]]
b_Q = [0, 1]
b_K = [[1], [0]]
b_V = ["1/2", -1]
[attention]
mask = "causal"
"""

COLUMNS_HEADS = """title = "Two heads in the book's layout"
[input]
layout = "columns"
X = [[1, 0, 1], [0, 1, 1]]
W_O = [[1, 0, 1], [0, 1, 1]]
b_O = [0, 1]
[[heads]]
W_Q = [[1, 0]]
W_K = [["ln(2)", 0]]
W_V = [[1, 0]]
b_Q = [1]
[[heads]]
W_Q = [[0, 1]]
W_K = [[0, "ln(3)"]]
W_V = [[0, 1], [1, 0]]
b_V = [0, 1]
attention = {mask = "causal"}
"""

SPLIT_HEADS = """title = "Two heads split from whole projections"
[input]
num_heads = 2
X = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]
W_Q = [[1, 0, 0, 1], [0, 1, 1, 0], [0, 0, 1, 0], [1, 0, 0, 0]]
W_K = [["ln(2)", 0, 0, 0], [0, 1, 0, 0], [0, 0, "ln(3)", 0], [0, 0, 0, 1]]
W_V = [[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0], [1, 0, 1, 0]]
W_O = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
b_Q = [0, 0, 1, 0]
b_O = [1, 0, 0, -1]
[attention]
mask = "causal"
"""

SCORES_WITH_D_K = """title = "Scaled scores from a book that states d_k = 64"
tokens = ["Thinking", "Machines"]
[input]
S = [[14, 12], [12, 14]]
d_k = 64
V = [[1, 0], [0, 1]]
[attention]
mask = "causal"
"""

BATCHED_INPUTS = """title = "Inputs pasted from batched printouts"
[input]
Q = '''tf.Tensor(
[[[1. 0.]
  [0. 1.]
  [1. 1.]]], shape=(1, 3, 2), dtype=float32)'''
K = [[[1, 0], [0, 1], [1, 1]]]
V = {value = "[[[1, 2], [3, 4], [5, 6]], [[0, 1], [1, 0], [1, 1]]]", index = [1]}
[answers]
A = {value = "[[[0.5, 0.5, 0.0]], [[0.3, 0.3, 0.4]], [[0.2, 0.3, 0.5]]]"}
"""

MASK_BIAS_ROWS = """title = "-1e4 masks, temperature 2, a row that masks every key"
tokens = ["PAD", "a", "b"]
[input]
Q = [[1, 0], [0, 1], [1, 1]]
K = [[1, 0], [0, 1], [1, 1]]
V = [[1, 0], [0, 1], [1, 1]]
[attention]
key_lengths = [0, 2, 3]
mask_bias = "-1e4"
temperature = 2
"""

KINDS = {
    "single-head": EXAMPLES / "02_causal_three_positions/problem.toml",
    "cross-attention, padding": EXAMPLES / "06_cross_attention_padding/problem.toml",
    "shapes only": EXAMPLES / "07_cross_attention_shapes/problem.toml",
    "symbols, sweep": EXAMPLES / "09_parameter_sweep/problem.toml",
    "projections": EXAMPLES / "11_policy_raises_wages_jobs/problem.toml",
    "multi-head": EXAMPLES / "12_two_heads/problem.toml",
    "symbolic temperature": EXAMPLES / "14_symbolic_temperature/problem.toml",
    "symbolic multi-head": SYMBOLIC_HEADS,  # texts are written to a temporary folder
    "columns, biases": COLUMNS_BIASES,
    "columns multi-head": COLUMNS_HEADS,
    "num_heads split, biases": SPLIT_HEADS,
    "published multi-head": CORPUS / "22_blazewild_two_heads_split/problem.toml",
    "published projections": CORPUS / "23_tausif_random_weights/problem.toml",
    "published padding scores": CORPUS / "24_mystic_padding_mask_scores/problem.toml",
    "published scores": CORPUS / "25_learnnlp_scores_seed42/problem.toml",
    "published -1e9 mask, batched printout": CORPUS / "26_dlai_c5w4_padding_mask_softmax/problem.toml",
    "published -1e9 mask": CORPUS / "27_dlai_c5w4_attention_unit_test/problem.toml",
    "published columns, biases": CORPUS / "28_prince_udl_self_attention/problem.toml",
    "scores with the book's d_k": SCORES_WITH_D_K,
    "inputs from batched printouts": BATCHED_INPUTS,
    "-1e4 mask, a fully masked row": MASK_BIAS_ROWS,
}

CELLS = [("solve", ["--format", to, "--lang", lang])
         for to in ("text", "json", "latex", "markdown") for lang in ("en", "zh")]
CELLS += [("solve", ["--format", to, "--lang", lang, "--checks", checks])
          for to, lang, checks in (("latex", "zh", "full"), ("markdown", "en", "none"))]
CELLS += [("check", ["--lang", lang]) for lang in ("en", "zh")]
CELLS += [("verify", ["--answers", "{wrong}", "--format", to, "--lang", lang])
          for to in ("text", "json") for lang in ("en", "zh")]
CELLS += [("grade", ["--submissions", "{csv}", "--lang", "zh", "-q"]),
          ("mistakes", ["--format", "json"]), ("mistakes", ["--lang", "zh"]),
          ("mistakes", ["--format", "latex", "--width", "book"]),
          ("mistakes", ["--format", "markdown", "--lang", "zh"]),
          ("limits", []), ("limits", ["--format", "latex", "--lang", "zh"]),
          ("sweep", ["--format", "markdown"]), ("gradient", ["--loss", "sum"]), ("nonunique", ["--lang", "zh"]),
          ("page", ["--lang", "zh"]), ("problemset", ["--format", "markdown"]),
          ("problemset", ["--format", "latex", "--checks", "full", "--lang", "zh"])]

NEEDS = {"sweep": "[sweep]"}
"""A table the file must have for the command; without it, exit 2 and one line is right."""
SYMBOLS_REFUSED = {("limits", "symbols, sweep"): "substitute the symbols with --subs",
                   ("nonunique", "symbols, sweep"): "give them values first",
                   ("nonunique", "symbolic temperature"): "give them values first"}
"""Cells whose answer depends on the symbols' values: refused in a sentence that says what to do."""
BOUNDED = {("limits", "published projections"): "took more than 20 s of CPU time"}
"""Cells bounded by a CPU budget (SymPy's limits of 8-place decimal logits, LIMITS_CPU_SECONDS):
answered, or refused in a sentence saying so (SymPy's cache may finish a second run in time)."""


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    """Each kind's problem file, with a wrong claim and a class's CSV beside it."""
    out = {}
    base = tmp_path_factory.mktemp("conformance")
    for kind, path in KINDS.items():
        folder = base / kind.replace(" ", "_").replace(",", "")
        folder.mkdir()
        target = folder / "problem.toml"
        if isinstance(path, str):
            target.write_text(path, encoding="utf-8")
        else:
            shutil.copy(path, target)
        out[kind] = target
    return out


def _claims(problem) -> tuple[str, str]:
    """A wrong claim on O (on shape(O) for a shapes-only problem) and the same as a CSV row."""
    if kind_of(problem) == "shapes":
        return 'shape(O)', "1x1"
    rows = problem.heads[0].n_q if hasattr(problem, "heads") else problem.n_q
    cols = problem.W_O.cols if hasattr(problem, "heads") else problem.d_v
    if problem.layout == "columns":  # O as the book writes it: one column per query
        rows, cols = cols, rows
    return "O", "[" + ", ".join("[" + ", ".join(["7"] * cols) + "]" for _ in range(rows)) + "]"


def _argv(command: str, options: list[str], path: Path) -> list[str]:
    problem = load_problem(path)
    key, value = _claims(problem)
    aside = path.parent.with_name(path.parent.name + "_claims")  # not in a problem set's folder
    aside.mkdir(exist_ok=True)
    wrong, csv = aside / "wrong.toml", aside / "class.csv"
    wrong.write_text(f'[answers]\n"{key}" = "{value}"\n', encoding="utf-8")
    csv.write_text(f'id,{key}\ns1,"{value}"\ns2,"__import__(\'os\')"\n', encoding="utf-8")
    target = str(path.parent) if command == "problemset" else str(path)
    return [command, target] + [o.format(wrong=wrong, csv=csv) for o in options]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command, options", CELLS,
                         ids=[" ".join([c, *o]).replace("{", "").replace("}", "") for c, o in CELLS])
def test_every_cell_of_the_matrix(kind, command, options, files, capsys, tmp_path):
    path = files[kind]
    argv = _argv(command, options, path)
    if command in ("grade", "page", "problemset"):
        argv += ["-o", str(tmp_path / "out")]
    code = main(argv)
    out, err = capsys.readouterr()
    assert code != 3, err
    assert "Traceback" not in err + out
    problem = load_problem(path)
    taken = refusal(problem, command) is None
    missing = NEEDS.get(command) and NEEDS[command].strip("[]") not in \
        path.read_text(encoding="utf-8")
    if (command, kind) in BOUNDED and code == 2:
        assert BOUNDED[command, kind] in err and err.count("\n") == 1, err
    elif (command, kind) in SYMBOLS_REFUSED:
        assert code == 2 and SYMBOLS_REFUSED[command, kind] in err and err.count("\n") == 1, err
    elif taken and not missing:
        assert code in (0, 1), err
        assert out or (tmp_path / "out").exists()
    else:
        assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    if command == "verify" and code != 2:
        assert code == 1  # the claim is wrong on purpose


OPTION_CHANGES = [
    (["--lang", "zh"], ["--lang", "en"]),
    (["--detail", "summary"], ["--detail", "textbook"]),
    (["--detail", "full"], ["--detail", "textbook"]),
    (["--row", "1"], ["--row", "2"]),
    (["--places", "2"], ["--places", "6"]),
    (["--numbered"], []),
    (["--width", "250pt"], ["--width", "500pt"]),
    (["--checks", "full"], []),
    (["--checks", "none"], ["--checks", "short"]),
]


@pytest.mark.parametrize("kind", ["single-head", "multi-head", "projections",
                                  "published multi-head", "published -1e9 mask", "columns, biases",
                                  "columns multi-head", "num_heads split, biases"])
@pytest.mark.parametrize("one, other", OPTION_CHANGES, ids=[" ".join(a) for a, _ in OPTION_CHANGES])
def test_an_option_changes_the_derivation(kind, one, other, files, capsys):
    """Every layout, detail and checks option reaches the derivation, multi-head as
    single-head."""
    texts = []
    for options in (one, other):
        assert main(["solve", str(files[kind]), "--format", "latex", *options]) == 0
        texts.append(capsys.readouterr().out)
    assert texts[0] != texts[1]


EIGHT = EXAMPLES.parent / "tests" / "wide" / "eight_causal.toml"
ANALYSIS_COMMANDS = [("gradient", EIGHT, ["--loss", "sum"]), ("nonunique", EIGHT, []),
                     ("limits", EIGHT, []), ("mistakes", EIGHT, []),
                     ("sweep", EXAMPLES / "09_parameter_sweep" / "problem.toml", [])]
LAYOUT_CHANGES = [(["--numbered"], []), (["--heading-level", "subsection"], []),
                  (["--label-prefix", "an:x"], []), (["--width", "200pt"], ["--width", "600pt"]),
                  (["--standalone"], []), (["--preamble"], [])]


@pytest.mark.parametrize("command, path, extra", ANALYSIS_COMMANDS,
                         ids=[c for c, _, _ in ANALYSIS_COMMANDS])
def test_layout_options_reach_every_analysis(command, path, extra, capsys):
    """solve's layout options, settled by jobs.settle, change every analysis document; a bad
    width is one line and exit 2."""
    for one, other in LAYOUT_CHANGES:
        texts = []
        for options in (one, other):
            assert main([command, str(path), "--format", "latex", *extra, *options]) == 0
            texts.append(capsys.readouterr().out)
        assert texts[0] != texts[1], (command, one)
    assert main([command, str(path), "--format", "latex", "--width", "1cm", *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "width '1cm'" in err and err.count("\n") == 1, err
    assert main([command, str(path), "--format", "text", "--preamble", *extra]) == 2
    assert capsys.readouterr().err == "error: --preamble goes with --format latex\n"


def test_the_files_language_is_every_commands_default(files, capsys):
    """[derivation] lang = "zh" reaches check and verify, not only solve."""
    path = files["symbolic multi-head"]
    main(["check", str(path)])
    assert "头" in capsys.readouterr().out
    argv = _argv("verify", ["--answers", "{wrong}"], path)
    assert main(argv) == 1
    report = capsys.readouterr().out
    assert "答案核对" in report and "Verification" not in report, report


def test_no_problem_file_of_the_project_exits_3(capsys):
    """check and verify on every worked example and published exercise: never exit 3."""
    for path in sorted([*EXAMPLES.glob("*/problem.toml"), *CORPUS.glob("*/problem.toml")]):
        for command in ("check", "verify"):
            code = main([command, str(path)])
            err = capsys.readouterr().err
            assert code in (0, 1, 2) and "Traceback" not in err, (command, path, err)


def test_the_api_settles_multi_head_options_as_single_head_ones():
    """render() refuses a bad format or language for every kind with one error type, and its
    options reach a multi-head derivation."""
    from symattn import attend, load_problem, render
    from symattn.exact.heads import attend_heads
    from symattn.jobs import OptionError

    heads = attend_heads(load_problem(KINDS["multi-head"]))
    single = attend(load_problem(KINDS["single-head"]))
    for trace in (heads, single):
        with pytest.raises(OptionError, match="unknown format 'bogus'"):
            render(trace, "bogus")
        with pytest.raises(OptionError, match="unknown language 'fr'"):
            render(trace, "latex", lang="fr")
        with pytest.raises(OptionError, match="row must be from 1 to 3"):
            render(trace, "latex", row=4)
    summary = render(heads, "markdown", detail="summary")
    assert summary != render(heads, "markdown") and "W_O =" in summary


def test_every_problem_the_generator_writes_goes_through_every_command(tmp_path, capsys):
    """generate --kind all, then each file through solve, check and mistakes, and the folder as
    one problem set (a multi-head problem stopped the set)."""
    folder = tmp_path / "set"
    assert main(["generate", "--kind", "all", "--count", "1", "--seed", "3", "-o", str(folder)]) == 0
    files = sorted(folder.glob("*.toml"))
    assert any("[[heads]]" in f.read_text(encoding="utf-8") for f in files)
    for path in files:
        for argv in (["solve", str(path), "--format", "latex", "--lang", "zh"],
                     ["check", str(path)], ["mistakes", str(path)]):
            assert main(argv) == 0, (argv, capsys.readouterr().err)
    capsys.readouterr()
    assert main(["problemset", str(folder), "--format", "markdown"]) == 0
    assert "MHA" in capsys.readouterr().out


def test_mistakes_of_a_multi_head_problem_reach_its_output(files, capsys):
    """Each head's mistakes, then what each does to MHA(X) when every head makes it: omitting
    the causal mask changes head 1 of example 12, so the output's first row."""
    assert main(["mistakes", str(files["multi-head"])]) == 0
    out = capsys.readouterr().out
    assert "MHA'(X) = [[22/15, 4/3], [26/21, 10/7], [48/35, 10/7]]" in out


def _float32_printout(problem) -> str:
    """O as a float32 printout would give it: 8 significant figures, the last one off by one
    (within float32 precision, not the exact value rounded); integers exactly, and a value
    below float32's smallest normal number (a leak through a -1e9 mask) as 0.0, as float32
    prints it."""
    from symattn.answers.verify import facts_of
    from symattn.numeric import context, to_mpf
    from symattn.numeric_decimals import magnitude

    ctx = context(30)

    def entry(x) -> str:
        if x.is_Integer:
            return str(x)
        if abs(to_mpf(ctx, x, {})) < ctx.mpf(2) ** -126:
            return "0.0"
        places = 7 - (magnitude(x) or 0)
        units = int(ctx.nint(to_mpf(ctx, x, {}) * ctx.mpf(10) ** places)) + 1
        return f"{units}e-{places}"

    O = facts_of(problem).matrices["O"]
    return "[" + ", ".join("[" + ", ".join(entry(x) for x in row) + "]" for row in O.tolist()) + "]"


RULED = [kind for kind in KINDS if kind not in ("shapes only", "symbols, sweep", "symbolic temperature",
                                                "symbolic multi-head")]


@pytest.mark.parametrize("kind", RULED)
def test_the_files_grading_rule_reaches_every_verb_that_judges(kind, files, tmp_path, capsys):
    """[grading] rule = "float32" in the problem file: verify (its own [answers] or an answers
    file without [grading]), grade and the Sphinx directive's answers accept a float32 printout
    of O; without the rule each says it agrees to float32 precision."""
    from symattn.sphinx.content import shown

    text = files[kind].read_text(encoding="utf-8")
    printout = _float32_printout(load_problem(files[kind]))
    answers = tmp_path / "answers.toml"
    answers.write_text(f'[answers]\nO = "{printout}"\n', encoding="utf-8")
    subs = tmp_path / "class.csv"
    subs.write_text(f'id,O\nann,"{printout}"\n', encoding="utf-8")
    for ruled in (True, False):
        path = tmp_path / f"{ruled}.toml"
        own = "" if "[answers]" in text else f'[answers]\nO = "{printout}"\n'
        path.write_text(text + "\n" + own + ('[grading]\nrule = "float32"\n' if ruled else ""),
                        encoding="utf-8")
        code = main(["verify", str(path), "--answers", str(answers)])
        out = capsys.readouterr().out
        assert code == (0 if ruled else 1), out
        assert ruled or "agree with the exact values to float32 precision" in out, out
        report = tmp_path / f"{ruled}.csv"
        assert main(["grade", str(path), "--submissions", str(subs), "-q", "-o", str(report)]) == 0
        graded = report.read_text(encoding="utf-8")
        assert (",correct," in graded) is ruled and (ruled or 'rule = ""float32""' in graded), graded
        if own:
            literal = shown(path, "answers", None, None, "section").literal
            assert ("[correct] O" in literal) is ruled, literal
    capsys.readouterr()
