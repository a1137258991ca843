"""Who may call a tool: the model itself (``direct``), programs it writes (``programmatic``).

Function, custom, code interpreter, hosted MCP, shell and apply_patch tools
take ``allowed_callers``; ``None`` (the default) sends nothing and leaves the
choice to the provider. Programs are written with
``programmatic_tool_calling_tool()``, which a prompt offering a
``programmatic`` tool must also carry.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, cast

from tooltape.tools.validation import invalid

Caller = Literal["direct", "programmatic"]
CALLERS: tuple[Caller, ...] = ("direct", "programmatic")


def check_allowed_callers(owner: str, value: object) -> tuple[Caller, ...] | None:
    """``value`` as a tuple of callers without repeats, ``None`` kept; else raise.

    A bare string, an empty sequence or an unknown caller is refused with the
    field named and the fix, so a typo fails where the tool is declared.
    """
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, Iterable):
        shown = f"({value!r},)" if isinstance(value, str) else "('direct', 'programmatic')"
        invalid(
            owner,
            "allowed_callers",
            f"expected a sequence of callers, got {value!r}",
            f"write allowed_callers={shown}",
        )
    callers = tuple(cast("Iterable[object]", value))
    if not callers:
        invalid(
            owner,
            "allowed_callers",
            "is empty",
            "name direct and/or programmatic, or leave it as None",
        )
    for caller in callers:
        # Not check_choice: it lets None through, and None is no caller.
        if caller not in CALLERS:
            invalid(
                owner,
                "allowed_callers",
                f"{caller!r} is not a caller",
                f"use one of {', '.join(CALLERS)}",
            )
    return cast("tuple[Caller, ...]", tuple(dict.fromkeys(callers)))
