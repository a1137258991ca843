"""Dispatch: one tool call through ``ToolExecutor`` vs bare pydantic validation.

What is compared, per call, with the same JSON arguments and the same handler:

- tooltape: ``ToolExecutor.execute(ToolCall(name, json_args, call_id))`` on an
  executor built as ``OpenAIAdapter.evaluate`` builds it, with three
  pass-through hooks declared on the prompt (``call_next(args)`` and nothing
  else). This is the whole path of a model's function call: JSON parsing,
  the hook chain, argument validation, the handler, the ``ToolInvoked``
  event (with the rendered output) published on the bus and kept by the
  session.
- baseline: ``pydantic.TypeAdapter(Params).validate_json(json_args)`` (the
  adapter built once, before timing) and the handler called with the result.

Why it is fair: the handler, its ``ToolContext`` argument and the arguments
are the same objects on both sides; ``check`` proves both sides validate the
arguments to equal params and return equal results. The baseline is the
least any typed tool call must do; everything above it is the executor's
overhead, which the target bounds.

Target: the executor at most 2x the time of the baseline.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pydantic
from bench_timing import Result, compare

from tooltape import (
    InProcessEventBus,
    Prompt,
    Section,
    Session,
    Tool,
    ToolContext,
    ToolResult,
)
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.runtime import ToolCall, ToolExecutor
from tooltape.runtime.hooks import ToolArgs, ToolCallFn, ToolHookContext

MAX_RATIO = 2.0


@dataclass(frozen=True)
class SearchParams:
    query: str
    max_results: int = 5
    domains: tuple[str, ...] = ()
    fresh: bool = False


@dataclass(frozen=True)
class SearchHits:
    query: str
    urls: tuple[str, ...]


def search(params: SearchParams, *, context: ToolContext) -> ToolResult[SearchHits]:
    """The handler both sides call: a small, typed, synchronous result."""
    urls = tuple(f"https://{d}/search?q={params.query}" for d in params.domains)
    return ToolResult.ok(SearchHits(params.query, urls[: params.max_results]), message="found")


def _pass_through(ctx: ToolHookContext, args: ToolArgs, call_next: ToolCallFn) -> ToolResult[Any]:
    return call_next(args)


def _also_pass_through(
    ctx: ToolHookContext, args: ToolArgs, call_next: ToolCallFn
) -> ToolResult[Any]:
    return call_next(args)


def _pass_through_too(
    ctx: ToolHookContext, args: ToolArgs, call_next: ToolCallFn
) -> ToolResult[Any]:
    return call_next(args)


HOOKS = (_pass_through, _also_pass_through, _pass_through_too)
JSON_ARGS = json.dumps(
    {"query": "tooltape cassettes", "max_results": 3, "domains": ["python.org", "openai.com"]}
)


@dataclass
class Setup:
    """Both sides' callables plus what ``check`` compares."""

    executor: ToolExecutor
    adapter: pydantic.TypeAdapter[SearchParams]
    context: ToolContext

    def ours(self) -> ToolResult[Any]:
        return self.executor.execute(ToolCall("search", JSON_ARGS, "call_bench"))

    def base(self) -> ToolResult[Any]:
        return search(self.adapter.validate_json(JSON_ARGS), context=self.context)


def setup() -> Setup:
    tool = Tool[SearchParams, SearchHits](
        name="search", description="Search the given domains.", handler=search
    )
    prompt: Prompt[Any] = Prompt(
        ns="bench",
        key="dispatch",
        sections=[Section(title="Tools", tools=(tool,))],
        tool_hooks=HOOKS,
    )
    rendered = prompt.render()
    bus = InProcessEventBus()
    session = Session(bus)
    adapter = OpenAIAdapter("gpt-4o")  # the client is created on first use: never here
    executor = ToolExecutor(
        prompt=prompt,
        rendered=rendered,
        adapter=adapter,
        session=session,
        bus=bus,
        hooks=prompt.tool_hooks,
        provider="openai",
    )
    context = ToolContext(
        prompt=prompt,
        rendered_prompt=rendered,
        adapter=adapter,
        session=session,
        event_bus=bus,
        deadline=None,
    )
    return Setup(executor, pydantic.TypeAdapter(SearchParams), context)


def check(bench: Setup) -> None:
    """Raise ``AssertionError`` unless both sides validate and answer alike."""
    ours, base = bench.ours(), bench.base()
    assert ours.success, ours.message
    assert ours == base, (ours, base)
    event = bench.executor.invocations[-1]
    assert event.params == bench.adapter.validate_json(JSON_ARGS), event.params
    assert len(bench.executor.hooks) == len(HOOKS)


def run(*, repeats: int = 9, number: int = 2000) -> list[Result]:
    """Time ``number`` calls per batch, both ways; per-call medians."""
    bench = setup()
    check(bench)
    ours_s, base_s = compare(bench.ours, bench.base, repeats=repeats, number=number, warmup=200)
    return [
        Result(
            name="dispatch",
            ours_label="ToolExecutor.execute",
            ours=ours_s,
            base_label="TypeAdapter.validate_json",
            base=base_s,
            max_ratio=MAX_RATIO,
            target="<= 2.00",
            note="per call, three pass-through hooks",
        )
    ]
