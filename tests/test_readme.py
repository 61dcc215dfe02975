"""The README's first screen holds the two set-up commands, and CI runs the same test command."""

from __future__ import annotations

import re

from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMANDS = re.findall(r"```sh\n(.+?)\n```", README)


def test_first_screen_has_the_two_commands():
    first_screen = "\n".join(README.splitlines()[:30])
    assert len(COMMANDS) >= 2
    solve, tests = COMMANDS[:2]
    assert solve in first_screen and tests in first_screen
    assert "symattn solve worked_examples/" in solve
    assert "pytest" in tests


def test_the_bundled_example_exists():
    path = re.search(r"symattn solve (\S+)", COMMANDS[0]).group(1)
    assert (ROOT / path).is_file()


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert COMMANDS[1] in ci.splitlines()
