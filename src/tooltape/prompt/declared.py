"""The lists a prompt is declared with: sections, children, tools, hooks."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from tooltape.prompt.errors import PromptValidationError

ItemT = TypeVar("ItemT")


def declared_list(
    value: Iterable[ItemT], *, what: str, items: str, owner: str
) -> tuple[ItemT, ...]:
    """``value`` as a tuple, or ``PromptValidationError`` when one item was given for the list.

    ``sections=MarkdownSection(...)`` would otherwise fail deep inside with
    ``'MarkdownSection' object is not iterable``, naming neither the argument
    nor the fix.
    """
    given: Any = value
    if isinstance(given, str | bytes) or not isinstance(given, Iterable):
        raise PromptValidationError(
            f"{owner}: {what} must be a list of {items}, got {type(given).__name__}; "
            f"write {what}=[...]."
        )
    return tuple(value)
