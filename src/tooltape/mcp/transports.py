"""Open the ``mcp`` SDK transport an endpoint needs: stdio for a command, streamable HTTP for a URL.

Imported by ``McpConnection`` inside its loop thread; the ``mcp`` SDK (and
its HTTP client, ``httpx2``) load only when a server starts.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from http import HTTPStatus
from typing import TYPE_CHECKING, TextIO

from tooltape.mcp.endpoints import McpEndpoint, ServerCommand, ServerUrl
from tooltape.runtime.process_tree import ProcessTree, child_writing_to

if TYPE_CHECKING:
    from mcp.client import Transport
    from mcp.client._transport import TransportStreams

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

    ``errlog`` receives a stdio server's stderr; once the server has
    stopped, whatever it started is killed too (``ProcessTree``). Over HTTP, the client's
    read timeout is at least the call timeout, so a slow tool is ended by
    the call timeout (with its clear message), not by the HTTP client;
    ``on_http_error`` hears every error status (``"404 Not Found"``).
    """
    if isinstance(endpoint, ServerCommand):
        return _stdio(endpoint, errlog)
    return await _streamable_http(endpoint, stack, call_timeout_sec, on_http_error)


@asynccontextmanager
async def _stdio(command: ServerCommand, errlog: TextIO | None) -> AsyncGenerator[TransportStreams]:
    import sys

    from mcp.client.stdio import StdioServerParameters, stdio_client

    parameters = StdioServerParameters(
        command=command.command,
        args=list(command.args),
        env=dict(command.env) if command.env is not None else None,
        cwd=command.cwd,
    )
    # The SDK starts the server in its own session and kills that group only
    # when the server outlives the grace period after its stdin closes: a
    # server that exits at once leaves its children running, and children
    # that left the group escape the kill. So the tree is found while the
    # server runs and killed whole once the SDK has stopped it.
    tree: ProcessTree | None = None
    try:
        async with stdio_client(parameters, errlog=errlog or sys.stderr) as streams:
            tree = _server_tree(errlog)
            try:
                yield streams
            finally:
                if tree is not None:
                    tree.remember()
    finally:
        if tree is not None:
            tree.kill()


def _server_tree(errlog: TextIO | None) -> ProcessTree | None:
    # The server is the child of this process whose stderr is our log file,
    # which no other process gets (the SDK does not say which pid it started).
    if errlog is None:
        return None
    leader = child_writing_to(errlog.fileno(), descriptor=2)
    return ProcessTree(leader, stdio_pipes=True) if leader is not None else None


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
            on_http_error(_status(response.status_code))

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


def _status(code: int) -> str:
    # The standard phrase, not the server's: a reason phrase is free text
    # that can echo a request header back.
    try:
        return f"{code} {HTTPStatus(code).phrase}"
    except ValueError:
        return str(code)
