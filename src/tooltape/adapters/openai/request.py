"""Build the exact JSON body of ``POST /v1/responses`` for a rendered prompt."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tooltape.adapters.codec import ClientToolCodec, HostedToolCodec
from tooltape.adapters.openai.capabilities import supported_kinds
from tooltape.adapters.openai.strict_schema import strict_schema
from tooltape.prompt import (
    HostedTool,
    PromptEvaluationError,
    PromptValidationError,
    RenderedPrompt,
    Tool,
)
from tooltape.prompt.schema import params_schema

_PLAIN_CHOICES = ("auto", "required", "none")


def client_kind(tool: Tool[Any, Any], client_codecs: Mapping[str, ClientToolCodec]) -> str | None:
    """The provider-defined kind of a client-executed tool (apply_patch, shell), if it is one."""
    kind: object = getattr(tool, "kind", None)
    return kind if isinstance(kind, str) and kind in client_codecs else None


@dataclass(frozen=True, slots=True)
class RequestBuilder:
    """Turns a ``RenderedPrompt`` into a Responses request body. Sends nothing."""

    model: str
    hosted_codecs: Mapping[str, HostedToolCodec[Any, Any]]
    client_codecs: Mapping[str, ClientToolCodec]
    capabilities: Mapping[str, frozenset[str]]

    def _fail(self, rendered: RenderedPrompt[Any], message: str) -> PromptEvaluationError:
        return PromptEvaluationError(message, prompt_name=rendered.prompt_name, phase="render")

    def _check_supported(self, rendered: RenderedPrompt[Any], kind: str, name: str) -> None:
        kinds = supported_kinds(self.model, self.capabilities)
        if kinds is not None and kind not in kinds:
            raise self._fail(
                rendered,
                f"Model {self.model!r} does not support {kind!r} tools (tool {name!r}); "
                f"it supports {', '.join(sorted(kinds)) or 'none'}. Pick another model or "
                "pass capabilities= to OpenAIAdapter if the table is out of date.",
            )

    def _hosted_codec(
        self, rendered: RenderedPrompt[Any], tool: HostedTool[Any]
    ) -> HostedToolCodec[Any, Any]:
        codec = self.hosted_codecs.get(tool.kind)
        if codec is None:
            raise self._fail(
                rendered,
                f"Unsupported hosted tool kind {tool.kind!r} (tool {tool.name!r}) for the "
                f"OpenAI adapter; registered kinds: {', '.join(sorted(self.hosted_codecs))}.",
            )
        return codec

    def tool_specs(self, rendered: RenderedPrompt[Any]) -> tuple[list[dict[str, Any]], list[str]]:
        """The ``tools`` array and the ``include`` entries it needs."""
        specs: list[dict[str, Any]] = []
        includes: list[str] = []
        for tool in rendered.tools:
            kind = client_kind(tool, self.client_codecs)
            if kind is not None:
                self._check_supported(rendered, kind, tool.name)
                specs.append(self.client_codecs[kind].serialize(tool))
                continue
            if tool.handler is None:
                raise self._fail(
                    rendered,
                    f"Tool {tool.name!r} has no handler and is not a provider tool the OpenAI "
                    "adapter knows; give it a handler or declare it as a hosted tool.",
                )
            spec: dict[str, Any] = {
                "type": "function",
                "name": tool.name,
                "description": tool.description,
                "parameters": strict_schema(tool.parameters_schema()),
                "strict": True,
            }
            specs.append(spec)
        for hosted in rendered.hosted_tools:
            codec = self._hosted_codec(rendered, hosted)
            self._check_supported(rendered, hosted.kind, hosted.name)
            try:
                specs.append(codec.serialize(hosted))
            except PromptValidationError as exc:
                raise self._fail(rendered, f"Hosted tool {hosted.name!r}: {exc}") from exc
            except PromptEvaluationError as exc:
                # Codecs cannot see the prompt; say which prompt failed.
                raise self._fail(rendered, f"Hosted tool {hosted.name!r}: {exc.message}") from exc
            for entry in codec.includes(hosted):
                if entry not in includes:
                    includes.append(entry)
        return specs, includes

    def tool_choice(self, rendered: RenderedPrompt[Any], choice: str | None) -> object:
        """Map a tool choice (``auto``/``required``/``none`` or a tool name) to the wire."""
        if choice is None or choice in _PLAIN_CHOICES:
            return choice
        tool = rendered.tool(choice)
        if tool is not None:
            kind = client_kind(tool, self.client_codecs)
            return {"type": kind} if kind is not None else {"type": "function", "name": choice}
        hosted = rendered.hosted_tool(choice)
        if hosted is not None:
            return self._hosted_codec(rendered, hosted).tool_choice(hosted)
        names = [t.name for t in rendered.tools] + [h.name for h in rendered.hosted_tools]
        raise self._fail(
            rendered,
            f"tool_choice {choice!r} names no tool of this prompt; use one of "
            f"{', '.join([*_PLAIN_CHOICES, *names])}.",
        )

    def text_format(self, rendered: RenderedPrompt[Any]) -> dict[str, Any] | None:
        """``text.format`` for a declared structured output type."""
        output_type = rendered.output_type
        if output_type is None:
            return None
        try:
            schema = params_schema(output_type).json_schema()
        except PromptValidationError as exc:
            raise self._fail(rendered, f"Structured output type: {exc}") from exc
        name = re.sub(r"[^a-zA-Z0-9_-]", "_", output_type.__name__)[:64]
        return {
            "type": "json_schema",
            "name": name,
            "schema": strict_schema(schema),
            "strict": True,
        }

    def build(self, rendered: RenderedPrompt[Any], tool_choice: str | None) -> dict[str, Any]:
        """The whole body; every check happens here, before anything is sent."""
        specs, includes = self.tool_specs(rendered)
        body: dict[str, Any] = {
            "model": self.model,
            "input": [{"role": "user", "content": rendered.text}],
        }
        if specs:
            body["tools"] = specs
        choice = self.tool_choice(rendered, tool_choice)
        if choice is not None:
            if not specs and choice != "none":
                raise self._fail(rendered, "tool_choice was given but the prompt has no tools.")
            body["tool_choice"] = choice
        if includes:
            body["include"] = includes
        text_format = self.text_format(rendered)
        if text_format is not None:
            body["text"] = {"format": text_format}
        return body
