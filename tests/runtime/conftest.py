"""A tool executor wired to a real prompt, bus and session, for runtime tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pytest

from tooltape import InProcessEventBus, Prompt, RenderedPrompt, Section, Session, Tool, ToolInvoked
from tooltape.runtime import ToolExecutor


@dataclass
class Harness:
    prompt: Prompt[Any]
    rendered: RenderedPrompt[Any]
    executor: ToolExecutor
    bus: InProcessEventBus
    session: Session
    adapter: Any
    published: list[ToolInvoked] = field(default_factory=lambda: [])


HarnessFactory = Callable[..., Harness]


@pytest.fixture
def make_harness(fake_adapter: Any) -> HarnessFactory:
    """``make_harness(*tools, hooks=(), prompt_hooks=(), deadline=None, provider="openai")``.

    The tools go into one section; pass ``sections=`` instead for another tree.

    Hooks are composed as the adapter does: per-call ``hooks`` outermost, then
    the prompt's ``tool_hooks``.
    """

    def build(
        *tools: Tool[Any, Any],
        hooks: Sequence[Callable[..., Any]] = (),
        prompt_hooks: Sequence[Callable[..., Any]] = (),
        deadline: datetime | None = None,
        provider: str | None = "openai",
        sections: Sequence[Section[Any]] = (),
    ) -> Harness:
        prompt: Prompt[Any] = Prompt(
            ns="tests",
            key="runtime",
            sections=sections or [Section(title="Tools", tools=tools)],
            tool_hooks=prompt_hooks,
        )
        rendered = prompt.render()
        bus = InProcessEventBus()
        session = Session(bus)
        executor = ToolExecutor(
            prompt=prompt,
            rendered=rendered,
            adapter=fake_adapter,
            session=session,
            bus=bus,
            hooks=(*hooks, *prompt.tool_hooks),
            provider=provider,
            deadline=deadline,
        )
        harness = Harness(prompt, rendered, executor, bus, session, fake_adapter)
        bus.subscribe(ToolInvoked, harness.published.append)
        return harness

    return build
