"""What every command shares: exit codes, writing the result, usage errors, a progress bar (tqdm)."""

from __future__ import annotations

import argparse
import os
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.util import find_spec
from pathlib import Path
from typing import TextIO

from ..errors import OutputError, SymattnError
from ..parse.files import not_regular

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a command stopped by Ctrl-C


class UsageError(SymattnError):
    """A bad command line: printed as one line, exit code 2."""


STDOUT = "-"
"""-o -: standard output (a file named '-' is written as -o ./-)."""


def write(text: str, args: argparse.Namespace) -> None:
    """Write to the file named by args.output (-o), or to standard output (none, or '-').

    The file is written whole or not at all: to a temporary file in the same folder, then
    renamed over the output. Only a regular file or a new name is replaced; a symbolic link at
    that path is replaced itself, never written through (whatever it points to, even a
    device). A FIFO, socket, device or directory there, or a name ending in '/', is refused,
    as is an output that is one of the command's inputs. The temporary file is removed on
    every way out that Python sees: an error, Ctrl-C, SIGTERM (turned into KeyboardInterrupt
    while writing).
    """
    output = getattr(args, "output", None)
    if output is None or output == STDOUT:
        sys.stdout.write(text)
        return
    check_output(args)
    target = Path(output)
    data = text.encode("utf-8")
    with _terminate_as_interrupt():
        handle = None
        try:
            mode = target.stat().st_mode & 0o777 if target.is_file() and not target.is_symlink() \
                else 0o666 & ~_umask()
            handle = tempfile.NamedTemporaryFile(dir=target.parent, prefix=f".{target.name}.",
                                                 suffix=".tmp", delete=False)
            with handle:
                handle.write(data)
                handle.flush()
                os.fchmod(handle.fileno(), mode)
            refuse_special_output(output)  # again: nothing may have taken the name meanwhile
            os.replace(handle.name, target)
        except BaseException as error:  # Ctrl-C and SIGTERM too: no temporary file left behind
            if handle is not None:
                Path(handle.name).unlink(missing_ok=True)
            if isinstance(error, OSError):
                raise OutputError(f"{output}: cannot write: {error.strerror or error}") from None
            raise


def check_output(args: argparse.Namespace) -> None:
    """Refuse an -o that is no regular file or new name, or that is one of the inputs."""
    output = getattr(args, "output", None)
    generate = getattr(args, "command", None) == "generate"  # -o is a folder
    if output == STDOUT:
        if generate:
            raise OutputError("-o -: generate writes a folder of files, not standard output")
        return
    if output is not None and not generate:
        refuse_special_output(output)
        refuse_inputs_as_output(args)


def refuse_special_output(output: str) -> None:
    """Refuse writing -o over anything but a regular file, a symbolic link or a new name.

    Raises:
        OutputError: "out/: cannot write: not a regular file (a directory)",
            "/dev/null: cannot write: not a regular file (a character device)", or for a
            missing folder written with a slash, "nodir/: cannot write: a name ending in '/'
            is a folder; -o names a file".
    """
    if not output:
        raise OutputError("-o: cannot write: no file name")
    why = None
    try:  # lstat: a link is replaced, so what it points to does not matter
        mode = os.lstat(output).st_mode
        if not stat.S_ISLNK(mode):
            why = not_regular(mode)
    except FileNotFoundError:  # a new name, unless it must be a folder
        if output.endswith((os.sep, os.altsep or os.sep)):
            why = "a name ending in '/' is a folder; -o names a file"
    except OSError as error:  # "out.txt/": Not a directory
        why = error.strerror or str(error)
    if why is not None:
        raise OutputError(f"{output}: cannot write: {why}")


@contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM raises KeyboardInterrupt in the block (main thread only), so cleanup runs."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt
    previous = signal.getsignal(signal.SIGTERM)
    if previous == signal.SIG_IGN:  # an ignored SIGTERM stays ignored
        yield
        return
    signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def inputs_of(args: argparse.Namespace) -> list[Path]:
    """Every file the command reads: the problem, --answers, --submissions, a set's problems."""
    named = [getattr(args, key, None) for key in ("file", "answers", "submissions")]
    found = [Path(name) for name in named if name]
    directory = getattr(args, "directory", None)
    if directory and Path(directory).is_dir():
        found += sorted(Path(directory).glob("*.toml"))
    return found


def refuse_inputs_as_output(args: argparse.Namespace) -> None:
    """Refuse -o naming one of the command's inputs (symbolic links and hard links followed).

    Raises:
        OutputError: "p.toml: -o would overwrite the input p.toml; write the output elsewhere".
    """
    output = getattr(args, "output", None)
    if not output or getattr(args, "command", None) == "generate":  # generate: -o is a folder
        return
    target = Path(output)
    for source in inputs_of(args):
        if _same_file(target, source):
            raise OutputError(f"{output}: -o would overwrite the input {source}; write the "
                              "output elsewhere")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and os.path.samefile(a, b))
    except (OSError, RuntimeError):  # a loop of links, a path that cannot be read
        return False


class Progress:
    """tqdm on standard error, fed the (done, total) counts the workers report."""

    def __init__(self, stream: TextIO, unit: str, verb: str) -> None:
        from tqdm import tqdm  # only when a bar is shown: every other command starts without it

        self.bar = tqdm(desc=verb, unit=f" {unit}", file=stream, mininterval=0.1, leave=True,
                        dynamic_ncols=True)

    def update(self, done: int, total: int) -> None:
        if self.bar.total != total:
            self.bar.total = total
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        self.bar.close()


def progress_bar(unit: str, verb: str, quiet: bool = False) -> Progress | None:
    """A progress bar on standard error when it is a terminal, not --quiet and tqdm is
    installed (the extra 'progress'), else None: the work and its output are the same."""
    if quiet or not sys.stderr.isatty() or find_spec("tqdm") is None:
        return None
    return Progress(sys.stderr, unit, verb)
