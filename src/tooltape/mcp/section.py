"""``McpServerSection``: a section whose tools come from an MCP server, over stdio or HTTP."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Self, cast

from tooltape.mcp.connection import McpConnection, McpServerError
from tooltape.mcp.endpoints import (
    McpEndpoint,
    ServerCommand,
    ServerUrl,
    headers_problem,
    url_problem,
)
from tooltape.mcp.lifecycle import ServerLifecycle
from tooltape.mcp.schema_refs import unresolved_refs
from tooltape.mcp.tool import McpTool, mcp_tool
from tooltape.prompt import PromptRenderError, PromptValidationError, Section
from tooltape.prompt.naming import check_tool_name
from tooltape.prompt.section import EnabledPredicate

__all__ = ["McpServerSection"]


def _positive(value: object, what: str, owner: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise PromptValidationError(f"{owner}: {what}={value!r}; use seconds > 0.")
    return value


def _strings(values: object, what: str, owner: str) -> tuple[str, ...]:
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise PromptValidationError(f"{owner}: {what} must be a list of strings, got {values!r}.")
    items = tuple(cast("Sequence[object]", values))
    bad = [v for v in items if not isinstance(v, str)]
    if bad:
        raise PromptValidationError(f"{owner}: {what} must hold strings only; found {bad[0]!r}.")
    return tuple(str(v) for v in items)


def _given(value: object) -> bool:
    empty = isinstance(value, tuple | list) and not value
    return value is not None and not empty


def _server_command(
    owner: str,
    command: object,
    args: object,
    env: Mapping[str, str] | None,
    cwd: str | os.PathLike[str] | None,
    headers: object,
) -> ServerCommand:
    if command is None:
        raise PromptValidationError(
            f"{owner}: give the server as command=... (tooltape starts it over stdio) or "
            "url=... (an MCP server that already runs, over streamable HTTP)."
        )
    if not isinstance(command, str) or not command.strip():
        raise PromptValidationError(f"{owner}: command must be a non-empty string.")
    if headers is not None:
        raise PromptValidationError(
            f"{owner}: headers apply only to a server given by url; pass settings to a "
            "command through env."
        )
    built = ServerCommand(
        command=command,
        args=_strings(args, "args", owner),
        env=dict(env) if env is not None else None,
        cwd=Path(cwd) if cwd is not None else None,
    )
    if env is not None and not all(
        isinstance(k, str) and isinstance(v, str) for k, v in env.items()
    ):
        raise PromptValidationError(f"{owner}: env must map strings to strings.")
    return built


def _server_url(
    owner: str,
    url: object,
    headers: object,
    command: object,
    args: object,
    env: object,
    cwd: object,
) -> ServerUrl:
    if command is not None:
        raise PromptValidationError(
            f"{owner}: give either command (a server tooltape starts over stdio) or url (one "
            "that already runs, over streamable HTTP), not both."
        )
    given = [n for n, v in (("args", args), ("env", env), ("cwd", cwd)) if _given(v)]
    if given:
        raise PromptValidationError(
            f"{owner}: {', '.join(given)} apply only to a server given by command; remove "
            f"{'it' if len(given) == 1 else 'them'} (a url server is already running)."
        )
    problem = url_problem(url)
    if problem is not None:
        raise PromptValidationError(
            f"{owner}: {problem}. Give the address of the server's MCP endpoint, e.g. "
            "url='http://127.0.0.1:8000/mcp'."
        )
    if headers is not None:
        problem = headers_problem(headers)
        if problem is not None:
            raise PromptValidationError(f"{owner}: {problem}; use {{'Name': 'value'}} strings.")
    mapping = cast("Mapping[str, str] | None", headers)
    return ServerUrl(str(url), dict(mapping) if mapping is not None else None)


class McpServerSection(Section[Any], ServerLifecycle):
    """A section that connects to an MCP server and carries its tools.

    The server is given one of two ways (exactly one):

    - ``command`` (+ ``args``, ``env``, ``cwd``): tooltape runs it as a
      subprocess in its own process group and speaks MCP over stdio;
      ``env`` is added to a minimal inherited environment, as the ``mcp``
      SDK does, and its values never appear in reprs or error messages.
      Stopping the server also kills every process it started.
    - ``url="http://127.0.0.1:8000/mcp"`` (+ ``headers``): a server that is
      already running, reached over MCP's streamable HTTP transport;
      ``headers`` (e.g. ``Authorization``) go with every request, and their
      values never appear in reprs or error messages.

    Use it as a context manager: ``with section:`` starts the server (or
    opens the HTTP session), lists its tools and keeps those named in
    ``tools`` (all when ``None``); leaving the block stops the process (or
    ends the session and closes the HTTP client), also on errors.
    ``tools()`` is empty until then, and rendering a prompt with a section
    that is not started raises ``PromptRenderError``.

    Each tool is an ``McpTool`` named ``<name>__<tool>`` whose source is
    ``"mcp"`` and whose ``server_name`` is ``name``; its calls go through the
    executor and hooks like any other tool. The section renders the
    server's instructions, when it sends any, and nothing otherwise.
    """

    def __init__(
        self,
        name: str,
        command: str | None = None,
        args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        tools: Sequence[str] | None = None,
        *,
        url: str | None = None,
        headers: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        startup_timeout_sec: float = 30.0,
        call_timeout_sec: float = 60.0,
        title: str | None = None,
        key: str | None = None,
        enabled: bool | EnabledPredicate | None = None,
    ) -> None:
        check_tool_name(name, what="MCP server")
        owner = f"McpServerSection {name!r}"
        super().__init__(
            title=title if title is not None else f"MCP server {name}",
            key=key if key is not None else f"mcp-{name}"[:64],
            enabled=enabled,
        )
        self.name = name
        self.endpoint: McpEndpoint
        if url is None:
            self.endpoint = _server_command(owner, command, args, env, cwd, headers)
        else:
            self.endpoint = _server_url(owner, url, headers, command, args, env, cwd)
        self.tool_filter = _strings(tools, "tools", owner) if tools is not None else None
        self.startup_timeout_sec = _positive(startup_timeout_sec, "startup_timeout_sec", owner)
        self.call_timeout_sec = _positive(call_timeout_sec, "call_timeout_sec", owner)
        self._connection: McpConnection | None = None
        self._server_tools: tuple[McpTool, ...] = ()
        self._instructions: str | None = None

    def __repr__(self) -> str:
        state = "started" if self.started else "stopped"
        endpoint = self.endpoint
        where = f"{endpoint.kind}={endpoint.describe()!r}"
        if isinstance(endpoint, ServerUrl) and endpoint.headers:
            where += f", headers={list(endpoint.header_names())!r}"
        return f"McpServerSection(name={self.name!r}, {where}, {state})"

    @property
    def command(self) -> ServerCommand | None:
        """How the stdio server is launched; ``None`` for a server given by ``url``."""
        return self.endpoint if isinstance(self.endpoint, ServerCommand) else None

    @property
    def url(self) -> str | None:
        """The streamable HTTP endpoint; ``None`` for a server given by ``command``."""
        return self.endpoint.url if isinstance(self.endpoint, ServerUrl) else None

    @property
    def started(self) -> bool:
        """Whether the server is running and its tools are available."""
        return self._connection is not None

    def start(self) -> Self:
        """Start the server and expose its (filtered) tools; ``McpServerError`` if it cannot."""
        if self._connection is not None:
            raise McpServerError(f"MCP server {self.name!r} is already started.")
        connection = McpConnection(
            self.name,
            self.endpoint,
            startup_timeout_sec=self.startup_timeout_sec,
            call_timeout_sec=self.call_timeout_sec,
        )
        listed, instructions = connection.start()
        try:
            self._server_tools = self._select(connection, listed)
        except BaseException:
            connection.close()
            raise
        self._instructions = instructions
        self._connection = connection
        return self

    def _select(self, connection: McpConnection, listed: Sequence[Any]) -> tuple[McpTool, ...]:
        offered = [str(remote.name) for remote in listed]
        if self.tool_filter is not None:
            unknown = [name for name in self.tool_filter if name not in offered]
            if unknown:
                endpoint = self.endpoint
                raise McpServerError(
                    f"MCP server {self.name!r} ({endpoint.kind}: {endpoint.describe()}) has no "
                    f"tool {', '.join(repr(n) for n in unknown)}; it offers "
                    f"{', '.join(sorted(offered)) or 'no tools'}. Fix the tools filter."
                )
        wanted = [r for r in listed if self.tool_filter is None or r.name in self.tool_filter]
        self._refuse_dangling_refs(wanted)
        tools = tuple(mcp_tool(self.name, remote, connection) for remote in wanted)
        owners: dict[str, str] = {}
        for tool in tools:
            if tool.name in owners:
                raise McpServerError(
                    f"MCP server {self.name!r}: tools {owners[tool.name]!r} and "
                    f"{tool.remote_name!r} both become {tool.name!r}; filter one of them out."
                )
            owners[tool.name] = tool.remote_name
        return tools

    def _refuse_dangling_refs(self, wanted: Sequence[Any]) -> None:
        # The provider refuses a whole request over one $ref it cannot resolve,
        # so a tool with one is named now, with the filter that leaves it out.
        broken = {str(r.name): unresolved_refs(r.input_schema) for r in wanted}
        broken = {name: refs for name, refs in broken.items() if refs}
        if not broken:
            return
        endpoint = self.endpoint
        named = "; ".join(
            f"tool {name!r} refers to {', '.join(repr(ref) for ref in refs)}"
            for name, refs in broken.items()
        )
        kept = [str(r.name) for r in wanted if r.name not in broken]
        fix = (
            f"Leave {'it' if len(broken) == 1 else 'them'} out with tools={kept!r}"
            if kept
            else "No tool of it can be sent as it is"
        )
        raise McpServerError(
            f"MCP server {self.name!r} ({endpoint.kind}: {endpoint.describe()}): {named}, which "
            "its input schema does not hold. A tool's schema is sent on its own, so a $ref must "
            "point inside it ('#/$defs/Name'); the provider would refuse every request with this "
            f"tool. {fix}, or have the server's schema define what it refers to."
        )

    def close(self) -> None:
        """Stop the server (idempotent); ``tools()`` is empty again afterwards."""
        connection, self._connection = self._connection, None
        self._server_tools = ()
        self._instructions = None
        if connection is not None:
            connection.close()

    def tools(self) -> tuple[McpTool, ...]:
        """The server's tools while it runs (filtered), else nothing."""
        return self._server_tools

    def stderr_tail(self) -> str:
        """The end of what a stdio server wrote to stderr (empty before the first start,
        and always for a server given by ``url``)."""
        return self._connection.stderr_tail() if self._connection is not None else ""

    def render(self, params: Any, depth: int = 0, number: str = "1") -> str:
        if self._connection is None:
            raise PromptRenderError(
                f"MCP server section {self.key!r} ({self.name}) is not started, so its tools are "
                "unknown; render or evaluate the prompt inside `with section:` (or `with card:` "
                "for a loaded card)."
            )
        if not self._instructions:
            return ""
        return super().render(params, depth, number)

    def render_body(self, params: Any) -> str:
        return self._instructions or ""

    def clone(self, **overrides: Any) -> Self:
        """A new, stopped section with the same configuration (some arguments replaced)."""
        endpoint = self.endpoint
        command = endpoint if isinstance(endpoint, ServerCommand) else None
        remote = endpoint if isinstance(endpoint, ServerUrl) else None
        arguments: dict[str, Any] = {
            "name": self.name,
            "command": command.command if command is not None else None,
            "args": command.args if command is not None else (),
            "env": command.env if command is not None else None,
            "tools": self.tool_filter,
            "url": remote.url if remote is not None else None,
            "headers": remote.headers if remote is not None else None,
            "cwd": command.cwd if command is not None else None,
            "startup_timeout_sec": self.startup_timeout_sec,
            "call_timeout_sec": self.call_timeout_sec,
            "title": self.title,
            "key": self.key,
            "enabled": self.enabled,
        }
        unknown = set(overrides) - set(arguments)
        if unknown:
            raise TypeError(
                f"McpServerSection.clone() got unknown arguments {sorted(unknown)}; "
                f"accepted: {sorted(arguments)}."
            )
        arguments.update(overrides)
        return type(self)(**arguments)
