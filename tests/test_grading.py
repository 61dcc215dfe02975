"""Batch grading: CSV reading, per-student verdicts, isolation of slow or crashing answers, hostile text."""

from __future__ import annotations

import csv
import faulthandler
import io
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

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
    ('id,"A\n', "line 1: CSV: unexpected end of data"),
    ("id,\x00A\n", "line 1: contains a NUL character"),
], ids=["empty", "no-claims", "bad-key", "unquoted-comma", "header-quote", "header-nul"])
def test_a_file_without_a_readable_header_is_refused(tmp_path, text, message):
    with pytest.raises(InputError, match=message.replace("[", r"\[").replace("]", r"\]")):
        read_submissions(write(tmp_path, text))


BROKEN_ROWS = (
    'id,"A[3,1]","O[3,1]"\n'
    "ann,1/6,7/3\n"
    "ben,1/6,\x00\n"
    "cid,\udcff,7/3\n"
    f"dan,1/6,{'9' * 200_000}\n"
    'eve,"1/6,7/3\n'
    "fay,1/6,2.33\n"
    "gus,1/6\n"
    "hal,1/6,7/3,extra\n"
    '"\u202eida\x1b[2J",1/6,7/3\n'
)


def test_one_bad_row_costs_only_its_own_answers(tmp_path, capsys):
    """A NUL, a byte that is not UTF-8, an over-long cell, a stray quote, a missing and an
    extra cell: each row (or cell) is invalid with its line; everybody else is graded."""
    subs = tmp_path / "subs.csv"
    subs.write_bytes(BROKEN_ROWS.encode("utf-8", "surrogateescape"))
    report = tmp_path / "report.csv"
    assert cli.main(["grade", str(CAUSAL), "--submissions", str(subs), "-o", str(report)]) == 0
    rows = list(csv.reader(report.open(encoding="utf-8", newline="")))[1:]
    assert [(r[0], r[3], r[5]) for r in rows] == [
        ("ann", "correct", "correct"), ("ben", "invalid", "invalid"),
        ("cid", "invalid", "invalid"), ("dan", "invalid", "invalid"),
        ("eve", "invalid", "invalid"), ("fay", "correct", "correct"),
        ("gus", "invalid", "invalid"), ("hal", "invalid", "invalid"),
        ("\\u202eida\\x1b[2J", "correct", "correct")]
    reasons = {r[0]: r[6] for r in rows}
    assert reasons["ben"] == "could not be read: line 3: contains a NUL character"
    assert reasons["cid"] == "could not be read: line 4: not UTF-8 text (the byte 0xFF)"
    assert reasons["dan"] == ("could not be read: line 5: CSV: field larger than field limit "
                              "(131072)")
    assert reasons["eve"] == "could not be read: line 6: CSV: ',' expected after '\"'"
    assert reasons["gus"] == "could not be read: line 8: 2 cells but the header has 3"
    assert reasons["hal"] == "could not be read: line 9: 4 cells but the header has 3"
    assert "\x1b" not in report.read_text(encoding="utf-8") + capsys.readouterr().out


HOSTILE_IDS = ["=cmd|' /C calc'!A0", '=HYPERLINK("http://example.invalid/?x","x")', "+1+2",
               "-0.5", "@SUM(A1)", "\tx", "\rx", "=1+1\x1b[31m"]


def test_report_cells_are_inert_in_a_spreadsheet(tmp_path):
    """Ids and feedback are written as text a spreadsheet does not run (OWASP: a leading
    single quote), read back with Python's csv reader cell by cell."""
    rows = io.StringIO()
    writer = csv.writer(rows)
    writer.writerow(["id", "A[3,1]", "O[3,1]"])
    for k, student in enumerate(HOSTILE_IDS):
        writer.writerow([student, "=1+1" if k % 2 else "-0.5", '=HYPERLINK("x")'])
    subs = write(tmp_path, rows.getvalue())
    report = tmp_path / "report.csv"
    assert cli.main(["grade", str(CAUSAL), "--submissions", str(subs), "-o", str(report)]) == 0
    table = list(csv.reader(report.open(encoding="utf-8", newline="")))
    assert len(table) == 1 + len(HOSTILE_IDS)
    for row in table:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
    assert [row[0] for row in table[1:]] == [
        "'=cmd|' /C calc'!A0", "'=HYPERLINK(\"http://example.invalid/?x\",\"x\")", "'+1+2",
        "'-0.5", "'@SUM(A1)", "x", "x", "'=1+1\\x1b[31m"]  # an id is stripped of blanks


