"""Tool hooks: nginx-style middleware around every tool call.

A hook is ``hook(ctx, args, call_next) -> ToolResult``. It can act *before*
the tool (inspect or rewrite ``args``), *instead* of it (return a result
without calling ``call_next``) or *after* it (inspect or replace the result).
Hooks compose like middleware: the first listed is outermost and the last
one's ``call_next`` is ``ctx.original_tool_func``.

For a provider-executed tool (``tool_source="hosted"``) the original
function returns the result the provider already produced: the call has
happened, so hooks there observe, rewrite or replace what the runtime
records; they cannot prevent the provider from running it.

Before the provider runs a call that needs the client's approval (hosted
MCP with ``require_approval``), hooks see the approval itself, with
``ctx.approval`` set: ``args`` are ``server_label``, ``name`` and
``arguments`` of the call asked for, and the original function is the
tool's approver. A successful result approves the call, a failed one denies
it (its message is the reason the model is told): a hook can deny with
``ToolResult.error("why")`` or approve with ``ToolResult.ok(...)`` without
calling ``call_next``. A hook that raises denies the call. Rewriting
``args`` changes nothing: the provider runs the call it asked about.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import MethodType
from typing import Any, cast

from tooltape.prompt import ToolResult
from tooltape.prompt.prompt import HOOK_SHAPE
from tooltape.prompt.signature import check_positional_call, describe
from tooltape.runtime.events import ToolSource

ToolArgs = dict[str, Any]
ToolCallFn = Callable[[ToolArgs], ToolResult[Any]]
ToolHook = Callable[["ToolHookContext", ToolArgs, ToolCallFn], ToolResult[Any]]


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolHookContext:
    """Who is being called: enough identity for a hook to branch on source and name.

    ``approval`` is true when the call is the client's approval of a
    provider-executed call, not the call itself (see the module docstring).
    """

    tool_name: str
    tool_source: ToolSource
    original_tool_func: ToolCallFn
    prompt_name: str | None = None
    server_name: str | None = None
    call_id: str | None = None
    provider: str | None = None
    approval: bool = False


def check_hook(hook: Callable[..., Any], *, owner: str = "tool hook") -> ToolHook:
    """Return ``hook`` if it can be called as ``hook(ctx, args, call_next)``.

    Raises ``PromptValidationError`` otherwise, so a bad hook is refused when
    it is registered or loaded rather than when it first runs.
    """
    check_positional_call(hook, 3, owner=owner, shape=HOOK_SHAPE)
    return hook


HookChain = Callable[[ToolHookContext, ToolArgs], ToolResult[Any]]
"""Hooks composed around ``ctx.original_tool_func``: ``chain(ctx, args) -> ToolResult``."""


def _original(ctx: ToolHookContext, args: ToolArgs) -> ToolResult[Any]:
    return ctx.original_tool_func(args)


def _checked(hook: ToolHook, result: object) -> ToolResult[Any]:
    if isinstance(result, ToolResult):
        return cast("ToolResult[Any]", result)
    raise TypeError(
        f"Tool hook {describe(hook)} returned "
        f"{type(result).__name__}; a hook must return a ToolResult "
        "(usually the one call_next gave it)."
    )


def _around(hook: ToolHook, inner: HookChain) -> HookChain:
    if inner is _original:  # the innermost hook: its call_next is the original itself

        def innermost(ctx: ToolHookContext, args: ToolArgs) -> ToolResult[Any]:
            result = hook(ctx, args, ctx.original_tool_func)
            return result if isinstance(result, ToolResult) else _checked(hook, result)

        return innermost

    def step(ctx: ToolHookContext, args: ToolArgs) -> ToolResult[Any]:
        # ``inner`` bound to this call's context: half a ``partial``'s cost to make and call.
        call_next: ToolCallFn = MethodType(inner, ctx)
        result = hook(ctx, args, call_next)
        return result if isinstance(result, ToolResult) else _checked(hook, result)

    return step


def build_hook_chain(hooks: Sequence[ToolHook]) -> HookChain:
    """Compose ``hooks`` once (first listed is outermost) into ``chain(ctx, args)``.

    Each call then costs one ``call_next`` per hook (the next step, bound to
    the call's context), and whatever a hook returns is checked to be a
    ``ToolResult`` (a ``TypeError`` naming the hook otherwise).
    """
    chain: HookChain = _original
    for hook in reversed(tuple(hooks)):
        chain = _around(hook, chain)
    return chain


def run_tool_with_hooks(
    hooks: Sequence[ToolHook], ctx: ToolHookContext, args: ToolArgs
) -> ToolResult[Any]:
    """Run ``ctx.original_tool_func`` through ``hooks`` (first listed is outermost).

    An exception raised by a hook (or by the original function) propagates;
    the executor is what turns it into a failed ``ToolResult``. Running many
    calls through the same hooks: build the chain once with
    :func:`build_hook_chain`.
    """
    return build_hook_chain(hooks)(ctx, args)
