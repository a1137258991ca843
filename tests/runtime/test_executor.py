"""``ToolExecutor``: every call ends as a ``ToolResult`` and one ``ToolInvoked``.

Rules (DESIGN, "Failure semantics", and the tool-runtime seed): whatever goes
wrong in a call (bad JSON, invalid arguments, a raising handler or hook, an
unknown or provider-executed tool, a passed deadline) the caller gets
``ToolResult(success=False, value=None, message=...)`` whose message names
the tool and tells the model what to do, never an exception; ``ToolInvoked``
is still published, with ``rendered_output`` ``""`` when the value is
``None`` and ``result.render()`` otherwise; handlers get a fresh, frozen
``ToolContext``.
"""

import dataclasses
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tooltape import (
    InProcessEventBus,
    NativeTool,
    Section,
    Session,
    Tool,
    ToolContext,
    ToolInvoked,
    ToolResult,
)
from tooltape.runtime import ToolCall, ToolHookContext

from .conftest import Harness, HarnessFactory

GUIDANCE = re.compile(
    r"\b(retry|send|fix|call one of|continue without|do not call|finish without)\b", re.I
)
"""Some instruction the model can act on: the 'what to do' part of a failure message."""


@dataclass(frozen=True)
class EchoParams:
    text: str
    times: int = 1


@dataclass(frozen=True)
class Echoed:
    text: str

    def render(self) -> str:
        return f"echo: {self.text}"


@dataclass(frozen=True)
class NoParams:
    pass


def echo_handler(params: EchoParams, *, context: ToolContext) -> ToolResult[Echoed]:
    return ToolResult.ok(Echoed(params.text * params.times), message="Echoed.")


def boom_handler(params: NoParams, *, context: ToolContext) -> ToolResult[Any]:
    raise ValueError("the disk is on fire")


def liar_handler(params: NoParams, *, context: ToolContext) -> ToolResult[Any]:
    return "not a ToolResult"  # type: ignore[return-value]


echo = Tool[EchoParams, Echoed](name="echo", description="Echo text.", handler=echo_handler)
boom = Tool[NoParams, Any](name="boom", description="Always raises.", handler=boom_handler)
liar = Tool[NoParams, Any](name="liar", description="Returns junk.", handler=liar_handler)
native = NativeTool[NoParams, Any](name="computer", description="Provider-run tool.")


def raising_hook(ctx: ToolHookContext, args: dict[str, Any], call_next: Any) -> ToolResult[Any]:
    raise RuntimeError("audit service unreachable")


def assert_failed_and_recorded(
    harness: Harness, result: ToolResult[Any], *, tool: str, cause: str
) -> ToolInvoked:
    assert result.success is False
    assert result.value is None
    assert repr(tool) in result.message, "the message names the tool"
    assert cause.lower() in result.message.lower(), "the message says what went wrong"
    assert GUIDANCE.search(result.message), f"no guidance in {result.message!r}"
    [event] = harness.published
    assert event.result is result
    assert event.name == tool
    assert event.rendered_output == ""
    return event


# --- failures ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "cause"),
    [
        pytest.param(ToolCall("echo", '{"text": "hi"'), "JSON", id="bad-json"),
        pytest.param(ToolCall("echo", "[1, 2]"), "object", id="json-array"),
        pytest.param(ToolCall("echo", '"hi"'), "object", id="json-string"),
        pytest.param(ToolCall("echo", '{"text": 5}'), "text", id="wrong-type"),
        pytest.param(ToolCall("echo", "{}"), "text", id="missing-field"),
        pytest.param(ToolCall("echo", '{"text": "hi", "loud": true}'), "loud", id="unknown-key"),
        pytest.param(ToolCall("boom", "{}"), "the disk is on fire", id="handler-raises"),
        pytest.param(ToolCall("liar", "{}"), "str", id="handler-returns-junk"),
        pytest.param(ToolCall("computer", "{}"), "provider", id="native-tool"),
    ],
)
def test_each_failure_is_a_failed_result_and_an_event(
    make_harness: HarnessFactory, call: ToolCall, cause: str
) -> None:
    harness = make_harness(echo, boom, liar, native)
    result = harness.executor.execute(call)
    assert_failed_and_recorded(harness, result, tool=call.name, cause=cause)


