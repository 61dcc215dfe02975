"""Refresh the KaTeX that symattn ships (symattn/page/katex/) from the copy pinned in tools/katex.

    npm ci --prefix tools/katex && pip install -e '.[fonts]' && python tools/katex_fonts.py

copies KaTeX's release script, stylesheet and licence, and writes the font faces a page can use,
subset with fontTools to the characters symattn's math sets in them (fonts/coverage.json lists
them; the browser tests check that every character a page typesets is covered). The result is
committed, so writing a page needs neither node nor fontTools.
"""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "tools" / "katex" / "node_modules" / "katex"
TARGET = ROOT / "symattn" / "page" / "katex"
sys.path.insert(0, str(ROOT))
from symattn.page.katex import BY_COMMAND, ALWAYS, VERSION  # noqa: E402

WHOLE = {"KaTeX_AMS-Regular", "KaTeX_Size1-Regular", "KaTeX_Size2-Regular",
         "KaTeX_Size3-Regular", "KaTeX_Size4-Regular"}  # symbols and delimiters: kept whole
# faces symattn sets only its own ASCII in (\mathbf q, \mathbf k; \mathsf T): labels and user text
# go through \text in Main, so these keep printable ASCII only (11 and 9 KB instead of 18 and 10)
ASCII_ONLY = {"KaTeX_Main-Bold", "KaTeX_SansSerif-Regular"}
# ASCII, Latin-1 (labels in \text), Greek, and the symbols symattn's printers and phrases use
RANGES = [(0x20, 0x7E), (0xA0, 0xFF), (0x391, 0x3A9), (0x3B1, 0x3C9)]
EXTRA = ("ıȷˆˇ˘˙˚˜ϵϑϕϖ–—‘’“”…′″⃗ℓ←→↦⇒⇔∀∂∃∅∇∈∉∑∏−∓∗∘√∝∞∣∥∧∨∩∪∼≈≠≡≤≥≪≫⊂⊆⊤⊥⋅⋯⋮⋱"
         "⌈⌉⌊⌋⟨⟩")


def repertoire(face: str) -> set[int]:
    if face in ASCII_ONLY:
        return set(range(0x20, 0x7F))
    points = {c for low, high in RANGES for c in range(low, high + 1)}
    return points | {ord(c) for c in EXTRA}


def main() -> None:
    version = json.loads((SOURCE / "package.json").read_text(encoding="utf-8"))["version"]
    if version != VERSION:
        raise SystemExit(f"tools/katex has KaTeX {version}; symattn/page/katex.py says {VERSION}")
    fonts = TARGET / "fonts"
    shutil.rmtree(TARGET, ignore_errors=True)
    fonts.mkdir(parents=True)
    for name in ("dist/katex.min.js", "dist/katex.min.css", "LICENSE"):
        shutil.copyfile(SOURCE / name, TARGET / Path(name).name)
    faces = sorted(set(ALWAYS).union(*BY_COMMAND.values()))
    coverage = {}
    for face in faces:
        font = TTFont(SOURCE / "dist" / "fonts" / f"{face}.woff2", recalcTimestamp=False)
        points = set(font.getBestCmap())
        if face not in WHOLE:
            points &= repertoire(face)
            options = subset.Options()
            options.flavor = "woff2"
            options.layout_features = ["*"]
            options.name_IDs = ["*"]
            options.notdef_outline = True
            subsetter = subset.Subsetter(options)
            subsetter.populate(unicodes=sorted(points))
            subsetter.subset(font)
        font.flavor = "woff2"
        out = io.BytesIO()
        font.save(out)
        (fonts / f"{face}.woff2").write_bytes(out.getvalue())
        coverage[face] = sorted(points)
    (fonts / "coverage.json").write_text(json.dumps(coverage, separators=(",", ":")) + "\n",
                                         encoding="utf-8")
    sizes = {f.name: f.stat().st_size for f in sorted(fonts.glob("*.woff2"))}
    print(json.dumps(sizes, indent=1))


if __name__ == "__main__":
    main()
