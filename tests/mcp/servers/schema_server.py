"""A stdio MCP server whose tools publish the input schemas a test gives it.

``--tool NAME SCHEMA_JSON`` (repeatable) adds a tool named ``NAME`` (any
name, unicode and dots included) whose listed input schema is exactly
``SCHEMA_JSON``; calling it answers with its arguments as JSON. The schemas
are synthetic: they stand for what third-party servers publish.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent, Tool


class SchemaServer(MCPServer):
    """Lists each tool with the schema given on the command line, as written."""

    def __init__(self, schemas: dict[str, dict[str, Any]]) -> None:
        super().__init__("schemas")
        self.schemas = schemas

    async def list_tools(self) -> list[Tool]:
        listed = await super().list_tools()
        return [
            tool.model_copy(update={"input_schema": self.schemas[tool.name], "output_schema": None})
            for tool in listed
        ]

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Any = None
    ) -> CallToolResult:
        text = json.dumps({"tool": name, "arguments": arguments}, sort_keys=True)
        return CallToolResult(content=[TextContent(type="text", text=text)])


def _given_schemas(argv: list[str]) -> dict[str, dict[str, Any]]:
    schemas: dict[str, dict[str, Any]] = {}
    for index, word in enumerate(argv):
        if word == "--tool":
            schemas[argv[index + 1]] = json.loads(argv[index + 2])
    return schemas


def _echo() -> str:
    return ""  # never runs: call_tool answers every call


server = SchemaServer(_given_schemas(sys.argv))
for tool_name in server.schemas:
    server.add_tool(_echo, name=tool_name, description=f"Echo for {tool_name}.")


if __name__ == "__main__":
    server.run("stdio")
