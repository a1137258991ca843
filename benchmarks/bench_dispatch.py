"""Dispatch: one tool call through ``ToolExecutor`` vs openai-agents, and vs the floor.

What is compared, per call, with the same JSON arguments and the same handler:

- tooltape: ``ToolExecutor.execute(ToolCall(name, json_args, call_id))`` on an
  executor built as ``OpenAIAdapter.evaluate`` builds it, with three
  pass-through hooks declared on the prompt (``call_next(args)`` and nothing
  else). This is the whole path of a model's function call: JSON parsing,
  the hook chain, argument validation, the handler, the ``ToolInvoked``
  event (with the rendered output) published on the bus and kept by the
  session.
- baseline "openai-agents": another runtime doing the same job, an async
  ``agents.FunctionTool`` made by ``agents.function_tool`` from a function
  whose parameters are the params' fields; per call, the
  ``agents.tool_context.ToolContext`` its runner builds, then
  ``await tool.on_invoke_tool(ctx, json_args)`` (JSON parsing, validation
  with the pydantic model it derived, the call, its output check). The
  function builds the same params and calls the same handler. A batch of
  calls runs inside one running event loop (as a runner's calls do), so no
  loop start-up is timed.
- baseline "floor": ``pydantic.TypeAdapter(Params).validate_json(json_args)``
  (the adapter built once, before timing) and the handler called with the
  result: the least any typed tool call must do. This side has no hooks and
  no event; the ratio says what everything above validation costs.

Why it is fair: the handler, its ``ToolContext`` argument and the arguments
are the same objects on every side; ``check`` proves every side validates
the arguments to equal params and returns equal results.

Targets: the executor at most 0.5x openai-agents, and at most 3x the floor.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import pydantic
from agents import FunctionTool, function_tool
from agents.tool_context import ToolContext as AgentsToolContext
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

AGENTS_MAX = 0.5
FLOOR_MAX = 3.0
BATCH = 50
"""Calls per timed unit: the openai-agents side runs its batch in one event loop."""


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


def agents_tool(context: ToolContext, seen: list[SearchParams]) -> FunctionTool:
    """The openai-agents tool: the same params, the same handler."""

    async def search_tool(
        query: str, max_results: int = 5, domains: list[str] | None = None, fresh: bool = False
    ) -> ToolResult[SearchHits]:
        """Search the given domains."""
        params = SearchParams(query, max_results, tuple(domains or ()), fresh)
        if seen:
            seen[0] = params
        return search(params, context=context)

    return function_tool(search_tool, name_override="search")


@dataclass
class Setup:
    """Every side's callables plus what ``check`` compares."""

    executor: ToolExecutor
    adapter: pydantic.TypeAdapter[SearchParams]
    context: ToolContext
    tool: FunctionTool
    loop: asyncio.AbstractEventLoop
    agents_seen: list[SearchParams] = field(default_factory=lambda: list[SearchParams]())

    def ours(self) -> ToolResult[Any]:
        return self.executor.execute(ToolCall("search", JSON_ARGS, "call_bench"))

    def base(self) -> ToolResult[Any]:
        return search(self.adapter.validate_json(JSON_ARGS), context=self.context)

    async def _agents_call(self) -> Any:
        ctx = AgentsToolContext(
            context=None, tool_name="search", tool_call_id="call_bench", tool_arguments=JSON_ARGS
        )
        return await self.tool.on_invoke_tool(ctx, JSON_ARGS)

    def agents(self) -> Any:
        return self.loop.run_until_complete(self._agents_call())

    def ours_batch(self) -> object:
        return [self.ours() for _ in range(BATCH)]

    def base_batch(self) -> object:
        return [self.base() for _ in range(BATCH)]

    def agents_batch(self) -> object:
        async def batch() -> list[Any]:
            return [await self._agents_call() for _ in range(BATCH)]

        return self.loop.run_until_complete(batch())


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
    seen: list[SearchParams] = []
    return Setup(
        executor,
        pydantic.TypeAdapter(SearchParams),
        context,
        agents_tool(context, seen),
        asyncio.new_event_loop(),
        seen,
    )


def check(bench: Setup) -> None:
    """Raise ``AssertionError`` unless every side validates and answers alike."""
    bench.agents_seen[:] = [SearchParams("")]
    ours, base, theirs = bench.ours(), bench.base(), bench.agents()
    assert ours.success, ours.message
    assert ours == base, (ours, base)
    assert theirs == ours, (theirs, ours)
    event = bench.executor.invocations[-1]
    assert event.params == bench.adapter.validate_json(JSON_ARGS), event.params
    assert bench.agents_seen == [event.params], (bench.agents_seen, event.params)
    bench.agents_seen.clear()
    assert len(bench.executor.hooks) == len(HOOKS)


def run(*, repeats: int = 9, number: int = 40) -> list[Result]:
    """Time ``number`` batches of ``BATCH`` calls per round, per pair of sides; per call."""
    bench = setup()
    check(bench)
    rows: list[Result] = []
    sides = (
        ("vs agents", bench.agents_batch, "openai-agents FunctionTool.on_invoke_tool", AGENTS_MAX),
        ("vs floor", bench.base_batch, "TypeAdapter.validate_json + handler", FLOOR_MAX),
    )
    for label, base, base_label, max_ratio in sides:
        ours_s, base_s = compare(bench.ours_batch, base, repeats=repeats, number=number, warmup=4)
        rows.append(
            Result(
                name=f"dispatch {label}",
                ours_label="ToolExecutor.execute, three pass-through hooks",
                ours=ours_s / BATCH,
                base_label=base_label,
                base=base_s / BATCH,
                max_ratio=max_ratio,
                target=f"<= {max_ratio:.2f}",
                note="per call; same JSON arguments, params and handler",
            )
        )
    bench.loop.close()
    return rows
