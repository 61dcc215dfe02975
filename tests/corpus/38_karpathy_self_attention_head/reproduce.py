"""Regenerate the inputs of problem.toml and the lecture's printout of wei[0] (PyTorch, float32).

    python tests/corpus/38_karpathy_self_attention_head/reproduce.py > /tmp/inputs.toml

Karpathy, gpt-dev.ipynb, "version 4: self-attention!": torch.manual_seed(1337);
x = torch.randn(4, 8, 32); key, query, value = nn.Linear(32, 16, bias=False), created in that
order. Batch element 0 only (wei[0] is what the lecture prints). nn.Linear computes
x @ weight.T, so W_Q, W_K, W_V are query.weight.T, key.weight.T, value.weight.T (32x16). Every
float32 is written as the shortest decimal that reads back to the same float32 (NumPy's float32
repr); symattn and independent.py take that decimal exactly. The printouts go to stderr.
"""

import sys

import numpy as np
import torch
import torch.nn as nn
from torch.nn import functional as F

torch.manual_seed(1337)
B, T, C = 4, 8, 32
x = torch.randn(B, T, C)
head_size = 16
key = nn.Linear(C, head_size, bias=False)
query = nn.Linear(C, head_size, bias=False)
value = nn.Linear(C, head_size, bias=False)


def short(v) -> str:
    text = np.format_float_positional(np.float32(v), unique=True)
    return text + "0" if text.endswith(".") else text


def toml_matrix(name, t):
    rows = [", ".join(short(v) for v in row) for row in t.tolist()]
    return f"{name} = [[" + "],\n       [".join(rows) + "]]"


with torch.no_grad():
    print(toml_matrix("X", x[0]))
    print(toml_matrix("W_Q", query.weight.T))
    print(toml_matrix("W_K", key.weight.T))
    print(toml_matrix("W_V", value.weight.T))
    k, q, v = key(x), query(x), value(x)
    wei = q @ k.transpose(-2, -1)
    tril = torch.tril(torch.ones(T, T))
    wei = wei.masked_fill(tril == 0, float("-inf"))
    wei = F.softmax(wei, dim=-1)
    print(wei[0], file=sys.stderr)
    print((wei @ v)[0], file=sys.stderr)