def test_unknown_tool_names_it_and_lists_the_available_ones(make_harness: HarnessFactory) -> None:
    harness = make_harness(echo, boom)
    result = harness.executor.execute(ToolCall("ecko", '{"text": "hi"}', call_id="c9"))
    assert_failed_and_recorded(harness, result, tool="ecko", cause="unknown")
    assert "echo" in result.message and "boom" in result.message
    assert harness.published[0].call_id == "c9"


def test_a_raising_hook_is_a_failed_result_and_an_event(make_harness: HarnessFactory) -> None:
    harness = make_harness(echo, hooks=[raising_hook])
    result = harness.executor.execute(ToolCall("echo", '{"text": "hi"}'))
    assert_failed_and_recorded(harness, result, tool="echo", cause="audit service unreachable")


def test_failed_calls_do_not_stop_the_following_ones(make_harness: HarnessFactory) -> None:
    harness = make_harness(echo, boom)
    results = [
        harness.executor.execute(ToolCall("boom", "{}")),
        harness.executor.execute(ToolCall("echo", "not json")),
        harness.executor.execute(ToolCall("echo", '{"text": "still here"}')),
    ]
    assert [r.success for r in results] == [False, False, True]
    assert results[2].value == Echoed("still here")
    assert [e.result for e in harness.published] == results


def test_a_tool_of_a_disabled_section_cannot_be_called(make_harness: HarnessFactory) -> None:
    harness = make_harness(
        sections=[
            Section(title="On", tools=[echo]),
            Section(title="Off", enabled=False, tools=[liar]),
        ]
    )
    result = harness.executor.execute(ToolCall("liar", "{}"))
    assert_failed_and_recorded(harness, result, tool="liar", cause="unknown")


def test_a_passed_deadline_fails_the_call_without_running_the_handler(
    make_harness: HarnessFactory,
) -> None:
    calls: list[EchoParams] = []

    def handler(params: EchoParams, *, context: ToolContext) -> ToolResult[Echoed]:
        calls.append(params)
        return ToolResult.ok(Echoed(params.text))

    slow = Tool[EchoParams, Echoed](name="slow", description="Slow.", handler=handler)
    harness = make_harness(slow, deadline=datetime.now(UTC) - timedelta(seconds=1))
    result = harness.executor.execute(ToolCall("slow", '{"text": "hi"}'))
    assert_failed_and_recorded(harness, result, tool="slow", cause="deadline")
    assert calls == []


# --- successes and the event -------------------------------------------------------------


def test_a_successful_call_publishes_the_validated_params_and_the_rendered_value(
    make_harness: HarnessFactory,
) -> None:
    harness = make_harness(echo)
    result = harness.executor.execute(
        ToolCall("echo", '{"text": "ab", "times": 2}', call_id="call_1"), kind="function_call"
    )
    assert result.success is True
    assert result.value == Echoed("abab")

    [event] = harness.published
    assert event.result is result
    assert event.params == EchoParams(text="ab", times=2)
    assert event.rendered_output == result.render() == "echo: abab"
    assert event.name == "echo"
    assert event.call_id == "call_1"
    assert event.source == "function"
    assert event.provider == "openai"
    assert event.kind == "function_call"
    assert event.prompt_name == harness.prompt.name
    assert event.adapter == harness.adapter.name
    assert harness.session.tool_invocations == (event,)