def test_inert_cells():
    from symattn.targets.grades import inert
    assert inert("-0.5") == "'-0.5"  # OWASP: a negative number is text in the report too
    assert inert("0.5") == "0.5" and inert("A[3,1]: given =1+1") == "A[3,1]: given =1+1"
    assert inert("\u202e=1") == "\\u202e=1" and inert("\t=1") == "\\t=1"  # escaped, inert


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
    assert [v.status for v in verdicts] == ["time_limit", "correct", "not_graded", "correct",
                                            "time_limit"]
    assert verdicts[0].note_values == verdicts[4].note_values == (0.5,)
    assert verdicts[2].note_values == ("exit 1",)  # the grader's failure, not the student's


def _segfault_on(text: str, monkeypatch, once: Path | None = None) -> None:
    """Workers (forked: they inherit the patch) die of SIGSEGV on `text`: every time, or only
    the first time when `once` names a file that does not exist yet."""
    real_text = batch.judge_text

    def judge_text(key, answer, *rest):
        if answer == text and (once is None or not once.exists()):
            if once is not None:
                once.touch()
            faulthandler.disable()  # pytest's dump of the worker's stack is not the grader's
            os.kill(os.getpid(), signal.SIGSEGV)
        return real_text(key, answer, *rest)

    monkeypatch.setattr(batch, "judge_text", judge_text)


CLASS = 'id,"A[3,1]","O[3,1]"\nann,1/6,7/3\nben,SEGV,7/3\ncid,1/2,2.33\ndan,0.17,2.4\n'


@pytest.mark.parametrize("lang, line", [
    ("en", "1 answer could not be graded: the grading worker crashed (memory or a crash); rerun "
           "grade, or review it by hand (it counts as neither correct nor wrong)"),
    ("zh", "有 1 个答案未能评分：评分进程崩溃（内存不足或崩溃）；请重新运行 grade 或人工复核"
           "（它既不算正确也不算错误）")])
def test_an_answer_that_crashes_its_worker_twice_is_not_graded(tmp_path, monkeypatch, capsys,
                                                               lang, line):
    """A worker that segfaults on one answer, on the first try and alone again, is the grader's
    failure: that answer is "not graded" with the cause (never invalid or wrong), every other
    grade is exact, the summary counts it, and grade exits 1 without a traceback."""
    _segfault_on("SEGV", monkeypatch)
    report = tmp_path / "report.csv"
    code = cli.main(["grade", str(CAUSAL), "--submissions", str(write(tmp_path, CLASS)), "-o",
                     str(report), "--quiet", "--lang", lang])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in err and "error" not in err, err
    rows = list(csv.DictReader(report.open(encoding="utf-8")))
    assert [(r["id"], r["score"], r["A[3,1]"], r["O[3,1]"]) for r in rows] == [
        ("ann", "2", "correct", "correct"), ("ben", "1", "not_graded", "correct"),
        ("cid", "1", "wrong", "correct"), ("dan", "1", "correct", "wrong")]
    feedback = rows[1]["A[3,1] feedback"]
    assert "SIGSEGV" in feedback
    assert ("not the student's fault" if lang == "en" else "并非学生的错") in feedback
    assert out.splitlines()[-1] == line
    assert ("not graded 1" if lang == "en" else "未评分 1") in out.splitlines()[0]


def test_a_class_without_crashes_says_nothing_of_them(tmp_path, capsys):
    code = cli.main(["grade", str(CAUSAL), "--submissions", str(write(tmp_path, CLASS)),
                     "--quiet"])
    out = capsys.readouterr().out
    assert code == 0 and "could not be graded" not in out and "not graded" not in out
    assert out.splitlines()[-1] == "5 of 8 claims correct"


