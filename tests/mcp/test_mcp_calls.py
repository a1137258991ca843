"""MCP tool calls through the real executor and hooks, against a real server process."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from mcp_helpers import FIXED_TIME, demo_section, executor_for

from tooltape import (
    ToolInvoked,
    ToolResult,
)
from tooltape.mcp import McpCallResult, McpServerSection
from tooltape.runtime import ToolCall
from tooltape.runtime.hooks import ToolHookContext


@pytest.fixture(scope="module")
def demo() -> Iterator[McpServerSection]:
    with demo_section(tools=["get_time", "add", "fail", "nap"]) as section:
        yield section


def test_a_call_returns_the_servers_text_and_publishes_an_mcp_invocation(
    demo: McpServerSection,
) -> None:
    executor, session = executor_for(demo)

    result = executor.execute(ToolCall("demo__get_time", "{}", "call_1"))

    assert result.success
    assert isinstance(result.value, McpCallResult)
    assert result.value.text == FIXED_TIME
    assert result.value.structured_content == {"result": FIXED_TIME}
    assert result.model_output() == FIXED_TIME
    (event,) = session.tool_invocations
    assert (event.name, event.source, event.call_id) == ("demo__get_time", "mcp", "call_1")
    assert event.params == {}
    assert event.rendered_output == FIXED_TIME


def test_arguments_reach_the_server(demo: McpServerSection) -> None:
    executor, session = executor_for(demo)

    result = executor.execute(ToolCall("demo__add", '{"a": 40, "b": 2}'))
    defaulted = executor.execute(ToolCall("demo__add", {"a": 1}))

    assert result.render() == "42"
    assert defaulted.render() == "3"
    assert session.tool_invocations[0].params == {"a": 40, "b": 2}


def test_an_is_error_result_is_a_failed_result_with_the_servers_text(
    demo: McpServerSection,
) -> None:
    executor, session = executor_for(demo)

    result = executor.execute(ToolCall("demo__fail", {}))

    assert not result.success
    assert result.value is None
    assert "the demo server refuses" in result.message
    assert "'fail'" in result.message
    assert session.tool_invocations[0].rendered_output == ""


def test_arguments_that_break_the_input_schema_are_refused_before_the_call(
    demo: McpServerSection,
) -> None:
    executor, _ = executor_for(demo)

    wrong_type = executor.execute(ToolCall("demo__add", {"a": "forty"}))
    missing = executor.execute(ToolCall("demo__add", {"b": 1}))

    assert not wrong_type.success
    assert "input schema of demo__add" in wrong_type.message
    assert "a: 'forty' is not of type 'integer'" in wrong_type.message
    assert not missing.success
    assert "'a' is a required property" in missing.message


def test_hooks_see_source_and_server_and_can_rewrite_arguments_and_results(
    demo: McpServerSection,
) -> None:
    seen: list[tuple[str, str, str | None]] = []

    def double_first(ctx: ToolHookContext, args: dict[str, Any], call_next: Any) -> Any:
        seen.append((ctx.tool_name, ctx.tool_source, ctx.server_name))
        result = call_next({**args, "a": args["a"] * 2})
        return ToolResult.ok(f"[audited] {result.render()}")

    executor, session = executor_for(demo, hooks=[double_first])

    result = executor.execute(ToolCall("demo__add", {"a": 5, "b": 1}))

    assert seen == [("demo__add", "mcp", "demo")]
    assert result.value == "[audited] 11"
    assert session.tool_invocations[0].params == {"a": 10, "b": 1}


def test_a_guard_can_block_mcp_tools_by_server(demo: McpServerSection) -> None:
    def guard(ctx: ToolHookContext, args: dict[str, Any], call_next: Any) -> Any:
        if ctx.tool_source == "mcp" and ctx.server_name == "demo":
            return ToolResult.error("demo server is off limits")
        return call_next(args)

    executor, session = executor_for(demo, hooks=[guard])

    result = executor.execute(ToolCall("demo__get_time", {}))

    assert result.message == "demo server is off limits"
    assert session.tool_invocations[0].source == "mcp"


def test_concurrent_calls_share_one_server(demo: McpServerSection) -> None:
    executor, _ = executor_for(demo)
    results: dict[int, ToolResult[Any]] = {}

    def call(index: int) -> None:
        results[index] = executor.execute(ToolCall("demo__add", {"a": index, "b": 100}))

    threads = [threading.Thread(target=call, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert {i: r.render() for i, r in results.items()} == {i: str(i + 100) for i in range(8)}


def test_a_call_longer_than_the_call_timeout_fails() -> None:
    with demo_section(tools=["nap"], call_timeout_sec=0.3) as section:
        executor, _ = executor_for(section)
        result = executor.execute(ToolCall("demo__nap", {"seconds": 1.5}))

    assert not result.success
    assert "could not run tool 'nap'" in result.message
    assert "timed out" in result.message


def test_a_server_that_dies_mid_call_gives_failed_results_not_exceptions() -> None:
    with demo_section(tools=["crash", "get_time"]) as section:
        executor, session = executor_for(section)
        crashed = executor.execute(ToolCall("demo__crash", {}))
        after = executor.execute(ToolCall("demo__get_time", {}))

    assert not crashed.success
    assert "could not run tool 'crash'" in crashed.message
    assert "Connection closed" in crashed.message
    assert not after.success
    assert "'demo'" in after.message
    assert [e.source for e in session.tool_invocations] == ["mcp", "mcp"]


def test_after_the_server_is_gone_calls_say_so_instead_of_asking_to_retry() -> None:
    with demo_section(tools=["crash", "get_time"]) as section:
        executor, _ = executor_for(section)
        crashed = executor.execute(ToolCall("demo__crash", {}))
        first_after = executor.execute(ToolCall("demo__get_time", {}))
        second_after = executor.execute(ToolCall("demo__get_time", {}))

    for result in (crashed, first_after, second_after):
        assert not result.success
        assert "has stopped" in result.message, result.message
        assert "Retry later" not in result.message, "a retry cannot reach a server that is gone"
        assert "continue without this tool" in result.message.lower()


def test_a_subscriber_sees_mcp_invocations(demo: McpServerSection) -> None:
    executor, _ = executor_for(demo)
    seen: list[ToolInvoked] = []
    executor.bus.subscribe(ToolInvoked, seen.append)

    executor.execute(ToolCall("demo__get_time", {}, "c9"))

    assert [(e.name, e.call_id, e.result.success) for e in seen] == [("demo__get_time", "c9", True)]