def test_the_event_is_stamped_with_the_time_of_the_call_in_utc(
    make_harness: HarnessFactory,
) -> None:
    harness = make_harness(echo)
    before = datetime.now(UTC)
    harness.executor.execute(ToolCall("echo", '{"text": "x"}'))
    after = datetime.now(UTC)
    stamp = harness.published[0].created_at
    assert stamp.tzinfo is UTC
    # the clock read is rounded to the microsecond, as datetime.now's is
    assert before - timedelta(microseconds=1) <= stamp <= after + timedelta(microseconds=1)


class _Text(str):
    """Arguments text of a str subclass (what a client's own string type may be)."""


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param("", id="empty"),
        pytest.param("  \n", id="blank"),
        pytest.param(_Text("{}"), id="str-subclass"),
    ],
)
def test_a_tool_without_parameters_takes_no_arguments_text(
    make_harness: HarnessFactory, arguments: str
) -> None:
    def ping(params: NoParams, *, context: ToolContext) -> ToolResult[str]:
        return ToolResult.ok("pong")

    harness = make_harness(Tool[NoParams, str](name="ping", description="Ping.", handler=ping))
    result = harness.executor.execute(ToolCall("ping", arguments))
    assert result.success, result.message
    assert harness.published[0].params == NoParams()


def test_arguments_may_already_be_parsed(make_harness: HarnessFactory) -> None:
    harness = make_harness(echo)
    result = harness.executor.execute(ToolCall("echo", {"text": "parsed"}))
    assert result.value == Echoed("parsed")


def test_rendered_output_is_recorded_even_when_the_value_is_kept_from_the_model(
    make_harness: HarnessFactory,
) -> None:
    def secret(params: EchoParams, *, context: ToolContext) -> ToolResult[Echoed]:
        return ToolResult(
            message="Stored.", value=Echoed(params.text), exclude_value_from_context=True
        )

    vault = Tool[EchoParams, Echoed](name="vault", description="Store.", handler=secret)
    harness = make_harness(vault)
    result = harness.executor.execute(ToolCall("vault", '{"text": "token"}'))
    assert harness.published[0].rendered_output == result.render() == "echo: token"


@dataclass(frozen=True, slots=True)
class Shouted(ToolResult[Any]):
    """A result class of a project's own, rendering its value its own way."""

    def render(self) -> str:
        return str(self.value).upper()


def test_a_result_class_with_its_own_render_is_rendered_its_way(
    make_harness: HarnessFactory,
) -> None:
    def shout(params: EchoParams, *, context: ToolContext) -> ToolResult[Any]:
        return Shouted(message="", value=params.text)

    loud = Tool[EchoParams, Any](name="loud", description="Shout.", handler=shout)
    harness = make_harness(loud)
    harness.executor.execute(ToolCall("loud", '{"text": "quiet"}'))
    assert harness.published[0].rendered_output == "QUIET"


def test_the_source_given_by_the_caller_is_recorded(make_harness: HarnessFactory) -> None:
    harness = make_harness(echo)
    harness.executor.execute(ToolCall("echo", '{"text": "x"}'), source="mcp")
    assert harness.published[0].source == "mcp"


def test_a_native_tool_call_is_recorded_as_native(make_harness: HarnessFactory) -> None:
    harness = make_harness(native)
    harness.executor.execute(ToolCall("computer", "{}"))
    assert harness.published[0].source == "native"


# --- the context -------------------------------------------------------------------------


def test_the_handler_gets_a_fresh_frozen_context_of_the_evaluation(
    make_harness: HarnessFactory,
) -> None:
    contexts: list[ToolContext] = []

    def spy(params: NoParams, *, context: ToolContext) -> ToolResult[Any]:
        contexts.append(context)
        return ToolResult.ok(None)

    deadline = datetime.now(UTC) + timedelta(minutes=5)
    harness = make_harness(
        Tool[NoParams, Any](name="spy", description="Spy.", handler=spy), deadline=deadline
    )
    harness.executor.execute(ToolCall("spy", "{}"))
    harness.executor.execute(ToolCall("spy", "{}"))

    first, second = contexts
    assert first.prompt is harness.prompt
    assert first.rendered_prompt is harness.rendered
    assert first.adapter is harness.adapter
    assert first.session is harness.session
    assert first.event_bus is harness.bus
    assert first.deadline == deadline
    assert first is not second, "a context is never reused across calls"
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.deadline = None  # type: ignore[misc]


