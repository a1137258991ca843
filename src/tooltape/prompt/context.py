"""``ToolContext``: what a handler is given besides its params."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tooltape.prompt.protocols import EventBus, ProviderAdapter, SessionProtocol

if TYPE_CHECKING:
    from tooltape.prompt.prompt import Prompt, RenderedPrompt


@dataclass(frozen=True, slots=True)
class ToolContext:
    """An immutable snapshot of the evaluation a tool call belongs to.

    Built fresh for each call and discarded afterwards. ``adapter``,
    ``session`` and ``event_bus`` let a handler evaluate a nested prompt that
    records into the same session; ``deadline`` (UTC) is when the whole
    evaluation must be done, if a deadline was set.
    """

    prompt: Prompt[Any]
    rendered_prompt: RenderedPrompt[Any] | None
    adapter: ProviderAdapter
    session: SessionProtocol
    event_bus: EventBus
    deadline: datetime | None = None
