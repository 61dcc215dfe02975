"""Regenerate the inputs of problem.toml and the book's printouts (PyTorch, float32).

    python tests/corpus/33_raschka_trainable_weights_v1/reproduce.py

Raschka, Build a Large Language Model (From Scratch), section 3.4.1: torch.manual_seed(123),
then W_query, W_key, W_value = torch.rand(d_in, d_out) in that order (d_in = 3, d_out = 2).
SelfAttention_v1 (section 3.4.2) draws the same three matrices after the same seed, in the same
order. Every float32 is written as the shortest decimal that reads back to the same float32
(np.format_float_positional(np.float32(x)), NumPy's float32 repr): 0.43, not the float32's
exact binary value 0.4300000071525574... That decimal is the exact value symattn and
independent.py take.
"""

import numpy as np
import torch

inputs = torch.tensor([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64],
                       [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]])
torch.manual_seed(123)
W_query = torch.rand(3, 2)
W_key = torch.rand(3, 2)
W_value = torch.rand(3, 2)


def short(x) -> str:
    text = np.format_float_positional(np.float32(x), unique=True)
    return text + "0" if text.endswith(".") else text


def toml_matrix(name, t):
    rows = [", ".join(short(x) for x in row) for row in t.tolist()]
    return f"{name} = [[" + "],\n       [".join(rows) + "]]"


for name, t in (("X", inputs), ("W_Q", W_query), ("W_K", W_key), ("W_V", W_value)):
    print(toml_matrix(name, t))

x_2 = inputs[1]
query_2 = x_2 @ W_query
keys = inputs @ W_key
values = inputs @ W_value
print("query_2", query_2)
print("attn_score_22", query_2.dot(keys[1]))
attn_scores_2 = query_2 @ keys.T
print("attn_scores_2", attn_scores_2)
attn_weights_2 = torch.softmax(attn_scores_2 / keys.shape[1] ** 0.5, dim=-1)
print("attn_weights_2", attn_weights_2)
print("context_vec_2", attn_weights_2 @ values)
queries = inputs @ W_query
print("sa_v1(inputs)", torch.softmax(queries @ keys.T / keys.shape[-1] ** 0.5, dim=-1) @ values)