def test_each_call_sees_the_executor_as_it_is_then(make_harness: HarnessFactory) -> None:
    contexts: list[ToolContext] = []

    def spy(params: NoParams, *, context: ToolContext) -> ToolResult[Any]:
        contexts.append(context)
        return ToolResult.ok(None)

    harness = make_harness(Tool[NoParams, Any](name="spy", description="Spy.", handler=spy))
    harness.executor.execute(ToolCall("spy", "{}"))
    later = datetime.now(UTC) + timedelta(minutes=1)
    other_session = Session(InProcessEventBus())
    harness.executor.deadline = later
    harness.executor.session = other_session
    harness.executor.execute(ToolCall("spy", "{}"))

    first, second = contexts
    assert (first.deadline, first.session) == (None, harness.session)
    assert (second.deadline, second.session) == (later, other_session)
    assert second.prompt is harness.prompt


def pass_through(ctx: ToolHookContext, args: dict[str, Any], call_next: Any) -> ToolResult[Any]:
    return call_next(args)


def test_hooks_given_to_the_executor_later_run_from_the_next_call(
    make_harness: HarnessFactory,
) -> None:
    seen: list[str | None] = []

    def tracing(ctx: ToolHookContext, args: dict[str, Any], call_next: Any) -> ToolResult[Any]:
        seen.append(ctx.call_id)
        return call_next(args)

    harness = make_harness(echo)
    harness.executor.execute(ToolCall("echo", '{"text": "a"}', call_id="c1"))
    harness.executor.hooks = (tracing,)
    harness.executor.execute(ToolCall("echo", '{"text": "b"}', call_id="c2"))
    harness.executor.hooks = ()
    result = harness.executor.execute(ToolCall("echo", '{"text": "c"}', call_id="c3"))
    assert seen == ["c2"]
    assert result.value == Echoed("c")


@pytest.mark.parametrize("hooks", [(), (pass_through,)], ids=["no-hooks", "a-hook"])
def test_an_unexpected_error_around_the_handler_is_a_failed_result(
    make_harness: HarnessFactory, hooks: tuple[Any, ...]
) -> None:
    # A naive deadline cannot be compared with the aware time now: a TypeError
    # outside the handler, which must not escape the executor either.
    harness = make_harness(echo, hooks=hooks, deadline=datetime(2999, 1, 1))
    result = harness.executor.execute(ToolCall("echo", '{"text": "hi"}'))
    event = assert_failed_and_recorded(harness, result, tool="echo", cause="TypeError")
    assert event.params == {"text": "hi"}


# --- provider-executed calls -------------------------------------------------------------


def test_record_provider_call_publishes_a_hosted_invocation(make_harness: HarnessFactory) -> None:
    harness = make_harness(echo)
    produced = ToolResult.ok({"query": "tooltape", "hits": 3}, message="Searched.")
    result = harness.executor.record_provider_call(
        name="web_search",
        call_id="ws_1",
        params={"query": "tooltape"},
        result=produced,
        kind="web_search",
    )
    assert result is produced
    [event] = harness.published
    assert (event.name, event.call_id, event.source, event.kind, event.provider) == (
        "web_search",
        "ws_1",
        "hosted",
        "web_search",
        "openai",
    )
    assert event.params == {"query": "tooltape"}
    assert event.rendered_output == produced.render()


