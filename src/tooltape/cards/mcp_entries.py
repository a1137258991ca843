"""MCP servers declared in a card (``mcp_servers[]``), built as ``McpServerSection``s.

An entry gives its server one of two ways: ``command`` (with ``args``,
``env``, ``cwd``) for a stdio server tooltape starts in the card's folder,
or ``url`` (with ``headers``) for a server that already runs and speaks
streamable HTTP. Mixing the two is a ``CardError`` naming the field that
does not belong. A header value is never part of an error message, and
``${NAME}`` in one is read from the environment when the card is loaded, so
a token need not be written into the card.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path

from tooltape.cards.errors import CardError
from tooltape.cards.front_matter import FIXES, McpServerEntry
from tooltape.mcp import McpServerSection
from tooltape.mcp.endpoints import headers_problem, url_problem
from tooltape.prompt import PromptValidationError

__all__ = ["build_mcp_section"]

_BOTH = (
    "keep `command` (with `args`, `env`, `cwd`) for a server tooltape starts, or `url` "
    "(with `headers`) for a server that already runs; not both."
)


_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def _expand_headers(path: Path, where: str, headers: Mapping[str, str]) -> dict[str, str]:
    """Header values with every ``${NAME}`` replaced by that environment variable."""
    expanded: dict[str, str] = {}
    for name, value in headers.items():
        for variable in _VARIABLE.findall(value):
            if variable not in os.environ:
                raise CardError(
                    path,
                    f"{where}.headers.{name}",
                    f"the environment variable {variable} is not set",
                    f"set {variable} before loading the card (its value is sent as the "
                    f"{name} header).",
                )
        expanded[name] = _VARIABLE.sub(lambda match: os.environ[match.group(1)], value)
    return expanded


def build_mcp_section(path: Path, index: int, entry: McpServerEntry) -> McpServerSection:
    """The section ``mcp_servers[index]`` of the card at ``path`` declares (not started)."""
    where = f"mcp_servers[{index}]"
    if entry.url is not None:
        return _http_section(path, where, entry)
    if entry.command is None:
        raise CardError(
            path,
            f"{where}.command",
            f"`{where}.command`: Field required, unless the entry gives `url`",
            "add `command: ...` for a server tooltape starts, or `url: http://...` for one "
            "that already runs.",
        )
    if entry.headers is not None:
        raise CardError(
            path,
            f"{where}.headers",
            "`headers` applies only to a server given by `url`",
            "remove it; pass settings to a `command` server through `env`.",
        )
    cwd = path.parent if entry.cwd is None else path.parent / entry.cwd
    command = sys.executable if entry.command == "python" else entry.command
    try:
        return McpServerSection(
            entry.name,
            command,
            entry.args,
            entry.env,
            entry.tools,
            cwd=cwd,
            startup_timeout_sec=entry.startup_timeout_sec,
            call_timeout_sec=entry.call_timeout_sec,
        )
    except PromptValidationError as exc:
        raise CardError(path, where, str(exc), FIXES["mcp_servers"]) from exc


def _http_section(path: Path, where: str, entry: McpServerEntry) -> McpServerSection:
    assert entry.url is not None
    if entry.command is not None:
        raise CardError(path, f"{where}.url", "both `command` and `url` are given", _BOTH)
    for name, value in (("args", entry.args), ("env", entry.env), ("cwd", entry.cwd)):
        if value:
            raise CardError(
                path,
                f"{where}.{name}",
                f"`{name}` does not apply to a server given by `url`",
                "remove it: tooltape connects to a `url` server, it does not start it.",
            )
    problem = url_problem(entry.url)
    if problem is not None:
        raise CardError(
            path,
            f"{where}.url",
            problem,
            "write the full address of the server's MCP endpoint, e.g. "
            "`url: http://127.0.0.1:8000/mcp`.",
        )
    headers = None if entry.headers is None else _expand_headers(path, where, entry.headers)
    if headers is not None:
        problem = headers_problem(headers)
        if problem is not None:
            raise CardError(
                path,
                f"{where}.headers",
                problem,
                "write one `Header-Name: value` line per header, with valid HTTP header names.",
            )
    try:
        return McpServerSection(
            entry.name,
            url=entry.url,
            headers=headers,
            tools=entry.tools,
            startup_timeout_sec=entry.startup_timeout_sec,
            call_timeout_sec=entry.call_timeout_sec,
        )
    except PromptValidationError as exc:
        raise CardError(path, where, str(exc), FIXES["mcp_servers"]) from exc
