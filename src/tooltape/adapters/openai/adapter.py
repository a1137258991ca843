"""``OpenAIAdapter``: evaluate prompts against the OpenAI Responses API."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar, cast

import openai

from tooltape.adapters.codec import ClientToolCodec, HostedToolCodec
from tooltape.adapters.openai.capabilities import DEFAULT_CAPABILITIES
from tooltape.adapters.openai.codecs.registry import (
    default_client_tool_codecs,
    default_hosted_tool_codecs,
)
from tooltape.adapters.openai.reading import (
    as_dict,
    describe_error,
    field,
    is_mapping,
    output_text,
)
from tooltape.adapters.openai.request import RequestBuilder, client_kind
from tooltape.adapters.openai.strict_schema import drop_null_optionals
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
    ToolCall,
    ToolExecutor,
    check_hook,
)

if TYPE_CHECKING:
    from tooltape.runtime.hooks import ToolHook

OutputT = TypeVar("OutputT")

PROVIDER = "openai"


class OpenAIAdapter:
    """Evaluates tooltape prompts with the OpenAI Responses API (blocking calls).

    Function tools and client-executed provider tools run locally through the
    executor and hooks; provider-executed (hosted) tools are serialised and
    parsed by one codec per kind (``hosted_tool_codecs``). The OpenAI client
    is created on first use, so ``build_request`` needs no API key.
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
    ) -> None:
        if max_rounds < 1:
            raise ValueError("max_rounds must be at least 1.")
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
        self._builder = RequestBuilder(
            model, self.hosted_tool_codecs, self.client_tool_codecs, self.capabilities
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
        self, prompt: Prompt[Any], *params: object, tool_choice: str | None = None
    ) -> dict[str, Any]:
        """The exact JSON body ``evaluate`` would send first. Nothing is sent."""
        return self._builder.build(self._render(prompt, params), tool_choice)

    def evaluate(
        self,
        prompt: Prompt[OutputT],
        *params: object,
        bus: EventBus | None = None,
        session: Session | None = None,
        tool_choice: str | None = None,
        tool_hooks: Sequence[Callable[..., Any]] = (),
        deadline: datetime | None = None,
    ) -> PromptResponse[OutputT]:
        """Run the prompt's tool loop until the model answers without calling a tool."""
        hooks: list[ToolHook] = [
            check_hook(h, owner=f"evaluate({prompt.name!r}) tool hook")
            for h in (*tool_hooks, *prompt.tool_hooks)
        ]
        rendered = self._render(prompt, params)
        body = self._builder.build(rendered, tool_choice)
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
        conversation: list[dict[str, Any]] = list(body["input"])
        seen_items: list[object] = []
        recorded_ids: set[str] = set()
        for round_index in range(self.max_rounds):
            request = {**body, "input": conversation}
            if round_index > 0 and body.get("tool_choice") not in (None, "auto", "none"):
                request["tool_choice"] = "auto"
            data = self._send(request, prompt.name)
            items = cast("list[object]", data["output"])
            seen_items.extend(items)
            self._record_hosted_calls(rendered, executor, items, recorded_ids)
            answers = self._run_local_calls(rendered, executor, items)
            if not answers:
                return self._finish(prompt, rendered, executor, bus, data, seen_items)
            conversation.extend(as_dict(item) for item in items)
            conversation.extend(answers)
        raise PromptEvaluationError(
            f"The model was still calling tools after {self.max_rounds} rounds; raise "
            "max_rounds or check the prompt for a tool loop.",
            prompt_name=prompt.name,
            phase="tool",
        )

    def _post(self, body: dict[str, Any]) -> str:
        # The raw body, not the SDK's model: parsing stays tolerant of fields
        # no SDK version knows, and an unparsable body is ours to report.
        create: Callable[..., Any] = self.client.responses.with_raw_response.create
        raw: Any = create(**body)
        http_response: Any = raw.http_response
        return cast("str", http_response.text)

    def _send(self, body: dict[str, Any], prompt_name: str) -> dict[str, Any]:
        try:
            text = self._post(body)
        except openai.APIStatusError as exc:
            payload: object = exc.body
            raise PromptEvaluationError(
                f"OpenAI answered HTTP {exc.status_code}: {describe_error(payload)}",
                prompt_name=prompt_name,
                phase="request",
                provider_payload=payload,
            ) from exc
        except openai.APIConnectionError as exc:
            raise PromptEvaluationError(
                f"Could not reach OpenAI ({type(exc).__name__}: {exc}).",
                prompt_name=prompt_name,
                phase="request",
            ) from exc
        except Exception as exc:
            # Transports may raise their own errors (a cassette that cannot answer,
            # a custom http_client); the cause stays chained for whoever explains it.
            raise PromptEvaluationError(
                f"The request to OpenAI failed in the HTTP client ({type(exc).__name__}: {exc}).",
                prompt_name=prompt_name,
                phase="request",
            ) from exc
        try:
            data: object = json.loads(text)
        except json.JSONDecodeError as exc:
            raise PromptEvaluationError(
                f"OpenAI returned a body that is not JSON ({exc.msg} at position {exc.pos}).",
                prompt_name=prompt_name,
                phase="parse",
                provider_payload=text[:2000],
            ) from exc
        if not is_mapping(data) or not isinstance(data.get("output"), list):
            raise PromptEvaluationError(
                "OpenAI returned JSON without an 'output' list; it is not a Response.",
                prompt_name=prompt_name,
                phase="parse",
                provider_payload=data,
            )
        response = dict(data)
        status = response.get("status")
        if status in ("failed", "incomplete"):
            payload = response.get("error") or response.get("incomplete_details")
            raise PromptEvaluationError(
                f"OpenAI response {response.get('id')} is {status}: {describe_error(payload)}",
                prompt_name=prompt_name,
                phase="response",
                provider_payload=payload,
            )
        return response

    def _record_hosted_calls(
        self,
        rendered: RenderedPrompt[Any],
        executor: ToolExecutor,
        items: Sequence[object],
        recorded_ids: set[str],
    ) -> None:
        for hosted in rendered.hosted_tools:
            codec = self.hosted_tool_codecs[hosted.kind]
            for call in codec.parse_calls(items, hosted):
                if call.id in recorded_ids:
                    continue
                recorded_ids.add(call.id)
                executor.record_provider_call(
                    name=hosted.name,
                    call_id=call.id,
                    params=call.params,
                    result=call.to_result(),
                    kind=hosted.kind,
                    server_name=_server_label(call.params),
                )

    def _run_local_calls(
        self, rendered: RenderedPrompt[Any], executor: ToolExecutor, items: Sequence[object]
    ) -> list[dict[str, Any]]:
        answers: list[dict[str, Any]] = []
        by_item_type = {c.call_item_type: c for c in self.client_tool_codecs.values()}
        for item in items:
            item_type = field(item, "type")
            if item_type == "function_call":
                name = str(field(item, "name", ""))
                call_id = str(field(item, "call_id", ""))
                arguments = self._function_arguments(rendered, name, field(item, "arguments", ""))
                result = executor.execute(ToolCall(name, arguments, call_id))
                answers.append(
                    {
                        "type": "function_call_output",
                        "call_id": call_id,
                        "output": result.model_output(),
                    }
                )
            elif item_type in by_item_type:
                codec = by_item_type[item_type]
                raw_item = as_dict(item)
                tool = next(
                    (
                        t
                        for t in rendered.tools
                        if client_kind(t, self.client_tool_codecs) == codec.kind
                    ),
                    None,
                )
                call_id = codec.call_id(raw_item)
                answered = any(
                    field(other, "type") == f"{item_type}_output"
                    and field(other, "call_id") == call_id
                    for other in items
                )
                # Without a client tool of this kind the call is the provider's
                # own (a hosted shell); one already answered needs nothing.
                if tool is None or answered:
                    continue
                call = ToolCall(tool.name, codec.call_arguments(raw_item), call_id)
                result = executor.execute(call, source="native", kind=codec.kind)
                answers.append(codec.output_item(raw_item, result))
        return answers

    def _function_arguments(
        self, rendered: RenderedPrompt[Any], name: str, arguments: object
    ) -> str | dict[str, Any]:
        tool = rendered.tool(name)
        text = arguments if isinstance(arguments, str) else json.dumps(arguments)
        if tool is None or tool.params_type is None:
            return text
        try:
            parsed: object = json.loads(text)
        except json.JSONDecodeError:
            return text
        if not isinstance(parsed, dict):
            return text
        return drop_null_optionals(cast("dict[str, Any]", parsed), tool.parameters_schema())

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


def _server_label(params: object) -> str | None:
    label: object = getattr(params, "server_label", None)
    return label if isinstance(label, str) else None
