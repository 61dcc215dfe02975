"""Files stay files (issue 33): inputs are read only from regular files of a bounded size, -o
replaces only a regular file (or a link, or a new name), generate writes into a real folder and
never over a file unasked, and no temporary file outlives an interrupted write.

A command that would wait on a FIFO runs in a thread; past HANG_GUARD_SECONDS the test opens the
FIFO's other end to release it and fails, so a regression fails instead of hanging the suite.
Nothing here may replace a device: /dev/null is only named with the writing itself disabled.
"""

from __future__ import annotations

import io
import os
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import ROOT

from symattn import cli, parse_problem
from symattn.cli import output
from symattn.errors import InputError
from symattn.limits import MAX_FILE_BYTES
from symattn.page.build import build_page

EXAMPLE = ROOT / "worked_examples" / "02_causal_three_positions" / "problem.toml"
HANG_GUARD_SECONDS = 60.0  # whole commands: they load SymPy on busy machines
FIFO_REFUSED = "cannot read file: not a regular file (a pipe or FIFO)"


def _without_waiting(call: Callable[[], int], release: Callable[[], None]) -> int:
    """call() in a thread; if it still runs after the guard, release() it and fail."""
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(call()), daemon=True)
    thread.start()
    thread.join(HANG_GUARD_SECONDS)
    if thread.is_alive():
        release()
        thread.join(HANG_GUARD_SECONDS)
        pytest.fail("the command waited on a FIFO or pipe instead of refusing it")
    return result[0]


def _open_other_end(fifo: Path, flags: int) -> Callable[[], None]:
    return lambda: os.close(os.open(fifo, flags))


# --- inputs: regular files only, each of a bounded size ---------------------------------------

@pytest.mark.parametrize("argv", [
    ["solve", "{fifo}"],
    ["verify", str(EXAMPLE), "--answers", "{fifo}"],
    ["grade", str(EXAMPLE), "--submissions", "{fifo}"],
    ["problemset", "{folder}"],
], ids=["problem", "answers", "submissions", "problemset-member"])
def test_a_fifo_as_an_input_is_refused_not_waited_on(tmp_path, capsys, argv):
    fifo = tmp_path / "a.toml"  # the first problem of the folder, too
    os.mkfifo(fifo)
    (tmp_path / "b.toml").write_bytes(EXAMPLE.read_bytes())
    argv = [a.format(fifo=fifo, folder=tmp_path) for a in argv]
    code = _without_waiting(lambda: cli.main(argv), _open_other_end(fifo, os.O_WRONLY))
    assert (code, capsys.readouterr().err) == (2, f"error: {fifo}: {FIFO_REFUSED}\n")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_pipe_as_submissions_is_refused_not_read(capsys):
    reader, writer = os.pipe()
    try:
        argv = ["grade", str(EXAMPLE), "--submissions", f"/dev/fd/{reader}"]
        code = _without_waiting(lambda: cli.main(argv), lambda: os.close(writer))
    finally:
        for end in (reader, writer):
            try:
                os.close(end)
            except OSError:
                pass
    assert (code, capsys.readouterr().err) == (2, f"error: /dev/fd/{reader}: {FIFO_REFUSED}\n")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_device_as_submissions_is_refused_unread(capsys):
    assert cli.main(["grade", str(EXAMPLE), "--submissions", "/dev/zero"]) == 2
    assert capsys.readouterr().err == ("error: /dev/zero: cannot read file: not a regular file "
                                       "(a character device)\n")


def test_a_directory_as_the_problem_is_refused(tmp_path, capsys):
    assert cli.main(["solve", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"error: {tmp_path}: cannot read file: not a regular "
                                       "file (a directory)\n")


def test_max_answers_bytes(tmp_path):
    from symattn.limits import MAX_ANSWERS_BYTES
    from symattn.parse.claims import load_answers
    path = tmp_path / "answers.toml"
    head = b'[answers]\nA = "1"\n'
    path.write_bytes(head + b"#" * (MAX_ANSWERS_BYTES - len(head) - 1) + b"\n")
    assert len(load_answers(path, {})[0]) == 1
    path.write_bytes(head + b"#" * (MAX_ANSWERS_BYTES - len(head)) + b"\n")
    with pytest.raises(InputError, match=rf"^{path}: file is {MAX_ANSWERS_BYTES + 1} bytes "
                                         rf"\(limit {MAX_ANSWERS_BYTES}\)$"):
        load_answers(path, {})


# --- -o: a regular file, a symbolic link or a new name; anything else refused --------------

def _make_fifo(path: Path) -> None:
    os.mkfifo(path)


def _make_socket(path: Path) -> None:
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))


