"""Build the exact JSON body of ``POST /v1/responses`` for a rendered prompt."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tooltape.adapters.codec import ClientToolCodec, HostedToolCodec
from tooltape.adapters.openai.capabilities import refusal
from tooltape.adapters.openai.function_options import apply_function_options
from tooltape.adapters.openai.options import RequestOptions
from tooltape.adapters.openai.strict_schema import strict_schema
from tooltape.adapters.openai.tool_choice import (
    PLAIN_CHOICES,
    AllowedTools,
    McpToolChoice,
    ToolChoice,
)
from tooltape.prompt import (
    HostedTool,
    PromptEvaluationError,
    PromptValidationError,
    RenderedPrompt,
    Tool,
)
from tooltape.prompt.schema import params_schema, unsendable
from tooltape.tools.function_options import options_of

_DISTINGUISHED_BY = {
    "function": "name",
    "custom": "name",
    "namespace": "name",
    "mcp": "server_label",
}
"""Spec fields that tell two tools of one wire ``type`` apart; other types appear once."""


def function_spec(tool: Tool[Any, Any]) -> dict[str, Any]:
    """The ``tools[]`` entry of a function tool (its options are added afterwards)."""
    schema = tool.parameters_schema()
    return {
        "type": "function",
        "name": tool.name,
        "description": tool.description,
        "parameters": strict_schema(schema) if tool.strict else schema,
        "strict": tool.strict,
    }


def client_kind(tool: Tool[Any, Any], client_codecs: Mapping[str, ClientToolCodec]) -> str | None:
    """The provider-defined kind of a client-executed tool (apply_patch, shell), if it is one."""
    kind: object = getattr(tool, "kind", None)
    return kind if isinstance(kind, str) and kind in client_codecs else None


def wire_identity(spec: Mapping[str, Any]) -> dict[str, Any]:
    """What names a tool on the wire: its ``type``, plus ``name``/``server_label`` where the
    type has several tools (the form ``allowed_tools`` lists tools in)."""
    identity: dict[str, Any] = {"type": spec.get("type")}
    key = _DISTINGUISHED_BY.get(str(spec.get("type")))
    if key is not None and key in spec:
        identity[key] = spec[key]
    return identity


@dataclass(frozen=True, slots=True)
class ToolEntry:
    """One ``tools[]`` entry and the prompt tool it comes from."""

    name: str
    spec: dict[str, Any]
    where: str
    item_types: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RequestBuilder:
    """Turns a ``RenderedPrompt`` into a Responses request body. Sends nothing.

    ``capabilities`` is the adapter's own table, or ``None`` for the built-in
    one (whose refusals cite documentation).
    """

    model: str
    hosted_codecs: Mapping[str, HostedToolCodec[Any, Any]]
    client_codecs: Mapping[str, ClientToolCodec]
    capabilities: Mapping[str, frozenset[str]] | None = None

    def _fail(self, rendered: RenderedPrompt[Any], message: str) -> PromptEvaluationError:
        return PromptEvaluationError(message, prompt_name=rendered.prompt_name, phase="render")

    def _check_supported(self, rendered: RenderedPrompt[Any], kind: str, name: str) -> None:
        reason = refusal(self.model, kind, self.capabilities)
        if reason is not None:
            raise self._fail(
                rendered,
                f"Model {self.model!r} does not support {kind!r} tools (tool {name!r}): {reason}. "
                "Pick another model, or pass capabilities= to OpenAIAdapter if this is out of "
                "date.",
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

    def _check_not_client(self, rendered: RenderedPrompt[Any], tool: Tool[Any, Any]) -> None:
        """A client-executed tool whose kind has no codec here is refused, never sent as a
        function the provider would not recognise."""
        kind: object = getattr(tool, "kind", None)
        if isinstance(kind, str) and kind:
            raise self._fail(
                rendered,
                f"Unsupported client-executed tool kind {kind!r} (tool {tool.name!r}) for the "
                "OpenAI adapter; registered client kinds: "
                f"{', '.join(sorted(self.client_codecs)) or 'none'}.",
            )

    def _function_entry(self, rendered: RenderedPrompt[Any], tool: Tool[Any, Any]) -> ToolEntry:
        if tool.handler is None:
            raise self._fail(
                rendered,
                f"Tool {tool.name!r} has no handler and is not a provider tool the OpenAI "
                "adapter knows; give it a handler or declare it as a hosted tool.",
            )
        spec = function_spec(tool)
        return ToolEntry(tool.name, spec, "function tool")

    def tool_entries(self, rendered: RenderedPrompt[Any]) -> tuple[list[ToolEntry], list[str]]:
        """The ``tools`` array (with the tool each entry comes from) and the ``include``
        entries it needs."""
        entries: list[ToolEntry] = []
        includes: list[str] = []
        for tool in rendered.tools:
            kind = client_kind(tool, self.client_codecs)
            if kind is None:
                self._check_not_client(rendered, tool)
                entries.append(self._function_entry(rendered, tool))
                continue
            self._check_supported(rendered, kind, tool.name)
            codec = self.client_codecs[kind]
            entries.append(
                ToolEntry(tool.name, codec.serialize(tool), "local tool", (codec.call_item_type,))
            )
        for hosted in rendered.hosted_tools:
            codec = self._hosted_codec(rendered, hosted)
            self._check_supported(rendered, hosted.kind, hosted.name)
            try:
                spec = codec.serialize(hosted)
            except PromptValidationError as exc:
                raise self._fail(rendered, f"Hosted tool {hosted.name!r}: {exc}") from exc
            except PromptEvaluationError as exc:
                # Codecs cannot see the prompt; say which prompt failed.
                raise self._fail(rendered, f"Hosted tool {hosted.name!r}: {exc.message}") from exc
            item_types = tuple(getattr(codec, "item_types", ()))
            entries.append(ToolEntry(hosted.name, spec, "hosted tool", item_types))
            for entry in codec.includes(hosted):
                if entry not in includes:
                    includes.append(entry)
        entries = self._offered(rendered, entries)
        self._check_unambiguous(rendered, entries)
        return entries, includes

    def tool_specs(self, rendered: RenderedPrompt[Any]) -> tuple[list[dict[str, Any]], list[str]]:
        """The ``tools`` array and the ``include`` entries it needs."""
        entries, includes = self.tool_entries(rendered)
        return [entry.spec for entry in entries], includes

    def _offered(self, rendered: RenderedPrompt[Any], entries: list[ToolEntry]) -> list[ToolEntry]:
        """The entries with function and custom tools' options applied, and the members of a
        namespace gathered into one namespace entry (``function_options``)."""
        specs = apply_function_options(rendered, [entry.spec for entry in entries])
        by_name = {entry.name: entry for entry in entries}
        offered: list[ToolEntry] = []
        for spec in specs:
            source = next((e for e in entries if e.spec is spec), None)
            if source is not None:
                offered.append(source)
            elif spec.get("type") == "namespace":
                offered.append(ToolEntry(str(spec["name"]), spec, "namespace"))
            else:
                entry = by_name[str(spec["name"])]
                offered.append(ToolEntry(entry.name, spec, entry.where, entry.item_types))
        return offered

    def _check_unambiguous(
        self, rendered: RenderedPrompt[Any], entries: Sequence[ToolEntry]
    ) -> None:
        # Calls of a hosted kind carry no tool name: two tools one spec type (or one
        # call item type) describes could not be told apart, on the wire or in a reply.
        for index, entry in enumerate(entries):
            identity = wire_identity(entry.spec)
            for earlier in entries[:index]:
                same_spec = wire_identity(earlier.spec) == identity
                # MCP calls carry a server_label and custom tool calls a name
                labelled = ("server_label" in identity and identity["type"] == "mcp") or (
                    "name" in identity and identity["type"] == "custom"
                )
                shared = set(entry.item_types) & set(earlier.item_types)
                if same_spec or (shared and not labelled):
                    what = json.dumps(identity) if same_spec else f"{sorted(shared)[0]} items"
                    raise self._fail(
                        rendered,
                        f"The {earlier.where} {earlier.name!r} and the {entry.where} "
                        f"{entry.name!r} are the same tool to the API (both are {what}): it could "
                        "not tell which one a call is for. Keep one of them (hosted MCP servers "
                        "need distinct server_labels).",
                    )

    def _named_tool(
        self, rendered: RenderedPrompt[Any], name: str, entries: Sequence[ToolEntry]
    ) -> ToolEntry:
        entry = next((e for e in entries if e.name == name), None)
        member = rendered.tool(name)
        namespace = options_of(member).namespace if member is not None else None
        if entry is None and namespace is not None:
            # The API chooses among tools[] entries, and a namespace is one entry.
            raise self._fail(
                rendered,
                f"tool_choice names {name!r}, but {name!r} is in the namespace "
                f"{namespace.name!r}: the API forces a namespace, not one of its tools. Name the "
                f"namespace instead (tool_choice={namespace.name!r} makes the model call one of "
                "its tools).",
            )
        if entry is None:
            names = [e.name for e in entries]
            raise self._fail(
                rendered,
                f"tool_choice {name!r} names no tool of this prompt; use one of "
                f"{', '.join([*PLAIN_CHOICES, *names]) if names else ', '.join(PLAIN_CHOICES)}.",
            )
        return entry

    def tool_choice(
        self, rendered: RenderedPrompt[Any], choice: ToolChoice, entries: Sequence[ToolEntry] = ()
    ) -> object:
        """The wire form of ``choice`` (see ``tooltape.adapters.openai.tool_choice``)."""
        if choice is None or choice in PLAIN_CHOICES:
            return choice
        entries = entries or self.tool_entries(rendered)[0]
        if isinstance(choice, AllowedTools):
            tools = [
                wire_identity(self._named_tool(rendered, n, entries).spec) for n in choice.tools
            ]
            return {"type": "allowed_tools", "mode": choice.mode, "tools": tools}
        if isinstance(choice, McpToolChoice):
            hosted = rendered.hosted_tool(choice.tool)
            if hosted is None or hosted.kind != "mcp":
                mcp = [h.name for h in rendered.hosted_tools if h.kind == "mcp"]
                raise self._fail(
                    rendered,
                    f"McpToolChoice names {choice.tool!r}, which is no hosted MCP tool of this "
                    f"prompt; its hosted MCP tools: {', '.join(mcp) or 'none'}.",
                )
            return {**self._hosted_codec(rendered, hosted).tool_choice(hosted), "name": choice.name}
        if not isinstance(choice, str):
            raise self._fail(
                rendered,
                f"tool_choice={choice!r}; use 'auto', 'required', 'none', a tool name, "
                "AllowedTools(...) or McpToolChoice(...).",
            )
        entry = self._named_tool(rendered, choice, entries)
        tool = rendered.tool(choice)
        if tool is not None:
            kind = client_kind(tool, self.client_codecs)
            if kind is None:
                return {"type": "function", "name": choice}
            # a client kind's codec knows its choice form (custom tools name themselves)
            forced: object = getattr(self.client_codecs[kind], "tool_choice", None)
            return forced(tool) if callable(forced) else {"type": kind}
        hosted = rendered.hosted_tool(entry.name)
        if hosted is None:
            # A namespace (no tool of its own): the model must call one of its tools.
            return {
                "type": "allowed_tools",
                "mode": "required",
                "tools": [wire_identity(entry.spec)],
            }
        return self._hosted_codec(rendered, hosted).tool_choice(hosted)

    def text_format(self, rendered: RenderedPrompt[Any]) -> dict[str, Any] | None:
        """``text.format`` for a declared structured output type."""
        output_type = rendered.output_type
        if output_type is None:
            return None
        try:
            schema = params_schema(output_type).json_schema()
        except PromptValidationError as exc:
            raise self._fail(rendered, f"Structured output type: {exc}") from exc
        problem = unsendable(schema, without_defaults=True)  # strict: no defaults are sent
        if problem is not None:
            raise self._fail(
                rendered,
                f"Structured output type: the JSON Schema of {output_type.__name__} cannot be "
                f"sent: {problem}.",
            )
        name = re.sub(r"[^a-zA-Z0-9_-]", "_", output_type.__name__)[:64]
        return {
            "type": "json_schema",
            "name": name,
            "schema": strict_schema(schema),
            "strict": True,
        }

    def build(
        self,
        rendered: RenderedPrompt[Any],
        tool_choice: ToolChoice,
        options: RequestOptions | None = None,
    ) -> dict[str, Any]:
        """The first request's body; every check happens here, before anything is sent."""
        options = options or RequestOptions()
        entries, includes = self.tool_entries(rendered)
        body: dict[str, Any] = {
            "model": self.model,
            "input": [{"role": "user", "content": rendered.text}],
        }
        if entries:
            body["tools"] = [entry.spec for entry in entries]
        choice = self.tool_choice(rendered, tool_choice, entries)
        if choice is not None:
            if not entries and choice != "none":
                raise self._fail(rendered, "tool_choice was given but the prompt has no tools.")
            body["tool_choice"] = choice
        for entry in options.includes():
            if entry not in includes:
                includes.append(entry)
        if includes:
            body["include"] = includes
        text_format = self.text_format(rendered)
        if text_format is not None:
            body["text"] = {"format": text_format}
        body.update(options.body_fields())
        return body
