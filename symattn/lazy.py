"""Trace stages given as functions: Lazy(build) is built on first access, then kept."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar


class Lazy:
    """A Trace stage given as a function: built on first access, then kept."""

    __slots__ = ("build",)

    def __init__(self, build: Callable[[], Any]) -> None:
        self.build = build


T = TypeVar("T")


class Stage(Generic[T]):
    """A Trace field that may be given as Lazy; reading it always gives the value."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, trace: Any, owner: type | None = None) -> T:
        if trace is None:
            raise AttributeError(self.name)  # so that dataclass sees no default
        value = trace.__dict__[self.name]
        if isinstance(value, Lazy):
            value = trace.__dict__[self.name] = value.build()
        return value

    def __set__(self, trace: Any, value: T | Lazy) -> None:  # only __init__ gets here (frozen)
        trace.__dict__[self.name] = value
