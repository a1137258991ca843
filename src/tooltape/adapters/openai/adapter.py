"""``OpenAIAdapter``: evaluate prompts against the OpenAI Responses API."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar, cast

import openai
from typing_extensions import Unpack

from tooltape.adapters.codec import ClientToolCodec, HostedToolCodec
from tooltape.adapters.openai.capabilities import DEFAULT_CAPABILITIES
from tooltape.adapters.openai.codecs.failures import UNKNOWN_PROMPT
from tooltape.adapters.openai.codecs.registry import (
    default_client_tool_codecs,
    default_hosted_tool_codecs,
)
from tooltape.adapters.openai.conversation import ConversationState
from tooltape.adapters.openai.options import CallOptions, RequestOptions, ResponseOptions
from tooltape.adapters.openai.reading import output_text, refusal_text
from tooltape.adapters.openai.request import RequestBuilder
from tooltape.adapters.openai.sending import ResponseSender
from tooltape.adapters.openai.tool_choice import ToolChoice, later_round_choice
from tooltape.adapters.openai.tool_loop import ToolLoop
from tooltape.prompt import (
    EventBus,
    HostedToolOutput,
    Prompt,
    PromptEvaluationError,
    PromptRenderError,
    PromptValidationError,
    RenderedPrompt,
)
from tooltape.prompt.schema import params_schema
from tooltape.runtime import (
    InProcessEventBus,
    PromptExecuted,
    PromptRendered,
    PromptResponse,
    Session,
    ToolExecutor,
    check_hook,
)

if TYPE_CHECKING:
    from tooltape.runtime.hooks import ToolHook

OutputT = TypeVar("OutputT")

PROVIDER = "openai"


def _seconds(name: str, value: object, *, allow_zero: bool) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{name}={value!r}; give a number of seconds.")
    if value < 0 or (value == 0 and not allow_zero):
        raise ValueError(f"{name}={value!r}; give a number of seconds above 0.")
    return float(value)


class OpenAIAdapter:
    """Evaluates tooltape prompts with the OpenAI Responses API (blocking calls).

    Function tools and client-executed provider tools run locally through the
    executor and hooks; provider-executed (hosted) tools are serialised and
    parsed by one codec per kind (``hosted_tool_codecs``). The OpenAI client
    is created on first use, so ``build_request`` needs no API key.

    Request options (``store``, ``chain``, ``conversation``, ``background``,
    ``parallel_tool_calls``, ``max_tool_calls``, ``reasoning_effort``,
    ``reasoning_summary``; see ``tooltape.adapters.openai.options``) given
    here are defaults that ``evaluate`` and ``build_request`` keywords
    override. ``max_rounds`` bounds the tool loop; ``poll_interval_s`` and
    ``poll_timeout_s`` bound the polling of background responses.
    """

    name = PROVIDER

    def __init__(
        self,
        model: str,
        *,
        client: openai.OpenAI | None = None,
        hosted_tool_codecs: Mapping[str, HostedToolCodec[Any, Any]] | None = None,
        client_tool_codecs: Mapping[str, ClientToolCodec] | None = None,
        capabilities: Mapping[str, frozenset[str]] | None = None,
        max_rounds: int = 16,
        poll_interval_s: float = 1.0,
        poll_timeout_s: float = 600.0,
        **options: Unpack[ResponseOptions],
    ) -> None:
        if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1:
            raise ValueError(f"max_rounds={max_rounds!r}; use a whole number of at least 1.")
        if "previous_response_id" in options:
            raise TypeError(
                "OpenAIAdapter() takes no previous_response_id: it belongs to one call; pass it "
                "to evaluate() or build_request()."
            )
        if isinstance(client, openai.AsyncOpenAI):
            raise TypeError(
                f"OpenAIAdapter(client=...) got an {type(client).__name__}, whose calls return "
                "coroutines; the adapter's tool loop makes blocking calls. Pass an openai.OpenAI "
                "client (from async code, run evaluate in a thread: "
                "await asyncio.to_thread(adapter.evaluate, prompt))."
            )
        self.model = model
        self._client = client
        self.hosted_tool_codecs: Mapping[str, HostedToolCodec[Any, Any]] = dict(
            default_hosted_tool_codecs() if hosted_tool_codecs is None else hosted_tool_codecs
        )
        self.client_tool_codecs: Mapping[str, ClientToolCodec] = dict(
            default_client_tool_codecs() if client_tool_codecs is None else client_tool_codecs
        )
        self.capabilities = dict(DEFAULT_CAPABILITIES if capabilities is None else capabilities)
        self.max_rounds = max_rounds
        self.options = RequestOptions.of(options, owner="OpenAIAdapter()")
        self._builder = RequestBuilder(
            model,
            self.hosted_tool_codecs,
            self.client_tool_codecs,
            None if capabilities is None else self.capabilities,
        )
        self._sender = ResponseSender(
            lambda: self.client,
            poll_interval_s=_seconds("poll_interval_s", poll_interval_s, allow_zero=True),
            poll_timeout_s=_seconds("poll_timeout_s", poll_timeout_s, allow_zero=False),
        )

    @property
    def client(self) -> openai.OpenAI:
        """The OpenAI client (created from the environment on first use)."""
        if self._client is None:
            self._client = openai.OpenAI()
        return self._client

    def _render(self, prompt: Prompt[Any], params: Sequence[object]) -> RenderedPrompt[Any]:
        try:
            return prompt.render(*params)
        except (PromptRenderError, PromptValidationError) as exc:
            raise PromptEvaluationError(str(exc), prompt_name=prompt.name, phase="render") from exc

    def build_request(
        self,
        prompt: Prompt[Any],
        *params: object,
        tool_choice: ToolChoice = None,
        **options: Unpack[CallOptions],
    ) -> dict[str, Any]:
        """The exact JSON body ``evaluate`` would send first. Nothing is sent."""
        settings = self.options.merged(options, owner="build_request()")
        return self._builder.build(self._render(prompt, params), tool_choice, settings)

    def evaluate(
        self,
        prompt: Prompt[OutputT],
        *params: object,
        bus: EventBus | None = None,
        session: Session | None = None,
        tool_choice: ToolChoice = None,
        tool_hooks: Sequence[Callable[..., Any]] = (),
        deadline: datetime | None = None,
        **options: Unpack[CallOptions],
    ) -> PromptResponse[OutputT]:
        """Run the prompt's tool loop until the model answers without calling a tool."""
        settings = self.options.merged(options, owner="evaluate()")
        hooks: list[ToolHook] = [
            check_hook(h, owner=f"evaluate({prompt.name!r}) tool hook")
            for h in (*tool_hooks, *prompt.tool_hooks)
        ]
        rendered = self._render(prompt, params)
        body = self._builder.build(rendered, tool_choice, settings)
        bus = bus if bus is not None else (session.bus if session else InProcessEventBus())
        session = session if session is not None else Session(bus)
        session.attach(bus)
        bus.publish(PromptRendered(prompt.name, self.name, rendered))
        executor = ToolExecutor(
            prompt=prompt,
            rendered=rendered,
            adapter=self,
            session=session,
            bus=bus,
            hooks=hooks,
            provider=PROVIDER,
            deadline=deadline,
        )
        state = ConversationState(
            body, settings, later_round_choice(tool_choice, body.get("tool_choice"))
        )
        loop = ToolLoop(
            rendered,
            executor,
            self.hosted_tool_codecs,
            self.client_tool_codecs,
            tool_specs=body.get("tools", []),
        )
        seen_items: list[object] = []
        try:
            for _ in range(self.max_rounds):
                data = self._sender.create(state.request(), prompt.name)
                items = cast("list[object]", data["output"])
                seen_items.extend(items)
                answers = loop.answer(items)
                if not answers:
                    return self._finish(prompt, rendered, executor, bus, data, seen_items)
                state.advance(data, answers, prompt.name)
        except PromptEvaluationError as error:
            if error.prompt_name == UNKNOWN_PROMPT:  # a codec's: codecs never see the prompt
                error.prompt_name = prompt.name
            raise
        raise PromptEvaluationError(
            f"The model was still calling tools after {self.max_rounds} rounds; raise "
            "max_rounds or check the prompt for a tool loop.",
            prompt_name=prompt.name,
            phase="tool",
        )

    def _finish(
        self,
        prompt: Prompt[OutputT],
        rendered: RenderedPrompt[Any],
        executor: ToolExecutor,
        bus: EventBus,
        data: Mapping[str, Any],
        seen_items: Sequence[object],
    ) -> PromptResponse[OutputT]:
        items = cast("list[object]", data["output"])
        text = output_text(items)
        output: OutputT | None = None
        if prompt.output_type is not None:
            refusal = refusal_text(items) if not text else ""
            if refusal:
                raise PromptEvaluationError(
                    f"The model refused to answer with {prompt.output_type.__name__}: {refusal}",
                    prompt_name=prompt.name,
                    phase="parse",
                    provider_payload=refusal[:2000],
                )
            try:
                output = cast(
                    "OutputT", params_schema(prompt.output_type).validator.validate_json(text)
                )
            except ValueError as exc:
                raise PromptEvaluationError(
                    f"The structured output does not match {prompt.output_type.__name__}: {exc}",
                    prompt_name=prompt.name,
                    phase="parse",
                    provider_payload=text[:2000],
                ) from exc
        hosted_outputs: dict[str, HostedToolOutput] = {}
        for hosted in rendered.hosted_tools:
            parsed = self.hosted_tool_codecs[hosted.kind].parse_output(seen_items, hosted)
            if parsed is not None:
                hosted_outputs[hosted.name] = parsed
        response = PromptResponse[OutputT](
            prompt_name=prompt.name,
            text=text,
            output=output,
            hosted_outputs=hosted_outputs,
            tool_invocations=tuple(executor.invocations),
            response_id=cast("str | None", data.get("id")),
        )
        bus.publish(PromptExecuted(prompt.name, self.name, response))
        return response
