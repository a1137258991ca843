"""Keeping the client's API key out of evaluation errors.

A provider (a compatible server, a proxy in front of one) may echo the key it
was sent in an error message or a body. Everything an evaluation error
carries is printed by a traceback: its message, its ``provider_payload`` and
the exceptions chained under it. Each has the key replaced in place, so the
chain keeps its types and everything else the provider said.
"""

from __future__ import annotations

from typing import Any, cast

from tooltape.prompt import PromptEvaluationError
from tooltape.prompt.json_text import map_leaves

REDACTED = "REDACTED"
MIN_KEY_LENGTH = 8
"""Shorter keys are placeholders (``"sk-x"``); replacing them would garble ordinary text."""


def client_key(client: object) -> str | None:
    """The client's API key when it is long enough to be a credential."""
    key: object = getattr(client, "api_key", None)
    return key if isinstance(key, str) and len(key) >= MIN_KEY_LENGTH else None


def without_key(value: object, key: str) -> Any:
    """``value`` with ``key`` replaced in every string of it (mappings and lists walked)."""
    raw, redacted = key.encode(), REDACTED.encode()

    def leaf(item: object) -> object:
        if isinstance(item, str) and key in item:
            return item.replace(key, REDACTED)
        if isinstance(item, bytes) and raw in item:
            return item.replace(raw, redacted)
        return item

    return map_leaves(value, leaf)


def _scrub_exception(exc: BaseException, key: str) -> None:
    exc.args = cast("tuple[Any, ...]", without_key(exc.args, key))
    # the SDK's fields, tooltape's, and the text a JSONDecodeError keeps
    for name in ("message", "body", "provider_payload", "doc"):
        if name in getattr(exc, "__dict__", {}):
            setattr(exc, name, without_key(getattr(exc, name), key))


def scrub_key(error: PromptEvaluationError, key: str | None) -> None:
    """Replace ``key`` in ``error`` and in every exception chained under it, in place."""
    if key is None:
        return
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        _scrub_exception(current, key)
        current = current.__cause__ or current.__context__
