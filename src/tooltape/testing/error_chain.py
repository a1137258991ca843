"""The exceptions behind an error: what a failure explanation looks through for its cause.

Clients wrap what went wrong (the SDK's ``APIConnectionError`` over httpx's
error over vcrpy's), so the error a test fails with is rarely the one that
says why.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

__all__ = ["error_chain", "wrapped_errors"]


def error_chain(error: BaseException | None) -> Iterator[BaseException]:
    """``error``, then what it was raised from (``__cause__``, else ``__context__``), each once."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        yield error
        error = error.__cause__ or error.__context__


def wrapped_errors(error: BaseException) -> Iterator[BaseException]:
    """``error`` and every exception under it, each once: both its ``__cause__`` and its
    ``__context__``, and the members of an exception group (as anyio raises them)."""
    seen: set[int] = set()
    pending: list[BaseException | None] = [error]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        pending += [current.__cause__, current.__context__]
        if isinstance(current, BaseExceptionGroup):
            pending += cast("tuple[BaseException, ...]", current.exceptions)
