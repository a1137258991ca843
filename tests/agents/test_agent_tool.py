"""``prompt_tool``: a child prompt as a tool, driven through the real executor and hooks."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from agent_fakes import ScriptedAdapter

from tooltape import (
    InProcessEventBus,
    MarkdownSection,
    Prompt,
    PromptEvaluationError,
    PromptValidationError,
    Section,
    Session,
    Tool,
    ToolInvoked,
    ToolResult,
)
from tooltape.agents import AgentRequest, AgentTool, prompt_tool
from tooltape.runtime import ToolCall, ToolExecutor
from tooltape.runtime.hooks import ToolHookContext


def child_prompt(name: str = "researcher") -> Prompt[Any]:
    return Prompt(
        ns="tests",
        key=name,
        sections=[
            MarkdownSection(title="Role", key="role", template="You research things."),
            MarkdownSection(title="Request", key="request", template="Question: $message"),
        ],
    )


def parent_with(tool: Tool[Any, Any], hooks: Sequence[Callable[..., Any]] = ()) -> Prompt[Any]:
    return Prompt(
        ns="tests",
        key="orchestrator",
        sections=[MarkdownSection(title="Task", key="task", template="Coordinate.", tools=[tool])],
        tool_hooks=hooks,
    )


@dataclass
class Harness:
    executor: ToolExecutor
    bus: InProcessEventBus
    session: Session
    adapter: ScriptedAdapter


def harness(
    tool: Tool[Any, Any],
    adapter: ScriptedAdapter,
    hooks: Sequence[Callable[..., Any]] = (),
    deadline: datetime | None = None,
) -> Harness:
    parent = parent_with(tool, hooks)
    bus = InProcessEventBus()
    session = Session(bus)
    executor = ToolExecutor(
        prompt=parent,
        rendered=parent.render(),
        adapter=adapter,
        session=session,
        bus=bus,
        hooks=parent.tool_hooks,
        deadline=deadline,
    )
    return Harness(executor, bus, session, adapter)


def ask(h: Harness, message: str, call_id: str = "call_1") -> ToolResult[Any]:
    return h.executor.execute(ToolCall("researcher", {"message": message}, call_id))


def test_child_text_comes_back_as_the_value_and_is_published_as_an_agent_call() -> None:
    tool = prompt_tool(child_prompt(), name="researcher", description="Researches a question.")
    h = harness(tool, ScriptedAdapter())

    result = ask(h, "what is tooltape?")

    assert result.success
    assert result.value is not None
    assert "Question: what is tooltape?" in result.value
    assert "You research things." in result.value
    (event,) = h.session.tool_invocations
    assert event.source == "agent"
    assert event.name == "researcher"
    assert event.params == AgentRequest(message="what is tooltape?")
    assert event.rendered_output == result.value
    assert event.adapter == "scripted"


def test_child_runs_on_the_parents_adapter_bus_and_session() -> None:
    child = child_prompt()
    tool = prompt_tool(child, name="researcher", description="Researches a question.")
    h = harness(tool, ScriptedAdapter())

    ask(h, "hello")

    (call,) = h.adapter.calls
    assert call.prompt is child
    assert call.params == (AgentRequest(message="hello"),)
    assert call.bus is h.bus
    assert call.session is h.session
    assert call.thread.startswith("tooltape-agent-researcher")


def test_child_tool_calls_land_in_the_parent_session_before_the_agent_call() -> None:
    def lookup(topic: str) -> str:
        """Look a topic up."""
        return f"facts about {topic}"

    child = Prompt(
        ns="tests",
        key="researcher",
        sections=[
            MarkdownSection(
                title="Request",
                key="request",
                template="$message",
                tools=[Tool.from_function(lookup)],
            )
        ],
    )
    adapter = ScriptedAdapter(tool_calls=[ToolCall("lookup", {"topic": "mcp"}, "c1")])
    h = harness(prompt_tool(child, name="researcher", description="Researches."), adapter)

    ask(h, "go")

    assert [(e.prompt_name, e.name, e.source) for e in h.session.tool_invocations] == [
        ("researcher", "lookup", "function"),
        ("orchestrator", "researcher", "agent"),
    ]


def test_hooks_see_the_agent_source_and_can_rewrite_the_message() -> None:
    seen: list[tuple[str, str, str | None]] = []

    def rewrite(ctx: ToolHookContext, args: dict[str, Any], call_next: Any) -> ToolResult[Any]:
        seen.append((ctx.tool_name, ctx.tool_source, ctx.prompt_name))
        return call_next({"message": args["message"].upper()})

    tool = prompt_tool(child_prompt(), name="researcher", description="Researches.")
    h = harness(tool, ScriptedAdapter(), hooks=[rewrite])

    result = ask(h, "quiet please")

    assert seen == [("researcher", "agent", "orchestrator")]
    assert result.value is not None
    assert "Question: QUIET PLEASE" in result.value


def test_a_guard_hook_blocks_the_agent_before_the_child_runs() -> None:
    def guard(ctx: ToolHookContext, args: dict[str, Any], call_next: Any) -> ToolResult[Any]:
        if ctx.tool_source == "agent":
            return ToolResult.error(f"{ctx.tool_name} is blocked")
        return call_next(args)

    adapter = ScriptedAdapter()
    h = harness(prompt_tool(child_prompt(), name="researcher", description="R."), adapter, [guard])

    result = ask(h, "anything")

    assert not result.success
    assert result.message == "researcher is blocked"
    assert adapter.calls == []
    assert h.session.tool_invocations[0].source == "agent"


def test_a_child_evaluation_error_is_a_failed_result_naming_phase_and_message() -> None:
    error = PromptEvaluationError(
        "HTTP 500 from provider", prompt_name="researcher", phase="request"
    )
    h = harness(
        prompt_tool(child_prompt(), name="researcher", description="R."),
        ScriptedAdapter(error=error),
    )

    result = ask(h, "hello")

    assert not result.success
    assert result.value is None
    assert "'request'" in result.message
    assert "HTTP 500 from provider" in result.message
    (event,) = h.session.tool_invocations
    assert event.rendered_output == ""
    assert not event.result.success


def test_any_child_exception_is_a_failed_result() -> None:
    h = harness(
        prompt_tool(child_prompt(), name="researcher", description="R."),
        ScriptedAdapter(error=KeyError("boom")),
    )

    result = ask(h, "hello")

    assert not result.success
    assert "KeyError" in result.message
    assert "boom" in result.message


def test_a_child_failure_reaches_the_parent_model_without_credentials(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    key = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
    monkeypatch.setenv("GITHUB_TOKEN", key)
    failures: list[BaseException] = [
        RuntimeError(f"GitHub refused {key}"),
        PromptEvaluationError(f"proxy echoed {key}", prompt_name="researcher", phase="request"),
    ]
    for failure in failures:
        h = harness(
            prompt_tool(child_prompt(), name="researcher", description="R."),
            ScriptedAdapter(error=failure),
        )

        result = ask(h, "hello")

        assert key not in result.message
        assert "[GITHUB_TOKEN]" in result.message


def test_a_slow_child_times_out_with_a_failed_result_saying_so() -> None:
    tool = prompt_tool(child_prompt(), name="researcher", description="R.", child_timeout_sec=0.2)
    h = harness(tool, ScriptedAdapter(delay=2.0))

    started = time.monotonic()
    result = ask(h, "slow question")
    elapsed = time.monotonic() - started

    assert not result.success
    assert "0.2 seconds" in result.message
    assert "child_timeout_sec" in result.message
    assert elapsed < 1.5


def test_the_evaluation_deadline_shortens_the_child_timeout() -> None:
    tool = prompt_tool(child_prompt(), name="researcher", description="R.", child_timeout_sec=60)
    deadline = datetime.now(UTC) + timedelta(seconds=0.3)
    h = harness(tool, ScriptedAdapter(delay=2.0), deadline=deadline)

    started = time.monotonic()
    result = ask(h, "slow question")

    assert not result.success
    assert "deadline" in result.message
    assert time.monotonic() - started < 1.5


def test_at_most_max_parallel_children_run_at_once() -> None:
    tool = prompt_tool(child_prompt(), name="researcher", description="R.", max_parallel=2)
    adapter = ScriptedAdapter(delay=0.2)
    h = harness(tool, adapter)
    results: list[ToolResult[Any]] = []
    lock = threading.Lock()

    def call(index: int) -> None:
        result = ask(h, f"question {index}", call_id=f"call_{index}")
        with lock:
            results.append(result)

    threads = [threading.Thread(target=call, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(results) == 6
    assert all(r.success for r in results)
    assert adapter.peak == 2
    assert len(h.session.tool_invocations) == 6


def test_a_call_that_cannot_get_a_slot_in_time_fails() -> None:
    release = threading.Event()
    tool = prompt_tool(
        child_prompt(), name="researcher", description="R.", max_parallel=1, child_timeout_sec=0.3
    )

    def stuck(rendered: Any) -> str:
        release.wait(5)
        return "late"

    h = harness(tool, ScriptedAdapter(reply=stuck))
    try:
        first = ask(h, "first")
        second = ask(h, "second")
    finally:
        release.set()

    assert not first.success
    assert "did not finish" in first.message
    assert not second.success
    assert "parallel slots stayed busy" in second.message


def test_waiting_for_a_slot_never_stretches_the_wait_past_the_evaluation_deadline() -> None:
    tool = prompt_tool(
        child_prompt(), name="researcher", description="R.", max_parallel=1, child_timeout_sec=60
    )
    busy = harness(tool, ScriptedAdapter(delay=0.6))  # holds the one slot for 0.6s
    slow = ScriptedAdapter(delay=5.0)
    h = harness(tool, slow, deadline=datetime.now(UTC) + timedelta(seconds=1.0))
    holder = threading.Thread(target=ask, args=(busy, "first"))
    holder.start()
    time.sleep(0.05)
    started = time.monotonic()
    try:
        result = ask(h, "second")
    finally:
        holder.join()

    assert not result.success
    assert "the evaluation deadline" in result.message
    # the slot came free after 0.6s; the deadline was 0.4s after that, not a full second
    assert time.monotonic() - started < 1.3
    assert slow.calls and slow.calls[0].deadline == h.executor.deadline


def test_invalid_arguments_never_reach_the_child() -> None:
    adapter = ScriptedAdapter()
    h = harness(prompt_tool(child_prompt(), name="researcher", description="R."), adapter)

    result = h.executor.execute(ToolCall("researcher", {"question": "x"}, "c"))

    assert not result.success
    assert "message" in result.message
    assert adapter.calls == []


def test_the_tool_advertises_a_message_parameter() -> None:
    tool = prompt_tool(child_prompt(), name="researcher", description="Researches.")

    schema = tool.parameters_schema()

    assert isinstance(tool, AgentTool)
    assert tool.source == "agent"
    assert schema["required"] == ["message"]
    assert schema["properties"]["message"]["type"] == "string"
    assert "message" in tool.param_descriptions()


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"max_parallel": 0}, "max_parallel=0"),
        ({"max_parallel": -2}, "max_parallel=-2"),
        ({"max_parallel": True}, "max_parallel=True"),
        ({"max_parallel": 1.5}, "max_parallel=1.5"),
        ({"child_timeout_sec": 0}, "child_timeout_sec=0"),
        ({"child_timeout_sec": -1.0}, "child_timeout_sec=-1.0"),
        ({"child_timeout_sec": "10"}, "child_timeout_sec='10'"),
    ],
)
def test_limits_must_be_positive(options: dict[str, Any], fragment: str) -> None:
    with pytest.raises(PromptValidationError, match=fragment):
        prompt_tool(child_prompt(), name="researcher", description="R.", **options)


def test_a_bad_tool_name_is_refused() -> None:
    with pytest.raises(PromptValidationError, match="invalid"):
        prompt_tool(child_prompt(), name="Researcher!", description="R.")


def test_a_child_that_never_uses_the_message_is_refused() -> None:
    child = Prompt(
        ns="tests", key="mute", sections=[MarkdownSection(title="A", key="a", template="Hi.")]
    )
    with pytest.raises(PromptValidationError, match=r"never uses \$message"):
        prompt_tool(child, name="mute", description="R.")


def test_a_child_needing_other_params_is_refused() -> None:
    child = Prompt(
        ns="tests",
        key="picky",
        sections=[MarkdownSection(title="A", key="a", template="$message about $topic")],
    )
    with pytest.raises(PromptValidationError, match=r"section 'a' uses \$topic"):
        prompt_tool(child, name="picky", description="R.")


@dataclass(frozen=True)
class Persona:
    tone: str


def test_a_child_section_with_default_params_is_accepted() -> None:
    child = Prompt(
        ns="tests",
        key="styled",
        sections=[
            MarkdownSection(
                title="Style", key="style", template="Be $tone.", default_params=Persona("brief")
            ),
            MarkdownSection(title="Request", key="request", template="$message"),
        ],
    )
    tool = prompt_tool(child, name="styled", description="R.")
    h = harness(tool, ScriptedAdapter())

    result = h.executor.execute(ToolCall("styled", {"message": "hi"}))

    assert result.value is not None
    assert "Be brief." in result.value


def test_a_child_section_typed_with_another_params_type_is_refused() -> None:
    child = Prompt(
        ns="tests",
        key="typed",
        sections=[
            Section[Persona](title="Style", key="style"),
            MarkdownSection[Persona](title="Tone", key="tone", template="$tone"),
            MarkdownSection(title="Request", key="request", template="$message"),
        ],
    )
    with pytest.raises(PromptValidationError, match="section 'tone' needs Persona"):
        prompt_tool(child, name="typed", description="R.")


def test_events_from_a_subscriber_see_every_agent_call() -> None:
    seen: list[ToolInvoked] = []
    h = harness(prompt_tool(child_prompt(), name="researcher", description="R."), ScriptedAdapter())
    h.bus.subscribe(ToolInvoked, seen.append)

    ask(h, "one", "c1")
    ask(h, "two", "c2")

    assert [e.call_id for e in seen] == ["c1", "c2"]
