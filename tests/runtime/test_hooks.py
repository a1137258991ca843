"""Tool hooks: nginx-style middleware around every tool call.

Rules (tool-hooks seed and DESIGN, "Hooks"): a hook is
``hook(ctx, args, call_next) -> ToolResult``; it can act before (rewrite
``args``), instead (return without calling ``call_next``) or after (replace
the result); the first hook listed is outermost and the last one's
``call_next`` is ``ctx.original_tool_func``; a hook whose signature cannot
take ``(ctx, args, call_next)`` is refused when registered; an exception from
a hook propagates out of ``run_tool_with_hooks`` but the executor turns it
into a failed result and later calls still run.
"""

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tooltape import Prompt, PromptValidationError, Tool, ToolContext, ToolResult
from tooltape.runtime import ToolCall, ToolHookContext, check_hook, run_tool_with_hooks

from .conftest import HarnessFactory

Args = dict[str, Any]
CallNext = Callable[[Args], ToolResult[Any]]


def context_for(
    original: CallNext, *, tool_name: str = "add_one", tool_source: Any = "function"
) -> ToolHookContext:
    return ToolHookContext(
        tool_name=tool_name, tool_source=tool_source, original_tool_func=original
    )


class Original:
    """A stand-in for the tool: records the args it is called with."""

    def __init__(self) -> None:
        self.calls: list[Args] = []

    def __call__(self, args: Args) -> ToolResult[Any]:
        self.calls.append(dict(args))
        return ToolResult.ok({"sum": args["x"] + 1, "secret": "s3cr3t"}, message="Added.")


# --- run_tool_with_hooks -----------------------------------------------------------------


def test_without_hooks_the_original_runs_with_the_args() -> None:
    original = Original()
    result = run_tool_with_hooks([], context_for(original), {"x": 1})
    assert original.calls == [{"x": 1}]
    assert result.value == {"sum": 2, "secret": "s3cr3t"}


def test_before_a_hook_rewrites_the_args_the_tool_sees() -> None:
    original = Original()

    def clamp(ctx: ToolHookContext, args: Args, call_next: CallNext) -> ToolResult[Any]:
        return call_next({**args, "x": min(args["x"], 10)})

    result = run_tool_with_hooks([clamp], context_for(original), {"x": 99})
    assert original.calls == [{"x": 10}]
    assert result.value["sum"] == 11


def test_instead_a_hook_short_circuits_and_the_tool_never_runs() -> None:
    original = Original()
    blocked = ToolResult.error("Blocked by policy; do not call add_one.")

    def block(ctx: ToolHookContext, args: Args, call_next: CallNext) -> ToolResult[Any]:
        return blocked

    assert run_tool_with_hooks([block], context_for(original), {"x": 1}) is blocked
    assert original.calls == []


def test_after_a_hook_redacts_the_result() -> None:
    original = Original()

    def redact(ctx: ToolHookContext, args: Args, call_next: CallNext) -> ToolResult[Any]:
        result = call_next(args)
        return dataclasses.replace(result, value={**result.value, "secret": "[redacted]"})

    result = run_tool_with_hooks([redact], context_for(original), {"x": 1})
    assert original.calls == [{"x": 1}]
    assert result.value == {"sum": 2, "secret": "[redacted]"}
    assert result.message == "Added."


def test_the_first_hook_listed_is_outermost() -> None:
    trace: list[str] = []

    def tracing(label: str) -> Callable[[ToolHookContext, Args, CallNext], ToolResult[Any]]:
        def hook(ctx: ToolHookContext, args: Args, call_next: CallNext) -> ToolResult[Any]:
            trace.append(f"{label}:before")
            result = call_next(args)
            trace.append(f"{label}:after")
            return result

        return hook

    def original(args: Args) -> ToolResult[Any]:
        trace.append("tool")
        return ToolResult.ok(None)

    hooks = [tracing("first"), tracing("second"), tracing("third")]
    run_tool_with_hooks(hooks, context_for(original), {})
    assert trace == [
        "first:before",
        "second:before",
        "third:before",
        "tool",
        "third:after",
        "second:after",
        "first:after",
    ]


