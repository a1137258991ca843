"""OpenAI wire format of hosted ``mcp``: spec, ``mcp_list_tools`` / ``mcp_call`` items and
approval requests. Items belong to a tool by ``server_label``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tooltape.adapters.codec import HostedCall
from tooltape.adapters.openai.callers import allowed_callers_field
from tooltape.adapters.openai.codecs.calls import hosted_call
from tooltape.adapters.openai.codecs.failures import call_failure, describe_error
from tooltape.adapters.openai.codecs.items import (
    elements,
    field,
    json_object,
    mapping,
    of_types,
    text,
)
from tooltape.adapters.openai.codecs.messages import answer
from tooltape.prompt import HostedTool
from tooltape.tools.mcp import (
    HostedMcpConfig,
    HostedMcpResult,
    McpApprovalPolicy,
    McpApprovalRequest,
    McpInvocation,
    McpToolCall,
    McpToolFilter,
    McpToolInfo,
)

_LIST = "mcp_list_tools"
_CALL = "mcp_call"
_APPROVAL = "mcp_approval_request"


def _approval(policy: str | McpApprovalPolicy) -> str | dict[str, Any]:
    if isinstance(policy, str):
        return policy
    wire: dict[str, Any] = {}
    if policy.always:
        wire["always"] = {"tool_names": list(policy.always)}
    if policy.never:
        wire["never"] = {"tool_names": list(policy.never)}
    return wire


def _allowed(tools: tuple[str, ...] | McpToolFilter) -> list[str] | dict[str, Any]:
    if not isinstance(tools, McpToolFilter):
        return list(tools)
    wire: dict[str, Any] = {}
    if tools.tool_names:
        wire["tool_names"] = list(tools.tool_names)
    if tools.read_only is not None:
        wire["read_only"] = tools.read_only
    return wire


def _listed(item: object) -> tuple[McpToolInfo, ...]:
    return tuple(
        McpToolInfo(
            name=text(t, "name") or "",
            description=text(t, "description"),
            input_schema=mapping(field(t, "input_schema")),
        )
        for t in elements(item, "tools")
    )


def _call(item: object) -> McpToolCall:
    raw = text(item, "arguments") or ""
    return McpToolCall(
        id=text(item, "id") or "",
        name=text(item, "name") or "",
        arguments=json_object(raw),
        output=text(item, "output"),
        error=describe_error(field(item, "error")),
        raw_arguments=raw,
    )


def approval_request(item: object) -> McpApprovalRequest:
    """The ``McpApprovalRequest`` an ``mcp_approval_request`` item carries."""
    raw = text(item, "arguments") or ""
    return McpApprovalRequest(
        id=text(item, "id") or "",
        name=text(item, "name") or "",
        arguments=json_object(raw),
        raw_arguments=raw,
        server_label=text(item, "server_label") or "",
    )


class McpCodec:
    """Hosted ``mcp`` for the OpenAI Responses API.

    ``parse_calls`` reports tool listings and tool calls; approval requests
    are not calls (nothing ran) and appear only in ``parse_output``.
    """

    @property
    def kind(self) -> str:
        return "mcp"

    @property
    def item_types(self) -> tuple[str, ...]:
        return (_LIST, _CALL)

    def serialize(self, tool: HostedTool[HostedMcpConfig]) -> dict[str, Any]:
        config = tool.config
        spec: dict[str, Any] = {"type": "mcp", "server_label": config.server_label}
        if config.server_url is not None:
            spec["server_url"] = config.server_url
        if config.connector_id is not None:
            spec["connector_id"] = config.connector_id
        if config.tunnel_id is not None:
            spec["tunnel_id"] = config.tunnel_id
        if config.server_description is not None:
            spec["server_description"] = config.server_description
        if config.allowed_tools is not None:
            spec["allowed_tools"] = _allowed(config.allowed_tools)
        if config.require_approval is not None:
            spec["require_approval"] = _approval(config.require_approval)
        if config.headers is not None:
            spec["headers"] = dict(config.headers)
        if config.authorization is not None:
            spec["authorization"] = config.authorization
        if config.defer_loading:
            spec["defer_loading"] = True
        spec.update(allowed_callers_field(config.allowed_callers))
        return spec

    def includes(self, tool: HostedTool[HostedMcpConfig]) -> tuple[str, ...]:
        return ()

    def tool_choice(self, tool: HostedTool[HostedMcpConfig]) -> dict[str, Any]:
        return {"type": "mcp", "server_label": tool.config.server_label}

    def _items(
        self,
        response_items: Sequence[Any],
        tool: HostedTool[HostedMcpConfig] | None,
        types: Sequence[str],
    ) -> list[object]:
        items = of_types(response_items, types)
        if tool is None:
            return items
        label = tool.config.server_label
        return [item for item in items if text(item, "server_label") == label]

    def parse_calls(
        self, response_items: Sequence[Any], tool: HostedTool[HostedMcpConfig] | None
    ) -> tuple[HostedCall, ...]:
        calls: list[HostedCall] = []
        for item in self._items(response_items, tool, self.item_types):
            label = text(item, "server_label") or ""
            if text(item, "type") == _LIST:
                params = McpInvocation(server_label=label)
                output = HostedMcpResult(server_label=label, listed_tools=_listed(item))
                error = call_failure(item, f"listing tools of {label}")
            else:
                call = _call(item)
                params = McpInvocation(label, call.name, call.arguments)
                output = HostedMcpResult(server_label=label, calls=(call,))
                error = call_failure(item, f"{label}.{call.name}")
            calls.append(hosted_call(self.kind, item, params=params, output=output, error=error))
        return tuple(calls)

    def parse_output(
        self, response_items: Sequence[Any], tool: HostedTool[HostedMcpConfig]
    ) -> HostedMcpResult | None:
        items = self._items(response_items, tool, (*self.item_types, _APPROVAL))
        if not items:
            return None
        by_type: dict[str, list[object]] = {_LIST: [], _CALL: [], _APPROVAL: []}
        for item in items:
            by_type[text(item, "type") or ""].append(item)
        return HostedMcpResult(
            server_label=tool.config.server_label,
            listed_tools=tuple(t for item in by_type[_LIST] for t in _listed(item)),
            calls=tuple(_call(item) for item in by_type[_CALL]),
            approval_requests=tuple(approval_request(item) for item in by_type[_APPROVAL]),
            text=answer(response_items).text,
        )
