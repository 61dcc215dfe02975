"""Regenerate the weights of Raschka's sections 3.5.3, 3.6.1 and 3.6.2 (PyTorch, float32) and
print them as TOML for the problem files in this folder, and the book's printouts.

    python tests/corpus/43_raschka_batched_causal_and_mha/reproduce.py

Every float32 is written as the shortest decimal that reads back to the same float32
(NumPy's float32 repr). nn.Linear computes x @ weight.T (+ bias): the projections are weight.T.
"""

import numpy as np
import torch
import torch.nn as nn

inputs = torch.tensor([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64],
                       [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]])


def short(v) -> str:
    text = np.format_float_positional(np.float32(v), unique=True)
    return text + "0" if text.endswith(".") else text


def toml_matrix(name, t):
    rows = [", ".join(short(v) for v in row) for row in t.tolist()]
    return f"{name} = [[" + "], [".join(rows) + "]]"


def causal(q, k, v):
    s = q @ k.T
    s = s.masked_fill(torch.triu(torch.ones(6, 6), diagonal=1).bool(), -torch.inf)
    return torch.softmax(s / k.shape[-1] ** 0.5, dim=-1) @ v


with torch.no_grad():
    # 3.5.3 CausalAttention: torch.manual_seed(123); W_query, W_key, W_value = nn.Linear(3, 2)
    torch.manual_seed(123)
    lq, lk, lv = (nn.Linear(3, 2, bias=False) for _ in range(3))
    print("# CausalAttention (3.5.3), seed 123")
    for name, layer in (("W_Q", lq), ("W_K", lk), ("W_V", lv)):
        print(toml_matrix(name, layer.weight.T))
    print(causal(inputs @ lq.weight.T, inputs @ lk.weight.T, inputs @ lv.weight.T))

    # 3.6.1 MultiHeadAttentionWrapper: two CausalAttention heads after torch.manual_seed(123)
    torch.manual_seed(123)
    heads = []
    for h in range(2):
        layers = [nn.Linear(3, 2, bias=False) for _ in range(3)]
        _ = nn.Dropout(0.0)
        heads.append(layers)
        print(f"# MultiHeadAttentionWrapper head {h + 1}")
        for name, layer in zip(("W_Q", "W_K", "W_V"), layers):
            print(toml_matrix(name, layer.weight.T))
    print(torch.cat([causal(inputs @ a.weight.T, inputs @ b.weight.T, inputs @ c.weight.T)
                     for a, b, c in heads], dim=-1))

    # 3.6.2 MultiHeadAttention(d_in=3, d_out=2, num_heads=2): W_query, W_key, W_value =
    # nn.Linear(3, 2, bias=False), out_proj = nn.Linear(2, 2) (with bias); head h = column h
    torch.manual_seed(123)
    mq, mk, mv = (nn.Linear(3, 2, bias=False) for _ in range(3))
    out_proj = nn.Linear(2, 2)
    print("# MultiHeadAttention (3.6.2), seed 123")
    for name, layer in (("W_Q", mq), ("W_K", mk), ("W_V", mv)):
        print(toml_matrix(name, layer.weight.T))
    print(toml_matrix("W_O", out_proj.weight.T))
    print("b_O =", [short(v) for v in out_proj.bias.tolist()])
    q, k, v = inputs @ mq.weight.T, inputs @ mk.weight.T, inputs @ mv.weight.T
    concat = torch.cat([causal(q[:, h:h + 1], k[:, h:h + 1], v[:, h:h + 1]) for h in range(2)], dim=-1)
    print(concat @ out_proj.weight.T + out_proj.bias)