@pytest.mark.parametrize("make, name, reason", [
    (_make_fifo, "out", "not a regular file (a pipe or FIFO)"),
    (_make_socket, "out", "not a regular file (a socket)"),
    (Path.mkdir, "out", "not a regular file (a directory)"),
    (Path.mkdir, "out/", "not a regular file (a directory)"),
    (None, "nodir/", "a name ending in '/' is a folder; -o names a file"),
], ids=["fifo", "socket", "directory", "directory-slash", "missing-folder-slash"])
def test_output_onto_anything_but_a_file_is_refused(tmp_path, capsys, make, name, reason):
    if make:
        make(tmp_path / "out")
    before = {p.name: os.lstat(p).st_mode for p in tmp_path.iterdir()}
    target = f"{tmp_path}/{name}"
    assert cli.main(["solve", str(EXAMPLE), "-o", target]) == 2
    assert capsys.readouterr().err == f"error: {target}: cannot write: {reason}\n"
    assert {p.name: os.lstat(p).st_mode for p in tmp_path.iterdir()} == before  # no nodir


@pytest.mark.skipif(not Path("/dev/null").is_char_device(), reason="needs /dev/null")
def test_output_onto_a_device_is_refused_before_anything_is_written(monkeypatch, capsys):
    def written(*_, **__):
        raise AssertionError("symattn began writing over /dev/null")
    monkeypatch.setattr(output.tempfile, "NamedTemporaryFile", written)  # nothing can be
    monkeypatch.setattr(output.os, "replace", written)  # replaced, whatever the code does
    assert cli.main(["solve", str(EXAMPLE), "-o", "/dev/null"]) == 2
    assert capsys.readouterr().err == ("error: /dev/null: cannot write: not a regular file "
                                       "(a character device)\n")
    assert Path("/dev/null").is_char_device()


def test_a_link_to_a_fifo_at_the_output_is_replaced_not_followed(tmp_path):
    fifo, link = tmp_path / "fifo", tmp_path / "out.txt"
    os.mkfifo(fifo)
    link.symlink_to(fifo)
    assert cli.main(["solve", str(EXAMPLE), "-o", str(link)]) == 0
    assert not link.is_symlink() and "A = softmax(L)" in link.read_text(encoding="utf-8")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


# --- no temporary file outlives an interrupted write ---------------------------------------

def test_ctrl_c_while_writing_leaves_no_temporary_file(tmp_path, monkeypatch, capsys):
    target = tmp_path / "out.txt"
    target.write_text("the previous output\n", encoding="utf-8")

    def interrupted(*_):
        raise KeyboardInterrupt
    monkeypatch.setattr(output.os, "fchmod", interrupted)
    assert cli.main(["solve", str(EXAMPLE), "-o", str(target)]) == 130  # 128 + SIGINT
    assert capsys.readouterr().err == "error: interrupted\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]
    assert target.read_text(encoding="utf-8") == "the previous output\n"


