"""The seams the prompt layer sees of the layers above it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

EventT = TypeVar("EventT")


class EventBus(Protocol):
    """Somewhere events are published to and subscribed from."""

    def subscribe(self, event_type: type[EventT], handler: Callable[[EventT], None]) -> None: ...

    def publish(self, event: object) -> Any: ...


class SessionProtocol(Protocol):
    """What a tool may ask of the session it runs in."""

    @property
    def bus(self) -> EventBus: ...


class ProviderAdapter(Protocol):
    """What a tool may ask of the adapter evaluating its prompt (for nested prompts).

    ``deadline`` (an aware ``datetime``) is when the evaluation's tools stop
    running: an agent tool gives its child one, so a child it stopped waiting
    for runs no more tools.
    """

    @property
    def name(self) -> str: ...

    def evaluate(
        self,
        prompt: Any,
        /,
        *params: Any,
        bus: Any = None,
        session: Any = None,
        deadline: Any = None,
    ) -> Any: ...
