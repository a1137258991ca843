"""A scripted stand-in for a provider adapter, for driving agent tools without a provider.

It renders the prompt it is given (so params really flow into the child's
sections), optionally runs tool calls through a real ``ToolExecutor`` under
the prompt's hooks, and answers with a scripted text.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tooltape import InProcessEventBus, Prompt, PromptResponse, RenderedPrompt, Session
from tooltape.runtime import ToolCall, ToolExecutor

Reply = Callable[[RenderedPrompt[Any]], str]


@dataclass
class EvaluateCall:
    prompt: Prompt[Any]
    params: tuple[object, ...]
    bus: object
    session: object
    thread: str
    deadline: object = None


@dataclass
class ScriptedAdapter:
    """``name`` + ``evaluate`` like a real adapter; every call is recorded."""

    reply: Reply = field(default=lambda rendered: f"child saw: {rendered.text}")
    delay: float = 0.0
    error: BaseException | None = None
    tool_calls: Sequence[ToolCall] = ()
    name: str = "scripted"
    calls: list[EvaluateCall] = field(default_factory=lambda: list[EvaluateCall]())
    running: int = 0
    peak: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def evaluate(
        self,
        prompt: Prompt[Any],
        /,
        *params: object,
        bus: Any = None,
        session: Any = None,
        **options: Any,
    ) -> PromptResponse[Any]:
        with self._lock:
            self.calls.append(
                EvaluateCall(
                    prompt,
                    params,
                    bus,
                    session,
                    threading.current_thread().name,
                    options.get("deadline"),
                )
            )
            self.running += 1
            self.peak = max(self.peak, self.running)
        try:
            rendered = prompt.render(*params)
            if self.delay:
                time.sleep(self.delay)
            if self.error is not None:
                raise self.error
            bus = bus if bus is not None else InProcessEventBus()
            session = session if session is not None else Session(bus)
            executor = ToolExecutor(
                prompt=prompt,
                rendered=rendered,
                adapter=self,
                session=session,
                bus=bus,
                hooks=[*options.get("tool_hooks", ()), *prompt.tool_hooks],
                provider="scripted",
            )
            for call in self.tool_calls:
                if rendered.tool(call.name) is not None:
                    executor.execute(call)
            return PromptResponse(
                prompt_name=prompt.name,
                text=self.reply(rendered),
                tool_invocations=tuple(executor.invocations),
            )
        finally:
            with self._lock:
                self.running -= 1