def test_sigterm_while_writing_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "out.txt"
    script = ("import os, signal, sys\n"
              "from symattn import cli\n"
              "from symattn.cli import output\n"
              "output.os.fchmod = lambda *_: os.kill(os.getpid(), signal.SIGTERM)\n"
              f"sys.exit(cli.main(['solve', {str(EXAMPLE)!r}, '-o', {str(target)!r}]))\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, env=env, cwd=ROOT)
    assert (done.returncode, done.stderr) == (130, "error: interrupted\n")
    assert list(tmp_path.iterdir()) == []


# --- generate -o DIR: a real folder, no links, no file overwritten unasked -----------------

GENERATE = ["generate", "--kind", "causal", "--count", "2", "--seed", "4", "-o"]


def test_generate_refuses_existing_files_unless_forced(tmp_path, capsys):
    folder = tmp_path / "set"
    assert cli.main(GENERATE + [str(folder)]) == 0
    first = folder / "causal_001.toml"
    first.write_text("my edits\n", encoding="utf-8")
    capsys.readouterr()
    assert cli.main(GENERATE + [str(folder)]) == 2
    assert capsys.readouterr().err == f"error: {first}: exists (--force overwrites it)\n"
    assert first.read_text(encoding="utf-8") == "my edits\n"
    assert cli.main(GENERATE + [str(folder), "--force"]) == 0
    assert first.read_text(encoding="utf-8").startswith("title = ")


def test_generate_never_writes_through_a_link(tmp_path, capsys):
    folder, victim = tmp_path / "set", tmp_path / "victim"
    victim.write_text("keep me\n", encoding="utf-8")
    folder.mkdir()
    (folder / "causal_002.toml").symlink_to(victim)
    assert cli.main(GENERATE + [str(folder), "--force"]) == 2
    assert capsys.readouterr().err == (f"error: {folder / 'causal_002.toml'}: is a symbolic link "
                                       "(generate does not write through links)\n")
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert [p.name for p in folder.iterdir()] == ["causal_002.toml"]  # none written before


def test_generate_refuses_a_linked_folder(tmp_path, capsys):
    real, link = tmp_path / "real", tmp_path / "link"
    real.mkdir()
    link.symlink_to(real)
    assert cli.main(GENERATE + [str(link)]) == 2
    assert capsys.readouterr().err == (f"error: {link}: is a symbolic link (generate does not "
                                       "write through links)\n")
    assert list(real.iterdir()) == []


def test_generate_refuses_a_fifo_in_the_folder_even_forced(tmp_path, capsys):
    folder = tmp_path / "set"
    folder.mkdir()
    fifo = folder / "causal_001.toml"
    os.mkfifo(fifo)
    code = _without_waiting(lambda: cli.main(GENERATE + [str(folder), "--force"]),
                            _open_other_end(fifo, os.O_RDONLY | os.O_NONBLOCK))
    assert (code, capsys.readouterr().err) == (2, f"error: {fifo}: cannot write: not a regular "
                                                  "file (a pipe or FIFO)\n")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_file_name_with_a_newline_and_an_escape_stays_on_one_inert_line(tmp_path, capsys):
    """The one-line error escapes what a terminal would act on: a newline, ESC (issue 33, Low)."""
    path = tmp_path / "bad\nname\x1b[31m.toml"
    path.write_text("nonsense = [", encoding="utf-8")
    assert cli.main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\x1b" not in err
    assert "bad\\nname\\x1b[31m.toml: TOML syntax" in err


# --- '-': standard input for the problem, standard output for -o ------------------------------

def _stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


@pytest.mark.parametrize("command", ["solve", "check", "verify", "mistakes", "page"])
def test_the_problem_comes_on_standard_input_as_dash(monkeypatch, capsys, command):
    assert cli.main([command, str(EXAMPLE)]) in (0, 1)
    from_file = capsys.readouterr()
    _stdin(monkeypatch, EXAMPLE.read_bytes())
    assert cli.main([command, "-"]) in (0, 1)
    from_stdin = capsys.readouterr()
    if command == "page":  # the page names its source: <stdin>
        problem = parse_problem(EXAMPLE.read_text(encoding="utf-8"), source="<stdin>")
        assert from_stdin.out == build_page(problem) != from_file.out
    else:
        assert from_stdin.out == from_file.out
    assert from_stdin.err == from_file.err


def test_standard_input_is_read_within_the_file_limit(monkeypatch, capsys):
    _stdin(monkeypatch, b"#" * (MAX_FILE_BYTES + 10))
    assert cli.main(["solve", "-"]) == 2
    assert capsys.readouterr().err == \
        f"error: <stdin>: standard input is over {MAX_FILE_BYTES} bytes\n"
    _stdin(monkeypatch, b'[input]\nQ = [[1]]\nK = [[1]]\nV = [["x"]]\n')
    assert cli.main(["solve", "-"]) == 2
    assert capsys.readouterr().err == \
        "error: <stdin>, input.V[1][1], column 1: unknown name 'x'\n"


def test_dash_as_output_is_standard_output_and_no_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["solve", str(EXAMPLE)]) == 0
    plain = capsys.readouterr().out
    assert cli.main(["solve", str(EXAMPLE), "-o", "-"]) == 0
    assert capsys.readouterr().out == plain and not (tmp_path / "-").exists()
    assert cli.main(["solve", str(EXAMPLE), "-o", "./-"]) == 0  # a file named '-', if wanted
    assert (tmp_path / "-").read_text(encoding="utf-8") == plain
    assert cli.main(["generate", "-o", "-"]) == 2
    assert capsys.readouterr().err == \
        "error: -o -: generate writes a folder of files, not standard output\n"
