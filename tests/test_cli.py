"""The command line, in-process through main(argv), plus one run of the installed script."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLE_FILES

from symattn import cli


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def solve_json(capsys, path: Path) -> dict:
    code, out, err = run(capsys, "solve", str(path), "--format", "json")
    assert (code, err) == (0, "")
    return json.loads(out)


def test_json_gives_the_causal_seed_exactly(capsys, example):
    document = solve_json(capsys, example("02_causal_three_positions"))
    assert document["title"] == "Causal attention, three positions"
    assert document["stages"]["A"] == [["1", "0", "0"], ["1/10", "9/10", "0"], ["1/6", "1/2", "1/3"]]
    assert document["stages"]["O"] == [["2", "0"], ["1/5", "18/5"], ["7/3", "8/3"]]
    assert document["stages"]["M"][0] == ["0", "-oo", "-oo"]
    assert document["stages"]["L"][1] == ["0", "2*log(3)", "-oo"]
    assert document["shapes"] == {"Q": [3, 1], "K": [3, 1], "V": [3, 2], "R": [3, 3], "S": [3, 3],
                                  "M": [3, 3], "L": [3, 3], "A": [3, 3], "O": [3, 2]}


def test_json_gives_the_two_position_seed_in_p_q_form(capsys, example):
    A = solve_json(capsys, example("01_two_positions"))["stages"]["A"]
    assert A == [["exp(sqrt(2)/2)/(1 + exp(sqrt(2)/2))", "1/(1 + exp(sqrt(2)/2))"],
                 ["1/(1 + exp(sqrt(2)/2))", "exp(sqrt(2)/2)/(1 + exp(sqrt(2)/2))"]]


@pytest.mark.parametrize("name, row, weights, output", [
    ("03_uniform_weights", 0, ["1/3", "1/3", "1/3"], ["1", "1"]),
    ("04_causal_four_positions", 2, ["1/3", "1/6", "1/2", "0"], ["7/3"]),
], ids=["uniform", "four-position-causal"])
def test_json_gives_the_course_exercises(capsys, example, name, row, weights, output):
    stages = solve_json(capsys, example(name))["stages"]
    assert stages["A"][row] == weights
    assert stages["O"][row] == output


def test_text_shows_labels_exact_values_and_decimals(capsys, example):
    code, out, err = run(capsys, "solve", str(example("02_causal_three_positions")))
    assert code == 0 and err == ""
    assert "  B  1/10  9/10    0" in out
    assert "  C  2.3333  2.6667" in out
    assert "  B  0  2*ln(3)  2*ln(2)" in out


def test_output_file(capsys, example, tmp_path):
    target = tmp_path / "out.json"
    code, out, _ = run(capsys, "solve", str(example("03_uniform_weights")), "--format", "json",
                       "-o", str(target))
    assert code == 0 and out == ""
    assert json.loads(target.read_text(encoding="utf-8"))["stages"]["O"] == [["1", "1"]]


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=[p.parent.name for p in EXAMPLE_FILES])
def test_check_passes_on_every_worked_example(capsys, path):
    code, out, err = run(capsys, "check", str(path))
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "all checks passed"
    assert "[FAIL]" not in out and "[undecided]" not in out


@pytest.mark.parametrize("argv, message", [
    (["solve", "missing.toml"], r"^error: missing\.toml: cannot read file: No such file or directory$"),
    (["solve"], r"^error: symattn solve: the following arguments are required: file"),
    (["frobnicate"], r"^error: symattn: argument command: invalid choice: 'frobnicate'"),
    (["solve", "{example}", "--format", "pdf"], r"^error: symattn solve: argument --format"),
    (["check", "{example}", "--digits", "5"], r"^error: --digits must be from 10 to 1000$"),
    (["solve", "{example}", "-o", "/nonexistent-dir/x.txt"], r"^error: /nonexistent-dir/x\.txt: cannot write"),
], ids=["missing-file", "no-file", "bad-command", "bad-format", "bad-digits", "unwritable-output"])
def test_bad_usage_is_one_line_and_exit_2(capsys, example, argv, message):
    argv = [a.replace("{example}", str(example("03_uniform_weights"))) for a in argv]
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert len(err.splitlines()) == 1
    assert pytest.importorskip("re").match(message, err)


def test_bad_file_names_file_key_and_column(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[input]\nQ = [[1]]\nK = [["2 pi"]]\nV = [[1]]\n', encoding="utf-8")
    code, out, err = run(capsys, "solve", str(bad))
    assert (code, out) == (2, "")
    assert err == f"error: {bad}, input.K[1][1], column 3: implicit multiplication: write '2*pi'\n"


def test_internal_errors_are_one_line_with_exit_3(capsys, example, monkeypatch):
    def broken(problem):
        raise RuntimeError("boom")
    monkeypatch.setattr(importlib.import_module("symattn.cli.solve"), "attend_any", broken)
    code, _, err = run(capsys, "solve", str(example("03_uniform_weights")))
    assert code == 3
    assert err == "error: internal error, please report: RuntimeError: boom\n"


def test_installed_console_script_runs():
    script = Path(sys.executable).parent / "symattn"
    if not script.exists():
        if os.environ.get("CI"):
            pytest.fail(f"the console script is not installed next to {sys.executable}")
        pytest.skip("symattn is not installed in this environment (pip install -e .)")
    example = Path(__file__).parent.parent / "worked_examples/02_causal_three_positions/problem.toml"
    done = subprocess.run([str(script), "solve", str(example), "--format", "json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["stages"]["O"][2] == ["7/3", "8/3"]
    bad = subprocess.run([str(script), "solve", "no-such-file.toml"], capture_output=True,
                         text=True, timeout=120)
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: no-such-file.toml: cannot read file")
    assert "Traceback" not in bad.stderr


def test_python_dash_m_runs_the_same_program():
    done = subprocess.run([sys.executable, "-m", "symattn", "solve", "no-such-file.toml"],
                          capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).parent.parent)
    assert done.returncode == 2
    assert done.stderr == "error: no-such-file.toml: cannot read file: No such file or directory\n"
