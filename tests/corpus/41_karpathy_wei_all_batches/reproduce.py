"""Write batch0..batch3.problem.toml: Karpathy's "version 4: self-attention!" for each of the
four batch elements x[0] .. x[3] (torch.manual_seed(1337), x = torch.randn(4, 8, 32), key,
query, value = nn.Linear(32, 16, bias=False)); batch0 is tests/corpus/38_karpathy_self_attention_head.

    python tests/corpus/41_karpathy_wei_all_batches/reproduce.py

Every float32 is written as the shortest decimal that reads back to the same float32.
"""

from pathlib import Path

import numpy as np
import torch
import torch.nn as nn

HERE = Path(__file__).resolve().parent
torch.manual_seed(1337)
x = torch.randn(4, 8, 32)
key = nn.Linear(32, 16, bias=False)
query = nn.Linear(32, 16, bias=False)
value = nn.Linear(32, 16, bias=False)


def short(v) -> str:
    text = np.format_float_positional(np.float32(v), unique=True)
    return text + "0" if text.endswith(".") else text


def toml_matrix(name, t):
    rows = [", ".join(short(v) for v in row) for row in t.tolist()]
    return f"{name} = [[" + "],\n       [".join(rows) + "]]"


with torch.no_grad():
    weights = "\n".join(toml_matrix(n, layer.weight.T) for n, layer in
                        (("W_Q", query), ("W_K", key), ("W_V", value)))
    for b in range(4):
        text = (f"# Karpathy, gpt-dev.ipynb, version 4: self-attention, batch element x[{b}] of 4\n"
                "# (written by reproduce.py; see tests/corpus/38_karpathy_self_attention_head for\n"
                "# the encoding: W = nn.Linear weight.T, no scale, causal mask).\n"
                f'title = "One self-attention head, seed 1337, batch element x[{b}]"\n\n[input]\n'
                + toml_matrix("X", x[b]) + "\n" + weights
                + '\n\n[attention]\nmask = "causal"\nscale = "none"\n')
        (HERE / f"batch{b}.problem.toml").write_text(text, encoding="utf-8")