def test_hooks_can_rewrite_what_a_provider_call_records(make_harness: HarnessFactory) -> None:
    seen: list[tuple[str, str, dict[str, Any]]] = []

    def redact_hosted(ctx: ToolHookContext, args: dict[str, Any], call_next: Any) -> Any:
        seen.append((ctx.tool_source, ctx.tool_name, args))
        result = call_next(args)
        if ctx.tool_source != "hosted":
            return result
        return ToolResult.ok({"query": "[redacted]"}, message=result.message)

    harness = make_harness(echo, hooks=[redact_hosted])
    result = harness.executor.record_provider_call(
        name="web_search",
        call_id="ws_2",
        params={"query": "my password"},
        result=ToolResult.ok({"query": "my password"}, message="Searched."),
        kind="web_search",
    )
    assert seen == [("hosted", "web_search", {"query": "my password"})]
    assert result.value == {"query": "[redacted]"}
    [event] = harness.published
    assert event.result is result
    assert "my password" not in event.rendered_output


def test_a_raising_hook_on_a_provider_call_records_a_failure(make_harness: HarnessFactory) -> None:
    harness = make_harness(echo, hooks=[raising_hook])
    result = harness.executor.record_provider_call(
        name="web_search", call_id="ws_3", params={}, result=ToolResult.ok(1), kind="web_search"
    )
    assert_failed_and_recorded(harness, result, tool="web_search", cause="audit service")


class _BrokenRender:
    """A value whose own ``render`` raises: it can never reach the model as text."""

    def render(self) -> str:
        raise RuntimeError("template missing")


class _NumberRender:
    """A value whose own ``render`` answers with something that is not text."""

    def render(self) -> str:
        return 42  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class _BrokenResult(ToolResult[Any]):
    """A result class whose own ``render`` raises."""

    def render(self) -> str:
        raise LookupError("no such format")


@pytest.mark.parametrize(
    ("produced", "cause"),
    [
        pytest.param(ToolResult.ok(_BrokenRender()), "template missing", id="value-render-raises"),
        pytest.param(ToolResult.ok(_NumberRender()), "int", id="value-render-not-text"),
        pytest.param(_BrokenResult(message="", value=1), "no such format", id="result-render"),
    ],
)
def test_a_result_that_cannot_be_rendered_is_a_failed_result_and_an_event(
    make_harness: HarnessFactory, produced: ToolResult[Any], cause: str
) -> None:
    calls: list[EchoParams] = []

    def handler(params: EchoParams, *, context: ToolContext) -> ToolResult[Any]:
        calls.append(params)
        return produced

    odd = Tool[EchoParams, Any](name="odd", description="Odd value.", handler=handler)
    harness = make_harness(odd)
    result = harness.executor.execute(ToolCall("odd", '{"text": "x"}'))
    event = assert_failed_and_recorded(harness, result, tool="odd", cause=cause)
    assert calls == [EchoParams("x")], "the handler ran once"
    assert event.params == EchoParams("x")
    assert "do not call the tool again" in result.message
    assert result.model_output() == result.message


def test_a_hook_result_that_cannot_be_rendered_is_a_failed_result(
    make_harness: HarnessFactory,
) -> None:
    def replace(ctx: ToolHookContext, args: dict[str, Any], call_next: Any) -> ToolResult[Any]:
        call_next(args)
        return ToolResult.ok(_BrokenRender())

    harness = make_harness(echo, hooks=[replace])
    result = harness.executor.execute(ToolCall("echo", '{"text": "x"}'))
    assert_failed_and_recorded(harness, result, tool="echo", cause="template missing")


class _Unprintable(Exception):
    """An exception whose text cannot be had: ``str()`` of it raises."""

    def __str__(self) -> str:
        raise RuntimeError("no text for this one")


def _raise_unprintable(*_args: object, **_kwargs: object) -> Any:
    raise _Unprintable


def test_a_handler_exception_without_text_still_names_its_class(
    make_harness: HarnessFactory,
) -> None:
    def handler(params: EchoParams, *, context: ToolContext) -> ToolResult[Any]:
        raise _Unprintable

    odd = Tool[EchoParams, Any](name="odd", description="Odd error.", handler=handler)
    harness = make_harness(odd)
    result = harness.executor.execute(ToolCall("odd", '{"text": "x"}'))
    assert_failed_and_recorded(harness, result, tool="odd", cause="_Unprintable")


