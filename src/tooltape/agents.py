"""Agents as tools: a child ``Prompt`` that a parent prompt's model calls like any tool.

``prompt_tool(child, name=..., description=...)`` returns an ``AgentTool``.
When the model calls it with ``{"message": "..."}``, the child prompt is
rendered with ``AgentRequest(message=...)`` and evaluated by the parent's own
adapter, on the parent's bus and session (so the child's tool calls are
recorded next to the parent's), and the child's final text is the tool's
value. The call goes through the parent's executor and hooks with
``tool_source="agent"``; the child's own ``tool_hooks`` govern the child's
tools.

Whatever goes wrong in the child (``PromptEvaluationError``, any other
exception, running past ``child_timeout_sec``) ends as a failed
``ToolResult`` the parent model can read, never as an exception.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, wait
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from tooltape.prompt import (
    Prompt,
    PromptEvaluationError,
    PromptValidationError,
    Section,
    Tool,
    ToolContext,
    ToolResult,
)
from tooltape.prompt.tool import ToolSource
from tooltape.runtime.answers import failure_detail
from tooltape.runtime.secret_free import without_secrets

__all__ = ["AgentRequest", "AgentTool", "prompt_tool"]

_FIELD = "message"


@dataclass(frozen=True, slots=True)
class AgentRequest:
    # pydantic puts the docstring into the tool's JSON Schema: it is written
    # for the model. The child prompt's sections read the message as $message.
    """A request for another agent: one self-contained message."""

    message: str = field(
        metadata={"description": "The request for the agent, self-contained and in plain words."}
    )


def _positive(value: object, what: str, owner: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise PromptValidationError(f"{owner}: {what}={value!r}; use a number greater than 0.")
    return value


def _walk(sections: Sequence[Section[Any]]) -> Iterator[Section[Any]]:
    for section in sections:
        yield section
        yield from _walk(section.children)


def _check_renderable(child: Prompt[Any], owner: str) -> None:
    """Refuse a child that ``AgentRequest`` cannot render, or that would drop the message."""
    uses_message = False
    for section in _walk(child.sections):
        needed = section.placeholders()
        uses_message = uses_message or _FIELD in needed
        if not needed or section.default_params is not None:
            continue
        typed = section.params_type
        if typed is not None and not issubclass(AgentRequest, typed):
            problem = f"needs {typed.__name__}"
        elif not needed <= {_FIELD}:
            problem = f"uses {', '.join('$' + n for n in sorted(needed - {_FIELD}))}"
        else:
            continue
        raise PromptValidationError(
            f"{owner}: child prompt {child.name!r} section {section.key!r} {problem}, but an "
            "agent tool renders its child with AgentRequest(message=...) only; use $message "
            "or give that section default_params."
        )
    if not uses_message:
        raise PromptValidationError(
            f"{owner}: child prompt {child.name!r} never uses $message, so the request would "
            "be dropped; add a section such as MarkdownSection(title='Request', "
            "key='request', template='$message')."
        )


class _ChildRunner:
    """The handler of an ``AgentTool``: evaluates the child in a worker thread, bounded."""

    def __init__(
        self, child: Prompt[Any], *, tool_name: str, max_parallel: int, timeout: float
    ) -> None:
        self.child = child
        self.tool_name = tool_name
        self.max_parallel = max_parallel
        self.timeout = timeout
        # Released by the worker when the child really ends, not when the caller
        # stops waiting: an abandoned child still counts against max_parallel.
        self._slots = threading.BoundedSemaphore(max_parallel)

    def _fail(self, problem: str) -> ToolResult[Any]:
        return ToolResult.error(
            f"Agent tool {self.tool_name!r} (child prompt {self.child.name!r}): {problem}"
        )

    def __call__(self, params: AgentRequest, /, *, context: ToolContext) -> ToolResult[str]:
        timeout = self.timeout
        limited_by = f"child_timeout_sec={self.timeout:g}"
        if context.deadline is not None:
            remaining = (context.deadline - datetime.now(UTC)).total_seconds()
            if remaining <= 0:
                return self._fail("not run, the evaluation deadline has passed.")
            if remaining < timeout:
                timeout, limited_by = remaining, "the evaluation deadline"
        if not self._slots.acquire(timeout=timeout):
            return self._fail(
                f"all {self.max_parallel} parallel slots stayed busy for {timeout:g}s; ask "
                "fewer agents at once or try again later."
            )
        outcome: Future[object] = Future()
        adapter, bus, session = context.adapter, context.event_bus, context.session
        # The child's tools stop when this call stops waiting for it: a child it
        # abandons may still talk to the provider, but runs nothing more.
        deadline = datetime.now(UTC) + timedelta(seconds=timeout)
        if context.deadline is not None and context.deadline < deadline:
            # the wait for a slot took part of what was left before the parent's deadline
            deadline, limited_by = context.deadline, "the evaluation deadline"
            timeout = max((deadline - datetime.now(UTC)).total_seconds(), 0.0)

        def run() -> None:
            try:
                response = adapter.evaluate(
                    self.child, params, bus=bus, session=session, deadline=deadline
                )
                outcome.set_result(response)
            except BaseException as exc:
                outcome.set_exception(exc)
            finally:
                self._slots.release()

        worker = threading.Thread(target=run, name=f"tooltape-agent-{self.tool_name}", daemon=True)
        try:
            worker.start()
        except RuntimeError as exc:
            self._slots.release()
            return self._fail(f"could not start a worker thread ({exc}).")
        done, _ = wait([outcome], timeout=timeout)
        if not done:
            return self._fail(
                f"did not finish within {timeout:g} seconds ({limited_by}) and was abandoned; "
                "ask a narrower question or continue without this agent."
            )
        error = outcome.exception()
        if isinstance(error, PromptEvaluationError):
            detail = without_secrets(error.message)
            return self._fail(f"evaluation failed in phase {error.phase!r}: {detail}")
        if error is not None:
            return self._fail(f"evaluation failed: {type(error).__name__}: {failure_detail(error)}")
        text: object = getattr(outcome.result(), "text", None)
        if not isinstance(text, str):
            return self._fail(f"the adapter returned {type(outcome.result()).__name__}, no text.")
        return ToolResult.ok(text)


@dataclass(frozen=True, slots=True, eq=False)
class AgentTool(Tool[AgentRequest, str]):
    """A tool whose handler evaluates a child prompt (see ``prompt_tool``)."""

    child: Prompt[Any] | None = None
    max_parallel: int = 4
    child_timeout_sec: float = 120

    @property
    def source(self) -> ToolSource:
        return "agent"


def prompt_tool(
    prompt: Prompt[Any],
    *,
    name: str,
    description: str,
    max_parallel: int = 4,
    child_timeout_sec: float = 120,
) -> AgentTool:
    """Expose ``prompt`` as a tool taking ``AgentRequest(message: str)``.

    The child must be renderable with ``AgentRequest`` alone and use
    ``$message`` somewhere, or ``PromptValidationError`` is raised here. At
    most ``max_parallel`` evaluations of this tool's child run at once (the
    adapter may run several tool calls of one response on threads); a call
    waits up to ``child_timeout_sec`` for a slot, then up to
    ``child_timeout_sec`` (or the evaluation deadline, if sooner) for the
    child, which is evaluated with that moment as its deadline. A child that
    runs longer is abandoned and the call fails with a message saying so; the
    child runs no tool after it (a tool running then finishes: a thread cannot
    be killed), and it keeps its slot until its evaluation ends.
    """
    owner = f"prompt_tool {name!r}"
    if not isinstance(prompt, Prompt):
        raise PromptValidationError(f"{owner}: expected a Prompt, got {type(prompt).__name__}.")
    if isinstance(max_parallel, bool) or not isinstance(max_parallel, int):
        raise PromptValidationError(f"{owner}: max_parallel={max_parallel!r}; use an int > 0.")
    _positive(max_parallel, "max_parallel", owner)
    timeout = _positive(child_timeout_sec, "child_timeout_sec", owner)
    _check_renderable(prompt, owner)
    runner = _ChildRunner(prompt, tool_name=name, max_parallel=max_parallel, timeout=timeout)
    return AgentTool(
        name=name,
        description=description,
        handler=runner,
        params_type=AgentRequest,
        result_type=str,
        child=prompt,
        max_parallel=max_parallel,
        child_timeout_sec=timeout,
    )