def test_each_hook_sees_the_args_the_previous_one_passed_on() -> None:
    seen: list[Args] = []

    def add(key: str) -> Callable[[ToolHookContext, Args, CallNext], ToolResult[Any]]:
        def hook(ctx: ToolHookContext, args: Args, call_next: CallNext) -> ToolResult[Any]:
            seen.append(dict(args))
            return call_next({**args, key: True})

        return hook

    def original(args: Args) -> ToolResult[Any]:
        seen.append(dict(args))
        return ToolResult.ok(None)

    run_tool_with_hooks([add("a"), add("b")], context_for(original), {})
    assert seen == [{}, {"a": True}, {"a": True, "b": True}]


def test_hooks_can_branch_on_the_tool_identity() -> None:
    def guard(ctx: ToolHookContext, args: Args, call_next: CallNext) -> ToolResult[Any]:
        if ctx.tool_source == "mcp" and ctx.tool_name == "shell":
            return ToolResult.error(f"{ctx.tool_name} from {ctx.server_name} is blocked.")
        return call_next(args)

    def make(name: str, source: Any, server: str | None) -> ToolHookContext:
        return ToolHookContext(
            tool_name=name,
            tool_source=source,
            server_name=server,
            original_tool_func=lambda args: ToolResult.ok("ran"),
        )

    assert run_tool_with_hooks([guard], make("shell", "mcp", "box"), {}).message == (
        "shell from box is blocked."
    )
    assert run_tool_with_hooks([guard], make("shell", "function", None), {}).value == "ran"
    assert run_tool_with_hooks([guard], make("search", "mcp", "box"), {}).value == "ran"


def test_an_exception_from_a_hook_propagates() -> None:
    original = Original()

    def broken(ctx: ToolHookContext, args: Args, call_next: CallNext) -> ToolResult[Any]:
        raise LookupError("policy table missing")

    with pytest.raises(LookupError, match="policy table missing"):
        run_tool_with_hooks([broken], context_for(original), {"x": 1})
    assert original.calls == []


def test_hook_context_is_frozen_and_built_with_keywords() -> None:
    ctx = context_for(Original())
    assert (ctx.prompt_name, ctx.server_name, ctx.call_id, ctx.provider) == (None,) * 4
    with pytest.raises(dataclasses.FrozenInstanceError):
        ctx.tool_name = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        ToolHookContext("add_one", "function", Original())  # type: ignore[misc]


# --- registration-time signature check ---------------------------------------------------


def three_args(ctx: Any, args: Any, call_next: Any) -> Any:
    return call_next(args)


def star_args(*parts: Any) -> Any:
    return parts[2](parts[1])


def with_optional_fourth(ctx: Any, args: Any, call_next: Any, note: str = "") -> Any:
    return call_next(args)


class CallableHook:
    def __call__(self, ctx: Any, args: Any, call_next: Any) -> Any:
        return call_next(args)


def two_args(ctx: Any, args: Any) -> Any:
    raise AssertionError("never called")


def four_required(ctx: Any, args: Any, call_next: Any, extra: Any) -> Any:
    raise AssertionError("never called")


def required_keyword(ctx: Any, args: Any, call_next: Any, *, mode: str) -> Any:
    raise AssertionError("never called")


async def async_hook(ctx: Any, args: Any, call_next: Any) -> Any:
    raise AssertionError("never called")


GOOD_HOOKS = [three_args, star_args, with_optional_fourth, CallableHook()]
BAD_HOOKS = [two_args, four_required, required_keyword, async_hook, "three_args"]
BAD_IDS = ["two-args", "four-required", "required-keyword", "async", "not-callable"]


@pytest.mark.parametrize("hook", GOOD_HOOKS)
def test_check_hook_accepts_and_returns_callables_taking_three_args(hook: Any) -> None:
    assert check_hook(hook) is hook


@pytest.mark.parametrize("hook", BAD_HOOKS, ids=BAD_IDS)
def test_check_hook_refuses_other_shapes(hook: Any) -> None:
    with pytest.raises(PromptValidationError):
        check_hook(hook)


