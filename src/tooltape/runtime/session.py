"""``Session``: the record of what happened during evaluations."""

from __future__ import annotations

from typing import Any

from tooltape.prompt import EventBus
from tooltape.runtime.events import InProcessEventBus, PromptExecuted, ToolInvoked


class Session:
    """Records every ``ToolInvoked`` (and ``PromptExecuted``) published on its bus.

    Adapters attach the session to whatever bus an evaluation uses, so the
    record is complete even when a caller passes its own bus.
    """

    def __init__(self, bus: EventBus | None = None) -> None:
        self._bus: EventBus = bus if bus is not None else InProcessEventBus()
        self._tool_invocations: list[ToolInvoked] = []
        self._executions: list[PromptExecuted] = []
        self._attached: list[EventBus] = []
        self.attach(self._bus)

    @property
    def bus(self) -> EventBus:
        """The session's own bus."""
        return self._bus

    def attach(self, bus: EventBus) -> None:
        """Record events from ``bus`` too (idempotent)."""
        if any(b is bus for b in self._attached):
            return
        self._attached.append(bus)
        # The lists' own ``append``: recording an event runs no Python frame of its own.
        bus.subscribe(ToolInvoked, self._tool_invocations.append)
        bus.subscribe(PromptExecuted, self._executions.append)

    @property
    def tool_invocations(self) -> tuple[ToolInvoked, ...]:
        """Every tool call seen, in publish order."""
        return tuple(self._tool_invocations)

    @property
    def executions(self) -> tuple[PromptExecuted, ...]:
        """Every finished evaluation seen, in publish order."""
        return tuple(self._executions)

    def invocations_of(self, name: str) -> tuple[ToolInvoked, ...]:
        """The calls of one tool."""
        return tuple(e for e in self._tool_invocations if e.name == name)

    def __repr__(self) -> str:
        calls: Any = len(self._tool_invocations)
        return f"Session(tool_invocations={calls})"
