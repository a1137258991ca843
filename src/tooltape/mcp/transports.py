"""Open the ``mcp`` SDK transport an endpoint needs: stdio for a command, streamable HTTP for a URL.

Imported by ``McpConnection`` inside its loop thread; the ``mcp`` SDK (and
its HTTP client, ``httpx2``) load only when a server starts.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AsyncExitStack
from typing import TYPE_CHECKING, TextIO

from tooltape.mcp.endpoints import McpEndpoint, ServerCommand, ServerUrl

if TYPE_CHECKING:
    from mcp.client import Transport

__all__ = ["open_transport"]

# The SDK's own defaults for its HTTP client: a streamed response (and the
# server-to-client event stream) may stay quiet for minutes.
_CONNECT_TIMEOUT = 30.0
_READ_TIMEOUT = 300.0


async def open_transport(
    endpoint: McpEndpoint,
    stack: AsyncExitStack,
    *,
    errlog: TextIO | None,
    call_timeout_sec: float,
    on_http_error: Callable[[str], None] | None = None,
) -> Transport:
    """The transport for ``endpoint``; what must be closed after it is pushed on ``stack``.

    ``errlog`` receives a stdio server's stderr. Over HTTP, the client's
    read timeout is at least the call timeout, so a slow tool is ended by
    the call timeout (with its clear message), not by the HTTP client;
    ``on_http_error`` hears every error status (``"404 Not Found"``).
    """
    if isinstance(endpoint, ServerCommand):
        return _stdio(endpoint, errlog)
    return await _streamable_http(endpoint, stack, call_timeout_sec, on_http_error)


def _stdio(command: ServerCommand, errlog: TextIO | None) -> Transport:
    import sys

    from mcp.client.stdio import StdioServerParameters, stdio_client

    parameters = StdioServerParameters(
        command=command.command,
        args=list(command.args),
        env=dict(command.env) if command.env is not None else None,
        cwd=command.cwd,
    )
    return stdio_client(parameters, errlog=errlog if errlog is not None else sys.stderr)


async def _streamable_http(
    endpoint: ServerUrl,
    stack: AsyncExitStack,
    call_timeout_sec: float,
    on_http_error: Callable[[str], None] | None,
) -> Transport:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    async def report(response: httpx2.Response) -> None:
        if response.status_code >= 400 and on_http_error is not None:
            on_http_error(f"{response.status_code} {response.reason_phrase}".strip())

    timeout = httpx2.Timeout(_CONNECT_TIMEOUT, read=max(_READ_TIMEOUT, call_timeout_sec + 5))
    # Entered before the transport, so it is closed after the transport has
    # ended the session: the SDK does not close a client it was given.
    http = await stack.enter_async_context(
        httpx2.AsyncClient(
            headers=dict(endpoint.headers or {}),
            timeout=timeout,
            event_hooks={"response": [report]},
        )
    )
    return streamable_http_client(endpoint.url, http_client=http)
