"""One MCP server connection (a stdio process or a streamable HTTP session) and its loop thread.

The ``mcp`` client is async and its transport is a set of anyio task groups
that must be entered and left by the same task. So one long-lived task owns
the whole connection (spawn or connect, handshake, tool listing, then
waiting for the stop signal, then the SDK's bounded shutdown), on an event
loop running in a dedicated daemon thread. Tool calls are separate
coroutines submitted to that loop with ``asyncio.run_coroutine_threadsafe``:
callers stay synchronous, and several threads may call at once (MCP
multiplexes requests over one session). ``tooltape.mcp.transports`` opens
the transport the endpoint asks for.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import tempfile
import threading
from collections.abc import Mapping, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO, cast

from tooltape.mcp.endpoints import McpEndpoint, ServerCommand, ServerUrl
from tooltape.mcp.transports import open_transport

if TYPE_CHECKING:
    from mcp import Client
    from mcp.types import CallToolResult
    from mcp.types import Tool as RemoteTool

__all__ = ["McpConnection", "McpServerError", "McpServerStopped", "ServerCommand", "ServerUrl"]

_SHUTDOWN_TIMEOUT = 15.0
_MAX_LIST_PAGES = 100
_STDERR_TAIL_BYTES = 2000


class McpServerError(RuntimeError):
    """An MCP server could not be started, listed or reached."""


class McpServerStopped(McpServerError):
    """A started MCP server is gone (its process ended or its connection closed): no later
    call can reach it until the section is entered again."""


@dataclass(frozen=True, slots=True)
class _Started:
    tools: tuple[RemoteTool, ...]
    instructions: str | None


@dataclass(slots=True)
class _Running:
    loop: asyncio.AbstractEventLoop
    thread: threading.Thread
    stop: asyncio.Event
    stderr: TextIO | None
    ready: concurrent.futures.Future[_Started] = field(
        default_factory=lambda: concurrent.futures.Future[_Started]()
    )
    lifecycle: concurrent.futures.Future[None] | None = None
    client: Client | None = None
    # The last HTTP error status (e.g. "401 Unauthorized"): the SDK's own
    # errors do not say which, and it tells a wrong path from missing auth.
    http_error: str | None = None
    # Why the connection closed under a call, once it has: the SDK keeps the
    # session object, and every later call would fail the same way.
    closed: str | None = None


class McpConnection:
    """Connects to an MCP server, lists its tools, calls them, and disconnects.

    The endpoint picks the transport: a ``ServerCommand`` is spawned and
    spoken to over stdio, a ``ServerUrl`` is reached over streamable HTTP.
    ``start()`` blocks until the server answered the handshake and listed its
    tools (or raises ``McpServerError`` saying what to check, with a stdio
    server's stderr tail); ``close()`` always stops the process, or ends the
    HTTP session and closes the HTTP client, and the loop thread, and is
    idempotent. A stdio server's stderr goes to a temporary file, so its
    logs do not interleave with the caller's output and remain readable
    through ``stderr_tail()``. Header values of a ``ServerUrl`` and ``env``
    values of a ``ServerCommand`` are kept out of every error message. A
    stdio server is started in its own process group, and stopping it kills
    whatever it started as well.
    """

    def __init__(
        self,
        server_name: str,
        endpoint: McpEndpoint,
        *,
        startup_timeout_sec: float = 30.0,
        call_timeout_sec: float = 60.0,
    ) -> None:
        self.server_name = server_name
        self.endpoint = endpoint
        self.startup_timeout_sec = startup_timeout_sec
        self.call_timeout_sec = call_timeout_sec
        self._lock = threading.Lock()
        self._running: _Running | None = None
        self._last_stderr = ""

    @property
    def started(self) -> bool:
        """Whether the server is (supposed to be) running and connected."""
        return self._running is not None

    def _label(self) -> str:
        endpoint = self.endpoint
        return f"MCP server {self.server_name!r} ({endpoint.kind}: {endpoint.describe()})"

    def start(self) -> tuple[tuple[RemoteTool, ...], str | None]:
        """Spawn or connect to the server; return its tools (all pages) and its instructions."""
        with self._lock:
            if self._running is not None:
                raise McpServerError(f"{self._label()} is already started.")
            loop = asyncio.new_event_loop()
            thread = threading.Thread(
                target=loop.run_forever, name=f"tooltape-mcp-{self.server_name}", daemon=True
            )
            stderr: TextIO | None = None
            if isinstance(self.endpoint, ServerCommand):
                # Closed by close(), which every start() failure path also runs.
                stderr = cast(
                    "TextIO",
                    tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace"),  # noqa: SIM115
                )
            running = _Running(loop=loop, thread=thread, stop=asyncio.Event(), stderr=stderr)
            self._running = running
            thread.start()
            running.lifecycle = asyncio.run_coroutine_threadsafe(self._serve(running), loop)
        waited: list[concurrent.futures.Future[Any]] = [running.ready, running.lifecycle]
        try:
            concurrent.futures.wait(
                waited,
                timeout=self.startup_timeout_sec + _SHUTDOWN_TIMEOUT,
                return_when=concurrent.futures.FIRST_COMPLETED,
            )
        except BaseException:
            # Interrupted (Ctrl-C) while waiting: the process or session must not outlive us.
            self.close()
            raise
        if running.ready.done() and running.ready.exception() is None:
            started = running.ready.result()
            return started.tools, started.instructions
        problem = self._startup_problem(running)
        self.close()
        if isinstance(self.endpoint, ServerUrl):
            if running.http_error is not None:
                problem += f" (the server answered HTTP {running.http_error})"
            raise McpServerError(
                self.endpoint.scrub(
                    f"{self._label()} could not be reached: {problem}.\nCheck that the server "
                    "is running and listening at that address, that the path is its MCP "
                    "endpoint (often /mcp), that it speaks MCP over streamable HTTP, and that "
                    "the headers it needs (e.g. Authorization) are given."
                )
            )
        tail = self._last_stderr.strip()
        raise McpServerError(
            self.endpoint.scrub(
                f"{self._label()} did not start: {problem}."
                + (f" Its stderr ends with:\n{tail}" if tail else " It wrote nothing to stderr.")
                + "\nCheck the command, its arguments and environment; run it by hand to see it "
                "fail."
            )
        )

    def _startup_problem(self, running: _Running) -> str:
        error = running.ready.exception() if running.ready.done() else None
        if error is None:
            return f"no answer within {self.startup_timeout_sec:g} seconds"
        if isinstance(error, TimeoutError):
            return f"no handshake within {self.startup_timeout_sec:g} seconds (startup_timeout_sec)"
        return _describe(error)

    async def _serve(self, running: _Running) -> None:
        from mcp import Client

        try:
            async with AsyncExitStack() as stack:
                async with asyncio.timeout(self.startup_timeout_sec):
                    transport = await open_transport(
                        self.endpoint,
                        stack,
                        errlog=running.stderr,
                        call_timeout_sec=self.call_timeout_sec,
                        on_http_error=lambda status: setattr(running, "http_error", status),
                    )
                    client = await stack.enter_async_context(Client(transport))
                    tools = await _list_all_tools(client)
                running.client = client
                running.ready.set_result(_Started(tools, client.instructions))
                await running.stop.wait()
        except BaseException as exc:
            if not running.ready.done():
                running.ready.set_exception(exc)
            raise

    def call_tool(self, name: str, arguments: Mapping[str, Any]) -> CallToolResult:
        """Call ``name`` on the server; a transport problem raises (``McpServerError`` or the
        SDK's own error), while a tool's own failure comes back as ``is_error``."""
        running = self._running
        client = running.client if running is not None else None
        if running is None or client is None:
            raise McpServerError(f"{self._label()} is not started; use `with section:`.")
        if running.closed is not None:
            raise McpServerStopped(f"{self._label()} has stopped: {running.closed}.")
        if running.lifecycle is not None and running.lifecycle.done():
            raise McpServerStopped(f"{self._label()} has stopped: {self._exit_reason(running)}.")
        future = asyncio.run_coroutine_threadsafe(
            client.call_tool(name, dict(arguments), read_timeout_seconds=self.call_timeout_sec),
            running.loop,
        )
        try:
            return future.result(timeout=self.call_timeout_sec + 5)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise McpServerError(
                self.endpoint.scrub(
                    f"{self._label()} did not answer a call of {name!r} within "
                    f"{self.call_timeout_sec:g} seconds."
                )
            ) from None
        except Exception as exc:
            detail = _describe(exc)
            if _is_connection_closed(exc):
                running.closed = self._with_stderr_tail(detail)
                raise McpServerStopped(f"{self._label()} has stopped: {running.closed}.") from None
            scrubbed = self.endpoint.scrub(detail)
            if scrubbed == detail:
                raise
            # The original error would carry a header value to the caller (and the model).
            raise McpServerError(f"{self._label()}: {scrubbed}") from None

    def _exit_reason(self, running: _Running) -> str:
        assert running.lifecycle is not None
        error = running.lifecycle.exception() if not running.lifecycle.cancelled() else None
        return self._with_stderr_tail(
            _describe(error) if error is not None else "the connection ended"
        )

    def _with_stderr_tail(self, detail: str) -> str:
        tail = self.stderr_tail().strip().splitlines()
        return self.endpoint.scrub(detail + (f"; last stderr line: {tail[-1]}" if tail else ""))

    def stderr_tail(self) -> str:
        """The last part of what a stdio server wrote to stderr (also after ``close()``).

        Always empty for an HTTP server: its output is not ours to read.
        """
        running = self._running
        if running is None:
            return self._last_stderr
        return _read_tail(running.stderr)

    def close(self) -> None:
        """Disconnect, then stop the loop thread; idempotent.

        A stdio server is stopped (stdin closed, escalating to kill); over
        HTTP the session is ended (the SDK's DELETE) and the HTTP client's
        connections are closed, also when the server no longer answers.
        """
        with self._lock:
            running, self._running = self._running, None
        if running is None:
            return
        loop = running.loop
        lifecycle = running.lifecycle
        try:
            if lifecycle is not None and not lifecycle.done():
                loop.call_soon_threadsafe(running.stop.set)
                concurrent.futures.wait([lifecycle], timeout=_SHUTDOWN_TIMEOUT)
                if not lifecycle.done():
                    lifecycle.cancel()
            if loop.is_running():
                leftovers = asyncio.run_coroutine_threadsafe(_cancel_other_tasks(), loop)
                concurrent.futures.wait([leftovers], timeout=_SHUTDOWN_TIMEOUT)
                loop.call_soon_threadsafe(loop.stop)
            running.thread.join(timeout=_SHUTDOWN_TIMEOUT)
            if not running.thread.is_alive():
                loop.close()
        finally:
            if running.stderr is not None:
                self._last_stderr = _read_tail(running.stderr)
                running.stderr.close()


async def _list_all_tools(client: Client) -> tuple[RemoteTool, ...]:
    tools: list[RemoteTool] = []
    cursor: str | None = None
    for _ in range(_MAX_LIST_PAGES):
        page = await client.list_tools(cursor=cursor)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if cursor is None:
            break
    return tuple(tools)


async def _cancel_other_tasks() -> None:
    current = asyncio.current_task()
    others = [task for task in asyncio.all_tasks() if task is not current]
    for task in others:
        task.cancel()
    await asyncio.gather(*others, return_exceptions=True)


def _is_connection_closed(error: BaseException) -> bool:
    """Whether ``error`` is the SDK saying the session's connection closed (the server's
    process exited, or its stream ended), which no retry on this session can undo."""
    from mcp.types import CONNECTION_CLOSED

    data = getattr(error, "error", None)
    return getattr(data, "code", None) == CONNECTION_CLOSED


def _describe(error: BaseException) -> str:
    """An exception as one line; task-group wrappers are unwrapped to what actually failed."""
    if isinstance(error, BaseExceptionGroup):
        return "; ".join(_describe(inner) for inner in _leaves(cast("_Group", error)))
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


_Group = BaseExceptionGroup[BaseException]


def _leaves(group: _Group) -> Sequence[BaseException]:
    leaves: list[BaseException] = []
    for inner in group.exceptions:
        if isinstance(inner, BaseExceptionGroup):
            leaves.extend(_leaves(cast("_Group", inner)))
        else:
            leaves.append(inner)
    return leaves


def _read_tail(stream: TextIO | None) -> str:
    # pread leaves the shared file offset alone: the server may still be writing.
    if stream is None:
        return ""
    try:
        fd = stream.fileno()
        size = os.fstat(fd).st_size
        start = max(0, size - _STDERR_TAIL_BYTES)
        data = os.pread(fd, size - start, start)
    except (OSError, ValueError):
        return ""
    return data.decode("utf-8", errors="replace")
