"""Independent check of the pending items (not symattn): every published printout of each item,
split along its batch axis, judged against an exact recomputation of each batch element.

    python tests/corpus/pending/check.py            # all pending items; exit 1 if a verdict differs from
                                       # the one recorded in the item's expected.txt
    python tests/corpus/pending/check.py --write    # rewrite every expected.txt

It reuses tests/corpus/independent.py (mpmath at 50 digits plus fractions; it never imports
symattn) for the per-element computation and the rules for judging a printed number (decimal
with k places correctly rounded, e-notation as significant figures). What symattn cannot do yet
is done here around it:

  * batch axes: a printout of shape (B, n, d) is read as B matrices, the b-th judged against
    batch element b (a list of problem files, one per element, or one file for all when the
    elements are identical);
  * an output-projection bias: b_O added to every row of Concat(heads) W_O.
"""

from __future__ import annotations

import re
import sys
import tomllib
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import independent as ind  # noqa: E402

# item folder -> list of claim files, each with the problem file of every batch element and an
# optional output bias (a row added to O).
ITEMS = {
    "41_d2l_dot_product_valid_lens": [
        {"claims": "published.toml", "batch": ["batch1.problem.toml", "batch2.problem.toml"]},
    ],
    "42_raschka_batched_causal_and_mha": [
        {"claims": "causal_attention.published.toml", "batch": ["causal_attention.problem.toml"] * 2},
        {"claims": "wrapper.published.toml", "batch": ["wrapper.problem.toml"] * 2},
        {"claims": "mha.published.toml", "batch": ["mha.problem.toml"] * 2,
         "bias": ["0.19335887", "0.68254095"]},
    ],
    "38b_karpathy_wei_all_batches": [
        {"claims": "published.toml",
         "batch": [f"batch{b}.problem.toml" for b in range(1, 5)]},
    ],
}


def stages_of(path: Path, bias):
    problem = tomllib.loads(path.read_text(encoding="utf-8"), parse_float=Decimal)
    stages = ind.solve(problem)
    if bias:
        row = [ind.Num.exact(Fraction(Decimal(b))) for b in bias]
        stages["O"] = [[x + row[j] for j, x in enumerate(r)] for r in stages["O"]]
    return stages


def judge(folder: Path, spec) -> list[str]:
    data = tomllib.loads((folder / spec["claims"]).read_text(encoding="utf-8"))
    per_batch = [stages_of(folder / name, spec.get("bias")) for name in spec["batch"]]
    lines = []
    for key, raw in data["answers"].items():
        if key.startswith("shape("):
            stage = key[6:-1]
            dims = [int(t) for t in re.findall(r"\d+", raw)]
            mats = [s[stage] for s in per_batch]
            want = [len(mats), len(mats[0]), len(mats[0][0])]
            verdict = "correct" if dims == want else "wrong"
            lines.append(f"{spec['claims']} {key}: {verdict} (given {dims}, batch x rows x columns {want})")
            continue
        tokens = ind.read_numbers(raw)
        size = [len(ind.addressed(key, s)) * len(ind.addressed(key, s)[0]) for s in per_batch]
        if len(tokens) != sum(size):
            lines.append(f"{spec['claims']} {key}: invalid ({len(tokens)} numbers for {sum(size)} entries)")
            continue
        start, verdicts = 0, []
        for b, stages in enumerate(per_batch):
            flat = [x for row in ind.addressed(key, stages) for _, x in row]
            chunk = tokens[start:start + len(flat)]
            start += len(flat)
            entries = [ind.judge_token(t, x) for t, x in zip(chunk, flat)]
            wrong = [e for e in entries if e["ok"] is False]
            undecided = [e for e in entries if e["ok"] is None]
            verdicts.append("wrong" if wrong else "undecided" if undecided else "correct")
            detail = "; ".join(f"{e['given']} for {e['expected'][:12]}" for e in wrong[:3])
            lines.append(f"{spec['claims']} {key} batch {b + 1}: {verdicts[-1]}"
                         + (f" ({len(wrong)} of {len(entries)} wrong: {detail})" if wrong else ""))
        overall = ("wrong" if "wrong" in verdicts else "undecided" if "undecided" in verdicts
                   else "correct")
        lines.append(f"{spec['claims']} {key}: {overall}")
    return lines


def main(argv) -> int:
    status = 0
    for name, specs in ITEMS.items():
        folder = HERE / name
        lines = [line for spec in specs for line in judge(folder, spec)]
        text = "\n".join(lines) + "\n"
        target = folder / "expected.txt"
        if "--write" in argv:
            target.write_text(text, encoding="utf-8")
        elif not target.exists() or target.read_text(encoding="utf-8") != text:
            status = 1
            print(f"DIFF {name}")
        print(f"== {name}\n{text}", end="")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
