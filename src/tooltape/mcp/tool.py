"""``McpTool``: one tool of an MCP server, callable like any tooltape tool.

Naming: a tool is exposed as ``<server>__<tool>`` (lowercased, characters
outside ``[a-z0-9_-]`` replaced by ``_``, shortened with a hash suffix past
64 characters), so two servers may offer tools of the same name and the
model sees where a tool comes from. ``remote_name`` keeps the server's own
name for the call. Descriptions are cut to tooltape's 1-200 ASCII rule.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, cast

from pydantic_core import to_json

from tooltape.mcp.arguments import JsonSchemaArguments, json_schema_arguments
from tooltape.mcp.connection import McpServerStopped
from tooltape.prompt import Tool, ToolContext, ToolResult
from tooltape.prompt.naming import DESCRIPTION_MAX_LENGTH, check_description, check_tool_name
from tooltape.prompt.strict import strict_mode_problems
from tooltape.prompt.tool import ToolSource
from tooltape.runtime.answers import failure_detail

if TYPE_CHECKING:
    from mcp.types import CallToolResult
    from mcp.types import Tool as RemoteTool

__all__ = ["McpCallResult", "McpCaller", "McpTool", "mcp_tool", "namespaced_tool_name"]

_UNSAFE = re.compile(r"[^a-z0-9_-]")
_MAX_NAME = 64


def namespaced_tool_name(server: str, tool: str) -> str:
    """``<server>__<tool>`` made to satisfy tooltape's tool name rule."""
    raw = f"{server}__{tool}"
    name = _UNSAFE.sub("_", raw.lower())
    if len(name) > _MAX_NAME:
        digest = hashlib.sha256(raw.encode()).hexdigest()[:8]
        name = f"{name[: _MAX_NAME - 9]}_{digest}"
    return name


def model_description(text: str | None, *, fallback: str) -> str:
    """A server's description as 1-200 ASCII characters: first paragraph, one line."""
    first = (text or "").strip().split("\n\n", 1)[0]
    flat = " ".join(first.split())
    ascii_text = unicodedata.normalize("NFKD", flat).encode("ascii", "ignore").decode()
    if len(ascii_text) > DESCRIPTION_MAX_LENGTH:
        ascii_text = ascii_text[: DESCRIPTION_MAX_LENGTH - 3].rstrip() + "..."
    return ascii_text or fallback


class McpCaller(Protocol):
    """What an ``McpTool`` needs of a connection: one blocking call."""

    def call_tool(self, name: str, arguments: Mapping[str, Any]) -> CallToolResult: ...


@dataclass(frozen=True, slots=True)
class McpCallResult:
    """A successful MCP call: its text, its structured content, and the raw content blocks."""

    text: str
    structured_content: object = None
    content: tuple[Mapping[str, Any], ...] = ()

    def render(self) -> str:
        """The text the server returned (its structured content as JSON when there is none)."""
        if self.text or self.structured_content is None:
            return self.text
        return to_json(self.structured_content).decode()


def _block_text(block: Mapping[str, Any]) -> str:
    kind = block.get("type")
    if kind == "text":
        return str(block.get("text", ""))
    resource = block.get("resource")
    if kind == "resource" and isinstance(resource, Mapping):
        embedded = cast("Mapping[str, Any]", resource)
        if "text" in embedded:
            return str(embedded["text"])
        return f"[resource {embedded.get('uri', '')}]"
    if kind == "resource_link":
        return f"[resource link {block.get('uri', '')}]"
    mime = block.get("mimeType") or block.get("mime_type") or ""
    return f"[{kind} content {mime}]".replace(" ]", "]")


def call_result(server: str, remote_name: str, result: CallToolResult) -> ToolResult[McpCallResult]:
    """An MCP ``CallToolResult`` as a ``ToolResult``: ``isError`` becomes a failed result."""
    blocks = tuple(
        cast("Mapping[str, Any]", block.model_dump(mode="json", by_alias=True, exclude_none=True))
        for block in result.content
    )
    text = "\n".join(_block_text(block) for block in blocks)
    if result.is_error:
        return ToolResult.error(
            f"MCP tool {remote_name!r} on server {server!r} failed: {text or 'no details given'}"
        )
    return ToolResult.ok(McpCallResult(text, result.structured_content, blocks))


class _RemoteCall:
    """The handler of an ``McpTool``: forwards the arguments to the server."""

    def __init__(self, caller: McpCaller, server: str, remote_name: str) -> None:
        self.caller = caller
        self.server = server
        self.remote_name = remote_name

    def __call__(
        self, params: dict[str, Any], /, *, context: ToolContext
    ) -> ToolResult[McpCallResult]:
        try:
            result = self.caller.call_tool(self.remote_name, params)
        except Exception as exc:
            advice = (
                "Continue without this tool: its server is not running any more."
                if isinstance(exc, McpServerStopped)
                else "Retry later or continue without this tool."
            )
            return ToolResult.error(
                f"MCP server {self.server!r} could not run tool {self.remote_name!r}: "
                f"{type(exc).__name__}: {failure_detail(exc)}. {advice}"
            )
        return call_result(self.server, self.remote_name, result)


@dataclass(frozen=True, slots=True, eq=False)
class McpTool(Tool[dict[str, Any], McpCallResult]):
    """A tool of an MCP server; params are the JSON object its input schema describes.

    The server, not the prompt's author, wrote the schema: one strict function
    calling cannot take (a free-form object, an untyped value) is sent as it
    is with ``strict`` off rather than refused.
    """

    server: str = ""
    remote_name: str = ""
    input_schema: Mapping[str, Any] = field(default_factory=lambda: dict[str, Any]())
    arguments: JsonSchemaArguments | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        # No params dataclass to build (see tooltape.mcp.arguments): only the
        # rules that still apply are checked.
        check_tool_name(self.name)
        check_description(self.description, owner=f"MCP tool {self.name!r}")
        object.__setattr__(self, "examples", tuple(self.examples))
        arguments = json_schema_arguments(self.name, self.input_schema)
        object.__setattr__(self, "arguments", arguments)
        if self.strict and strict_mode_problems(arguments.schema):
            object.__setattr__(self, "strict", False)

    @property
    def source(self) -> ToolSource:
        return "mcp"

    @property
    def server_name(self) -> str | None:
        return self.server

    @property
    def schema(self) -> JsonSchemaArguments:
        assert self.arguments is not None
        return self.arguments

    def param_descriptions(self) -> Mapping[str, str]:
        properties = cast("Mapping[str, Any]", self.schema.schema.get("properties", {}))
        return {
            name: str(cast("Mapping[str, Any]", prop)["description"])
            for name, prop in properties.items()
            if isinstance(prop, Mapping) and "description" in prop
        }


def mcp_tool(server: str, remote: RemoteTool, caller: McpCaller) -> McpTool:
    """The tooltape tool for one listed MCP tool, calling through ``caller``."""
    return McpTool(
        name=namespaced_tool_name(server, remote.name),
        description=model_description(
            remote.description, fallback=f"Tool {remote.name} of MCP server {server}."
        ),
        handler=_RemoteCall(caller, server, remote.name),
        params_type=dict,
        server=server,
        remote_name=remote.name,
        input_schema=remote.input_schema,
    )
