"""The committed sweep, gradient and non-uniqueness documents of the worked examples.

A worked example with a [sweep] table gets sweep.{en,zh}.{tex,md} and sweep.svg, one with a
[gradient] table gets gradient.{en,zh}.{tex,md}, and the examples named in NONUNIQUE get
nonunique.{en,zh}.{tex,md}. tools/regenerate.py writes them; tests compare them.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from symattn import attend, load_problem  # noqa: E402
from symattn.model import Problem  # noqa: E402
from symattn.jobs import settle  # noqa: E402
from symattn.jobs.writing import statement  # noqa: E402
from symattn.targets.emit import Page  # noqa: E402

NONUNIQUE = {"08_same_output_different_weights"}
LANGS = ("en", "zh")
FORMATS = (("tex", "latex"), ("md", "markdown"))


def analysis_golden(path: Path) -> dict[str, str]:
    """File name -> the text the code writes now (empty for examples without analyses)."""
    problem = load_problem(path)
    if not isinstance(problem, Problem):
        return {}
    out: dict[str, str] = {}
    if problem.sweep is not None:
        out.update(_sweep(problem))
    if problem.gradient is not None:
        out.update(_gradient(problem))
    if path.parent.name in NONUNIQUE:
        out.update(_nonunique(problem))
    return out


def _stated(problem: Problem, lang: str):
    """The derivation that states the problem first, in solve's words (as the command does)."""
    return statement(problem, settle(problem, {"lang": lang}))


def _sweep(problem: Problem) -> dict[str, str]:
    from symattn.analyses.sweep import sweep
    from symattn.targets.sweep import render_sweep

    result = sweep(problem)
    out = {f"sweep.{lang}.{suffix}": render_sweep(result, to, lang, page=Page(standalone=to == "latex"),
                                                  image="sweep.svg", problem=_stated(problem, lang))
           for lang in LANGS for suffix, to in FORMATS}
    out["sweep.svg"] = render_sweep(result, "svg", "en")
    return out


def _gradient(problem: Problem) -> dict[str, str]:
    from symattn.analyses.gradient import gradients
    from symattn.analyses.gradient_check import check_gradients
    from symattn.targets.gradient import render_gradient

    result = gradients(attend(problem))
    check = check_gradients(result)
    return {f"gradient.{lang}.{suffix}": render_gradient(result, check, to, lang,
                                                         page=Page(standalone=to == "latex"),
                                                         problem=_stated(problem, lang))
            for lang in LANGS for suffix, to in FORMATS}


def _nonunique(problem: Problem) -> dict[str, str]:
    from symattn.analyses.nonunique import nonunique
    from symattn.targets.nonunique import render_nonunique

    result = nonunique(attend(problem))
    return {f"nonunique.{lang}.{suffix}": render_nonunique(result, to, lang,
                                                           page=Page(standalone=to == "latex"),
                                                           problem=_stated(problem, lang))
            for lang in LANGS for suffix, to in FORMATS}


def write(path: Path) -> list[str]:
    """Write an example's analysis documents; returns the file names written."""
    files = analysis_golden(path)
    for name, text in files.items():
        (path.parent / name).write_text(text, encoding="utf-8")
    return sorted(files)


if __name__ == "__main__":
    for example in sys.argv[1:] or sorted((ROOT / "worked_examples").glob("*/problem.toml")):
        written = write(Path(example))
        if written:
            print(f"wrote {', '.join(written)} in {Path(example).parent.name}")
