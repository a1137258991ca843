"""The tool executor: every call, local or provider-executed, ends as a ``ToolResult``."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from pydantic_core import from_json

from tooltape.prompt import (
    EventBus,
    Prompt,
    ProviderAdapter,
    RenderedPrompt,
    SessionProtocol,
    ToolResult,
)
from tooltape.prompt.frozen_build import direct_init, positional_builder
from tooltape.prompt.result import render_value
from tooltape.prompt.schema import ArgumentsError, to_jsonable
from tooltape.prompt.tool import ToolSource
from tooltape.runtime.answers import checked_model_output, unrenderable
from tooltape.runtime.events import InProcessEventBus, ToolInvoked
from tooltape.runtime.handler_step import (
    UNVALIDATED,
    Bound,
    ContextArgs,
    HandlerStep,
    bind,
    failed,
)
from tooltape.runtime.hooks import (
    HookChain,
    ToolArgs,
    ToolHook,
    ToolHookContext,
    build_hook_chain,
)

logger = logging.getLogger("tooltape.executor")
_now = datetime.now  # bound once: a global's attribute lookup less per event


@direct_init  # one is built for every call a model makes
@dataclass(frozen=True, slots=True)
class ToolCall:
    """A call a model asked for: tool name, JSON arguments (text or parsed), call id."""

    name: str
    arguments: str | Mapping[str, Any]
    call_id: str | None = None


def parse_arguments(arguments: str | Mapping[str, Any]) -> ToolArgs:
    """The call's arguments as a dict, or ``ArgumentsError`` saying what to send instead."""
    # ``type(...) is str`` first: the usual text skips the ABC check.
    if type(arguments) is not str and isinstance(arguments, Mapping):
        return dict(arguments)
    try:
        parsed: ToolArgs = from_json(arguments)  # checked below: JSON text may hold any value
    except ValueError as exc:
        if not arguments.strip():  # no arguments at all: a tool without parameters
            return {}
        raise ArgumentsError(
            f"Arguments are not valid JSON ({exc}); "
            "send a JSON object matching the tool's parameters schema."
        ) from None
    if type(parsed) is not dict:  # pydantic makes plain dicts
        raise ArgumentsError(
            f"Arguments must be a JSON object, got {type(parsed).__name__}; "
            "send an object matching the tool's parameters schema."
        )
    return parsed


def _subclass_text(result: ToolResult[Any]) -> str:
    """A result subclass's ``render()``, once its ``model_output()`` is text too."""
    rendered = result.render()
    if not isinstance(rendered, str):
        raise TypeError(f"{type(result).__name__}.render returned {type(rendered).__name__}")
    checked_model_output(result)  # a subclass may say what goes back to the model its own way
    return rendered


# One of each per call: built without their frozen ``__init__`` (see frozen_build).
_event = positional_builder(ToolInvoked)
_hook_context = positional_builder(ToolHookContext)

_new = object.__new__
_CONTEXT_FIELDS = frozenset({"prompt", "rendered", "adapter", "session", "bus", "deadline"})
"""The executor's attributes a ``ToolContext`` is built from."""


