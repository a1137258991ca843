"""MCP server tools, client side: connect to an MCP server and expose its tools as tooltape tools.

Two transports, picked by how the server is given:

- stdio: ``McpServerSection(name, command, args=(), env=None, tools=None)``
  runs the server as a subprocess it owns;
- streamable HTTP: ``McpServerSection(name, url="http://127.0.0.1:8000/mcp",
  headers=None, tools=None)`` connects to a server that already runs
  (``headers``, e.g. ``Authorization``, are never shown in reprs or errors).

``with section:`` starts the server or opens the session, and leaving the
block stops it or ends the session. Its tools are ``McpTool``s named
``<name>__<tool>`` with ``source == "mcp"`` and ``server_name == name``,
run through the same executor and hooks as function tools, whatever the
transport. ``running_servers(prompt)`` starts every server a prompt (and
its agent tools' children) needs. The ``mcp`` SDK is imported only when a
server starts.
"""

from tooltape.mcp.arguments import JsonSchemaArguments
from tooltape.mcp.connection import McpConnection, McpServerError, McpServerStopped
from tooltape.mcp.endpoints import McpEndpoint, ServerCommand, ServerUrl
from tooltape.mcp.section import McpServerSection
from tooltape.mcp.servers import mcp_sections, running_servers
from tooltape.mcp.tool import McpCallResult, McpTool, namespaced_tool_name

__all__ = [
    "JsonSchemaArguments",
    "McpCallResult",
    "McpConnection",
    "McpEndpoint",
    "McpServerError",
    "McpServerStopped",
    "McpServerSection",
    "McpTool",
    "ServerCommand",
    "ServerUrl",
    "mcp_sections",
    "namespaced_tool_name",
    "running_servers",
]
