"""OpenAI wire format of ``tool_search``: the provider-run search (hosted) and the client-run
one, their ``tool_search_call`` / ``tool_search_output`` items and ``additional_tools``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tooltape.adapters.codec import HostedCall
from tooltape.adapters.openai.codecs.calls import hosted_call
from tooltape.adapters.openai.codecs.failures import INCOMPLETE, call_failure, status
from tooltape.adapters.openai.codecs.items import elements, field, mapping, of_types, text
from tooltape.prompt import HostedTool, Tool, ToolResult
from tooltape.prompt.schema import without_keywords
from tooltape.tools.tool_search import (
    Execution,
    LoadedTool,
    LoadedTools,
    ToolPaths,
    ToolSearchCall,
    ToolSearchConfig,
    ToolSearchResult,
)

_CALL = "tool_search_call"
_OUTPUT = "tool_search_output"
_ADDITIONAL = "additional_tools"


def _loaded(tools: Sequence[object]) -> tuple[LoadedTool, ...]:
    loaded: list[LoadedTool] = []
    for tool in tools:
        kind = text(tool, "type") or "unknown"
        name = text(tool, "name") or text(tool, "server_label")
        if kind == "namespace":
            loaded.extend(
                LoadedTool(text(m, "type") or "unknown", text(m, "name"), name)
                for m in elements(tool, "tools")
            )
        else:
            loaded.append(LoadedTool(kind, name))
    return tuple(loaded)


def _search(item: object) -> ToolSearchCall:
    raw = text(item, "execution")
    execution: Execution | None = "server" if raw == "server" else None
    if raw == "client":
        execution = "client"
    return ToolSearchCall(
        arguments=mapping(field(item, "arguments")),
        execution=execution,
        call_id=text(item, "call_id"),
    )


class ToolSearchCodec:
    """The provider-run ``tool_search`` for the OpenAI Responses API.

    Each ``tool_search_call`` is a call; the ``tool_search_output`` with its
    ``call_id`` says what it loaded. A recording's calls are read whoever ran
    them (the item's ``execution`` says); the adapter consults this codec
    only for prompts that carry the hosted tool.
    """

    @property
    def kind(self) -> str:
        return "tool_search"

    @property
    def item_types(self) -> tuple[str, ...]:
        return (_CALL,)

    def serialize(self, tool: HostedTool[ToolSearchConfig]) -> dict[str, Any]:
        return {"type": "tool_search"}

    def includes(self, tool: HostedTool[ToolSearchConfig]) -> tuple[str, ...]:
        return ()

    def tool_choice(self, tool: HostedTool[ToolSearchConfig]) -> dict[str, Any]:
        # No hosted tool choice names tool_search; an allowed-tools choice forces it.
        return {"type": "allowed_tools", "mode": "required", "tools": [{"type": "tool_search"}]}

    def _outputs(self, response_items: Sequence[Any]) -> dict[str | None, object]:
        return {text(o, "call_id"): o for o in of_types(response_items, (_OUTPUT,))}

    def parse_calls(
        self, response_items: Sequence[Any], tool: HostedTool[ToolSearchConfig] | None
    ) -> tuple[HostedCall, ...]:
        outputs = self._outputs(response_items)
        calls: list[HostedCall] = []
        for item in of_types(response_items, (_CALL,)):
            search = _search(item)
            answer = outputs.get(search.call_id) if search.call_id else None
            what = f"searching {dict(search.arguments)}"
            error = call_failure(item, what, incomplete_fails=False)
            if error is None and answer is None and status(item) == INCOMPLETE:
                error = f"{_CALL} {text(item, 'id')} ended 'incomplete' without a {_OUTPUT}."
            loaded = _loaded(elements(answer, "tools")) if answer is not None else ()
            output = ToolSearchResult(searches=(search,), loaded=loaded)
            calls.append(hosted_call(self.kind, item, params=search, output=output, error=error))
        return tuple(calls)

    def parse_output(
        self, response_items: Sequence[Any], tool: HostedTool[ToolSearchConfig]
    ) -> ToolSearchResult | None:
        calls = of_types(response_items, (_CALL,))
        additional = of_types(response_items, (_ADDITIONAL,))
        if not calls and not additional:
            return None
        answers = of_types(response_items, (_OUTPUT,))
        return ToolSearchResult(
            searches=tuple(_search(item) for item in calls),
            loaded=tuple(t for answer in answers for t in _loaded(elements(answer, "tools"))),
            additional=tuple(t for item in additional for t in _loaded(elements(item, "tools"))),
        )


def _loadable(specs: Sequence[dict[str, Any]], name: str) -> dict[str, Any] | None:
    """The ``tools`` entry that loads ``name``: a tool, a whole namespace, one member, a server."""
    for spec in specs:
        if spec.get("name") == name or (
            spec.get("type") == "mcp" and spec.get("server_label") == name
        ):
            return spec
        if spec.get("type") == "namespace":
            members = [m for m in spec.get("tools", []) if m.get("name") == name]
            if members:
                return {**spec, "tools": members}
    return None


class ClientToolSearchCodec:
    """The client-run ``tool_search``: ``tool_search_call`` in, ``tool_search_output`` out.

    The spec says ``execution: client``; with its own ``params_type`` the tool
    also sends its ``description`` and ``parameters`` (the default takes the
    provider's ``{paths: [...]}``). The answer lists the definitions of the
    tools the handler chose, taken from the request's own ``tools`` array,
    so a loaded tool is defined exactly as the request defined it; a failed
    search answers ``incomplete`` with no tools.
    """

    output_item_type = _OUTPUT

    @property
    def kind(self) -> str:
        return "tool_search"

    @property
    def call_item_type(self) -> str:
        return _CALL

    @property
    def item_types(self) -> tuple[str, ...]:
        """The call item types this codec answers."""
        return (self.call_item_type,)

    def serialize(self, tool: Tool[Any, Any]) -> dict[str, Any]:
        spec: dict[str, Any] = {"type": "tool_search", "execution": "client"}
        if tool.params_type is not ToolPaths:
            spec["description"] = tool.description
            spec["parameters"] = without_keywords(tool.parameters_schema(), ("title",))
        return spec

    def tool_choice(self, tool: Tool[Any, Any]) -> dict[str, Any]:
        """The ``tool_choice`` that forces a search."""
        return {"type": "allowed_tools", "mode": "required", "tools": [{"type": "tool_search"}]}

    def call_arguments(self, item: Any) -> dict[str, Any]:
        return mapping(field(item, "arguments"))

    def call_id(self, item: Any) -> str:
        return text(item, "call_id") or ""

    def output_item(self, item: Any, result: ToolResult[Any]) -> dict[str, Any]:
        return {
            "type": _OUTPUT,
            "call_id": self.call_id(item),
            "execution": "client",
            "status": "completed" if result.success else "incomplete",
            "tools": [],
        }

    def load_tools(
        self, answer: dict[str, Any], result: ToolResult[Any], specs: Sequence[dict[str, Any]]
    ) -> None:
        """Fill ``answer``'s ``tools`` with the definitions of the tools ``result`` loads."""
        if not result.success or not isinstance(result.value, LoadedTools):
            return
        found = (_loadable(specs, name) for name in result.value.names)
        answer["tools"] = [spec for spec in found if spec is not None]
