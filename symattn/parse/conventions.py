"""[attention] mask_bias: masking as courses code it, by adding a large negative number instead of
-oo (scores += (1 - mask) * -1e9 in TensorFlow's tutorials and DeepLearning.AI's, PyTorch's
masked_fill(mask == 0, -1e9)); the mask itself comes from mask, keep, masked or key_lengths."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp

from ..errors import InputError
from ..limits import MAX_LOGIT_DIGITS
from .expressions import parse_expression

SMALLEST_MASK_BIAS = 100  # |mask_bias| at least this: a "large" negative number
MASK_OPTIONS = ("keep", "masked", "key_lengths")


def read_mask_bias(reader: Any, options: Mapping[str, Any], bias: sp.ImmutableMatrix | None,
                   scores: Mapping[str, Any]) -> sp.Expr | None:
    """The number the masks add (None: they add -oo, the default).

    Raises:
        InputError: not an exact number of at least SMALLEST_MASK_BIAS below 0, no mask to
            apply it to, a -oo entry beside it (in bias or given logits), or a fully_masked
            policy, which it makes moot (a row whose keys are all masked is then no 0/0).
    """
    if "mask_bias" not in options:
        return None
    key = "attention.mask_bias"
    raw = options["mask_bias"]
    if isinstance(raw, str) and raw.strip().lower() in ("-oo", "-inf", "−∞"):
        raise reader.fail(key, "-oo is the default: leave mask_bias out")
    if isinstance(raw, bool) or not isinstance(raw, (int, str)):
        raise reader.fail(key, "must be a number such as -1e9")
    try:  # not reader.entry: a -1e9 here does not make the problem one written in decimals
        value = parse_expression(str(raw))
    except InputError as error:
        raise error.located(source=reader.source, key=key) from None
    if not value.is_Rational or value > -SMALLEST_MASK_BIAS:
        raise reader.fail(key, f"must be a negative number, at most -{SMALLEST_MASK_BIAS}, "
                          f"such as -1e9 (the masks add it instead of -oo); got {value}")
    if abs(value) >= sp.Integer(10) ** (MAX_LOGIT_DIGITS - 1):
        raise reader.fail(key, f"must be smaller than 1e+{MAX_LOGIT_DIGITS - 1} in size")
    if options.get("mask", "none") == "none" and not any(n in options for n in MASK_OPTIONS):
        raise reader.fail(key, "there is no mask for it to apply: give mask, keep, masked or "
                          "key_lengths in [attention]")
    if bias is not None and any(x is sp.S.NegativeInfinity for x in bias):
        raise reader.fail("attention.bias", "with mask_bias the masks add it, not -oo: give the "
                          "masked entries by keep or masked")
    if "masked" in scores:
        raise reader.fail(f"input.{scores.get('start', 'L')}", "with mask_bias give the masked "
                          "entries by keep or masked, not as -oo in the logits")
    if options.get("fully_masked", "error") != "error":
        raise reader.fail("attention.fully_masked", "does not apply with mask_bias: a row whose "
                          "keys are all masked is no 0/0 (the bias cancels in its softmax)")
    return value
