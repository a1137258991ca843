"""``HostedCall`` values built the same way for every kind."""

from __future__ import annotations

from tooltape.adapters.codec import HostedCall
from tooltape.adapters.openai.codecs.failures import status
from tooltape.adapters.openai.codecs.items import item_type, text
from tooltape.prompt import HostedToolOutput


def hosted_call(
    kind: str,
    item: object,
    *,
    params: object,
    output: HostedToolOutput | None,
    error: str | None,
) -> HostedCall:
    """The call read from ``item``: failed (no output) when ``error`` is set."""
    return HostedCall(
        kind=kind,
        item_type=item_type(item) or "",
        id=text(item, "id") or "",
        status=status(item),
        success=error is None,
        params=params,
        output=None if error is not None else output,
        error=error,
    )
