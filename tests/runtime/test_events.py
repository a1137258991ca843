"""``InProcessEventBus`` and ``Session``.

Rules: a subscriber that raises never stops the others, and its failure is
reported three ways (returned in the ``PublishResult``, kept in
``bus.failures``, logged on ``tooltape.events``); a ``Session`` records every
``ToolInvoked`` published on its bus and on any bus attached to it.
"""

import logging
from typing import Any, Protocol, runtime_checkable

import pytest

from tooltape import InProcessEventBus, Session, ToolInvoked, ToolResult
from tooltape.runtime import PromptRendered, PublishResult


def invoked(name: str = "lookup", result: ToolResult[Any] | None = None) -> ToolInvoked:
    result = result if result is not None else ToolResult.ok({"id": 1})
    return ToolInvoked(
        prompt_name="p",
        adapter="fake",
        name=name,
        params={},
        result=result,
        rendered_output=result.render(),
    )


class Boom(RuntimeError):
    pass


def test_a_failing_subscriber_does_not_stop_the_others(caplog: pytest.LogCaptureFixture) -> None:
    bus = InProcessEventBus()
    calls: list[str] = []

    def first(event: ToolInvoked) -> None:
        calls.append("first")

    def failing(event: ToolInvoked) -> None:
        calls.append("failing")
        raise Boom("subscriber broke")

    def last(event: ToolInvoked) -> None:
        calls.append("last")

    for handler in (first, failing, last):
        bus.subscribe(ToolInvoked, handler)

    event = invoked()
    with caplog.at_level(logging.ERROR, logger="tooltape.events"):
        outcome = bus.publish(event)

    assert calls == ["first", "failing", "last"]

    assert isinstance(outcome, PublishResult)
    assert outcome.handled == 3
    assert outcome.ok is False
    [failure] = outcome.failures
    assert failure.handler is failing
    assert failure.event is event
    assert isinstance(failure.error, Boom)

    assert bus.failures == [failure]

    records = [r for r in caplog.records if r.name == "tooltape.events"]
    assert len(records) == 1
    assert records[0].levelno >= logging.ERROR
    assert records[0].exc_info is not None
    assert records[0].exc_info[1] is failure.error


def test_notify_delivers_and_keeps_failures_as_publish_does(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bus = InProcessEventBus()
    seen: list[object] = []

    def failing(event: ToolInvoked) -> None:
        raise Boom("subscriber broke")

    bus.subscribe(ToolInvoked, failing)
    bus.subscribe(ToolInvoked, seen.append)
    event = invoked()
    with caplog.at_level(logging.ERROR, logger="tooltape.events"):
        bus.notify(event)
    assert seen == [event]
    [failure] = bus.failures
    assert (failure.event, failure.handler) == (event, failing)
    assert [r.exc_info[1] for r in caplog.records if r.exc_info] == [failure.error]


def test_failures_accumulate_across_publishes_and_a_clean_publish_is_ok() -> None:
    bus = InProcessEventBus()
    fail_next = [True, False, True]

    def flaky(event: ToolInvoked) -> None:
        if fail_next.pop(0):
            raise Boom("flaky")

    bus.subscribe(ToolInvoked, flaky)
    results = [bus.publish(invoked(name)) for name in ("a", "b", "c")]
    assert [r.ok for r in results] == [False, True, False]
    assert [f.event.name for f in bus.failures] == ["a", "c"]  # type: ignore[attr-defined]


def test_subscribers_receive_only_the_event_types_they_subscribed_to() -> None:
    bus = InProcessEventBus()
    tools: list[object] = []
    bus.subscribe(ToolInvoked, tools.append)
    outcome = bus.publish(PromptRendered(prompt_name="p", adapter="fake", rendered_prompt=None))  # type: ignore[arg-type]
    assert tools == []
    assert outcome.handled == 0


def test_subscriptions_made_or_dropped_between_publishes_apply_to_the_next_publish() -> None:
    bus = InProcessEventBus()
    first: list[object] = []
    later: list[object] = []
    bus.subscribe(ToolInvoked, first.append)
    bus.publish(invoked("a"))
    bus.subscribe(object, later.append)  # every event, by its base class
    bus.publish(invoked("b"))
    bus.unsubscribe(ToolInvoked, first.append)
    outcome = bus.publish(invoked("c"))
    assert [e.name for e in first] == ["a", "b"]  # type: ignore[attr-defined]
    assert [e.name for e in later] == ["b", "c"]  # type: ignore[attr-defined]
    assert outcome.handled == 1


@runtime_checkable
class Approval(Protocol):
    approval: bool


class Loose:
    """An event class whose instances may or may not carry ``approval``."""


def test_a_protocol_subscription_is_matched_on_each_event_itself() -> None:
    bus = InProcessEventBus()
    seen: list[object] = []
    bus.subscribe(Approval, seen.append)
    plain, marked = Loose(), Loose()
    marked.approval = True  # type: ignore[attr-defined]
    outcomes = [bus.publish(plain), bus.publish(marked), bus.publish(Loose())]
    assert seen == [marked]
    assert [o.handled for o in outcomes] == [0, 1, 0]


def test_session_records_every_tool_invocation_in_publish_order() -> None:
    session = Session()
    ok = invoked("first")
    failed = invoked("second", ToolResult.error("it broke"))
    session.bus.publish(ok)
    session.bus.publish(failed)
    assert session.tool_invocations == (ok, failed)
    assert session.invocations_of("second") == (failed,)


def test_session_records_from_its_own_bus_and_from_an_attached_bus() -> None:
    own = InProcessEventBus()
    other = InProcessEventBus()
    session = Session(own)
    session.attach(other)
    session.attach(other)  # attaching twice must not record twice

    first, second = invoked("own"), invoked("other")
    own.publish(first)
    other.publish(second)
    assert session.tool_invocations == (first, second)


def test_session_keeps_recording_when_another_subscriber_fails() -> None:
    bus = InProcessEventBus()

    def broken(event: ToolInvoked) -> None:
        raise Boom("observer broke")

    bus.subscribe(ToolInvoked, broken)
    session = Session(bus)
    event = invoked()
    bus.publish(event)
    assert session.tool_invocations == (event,)
