"""Regenerate every worked example's committed derivations (and the README's PNG) from the code.

    python tools/regenerate.py          # derivation.{en,zh}.{tex,md} for each worked example
    python tools/regenerate.py --png    # also page 1 of each English PDF (needs latexmk, pdftoppm)

tests/test_golden.py fails when a committed file differs from what this writes.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analysis_golden import write as analysis_write  # noqa: E402

from symattn import attend, attend_heads, load_problem, render  # noqa: E402
from symattn.model import MultiHeadProblem, ShapeProblem  # noqa: E402
from symattn.targets.shapes import render_shapes  # noqa: E402

EXAMPLES = ROOT / "worked_examples"
VARIANTS = {f"derivation.{lang}.{suffix}": dict(to=to, lang=lang)
            for lang in ("en", "zh") for suffix, to in (("tex", "latex"), ("md", "markdown"))}


def golden(problem: Path) -> dict[str, str]:
    """File name -> the text the code produces now for one worked example."""
    loaded = load_problem(problem)
    if isinstance(loaded, ShapeProblem):  # the shape argument
        return {name: render_shapes(loaded, options["to"], options["lang"],
                                    standalone=options["to"] == "latex")
                for name, options in VARIANTS.items()}
    trace = attend_heads(loaded) if isinstance(loaded, MultiHeadProblem) else attend(loaded)
    return {name: render(trace, **options, standalone=options["to"] == "latex")
            for name, options in VARIANTS.items()}


def first_page_png(tex: Path, target: Path) -> None:
    """Compile an English derivation with latexmk -pdf and keep page 1 as PNG."""
    with tempfile.TemporaryDirectory() as work:
        shutil.copy(tex, work)
        subprocess.run(["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error", tex.name],
                       cwd=work, check=True, capture_output=True)
        pdf = Path(work) / tex.with_suffix(".pdf").name
        subprocess.run(["pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile",
                        str(pdf), str(target.with_suffix(""))], check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--png", action="store_true", help="also render page 1 of each English PDF")
    args = parser.parse_args()
    for problem in sorted(EXAMPLES.glob("*/problem.toml")):
        for name, text in golden(problem).items():
            (problem.parent / name).write_text(text, encoding="utf-8")
        if isinstance(load_problem(problem), ShapeProblem):
            print(f"wrote {problem.parent.relative_to(ROOT)}")
            continue
        analysis_write(problem)  # sweep, gradient, non-uniqueness documents (analysis_golden.py)
        if args.png:
            first_page_png(problem.parent / "derivation.en.tex", problem.parent / "derivation.en.png")
        print(f"wrote {problem.parent.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
