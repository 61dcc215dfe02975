"""Regenerate the inputs of problem.toml (items 34 and 35) and the book's printouts (float32).

    python tests/corpus/34_raschka_linear_weights_v2/reproduce.py

Raschka, Build a Large Language Model (From Scratch), section 3.4.2: torch.manual_seed(789),
then SelfAttention_v2(d_in=3, d_out=2), whose W_query, W_key, W_value are nn.Linear(3, 2,
bias=False), created in that order. nn.Linear computes x @ weight.T, so the projection
matrices of the problem are weight.T (3x2). Sections 3.5.1 and 3.5.2 reuse sa_v2's W_query
and W_key. Every float32 is written as the shortest decimal that reads back to the same float32
(NumPy's float32 repr, np.format_float_positional(unique=True)); symattn and independent.py take
that decimal exactly.
"""

import numpy as np
import torch
import torch.nn as nn

inputs = torch.tensor([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64],
                       [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]])
torch.manual_seed(789)
W_query = nn.Linear(3, 2, bias=False)
W_key = nn.Linear(3, 2, bias=False)
W_value = nn.Linear(3, 2, bias=False)


def short(x) -> str:
    text = np.format_float_positional(np.float32(x), unique=True)
    return text + "0" if text.endswith(".") else text


def toml_matrix(name, t):
    rows = [", ".join(short(x) for x in row) for row in t.tolist()]
    return f"{name} = [[" + "],\n       [".join(rows) + "]]"


with torch.no_grad():
    print(toml_matrix("X", inputs))
    for name, layer in (("W_Q", W_query), ("W_K", W_key), ("W_V", W_value)):
        print(toml_matrix(name, layer.weight.T))
    queries, keys, values = W_query(inputs), W_key(inputs), W_value(inputs)
    scores = queries @ keys.T
    weights = torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1)
    print("sa_v2(inputs)", weights @ values)
    print("attn_weights (3.5.1)", weights)
    mask = torch.triu(torch.ones(6, 6), diagonal=1)
    masked = scores.masked_fill(mask.bool(), -torch.inf)
    print("masked", masked)
    causal = torch.softmax(masked / keys.shape[-1] ** 0.5, dim=-1)
    print("causal attn_weights", causal)
    print("causal context (not printed in the book)", causal @ values)