def test_a_hook_exception_without_text_is_a_failed_result(make_harness: HarnessFactory) -> None:
    harness = make_harness(echo, hooks=[_raise_unprintable])
    result = harness.executor.execute(ToolCall("echo", '{"text": "x"}'))
    assert_failed_and_recorded(harness, result, tool="echo", cause="_Unprintable")


def test_a_provider_call_hook_exception_without_text_is_a_failed_result(
    make_harness: HarnessFactory,
) -> None:
    harness = make_harness(echo, hooks=[_raise_unprintable])
    result = harness.executor.record_provider_call(
        name="web_search", call_id="ws_9", params={}, result=ToolResult.ok(1), kind="web_search"
    )
    assert_failed_and_recorded(harness, result, tool="web_search", cause="_Unprintable")


@dataclass(frozen=True, slots=True)
class _NoOutputResult(ToolResult[Any]):
    """A result class whose own ``model_output`` raises: nothing can go back to the model."""

    def model_output(self) -> str:
        raise LookupError("output template missing")


@dataclass(frozen=True, slots=True)
class _NumberOutputResult(ToolResult[Any]):
    """A result class whose own ``model_output`` answers with something that is not text."""

    def model_output(self) -> str:
        return 42  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("produced", "cause"),
    [
        pytest.param(_NoOutputResult(message="m", value=1), "output template missing", id="raises"),
        pytest.param(_NumberOutputResult(message="m", value=1), "int", id="not-text"),
    ],
)
def test_a_result_whose_model_output_fails_is_a_failed_result_and_an_event(
    make_harness: HarnessFactory, produced: ToolResult[Any], cause: str
) -> None:
    def handler(params: EchoParams, *, context: ToolContext) -> ToolResult[Any]:
        return produced

    odd = Tool[EchoParams, Any](name="odd", description="Odd output.", handler=handler)
    harness = make_harness(odd)
    result = harness.executor.execute(ToolCall("odd", '{"text": "x"}'))
    assert_failed_and_recorded(harness, result, tool="odd", cause=cause)
    assert result.model_output() == result.message


@pytest.mark.parametrize("message", [5, None, ["a list"]], ids=["int", "none", "list"])
def test_a_result_whose_message_is_not_text_is_a_failed_result(
    make_harness: HarnessFactory, message: object
) -> None:
    def handler(params: NoParams, *, context: ToolContext) -> ToolResult[Any]:
        return ToolResult(message=message, success=False)  # type: ignore[arg-type]

    odd = Tool[NoParams, Any](name="odd", description="Odd message.", handler=handler)
    harness = make_harness(odd)
    result = harness.executor.execute(ToolCall("odd", "{}"))
    assert_failed_and_recorded(harness, result, tool="odd", cause=type(message).__name__)
    assert isinstance(result.model_output(), str)


class _FailingBus:
    """An event bus of a project's own whose ``publish`` raises."""

    def __init__(self) -> None:
        self.seen: list[object] = []

    def subscribe(self, event_type: type, handler: Any) -> None:
        pass

    def publish(self, event: object) -> None:
        self.seen.append(event)
        raise ConnectionError("event store is down")


def test_a_bus_that_fails_to_publish_does_not_fail_the_call(
    make_harness: HarnessFactory, caplog: pytest.LogCaptureFixture
) -> None:
    harness = make_harness(echo)
    bus = _FailingBus()
    harness.executor.bus = bus
    result = harness.executor.execute(ToolCall("echo", '{"text": "hi"}'))
    assert result.success and result.value == Echoed("hi")
    [event] = bus.seen
    assert harness.executor.invocations == [event], "the executor keeps the event"
    assert "event store is down" in caplog.text
