"""MCP servers that run between ``start()`` and ``close()``, and ``with`` over the two."""

from __future__ import annotations

from types import TracebackType
from typing import Self

__all__ = ["ServerLifecycle"]


class ServerLifecycle:
    """``with it:`` starts it and closes it when the block ends, however it ends.

    A subclass defines ``start()`` (returning itself) and an idempotent ``close()``.
    """

    __slots__ = ()

    def start(self) -> Self:
        """Start the server(s); ``close()`` stops them."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop the server(s) (idempotent)."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