class ToolExecutor:
    """Runs tool calls for one evaluation, under its hooks, and publishes ``ToolInvoked``.

    Whatever goes wrong (unknown tool, bad JSON, invalid arguments, a raising
    handler or hook, a result that cannot be rendered as text, a passed
    deadline) the caller gets a failed
    ``ToolResult`` whose message a model can act on, never an exception.

    Its attributes (``prompt``, ``adapter``, ``hooks``...) may be reassigned
    between calls; what the executor derives from them once (the composed
    hook chain, the arguments of each call's ``ToolContext``) follows.
    """

    _chain: HookChain | None
    _context_args: ContextArgs | None

    def __init__(
        self,
        *,
        prompt: Prompt[Any],
        rendered: RenderedPrompt[Any],
        adapter: ProviderAdapter,
        session: SessionProtocol,
        bus: EventBus,
        hooks: Sequence[ToolHook] = (),
        provider: str | None = None,
        deadline: datetime | None = None,
    ) -> None:
        self.prompt = prompt
        self.rendered = rendered
        self.adapter = adapter
        self.session = session
        self.bus = bus
        self.hooks = tuple(hooks)
        self.provider = provider
        self.deadline = deadline
        self._tools = {tool.name: tool for tool in rendered.tools}
        self._bound: dict[str, Bound] = {}
        self.invocations: list[ToolInvoked] = []

    def __setattr__(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)
        if name == "hooks":
            hooks = cast("Sequence[ToolHook]", value)
            object.__setattr__(self, "_chain", build_hook_chain(hooks) if hooks else None)
        elif name in _CONTEXT_FIELDS:
            # Rebuilt on the next call, once every field is set.
            object.__setattr__(self, "_context_args", None)

    def _context_fields(self) -> ContextArgs:
        """The fields of each call's ``ToolContext``, gathered again after a change."""
        args = self._context_args
        if args is None:
            args = self._context_args = (
                self.prompt,
                self.rendered,
                self.adapter,
                self.session,
                self.bus,
                self.deadline,
            )
        return args

    def execute(
        self,
        call: ToolCall,
        *,
        source: ToolSource | None = None,
        kind: str | None = None,
    ) -> ToolResult[Any]:
        """Run one call through the hooks and the handler; always returns a result."""
        bound = self._bound.get(call.name)
        if bound is None:
            tool = self._tools.get(call.name)
            if tool is not None:
                bound = self._bound[call.name] = bind(tool)
        params: object = call.arguments
        if bound is None:
            available = ", ".join(sorted(self._tools)) or "none"
            result: ToolResult[Any] = ToolResult.error(
                f"Unknown tool {call.name!r}; call one of the available tools instead: {available}."
            )
        else:
            source = source or bound.source
            arguments = call.arguments
            try:  # the usual text of a JSON object, parsed here: one frame less per call
                parsed: ToolArgs | None = from_json(arguments) if type(arguments) is str else None
            except ValueError:
                parsed = None  # parsed again below, for the error that says what to send
            try:
                args: ToolArgs = parsed if type(parsed) is dict else parse_arguments(arguments)
            except ArgumentsError as exc:
                result = ToolResult.error(f"Tool {call.name!r}: {exc}")
            else:
                # Built by hand (no ``__init__`` frame): one is made for every call.
                step: HandlerStep = _new(HandlerStep)
                step.bound = bound
                step.context = self._context_args or self._context_fields()
                step.params = UNVALIDATED
                chain = self._chain
                try:
                    if chain is None:  # no hooks: nothing to give a ToolHookContext to
                        result = step.run(args)
                    else:
                        ctx = _hook_context(
                            call.name,
                            source,
                            step.run,
                            self.prompt.name,
                            bound.server_name,
                            call.call_id,
                            self.provider,
                            False,
                        )
                        result = chain(ctx, args)
                except Exception as exc:
                    where = "in a hook" if chain is not None else "outside its handler"
                    logger.warning("Tool %r failed %s", call.name, where, exc_info=True)
                    result = failed(call.name, exc)
                params = args if step.params is UNVALIDATED else step.params
        return self._publish(call.name, params, result, call.call_id, source or "function", kind)

    def refuse(
        self,
        call: ToolCall,
        message: str,
        *,
        source: ToolSource = "function",
        kind: str | None = None,
    ) -> ToolResult[Any]:
        """Answer a call with a failed result and run nothing (no tool of the prompt takes it
        in the form it came in); published like the answer to an unknown tool."""
        result: ToolResult[Any] = ToolResult.error(message)
        return self._publish(call.name, call.arguments, result, call.call_id, source, kind)

    def record_provider_call(
        self,
        *,
        name: str,
        call_id: str | None,
        params: object,
        result: ToolResult[Any],
        kind: str,
        server_name: str | None = None,
    ) -> ToolResult[Any]:
        """Record a call the provider already executed, letting hooks see and rewrite it.

        ``server_name`` names the remote server for hosted MCP calls, so hooks
        can branch on it as they do for local MCP tools.
        """
        jsonable = to_jsonable(params)
        args: ToolArgs = cast("ToolArgs", jsonable) if isinstance(jsonable, dict) else {}
        ctx = ToolHookContext(
            tool_name=name,
            tool_source="hosted",
            original_tool_func=lambda _args: result,
            prompt_name=self.prompt.name,
            server_name=server_name,
            call_id=call_id,
            provider=self.provider,
        )
        final = self._run_hooks(ctx, args)
        return self._publish(name, params, final, call_id, "hosted", kind)

    def decide_approval(
        self,
        *,
        name: str,
        call_id: str | None,
        params: object,
        decide: Callable[[], ToolResult[Any]],
        kind: str,
        server_name: str | None = None,
    ) -> ToolResult[Any]:
        """Decide whether the provider may make a call it asked approval for.

        ``decide`` (the tool's approver) runs under the hooks, which see
        ``ctx.approval`` set and may replace its answer; a successful result
        approves, a failed one denies, and an exception anywhere denies.
        """
        jsonable = to_jsonable(params)
        args: ToolArgs = cast("ToolArgs", jsonable) if isinstance(jsonable, dict) else {}
        ctx = ToolHookContext(
            tool_name=name,
            tool_source="hosted",
            original_tool_func=lambda _args: decide(),
            prompt_name=self.prompt.name,
            server_name=server_name,
            call_id=call_id,
            provider=self.provider,
            approval=True,
        )
        final = self._run_hooks(ctx, args)
        return self._publish(name, params, final, call_id, "hosted", kind, approval=True)

    def _run_hooks(self, ctx: ToolHookContext, args: ToolArgs) -> ToolResult[Any]:
        chain = self._chain
        try:
            return chain(ctx, args) if chain is not None else ctx.original_tool_func(args)
        except Exception as exc:
            logger.warning("Tool %r failed in a hook", ctx.tool_name, exc_info=True)
            return failed(ctx.tool_name, exc)

    def _publish(
        self,
        name: str,
        params: object,
        result: ToolResult[Any],
        call_id: str | None,
        source: ToolSource,
        kind: str | None,
        *,
        approval: bool = False,
    ) -> ToolResult[Any]:
        try:
            # ``render`` itself unless a subclass may have its own: one frame less per call.
            if type(result) is ToolResult:
                rendered = render_value(result.value)
                message = result.message
                if type(message) is not str and not isinstance(message, str):
                    raise TypeError(f"its message is {type(message).__name__}, not str")
            else:
                rendered = _subclass_text(result)
        except Exception as exc:
            # The value cannot reach the model: the call failed, as if its handler had raised.
            logger.warning("Tool %r result could not be rendered", name, exc_info=True)
            result = ToolResult.error(unrenderable(name, exc))
            rendered = ""
        event = _event(
            self.prompt.name,
            self.adapter.name,
            name,
            params,
            result,
            rendered,
            call_id,
            source,
            self.provider,
            kind,
            _now(UTC),
            approval,
        )
        self.invocations.append(event)
        bus = self.bus
        if type(bus) is InProcessEventBus:
            bus.notify(event)  # the same delivery, without a PublishResult nobody reads
        else:
            try:
                bus.publish(event)
            except Exception:
                # A bus of the project's own failed: the call itself still succeeded.
                logger.exception("Event bus %r failed to publish ToolInvoked for %r", bus, name)
        return result
