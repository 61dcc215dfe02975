"""The version: symattn.__version__ and `symattn --version` are the installed metadata's."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

import symattn


def test_the_version_is_the_metadata_s():
    assert symattn.__version__ == version("symattn")


def test_the_command_line_prints_it_and_exits_0():
    done = subprocess.run([sys.executable, "-m", "symattn", "--version"], capture_output=True,
                          text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"symattn {version('symattn')}\n", "")


def test_a_source_tree_that_is_not_installed_says_so(monkeypatch):
    import importlib.metadata as metadata  # patched: as if symattn were not installed

    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    assert symattn.version() == "0+unknown"
