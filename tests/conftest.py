"""Shared fixtures: a stand-in provider adapter and a real ``ToolContext`` built around it."""

from __future__ import annotations

from typing import Any

import pytest

from tooltape import InProcessEventBus, Prompt, Session, ToolContext


class FakeAdapter:
    """Satisfies ``ProviderAdapter`` for code that only needs an adapter's name."""

    name = "fake-adapter"

    def evaluate(self, prompt: Any, /, *params: object, **options: Any) -> Any:
        raise AssertionError("these tests never evaluate a prompt against a provider")


@pytest.fixture
def fake_adapter() -> FakeAdapter:
    return FakeAdapter()


@pytest.fixture
def tool_context(fake_adapter: FakeAdapter) -> ToolContext:
    """A context for calling a tool handler directly, outside any executor."""
    bus = InProcessEventBus()
    return ToolContext(
        prompt=Prompt(ns="tests", key="direct-call"),
        rendered_prompt=None,
        adapter=fake_adapter,
        session=Session(bus),
        event_bus=bus,
    )


@pytest.fixture(autouse=True)
def _pytest_output_as_on_a_desk(monkeypatch: pytest.MonkeyPatch) -> None:
    # pytest prints untruncated summaries when CI is set; tests that read the
    # output of inner pytest runs (pytester) must see the same text everywhere.
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("BUILD_NUMBER", raising=False)


@pytest.fixture
def pytester(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """pytest's own ``pytester``, whose inner runs start without hypothesis's plugin.

    Inner runs never use hypothesis, and its plugin imports all of it as pytest
    starts: a third of an inner run's start, and the suite makes hundreds. (pytester
    clears ``PYTEST_ADDOPTS`` as it is set up; this runs after it.)
    """
    monkeypatch.setenv("PYTEST_ADDOPTS", "-p no:hypothesispytest")
    return pytester
