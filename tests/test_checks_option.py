"""--checks short|full|none: how a derivation closes, settled once for every way in, and a check
that does not pass said whichever is chosen."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from symattn import attend, load_problem, render
from symattn.checks.invariants import check
from symattn.cli.main import main
from symattn.derivation import Options, derive
from symattn.documents.checks import check_blocks
from symattn.jobs import OptionError
from symattn.targets.markdown import document

ROOT = Path(__file__).resolve().parent.parent
TWO = ROOT / "worked_examples" / "02_causal_three_positions" / "problem.toml"
HEADS = ROOT / "worked_examples" / "12_two_heads" / "problem.toml"


def _solve(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["solve", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_short_is_the_default_and_one_sentence(capsys):
    code, out, _ = _solve(capsys, str(TWO), "--format", "latex")
    assert code == 0
    assert "All 7 checks pass. Decimals are rounded to 4 places." in out
    assert "Checks}" not in out and "The shapes agree" not in out


def test_full_writes_every_check_under_its_heading(capsys):
    _, out, _ = _solve(capsys, str(TWO), "--format", "latex", "--checks", "full")
    assert "\\subsection*{Checks}\n\nAll 7 checks pass. The shapes agree" in out
    assert "All 3 masked weights are exactly 0." in out


def test_none_leaves_only_the_note_on_decimals(capsys):
    _, out, _ = _solve(capsys, str(TWO), "--format", "markdown", "--lang", "zh", "--checks", "none")
    assert "核对" not in out
    assert out.rstrip().endswith("小数保留 4 位。")


def test_chinese_short_sentence(capsys):
    _, out, _ = _solve(capsys, str(TWO), "--format", "markdown", "--lang", "zh")
    assert "全部 7 项核对均通过。小数保留 4 位。" in out and "## 核对" not in out


def test_every_head_closes_with_its_sentence(capsys):
    _, short, _ = _solve(capsys, str(HEADS), "--format", "markdown")
    assert short.count("All 7 checks pass.") == 2 and "The shapes agree" not in short
    _, full, _ = _solve(capsys, str(HEADS), "--format", "markdown", "--checks", "full")
    assert full.count("The shapes agree") == 2


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_heads_output_check_follows_checks_too(capsys, lang):
    """The multi-head output closed with "Shape: 3 × 2." and its digits and largest difference
    whatever --checks said (an editor: a test log); now one sentence, the numbers with full,
    nothing with none, and the shape said of MHA(X)."""
    said = {}
    for checks in ("short", "full", "none"):
        _, said[checks], _ = _solve(capsys, str(HEADS), "--format", "latex", "--lang", lang,
                                    "--checks", checks)
    digits = {"en": "50-digit mpmath", "zh": "50 位 mpmath"}[lang]
    agrees = {"en": "the output agrees with an independent", "zh": "输出也与独立的"}[lang]
    assert agrees in said["short"] and digits not in said["short"]
    assert digits in said["full"] and r"\(1.6 \times 10^{-61}\)" in said["full"]
    assert "mpmath" not in said["none"].split(r"\operatorname{MHA}(X)\) ")[-1]
    shape = {"en": r"\(\operatorname{MHA}(X)\) is \(3 \times 2\).",
             "zh": r"\(\operatorname{MHA}(X)\) 为 \(3 \times 2\)。"}[lang]
    assert all(shape in text for text in said.values()) and "Shape:" not in said["short"]


def test_the_files_key_and_the_flag_over_it(tmp_path, capsys):
    path = tmp_path / "p.toml"
    path.write_text(TWO.read_text(encoding="utf-8") + '\n[derivation]\nchecks = "full"\n',
                    encoding="utf-8")
    _, out, _ = _solve(capsys, str(path), "--format", "latex")
    assert "The shapes agree" in out
    _, out, _ = _solve(capsys, str(path), "--format", "latex", "--checks", "none")
    assert "checks pass" not in out and "The shapes agree" not in out


def test_a_bad_file_key_is_one_line_naming_it(tmp_path, capsys):
    path = tmp_path / "p.toml"
    path.write_text(TWO.read_text(encoding="utf-8") + '\n[derivation]\nchecks = "brief"\n',
                    encoding="utf-8")
    code, _, err = _solve(capsys, str(path), "--format", "latex")
    assert code == 2 and err.count("\n") == 1
    assert "derivation.checks" in err and "p.toml" in err, err


def test_checks_on_text_is_refused_in_one_line(capsys):
    code, out, err = _solve(capsys, str(TWO), "--checks", "full")
    assert code == 2 and not out
    assert err == ("error: --checks goes with --format latex or markdown (the check command "
                   "reports them in text)\n")


def test_the_api_takes_checks_and_names_it():
    trace = attend(load_problem(TWO))
    assert "The shapes agree" in render(trace, "markdown", checks="full")
    assert "checks pass" not in render(trace, "markdown", checks="none")
    with pytest.raises(OptionError, match="unknown checks 'all'"):
        render(trace, "markdown", checks="all")


def _closing(checks: str, failed: bool | None) -> str:
    """The closing of example 02 with its row-sum check made to fail (or be undecided)."""
    trace = attend(load_problem(TWO))
    report = check(trace)
    results = tuple(replace(r, passed=failed, detail="rows_bad" if failed is False
                            else "rows_undecided", values=(("rows", "2"),))
                    if r.check == "row_sums" else r for r in report.results)
    d = derive(trace, replace(report, results=results), Options(checks=checks))
    return document(check_blocks(d))


@pytest.mark.parametrize("checks", ["short", "none"])
def test_a_failing_check_is_never_hidden(checks):
    text = _closing(checks, False)
    assert "## Checks" in text
    assert "1 of 7 checks do not pass: rows of A sum to 1." in text
    assert "checks pass." not in text


def test_an_undecided_check_is_said_in_one_sentence():
    text = _closing("none", None)
    assert "1 of 7 checks could not be decided: rows of A sum to 1." in text


def test_full_still_says_what_a_failing_check_found():
    text = _closing("full", False)
    assert "1 of 7 checks do not pass." in text and "The shapes agree" in text


def test_the_problem_sets_solutions_take_checks(tmp_path, capsys):
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "a.toml").write_text(TWO.read_text(encoding="utf-8"), encoding="utf-8")
    texts = {}
    for checks in ("short", "full", "none"):
        assert main(["problemset", str(folder), "--format", "markdown", "--checks", checks]) == 0
        texts[checks] = capsys.readouterr().out
    assert "All 7 checks pass." in texts["short"] and "The shapes agree" not in texts["short"]
    assert "The shapes agree" in texts["full"]
    assert "checks pass" not in texts["none"]


def test_the_sphinx_directive_takes_checks():
    pytest.importorskip("sphinx")
    from symattn.sphinx.content import shown

    full = shown(TWO, "derivation", None, None, "paragraph", checks="full")
    assert "The shapes agree" in full.markdown and "The shapes agree" in full.latex
    short = shown(TWO, "derivation", None, None, "paragraph")
    assert "All 7 checks pass." in short.markdown and "The shapes agree" not in short.latex


def test_a_short_irrational_row_is_checked_written_out(capsys):
    """M3: example 09's row in symbols is summed as written, not said in words."""
    sweep = ROOT / "worked_examples" / "09_parameter_sweep" / "problem.toml"
    _, out, _ = _solve(capsys, str(sweep), "--format", "latex")
    assert r"The row sums to 1: \((t_{1} + t_{2})/Z_{1} = 1\)" in out  # over its named sum
    assert "sums to exactly 1" not in out