@pytest.mark.parametrize("hook", BAD_HOOKS, ids=BAD_IDS)
def test_a_prompt_refuses_a_malformed_hook_when_it_is_built(hook: Any) -> None:
    with pytest.raises(PromptValidationError, match="hook"):
        Prompt(ns="tests", key="hooks", tool_hooks=[three_args, hook])


def test_a_prompt_keeps_its_hooks_in_order() -> None:
    hooks = [three_args, star_args, CallableHook()]
    assert Prompt(ns="tests", key="hooks", tool_hooks=hooks).tool_hooks == tuple(hooks)


# --- hooks in the executor ---------------------------------------------------------------


@dataclass(frozen=True)
class AddParams:
    x: int


class AddOne:
    """The tool's handler; records the params it was given."""

    def __init__(self) -> None:
        self.seen: list[AddParams] = []

    def __call__(self, params: AddParams, *, context: ToolContext) -> ToolResult[dict[str, Any]]:
        self.seen.append(params)
        return ToolResult.ok({"sum": params.x + 1, "owner": "alice@example.com"})

    def tool(self, name: str = "add_one") -> Tool[AddParams, Any]:
        return Tool[AddParams, Any](name=name, description="Add one.", handler=self)


def test_a_prompt_hook_blocks_a_tool_and_the_handler_never_runs(
    make_harness: HarnessFactory,
) -> None:
    handler = AddOne()

    def no_danger(ctx: ToolHookContext, args: Args, call_next: CallNext) -> ToolResult[Any]:
        if ctx.tool_name == "danger":
            return ToolResult.error("Tool 'danger' is blocked here; continue without it.")
        return call_next(args)

    harness = make_harness(handler.tool("danger"), handler.tool("safe"), prompt_hooks=[no_danger])
    blocked = harness.executor.execute(ToolCall("danger", '{"x": 1}'))
    allowed = harness.executor.execute(ToolCall("safe", '{"x": 1}'))
    assert blocked.success is False
    assert allowed.value["sum"] == 2
    assert handler.seen == [AddParams(1)], "only the allowed call reached the handler"
    assert [e.result for e in harness.published] == [blocked, allowed]


def test_a_hook_rewrites_arguments_and_the_handler_sees_the_rewrite(
    make_harness: HarnessFactory,
) -> None:
    handler = AddOne()

    def clamp(ctx: ToolHookContext, args: Args, call_next: CallNext) -> ToolResult[Any]:
        return call_next({**args, "x": min(int(args.get("x", 0)), 10)})

    harness = make_harness(handler.tool(), prompt_hooks=[clamp])
    result = harness.executor.execute(ToolCall("add_one", '{"x": 500}'))
    assert handler.seen == [AddParams(10)]
    assert result.value["sum"] == 11
    assert harness.published[0].params == AddParams(10)


def test_the_event_records_the_params_last_validated_or_the_args_when_none_were(
    make_harness: HarnessFactory,
) -> None:
    handler = AddOne()

    def retry(ctx: ToolHookContext, args: Args, call_next: CallNext) -> ToolResult[Any]:
        if ctx.tool_name == "blocked":
            return ToolResult.error("Blocked; continue without it.")
        first = call_next(args)
        if ctx.tool_name == "twice" or not first.success:
            return call_next({"x": 3})
        return first

    tools = (handler.tool(), handler.tool("blocked"), handler.tool("twice"))
    harness = make_harness(*tools, prompt_hooks=[retry])
    for name, arguments in [("add_one", 1), ("add_one", '"a"'), ("blocked", 2), ("twice", 4)]:
        harness.executor.execute(ToolCall(name, f'{{"x": {arguments}}}'))
    assert handler.seen == [AddParams(1), AddParams(3), AddParams(4), AddParams(3)]
    assert [e.params for e in harness.published] == [
        AddParams(1),
        AddParams(3),
        {"x": 2},
        AddParams(3),
    ]


