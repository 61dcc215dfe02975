"""The progress bar (tqdm) of grade and problemset: on standard error when it is a terminal, off
when it is not and under --quiet; standard output is the same either way."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import struct
import subprocess
import sys
import termios

import pytest
from conftest import EXAMPLES

from symattn.cli import main
from symattn.exercises.generator import Settings, generate, write_problems

CAUSAL = EXAMPLES / "02_causal_three_positions" / "problem.toml"
SUBMISSIONS = ('id,A[3],"O[3,1]",shape(O)\n'
               'ann,"(1/6, 1/2, 1/3)",2.33,3x2\n'
               'bob,"(1/3, 1/3, 1/3)",7/3,2x3\n'
               'cy,"(0.1667, 0.5, 0.3333)",2.3333,3x2\n')
BAR = re.compile(r"grading: 100%\|.*\| 9/9 \[\d\d:\d\d<\d\d:\d\d, +[\d.]+ answers/s\]")
"""tqdm's closing line: 3 students x 3 claims, elapsed<remaining and the rate."""


class Terminal(io.StringIO):
    """A standard error that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def grade_in_a_pty(tmp_path, *extra: str) -> tuple[int, str, str]:
    """`symattn grade` as a user runs it: standard error a real terminal, standard output a pipe."""
    subs = tmp_path / "subs.csv"
    subs.write_text(SUBMISSIONS, encoding="utf-8")
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 100 columns
    run = subprocess.Popen([sys.executable, "-m", "symattn", "grade", str(CAUSAL), "--submissions",
                            str(subs), *extra], stdout=subprocess.PIPE, stderr=follower,
                           cwd=tmp_path)
    os.close(follower)
    err = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        err += chunk
    out = run.stdout.read().decode()
    os.close(leader)
    return run.wait(), out, err.decode()


def test_grade_shows_a_tqdm_bar_on_a_terminal(tmp_path):
    code, out, err = grade_in_a_pty(tmp_path)
    assert code == 0
    last = err.replace("\r", "\n").strip().splitlines()[-1]
    assert BAR.fullmatch(last.strip()), err
    assert "grading" not in out and "%" not in out


def test_quiet_and_a_pipe_show_no_bar_and_the_same_output(tmp_path):
    code, shown, err = grade_in_a_pty(tmp_path)
    quiet = grade_in_a_pty(tmp_path, "--quiet")
    assert quiet == (0, shown, "")
    subs = tmp_path / "subs.csv"
    piped = subprocess.run([sys.executable, "-m", "symattn", "grade", str(CAUSAL),
                            "--submissions", str(subs)], capture_output=True, text=True)
    assert (piped.returncode, piped.stdout, piped.stderr) == (0, shown, "")


@pytest.fixture(scope="module")
def problems(tmp_path_factory):
    directory = tmp_path_factory.mktemp("set")
    write_problems(generate(Settings(kind="causal"), 3, seed=5), directory)
    return directory


@pytest.mark.parametrize("quiet", [False, True])
def test_problemset_bar_counts_the_problems(problems, tmp_path, monkeypatch, quiet):
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    argv = ["problemset", str(problems), "-o", str(tmp_path / "set.md")]
    assert main(argv + (["--quiet"] if quiet else [])) == 0
    if quiet:
        assert err.getvalue() == ""
    else:
        last = err.getvalue().replace("\r", "\n").strip().splitlines()[-1]
        assert re.fullmatch(r"deriving: 100%\|.*\| 3/3 \[.*problems/s\]", last.strip()), last


def test_problemset_without_a_terminal_writes_nothing_to_stderr(problems, tmp_path, monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["problemset", str(problems), "-o", str(tmp_path / "set.md")]) == 0
    assert err.getvalue() == ""


def test_without_tqdm_a_terminal_gets_the_same_output_and_no_bar(problems, tmp_path, monkeypatch):
    """tqdm is the optional extra 'progress': an install without it works the same, silently."""
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setitem(sys.modules, "tqdm", None)  # as if not installed: import fails
    monkeypatch.setattr("symattn.cli.output.find_spec", lambda name: None if name == "tqdm" else 1)
    out = tmp_path / "set.md"
    assert main(["problemset", str(problems), "-o", str(out)]) == 0
    assert err.getvalue() == "" and out.read_text(encoding="utf-8").count("## ") >= 3