def test_a_crash_that_does_not_repeat_gives_the_normal_verdict(tmp_path, monkeypatch):
    """A worker that segfaults on a right answer once: judged again alone, it is correct."""
    crashed = tmp_path / "crashed"
    _segfault_on("1/6", monkeypatch, once=crashed)
    _, graded = grade_text(tmp_path, CLASS, workers=2)
    assert crashed.exists()
    assert [[v.status for v in g.verdicts] for g in graded] == [
        ["correct", "correct"], ["invalid", "correct"], ["wrong", "correct"],
        ["correct", "wrong"]]
    _, calm = grade_text(tmp_path, CLASS, workers=2)  # the marker is there: no crash
    assert graded == calm


def test_a_worker_killed_between_answers_costs_no_one_a_grade(tmp_path):
    """The worker is killed (as by the OOM killer) while idle, before the next answer reaches
    it: that answer is judged again, alone, and every grade is as without the kill."""
    killed = []

    def kill_the_worker(done: int, total: int) -> None:
        if done == 2 and not killed:
            [worker] = multiprocessing.active_children()
            os.kill(worker.pid, signal.SIGKILL)
            worker.join(10)
            killed.append(worker.exitcode)

    _, quiet = grade_text(tmp_path, CLASS, workers=1)
    _, graded = grade_text(tmp_path, CLASS, workers=1, progress=kill_the_worker)
    assert killed == [-signal.SIGKILL]
    assert graded == quiet
    assert [[v.status for v in g.verdicts] for g in graded] == [
        ["correct", "correct"], ["invalid", "correct"], ["wrong", "correct"],
        ["correct", "wrong"]]