def test_a_hook_redacts_the_result_that_is_returned_and_recorded(
    make_harness: HarnessFactory,
) -> None:
    def redact(ctx: ToolHookContext, args: Args, call_next: CallNext) -> ToolResult[Any]:
        result = call_next(args)
        return dataclasses.replace(result, value={**result.value, "owner": "[redacted]"})

    harness = make_harness(AddOne().tool(), prompt_hooks=[redact])
    result = harness.executor.execute(ToolCall("add_one", '{"x": 1}'))
    [event] = harness.published
    assert result.value == {"sum": 2, "owner": "[redacted]"}
    assert event.result is result
    assert "alice@example.com" not in event.rendered_output
    assert "[redacted]" in event.rendered_output


def test_the_executor_gives_hooks_the_call_identity(make_harness: HarnessFactory) -> None:
    seen: list[ToolHookContext] = []

    def spy(ctx: ToolHookContext, args: Args, call_next: CallNext) -> ToolResult[Any]:
        seen.append(ctx)
        return call_next(args)

    harness = make_harness(AddOne().tool(), prompt_hooks=[spy])
    harness.executor.execute(ToolCall("add_one", '{"x": 1}', call_id="call_7"))
    [ctx] = seen
    assert (ctx.tool_name, ctx.tool_source, ctx.call_id, ctx.provider, ctx.prompt_name) == (
        "add_one",
        "function",
        "call_7",
        "openai",
        harness.prompt.name,
    )


def test_per_call_hooks_run_outside_prompt_hooks(make_harness: HarnessFactory) -> None:
    trace: list[str] = []

    def outer(ctx: ToolHookContext, args: Args, call_next: CallNext) -> ToolResult[Any]:
        trace.append("per-call")
        return call_next(args)

    def inner(ctx: ToolHookContext, args: Args, call_next: CallNext) -> ToolResult[Any]:
        trace.append("prompt")
        return call_next(args)

    harness = make_harness(AddOne().tool(), hooks=[outer], prompt_hooks=[inner])
    harness.executor.execute(ToolCall("add_one", '{"x": 1}'))
    assert trace == ["per-call", "prompt"]


def test_a_raising_hook_fails_its_call_and_the_next_call_still_succeeds(
    make_harness: HarnessFactory,
) -> None:
    handler = AddOne()
    fail = [True, False]

    def flaky_audit(ctx: ToolHookContext, args: Args, call_next: CallNext) -> ToolResult[Any]:
        if fail.pop(0):
            raise ConnectionError("audit log unreachable")
        return call_next(args)

    harness = make_harness(handler.tool(), prompt_hooks=[flaky_audit])
    first = harness.executor.execute(ToolCall("add_one", '{"x": 1}'))
    second = harness.executor.execute(ToolCall("add_one", '{"x": 2}'))

    assert first.success is False
    assert first.value is None
    assert "'add_one'" in first.message
    assert "audit log unreachable" in first.message
    assert second.success is True
    assert second.value["sum"] == 3
    assert handler.seen == [AddParams(2)]
    assert [e.result for e in harness.published] == [first, second]
    assert harness.published[0].rendered_output == ""


def test_a_hook_returning_something_else_than_a_tool_result_fails_the_call(
    make_harness: HarnessFactory,
) -> None:
    def sloppy(ctx: ToolHookContext, args: Args, call_next: CallNext) -> Any:
        call_next(args)
        return "done"

    harness = make_harness(AddOne().tool(), prompt_hooks=[sloppy])
    result = harness.executor.execute(ToolCall("add_one", '{"x": 1}'))
    assert result.success is False
    assert "ToolResult" in result.message


@pytest.mark.parametrize(
    "passed", ['{"x": 1}', None, [("x", 1)]], ids=["json-text", "none", "pairs"]
)
def test_a_hook_passing_call_next_something_else_than_a_dict_fails_the_call_saying_so(
    make_harness: HarnessFactory, passed: object
) -> None:
    handler = AddOne()

    def sloppy(ctx: ToolHookContext, args: Args, call_next: CallNext) -> ToolResult[Any]:
        return call_next(passed)  # type: ignore[arg-type]

    harness = make_harness(handler.tool(), prompt_hooks=[sloppy])
    result = harness.executor.execute(ToolCall("add_one", '{"x": 1}'))
    assert result.success is False
    assert f"call_next was given {type(passed).__name__}" in result.message
    assert "dict" in result.message
    assert handler.seen == []
