"""Batch grading: CSV reading, per-student verdicts, isolation of slow or crashing answers, hostile text."""

from __future__ import annotations

import csv
import io
import os
import random
import subprocess
import sys
import time

import pytest
from conftest import EXAMPLES

from symattn import cli, load_problem
from symattn.answers import batch
from symattn.answers.batch import grade
from symattn.answers.verify import facts_of
from symattn.errors import InputError
from symattn.parse.submissions import read_submissions

CAUSAL = EXAMPLES / "02_causal_three_positions" / "problem.toml"


def write(tmp_path, text: str, name: str = "subs.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def grade_text(tmp_path, text: str, **options):
    problem = load_problem(CAUSAL)
    subs = read_submissions(write(tmp_path, text))
    return subs, grade(subs, facts_of(problem), problem.grading, {}, **options)


def test_students_are_graded_claim_by_claim(tmp_path):
    subs, graded = grade_text(tmp_path, 'id,A[3],"O[3,1]",shape(O)\n'
                                        'ann,"(1/6, 1/2, 1/3)",2.33,3x2\n'
                                        'ben,"(1/6, 1/3, 1/2)",7/2,\n')
    assert subs.keys == ("A[3]", "O[3,1]", "shape(O)")
    assert [(g.student, [v.status for v in g.verdicts], g.score) for g in graded] == [
        ("ann", ["correct", "correct", "correct"], 3),
        ("ben", ["wrong", "wrong", "invalid"], 0)]


@pytest.mark.parametrize("text, message", [
    ("", "the first line must be a header"),
    ("id\n", "the first line must be a header"),
    ("id,X[1]\n", "line 1, column 2: unknown claim key 'X[1]'"),
    ("id,O[3,1]\n", "a key with a comma must be quoted"),
    ('id,A\nann,1,2\n', "line 2: 3 cells but the header has 2"),
    ('id,A\nann,"unclosed\n', "CSV: unexpected end of data"),
    ("id,A\nann,\x00\n", "NUL character"),
], ids=["empty", "no-claims", "bad-key", "unquoted-comma", "extra-cells", "bad-quote", "nul"])
def test_bad_submission_files(tmp_path, text, message):
    with pytest.raises(InputError, match=message.replace("[", r"\[").replace("]", r"\]")):
        read_submissions(write(tmp_path, text))


def test_bad_utf8_is_refused(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_bytes(b"id,A\nann,\xff\n")
    with pytest.raises(InputError, match="not UTF-8"):
        read_submissions(path)


def test_slow_stuck_and_crashing_answers_cost_their_limits(tmp_path, monkeypatch):
    real_text, real_claim = batch.judge_text, batch.judge_claim

    def judge_text(key, text, *rest):
        if text == "STUCK":  # spends no CPU (as native code that never returns): the wall guard
            time.sleep(60)
        if text == "CRASH":
            os._exit(1)
        return real_text(key, text, *rest)

    def judge_claim(claim, *rest):
        while claim.rows[0][0].text == "BUSY":  # spends CPU time: stopped by the CPU budget
            pass
        return real_claim(claim, *rest)

    monkeypatch.setattr(batch, "judge_text", judge_text)  # forked workers inherit them
    monkeypatch.setattr(batch, "judge_claim", judge_claim)
    monkeypatch.setattr(batch, "wall_limit", lambda seconds: 3.0)
    started = time.monotonic()
    _, graded = grade_text(tmp_path, "id,\"A[3,1]\"\nann,STUCK\nben,1/6\ncid,CRASH\ndan,0.17\n"
                           "eve,BUSY\n", time_limit=0.5)
    assert time.monotonic() - started < 20  # each stuck answer: 3 s, then once more alone
    verdicts = [g.verdicts[0] for g in graded]
    assert [v.status for v in verdicts] == ["time_limit", "correct", "invalid", "correct",
                                            "time_limit"]
    assert verdicts[0].note_values == verdicts[4].note_values == (0.5,)
    assert verdicts[2].note_values == ("the checker stopped on this answer (memory or crash)",)


HOSTILE = [
    "__import__('os').system('touch {canary}')", "open('{canary}', 'w').write('x')",
    "().__class__.__bases__[0].__subclasses__()", "lambda: 1", "9^9^9", "10^10^10",
    "exp(exp(exp(exp(1))))", "2^(2^(2^(2^(2^5))))", "(" * 500 + "1" + ")" * 500, "1/0", "ln(0)",
    "(1/6, 1/2", "[[1,2],[3]]", "x" * 30_000, "\u202e1/3", "1 2 3", "", "sqrt(-1)",
]


def test_a_thousand_submissions_with_hostile_answers(tmp_path, capsys):
    canary = tmp_path / "canary"
    rng = random.Random(7)
    honest = ["(1/6, 1/2, 1/3)", "(0.17, 0.5, 0.33)", "(1/6, 0.5, 0.3)", "(0.2, 0.5, 0.3)"]
    rows = io.StringIO()
    writer = csv.writer(rows)
    writer.writerow(["id", "A[3]", "O[3,1]"])
    hostile_rows = set()
    for i in range(1000):
        if i % 10 == 0:
            hostile_rows.add(f"s{i}")
            cells = [rng.choice(HOSTILE).format(canary=canary) for _ in range(2)]
        else:
            cells = [rng.choice(honest), rng.choice(["7/3", "2.33", "2.4", "14/6"])]
        writer.writerow([f"s{i}"] + cells)
    subs = write(tmp_path, rows.getvalue())
    report = tmp_path / "report.csv"
    code = cli.main(["grade", str(CAUSAL), "--submissions", str(subs), "-o", str(report)])
    out = capsys.readouterr().out
    assert code == 0
    assert not canary.exists()
    table = list(csv.DictReader(report.open(encoding="utf-8")))
    assert len(table) == 1000
    for row in table:
        if row["id"] in hostile_rows:
            assert row["O[3,1]"] in ("invalid", "wrong") and row["O[3,1] feedback"]
        else:
            assert row["O[3,1]"] in ("correct", "wrong")
    assert out.splitlines()[0].startswith("A[3]    ")


def test_grades_do_not_depend_on_load_or_worker_count(tmp_path, capsys):
    """The same class graded with 1, 2 and 8 workers while CPU hogs run beside it: the same report.
    The heavy answers cost about 0.35 s of CPU each (their proof expands a power), well within
    the 1.5 s limit; on a wall clock, 8 workers and 2 hogs sharing 2 cores take about 1.8 s each."""
    problem = EXAMPLES / "01_two_positions" / "problem.toml"
    base = "exp(sqrt(2)/2)/(1+exp(sqrt(2)/2))"
    heavy = (f"{base} + (exp(1/2)+exp(1/3)+exp(1/5)+1)^12 - (exp(1)+exp(2/3)+exp(2/5)+1"
             "+2*exp(5/6)+2*exp(7/10)+2*exp(1/2)+2*exp(8/15)+2*exp(1/3)+2*exp(1/5))^6")
    answers = [heavy, "0.6698", "1/2", heavy.replace("^6", "^6 + 10^-90"), "0.67", "x"] * 4
    rows = ["id,\"A[1,1]\""] + [f"s{k},\"{a}\"" for k, a in enumerate(answers)]
    submissions = write(tmp_path, "\n".join(rows) + "\n")
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    reports = []
    try:
        for workers in (1, 2, 8):
            report = tmp_path / f"report{workers}.csv"
            assert cli.main(["grade", str(problem), "--submissions", str(submissions), "-o",
                             str(report), "--workers", str(workers), "--time-limit", "1.5"]) == 0
            reports.append(report.read_text(encoding="utf-8"))
    finally:
        for hog in hogs:
            hog.kill()
    capsys.readouterr()
    assert reports[0] == reports[1] == reports[2]
    statuses = [row["A[1,1]"] for row in csv.DictReader(io.StringIO(reports[0]))]
    assert statuses == ["correct", "correct", "wrong", "wrong", "correct", "invalid"] * 4
