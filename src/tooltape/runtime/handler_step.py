"""One call's innermost step: the tool's arguments validated, then its handler called.

Hooks wrap it (it is their ``original_tool_func``); whatever goes wrong in it
is a failed ``ToolResult`` the model can act on.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic_core import ValidationError

from tooltape.prompt import (
    EventBus,
    Prompt,
    ProviderAdapter,
    RenderedPrompt,
    SessionProtocol,
    Tool,
    ToolContext,
    ToolHandler,
    ToolResult,
)
from tooltape.prompt.frozen_build import positional_builder
from tooltape.prompt.schema import ArgumentsError, ParamsSchema
from tooltape.prompt.tool import ToolSource
from tooltape.runtime.answers import failure_detail
from tooltape.runtime.hooks import ToolArgs

__all__ = ["AFTER_FAILURE", "UNVALIDATED", "Bound", "ContextArgs", "HandlerStep", "bind", "failed"]

logger = logging.getLogger("tooltape.executor")

AFTER_FAILURE = "Retry with different arguments, or continue without this tool."


def failed(tool_name: str, exc: Exception) -> ToolResult[Any]:
    """The failed result for an exception raised by a handler or a hook."""
    detail = failure_detail(exc)
    return ToolResult.error(
        f"Tool {tool_name!r} failed: {type(exc).__name__}: {detail}. {AFTER_FAILURE}"
    )


# One per handler call: built without its frozen ``__init__`` (see frozen_build).
_tool_context = positional_builder(ToolContext)

ContextArgs = tuple[
    Prompt[Any], RenderedPrompt[Any], ProviderAdapter, SessionProtocol, EventBus, datetime | None
]


@dataclass(slots=True)
class Bound:
    """What every call of one tool reads of it, read once (its properties are computed)."""

    tool: Tool[Any, Any]
    name: str
    source: ToolSource
    server_name: str | None
    handler: ToolHandler[Any, Any] | None
    schema: ParamsSchema[Any] | None = None
    """Found on the first call that validates (a broken one fails that call only)."""


def bind(tool: Tool[Any, Any]) -> Bound:
    """What the calls of ``tool`` read of it."""
    return Bound(tool, tool.name, tool.source, tool.server_name, tool.handler)


UNVALIDATED = object()


class HandlerStep:
    """One call's innermost step (its hooks' ``original_tool_func`` is ``run``).

    It keeps the params it last validated, for the call's ``ToolInvoked``:
    hooks may call the step more than once, or not at all.
    """

    __slots__ = ("bound", "context", "params")

    bound: Bound
    context: ContextArgs
    params: object

    def run(self, args: ToolArgs) -> ToolResult[Any]:
        """Validate ``args`` and call the tool's handler with them."""
        bound, context = self.bound, self.context
        name = bound.name
        deadline = context[-1]  # a ToolContext's fields end with the deadline
        if deadline is not None and datetime.now(UTC) >= deadline:
            return ToolResult.error(
                f"Tool {name!r} was not run: the evaluation deadline "
                f"{deadline.isoformat()} has passed; finish without calling more tools."
            )
        handler = bound.handler
        if handler is None:
            return ToolResult.error(
                f"Tool {name!r} has no local handler (it is executed by the provider); "
                "do not call it as a function."
            )
        if type(args) is not dict and not isinstance(args, Mapping):
            # A hook's mistake, not the model's: raised, so the call fails naming it.
            raise TypeError(
                f"call_next was given {type(args).__name__}; pass it the tool's arguments as "
                "a dict (the args the hook received, or a changed copy)."
            )
        schema = bound.schema
        if schema is None:
            schema = bound.schema = bound.tool.schema
        try:
            if type(schema) is ParamsSchema:
                # The validator itself: ``validate`` is this plus a frame and a copy.
                data = args if type(args) is dict else dict(args)
                params = schema.validator.validate_python(data)
            else:  # a schema of its own (an MCP tool's JSON Schema) validates its own way
                params = schema.validate(args)
        except ValidationError as exc:
            problem = schema.mismatch(exc)
            return ToolResult.error(f"Tool {name!r}: {problem} Fix the arguments and retry.")
        except ArgumentsError as exc:
            return ToolResult.error(f"Tool {name!r}: {exc} Fix the arguments and retry.")
        self.params = params
        # A new ToolContext for each handler call, never one shared between calls.
        try:
            outcome: object = handler(params, context=_tool_context(*context))
        except Exception as exc:
            logger.warning("Tool %r handler raised", name, exc_info=True)
            return failed(name, exc)
        if not isinstance(outcome, ToolResult):
            return ToolResult.error(
                f"Tool {name!r} handler returned {type(outcome).__name__}; "
                f"a handler must return a ToolResult. {AFTER_FAILURE}"
            )
        return outcome