def test_a_worker_out_of_memory_is_the_graders_failure(tmp_path, monkeypatch):
    """An answer that takes the worker past its memory limit (a MemoryError, not a crash): judged
    again alone, then "not graded", never invalid; the other answers are judged."""
    import resource
    real_text = batch.judge_text

    def judge_text(key, answer, *rest):
        if answer == "HOG":
            return real_text(key, "1/6" * (1 + len(bytearray(2**31))), *rest)
        return real_text(key, answer, *rest)

    used = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    with open("/proc/self/statm") as statm:
        size = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    monkeypatch.setattr(batch, "WORKER_MEMORY_BYTES", max(size, used) + 2**30)
    monkeypatch.setattr(batch, "judge_text", judge_text)
    _, graded = grade_text(tmp_path, CLASS.replace("SEGV", "HOG"))
    verdicts = [g.verdicts[0] for g in graded]
    assert [v.status for v in verdicts] == ["correct", "not_graded", "wrong", "correct"]
    assert verdicts[1].note_values == ("MemoryError",)


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
    The heavy answers cost about 0.08 s of CPU each in a fresh worker (their proof expands a
    power in answers.proof's ring; SymPy's expand() took 1.05 s, past the limit on a slow machine),
    well within the 1.5 s limit whatever the worker has cached."""
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


def test_open_quotes_on_every_line_are_read_in_linear_time(tmp_path):
    """Each line opens a quote that never closes: every row is refused with its line, and the
    file is not read again from every line (hang guard: generous, not a performance goal)."""
    subs = write(tmp_path, 'id,"A[3,1]"\n' + 'x,"1/6\n' * 20_000 + "ann,1/6\n")
    started = time.monotonic()
    submissions = read_submissions(subs)
    assert time.monotonic() - started < 20
    assert len(submissions.students) == 20_001 and len(submissions.refused) == 20_000
    assert submissions.refused[-1] == (19_999, ("read_row", 20_001,
                                                ("row_csv", "unexpected end of data")))
    assert submissions.students[-1] == ("ann", ("1/6",))


def test_a_class_is_graded_under_a_host_memory_limit(tmp_path):
    """A grading host's `ulimit -v` of 1 GiB, below the workers' own limit: the workers start
    (they kept the host's limit instead of failing to raise it) and every answer is judged."""
    import resource
    subs = write(tmp_path, 'id,"A[3,1]"\nann,1/6\nben,1/2\n')
    report = tmp_path / "report.csv"

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    done = subprocess.run([sys.executable, "-m", "symattn", "grade", str(CAUSAL), "--submissions",
                           str(subs), "-o", str(report)], capture_output=True, text=True,
                          preexec_fn=limit, timeout=300)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    rows = list(csv.DictReader(report.open(encoding="utf-8")))
    assert [row["A[3,1]"] for row in rows] == ["correct", "wrong"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl(PR_SET_PDEATHSIG)")
def test_workers_die_with_a_killed_grader(tmp_path):
    """SIGKILL of `grade` mid-class: its workers end too (they were left alive forever)."""
    grader, children = _grading_with_workers(tmp_path, subprocess.DEVNULL)
    grader.kill()
    grader.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(os.path.exists(f"/proc/{c}") and
                                              "Z" not in _state(c) for c in children):
        time.sleep(0.1)
    alive = [c for c in children if os.path.exists(f"/proc/{c}") and "Z" not in _state(c)]
    for child in alive:  # orphans of a failing run do not outlive the test
        os.kill(child, signal.SIGKILL)
    assert alive == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc")
def test_ctrl_c_stops_grading_in_one_line_with_its_workers(tmp_path):
    """Ctrl-C reaches the terminal's whole process group, the workers too: one line, exit 130
    (128 + SIGINT), no worker's traceback, no worker left."""
    grader, children = _grading_with_workers(tmp_path, subprocess.PIPE)
    time.sleep(0.5)  # the workers are judging
    os.killpg(grader.pid, signal.SIGINT)  # as the terminal sends it: to the whole group
    _, err = grader.communicate(timeout=60)
    alive = [c for c in children if os.path.exists(f"/proc/{c}") and "Z" not in _state(c)]
    for child in alive:
        os.kill(child, signal.SIGKILL)
    assert (grader.returncode, err, alive) == (130, "error: interrupted\n", [])


def _grading_with_workers(tmp_path, stderr: int) -> tuple[subprocess.Popen, list[int]]:
    """`grade` of a long class in a session of its own, once its two workers run."""
    rows = ['id,"A[3,1]"'] + [f"s{k},(1+exp(1/2))^{k % 40}/{k + 1}" for k in range(4000)]
    subs = write(tmp_path, "\n".join(rows) + "\n")
    grader = subprocess.Popen([sys.executable, "-m", "symattn", "grade", str(CAUSAL),
                               "--submissions", str(subs), "--quiet"], stdout=subprocess.DEVNULL,
                              stderr=stderr, text=True, start_new_session=True)
    children: list[int] = []
    started = time.monotonic()
    while len(children) < 2 and time.monotonic() - started < 60:
        time.sleep(0.2)
        path = f"/proc/{grader.pid}/task/{grader.pid}/children"
        children = [int(p) for p in open(path).read().split()] if os.path.exists(path) else []
    assert grader.poll() is None and len(children) == 2
    return grader, children


def _state(pid: int) -> str:
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return "Z"


def test_the_report_on_standard_output_keeps_the_summary_apart(tmp_path, capsys):
    """-o -: the CSV report alone on standard output (what a pipe reads), the summary on
    standard error; the same report and summary as with -o FILE."""
    subs = tmp_path / "subs.csv"
    subs.write_text('id,"O[3,1]",A[3]\nann,7/3,"(1/6, 1/2, 1/3)"\nben,2.34,1\n', encoding="utf-8")
    report = tmp_path / "report.csv"
    assert cli.main(["grade", str(CAUSAL), "--submissions", str(subs), "-o", str(report),
                     "--workers", "1"]) == 0
    to_file = capsys.readouterr()
    assert cli.main(["grade", str(CAUSAL), "--submissions", str(subs), "-o", "-",
                     "--workers", "1"]) == 0
    to_stdout = capsys.readouterr()
    assert to_stdout.out == report.read_text(encoding="utf-8") and to_stdout.err == to_file.out
    rows = list(csv.reader(to_stdout.out.splitlines()))
    assert [(r[0], r[3], r[5]) for r in rows[1:]] == [("ann", "correct", "correct"),
                                                      ("ben", "wrong", "wrong")]
