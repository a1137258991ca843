"""Runtime events and the in-process bus that delivers them."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from tooltape.prompt import RenderedPrompt, ToolResult
from tooltape.prompt.frozen_build import positional_builder
from tooltape.prompt.tool import ToolSource

EventT = TypeVar("EventT")

logger = logging.getLogger("tooltape.events")


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class ToolInvoked:
    """One tool call, local or provider-executed, successful or not.

    ``rendered_output`` is ``result.render()`` (``""`` when the value is
    ``None``), exactly the text observers need to reconcile with what the
    provider saw. ``source`` says where the tool lives; ``provider`` and
    ``kind`` say which provider capability ran it, when one did.

    ``approval`` marks the client's decision on a call the provider asked to
    make (a hosted MCP approval request): ``params`` is the request, the
    result succeeded when the call was approved, and ``call_id`` is the
    approval request's id. The call itself, if approved and made, is
    another ``ToolInvoked``.
    """

    prompt_name: str
    adapter: str
    name: str
    params: object
    result: ToolResult[Any]
    rendered_output: str
    call_id: str | None = None
    source: ToolSource = "function"
    provider: str | None = None
    kind: str | None = None
    created_at: datetime = field(default_factory=_now)
    approval: bool = False


@dataclass(frozen=True, slots=True)
class PromptRendered:
    """A prompt was rendered and is about to be sent."""

    prompt_name: str
    adapter: str
    rendered_prompt: RenderedPrompt[Any]
    created_at: datetime = field(default_factory=_now)


@dataclass(frozen=True, slots=True)
class PromptExecuted:
    """A prompt evaluation finished; ``response`` is its ``PromptResponse``."""

    prompt_name: str
    adapter: str
    response: Any
    created_at: datetime = field(default_factory=_now)


@dataclass(frozen=True, slots=True)
class SubscriberFailure:
    """A subscriber raised while handling an event."""

    event: object
    handler: Callable[[Any], None]
    error: BaseException


@dataclass(frozen=True, slots=True)
class PublishResult:
    """What a publish did: how many handlers ran and which of them failed."""

    event: object
    handled: int
    failures: tuple[SubscriberFailure, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.failures


_publish_result = positional_builder(PublishResult)


class InProcessEventBus:
    """Synchronous publish/subscribe within one process.

    A handler that raises never stops the others: its failure is logged (with
    traceback) on the ``tooltape.events`` logger, returned in the
    ``PublishResult`` and kept in ``failures`` for later inspection.
    """

    def __init__(self) -> None:
        self._handlers: list[tuple[type[Any], Callable[[Any], None]]] = []
        # Per event class, the handlers its instances go to (found on its first publish).
        self._routes: dict[type[Any], tuple[Callable[[Any], None], ...]] = {}
        self.failures: list[SubscriberFailure] = []

    def subscribe(self, event_type: type[EventT], handler: Callable[[EventT], None]) -> None:
        """Call ``handler`` for every published instance of ``event_type``."""
        # A new list, never a changed one: a publish under way keeps the list
        # it started with, without copying it on every publish.
        self._handlers = [*self._handlers, (event_type, handler)]
        self._routes = {}

    def unsubscribe(self, event_type: type[EventT], handler: Callable[[EventT], None]) -> None:
        """Stop calling ``handler`` for ``event_type`` (no error if it was not subscribed)."""
        self._handlers = [
            (t, h) for t, h in self._handlers if not (t is event_type and h == handler)
        ]
        self._routes = {}

    def is_subscribed(self, event_type: type[Any], handler: Callable[[Any], None]) -> bool:
        return any(t is event_type and h == handler for t, h in self._handlers)

    def publish(self, event: object) -> PublishResult:
        """Deliver ``event`` to every matching handler, in subscription order."""
        handlers = self._handlers_for(event)
        failures = self._call(handlers, event)
        return _publish_result(event, len(handlers), failures or ())

    def notify(self, event: object) -> None:
        """``publish`` for a caller with no use for the ``PublishResult``.

        Failures are logged and kept in ``failures`` just the same; nothing is
        built for the caller (nothing at all when every handler succeeds).
        """
        # ``_call`` written out: one call's delivery is on every tool call's path.
        for handler in self._routes.get(event.__class__) or self._handlers_for(event):
            try:
                handler(event)
            except Exception as exc:
                self.failures.append(self._failed(event, handler, exc))

    def _handlers_for(self, event: object) -> tuple[Callable[[Any], None], ...]:
        routes = self._routes  # a subscription made meanwhile replaces the dict
        handlers = routes.get(event.__class__)
        if handlers is None:
            subscribed = self._handlers
            handlers = tuple(h for t, h in subscribed if isinstance(event, t))
            # A runtime-checkable protocol matches by the instance's attributes,
            # so with one subscribed the answer holds for this event only.
            if not any(getattr(t, "_is_protocol", False) for t, _ in subscribed):
                routes[event.__class__] = handlers
        return handlers

    def _call(
        self, handlers: tuple[Callable[[Any], None], ...], event: object
    ) -> tuple[SubscriberFailure, ...] | None:
        failures: list[SubscriberFailure] | None = None
        for handler in handlers:
            try:
                handler(event)
            except Exception as exc:
                failures = failures or []
                failures.append(self._failed(event, handler, exc))
        if failures is None:
            return None
        self.failures.extend(failures)
        return tuple(failures)

    @staticmethod
    def _failed(event: object, handler: Callable[[Any], None], exc: Exception) -> SubscriberFailure:
        logger.exception("Subscriber %r failed on %s", handler, type(event).__name__)
        return SubscriberFailure(event, handler, exc)
