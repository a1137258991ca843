"""MCP server tools, client side: run a stdio MCP server and expose its tools as tooltape tools.

``McpServerSection(name, command, args=(), env=None, tools=None)`` owns the
server process (``with section:``); its tools are ``McpTool``s named
``<name>__<tool>`` with ``source == "mcp"``, run through the same executor
and hooks as function tools. ``running_servers(prompt)`` starts every server
a prompt (and its agent tools' children) needs. The ``mcp`` SDK is imported
only when a server starts.
"""

from tooltape.mcp.arguments import JsonSchemaArguments
from tooltape.mcp.connection import McpConnection, McpServerError, ServerCommand
from tooltape.mcp.section import McpServerSection
from tooltape.mcp.servers import mcp_sections, running_servers
from tooltape.mcp.tool import McpCallResult, McpTool, namespaced_tool_name

__all__ = [
    "JsonSchemaArguments",
    "McpCallResult",
    "McpConnection",
    "McpServerError",
    "McpServerSection",
    "McpTool",
    "ServerCommand",
    "mcp_sections",
    "namespaced_tool_name",
    "running_servers",
]
