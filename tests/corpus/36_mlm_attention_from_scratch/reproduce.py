"""Regenerate W_Q, W_K, W_V of problem.toml and the tutorial's printouts (NumPy).

    python tests/corpus/36_mlm_attention_from_scratch/reproduce.py

Stefania Cristina, "The Attention Mechanism from Scratch" (Machine Learning Mastery):
random.seed(42) (numpy.random, the legacy RandomState), then W_Q, W_K, W_V =
random.randint(3, size=(3, 3)) in that order. Integers: exact.
"""

import numpy as np
from numpy import random

words = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1]])
random.seed(42)
W_Q = random.randint(3, size=(3, 3))
W_K = random.randint(3, size=(3, 3))
W_V = random.randint(3, size=(3, 3))
for name, m in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V)):
    print(name, "=", m.tolist())
Q, K, V = words @ W_Q, words @ W_K, words @ W_V
scores = Q @ K.T
weights = np.exp(scores / K.shape[1] ** 0.5)
weights /= weights.sum(axis=1, keepdims=True)
print("attention (word 1)", weights[0] @ V)
print(weights @ V)
