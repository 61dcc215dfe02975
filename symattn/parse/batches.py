"""Nested lists as printouts and TOML hold them -> one matrix: the shape read and checked against
the one a printout states, one element of a batch picked by an index, axes of size 1 dropped.

    [[[0.1, 0.2]]]                 (1, 1, 2) -> one row: a batch of one, a query of one
    shape (3, 1, 5)                -> 3x5: the axis of size 1 is dropped
    shape (2, 4, 4), index [1]     -> the 4x4 matrix weights[1], counted from 0 as code counts
    shape (2, 4, 4), no index      -> refused: which of the two matrices is meant?

A value of at most two axes is returned as written (rows of different lengths are left for the
judge to report); from three axes on it must be a regular array.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod
from typing import Any

from ..errors import InputError
from ..limits import MAX_PRINTOUT_AXES


class BatchError(InputError):
    """A value holding several matrices without an index saying which, or an index that does not
    fit it: the author's to correct, so a problem or answers file refuses it (exit 2)."""


def matrix_rows(tree: Any, index: Sequence[int] | None = None,
                stated: tuple[int, ...] | None = None) -> list[list[Any]]:
    """The rows of the one matrix a nested value holds (leaves are kept as they are).

    Raises:
        BatchError: several matrices and no index, or an index that does not fit.
        InputError: a value whose brackets disagree with its stated shape, or irregular lists.
    """
    depth = _depth(tree)
    if depth <= 2 and index is None and stated is None:
        return _two_axes(tree)
    shape = shape_of(tree)
    if stated is not None and stated != shape:
        raise InputError(f"the printout says shape={_tuple(stated)} but its brackets hold "
                         f"{_tuple(shape)}")
    full = shape
    if index is not None:
        tree, shape = picked(tree, shape, index)
    while len(shape) > 2 and 1 in shape:
        axis = shape.index(1)
        tree, shape = _dropped(tree, axis), shape[:axis] + shape[axis + 1:]
    if len(shape) > 2:
        example = ", ".join(["0"] * (len(full) - 2))
        raise BatchError(f"the value holds {prod(shape[:-2])} matrices of {shape[-2]}x{shape[-1]} "
                         f"(shape {_tuple(full)}); say which: {{value = ..., index = [{example}]}} "
                         f"is x[{example}], counted from 0 as code counts",
                         code="read_batch", values=(str(prod(shape[:-2])), str(shape[-2]),
                                                    str(shape[-1]), _tuple(full)))
    return _two_axes(tree)


def shape_of(tree: Any) -> tuple[int, ...]:
    """The shape of a regular nested list (() for a single entry)."""
    if not isinstance(tree, list):
        return ()
    if not tree:
        raise InputError("an empty list")
    shapes = {shape_of(x) for x in tree}
    if len(shapes) > 1:
        if () in shapes:
            raise InputError("a list mixes entries and lists")
        lengths = sorted({s[0] for s in shapes})
        raise InputError(f"lists of {' and '.join(map(str, lengths))} entries side by side"
                         if len(lengths) > 1 else "the lists inside differ in shape")
    return (len(tree),) + shapes.pop()


def picked(tree: Any, shape: tuple[int, ...], index: Sequence[int]
           ) -> tuple[Any, tuple[int, ...]]:
    """The element tree[i][j]... that index = [i, j, ...] names (from 0), and its shape."""
    if not 1 <= len(index) <= len(shape) - 2:
        raise BatchError(f"index {list(index)} does not fit a value of shape {_tuple(shape)}: it "
                         "picks one matrix of a batch, so it has at most "
                         f"{max(len(shape) - 2, 0)} numbers" if len(shape) > 2 else
                         f"index {list(index)} goes with a batch of matrices; this value has "
                         f"shape {_tuple(shape)} (a row is claimed as A[1])")
    for axis, i in enumerate(index):
        if not 0 <= i < shape[axis]:
            raise BatchError(f"index {list(index)}: axis {axis + 1} of shape {_tuple(shape)} "
                             f"counts 0 to {shape[axis] - 1}")
        tree = tree[i]
    return tree, shape[len(index):]


def _depth(tree: Any) -> int:
    """How many axes the value has, read along its first entries."""
    depth = 0
    while isinstance(tree, list) and tree:
        depth, tree = depth + 1, tree[0]
        if depth > MAX_PRINTOUT_AXES:
            raise InputError(f"a value of more than {MAX_PRINTOUT_AXES} axes", code="read_axes",
                             values=(str(MAX_PRINTOUT_AXES),))
    return depth


def _dropped(tree: Any, axis: int) -> Any:
    """The tree without the given axis of size 1."""
    return tree[0] if axis == 0 else [_dropped(x, axis - 1) for x in tree]


def _two_axes(tree: Any) -> list[list[Any]]:
    """Rows: a single entry is one row of one, a flat list one row."""
    if not isinstance(tree, list):
        return [[tree]]
    if tree and all(isinstance(x, list) for x in tree):
        if any(isinstance(y, list) for x in tree for y in x):
            raise InputError("a row mixes entries and lists")
        return [list(x) for x in tree]
    if any(isinstance(x, list) for x in tree):
        raise InputError("a row mixes entries and lists")
    return [list(tree)]


def _tuple(shape: tuple[int, ...]) -> str:
    """(3, 1, 5) as Python prints a shape; (5,) for one axis."""
    return f"({shape[0]},)" if len(shape) == 1 else f"({', '.join(map(str, shape))})"
