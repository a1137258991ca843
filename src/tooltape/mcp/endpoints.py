"""Where an MCP server is: a command to run over stdio, or the URL of a running HTTP server.

``ServerCommand`` is a server tooltape starts as a subprocess and talks to
over stdin/stdout; ``ServerUrl`` is a server that already runs and speaks
MCP's streamable HTTP transport at ``url``. ``McpConnection`` picks the
transport from the type. ``ServerUrl.headers`` and ``ServerCommand.env``
often carry credentials, so no repr, description or error message built
here shows their values: ``scrub`` replaces them (and a password in the
URL) in any text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import cast
from urllib.parse import urlsplit, urlunsplit

__all__ = [
    "McpEndpoint",
    "ServerCommand",
    "ServerUrl",
    "headers_problem",
    "redact_url",
    "url_problem",
]

_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
_HIDDEN = "***"
# Shorter header values (a flag, a count) are not secrets, and replacing
# them would garble unrelated text such as port numbers; a word inside a
# value ("Bearer <token>") is hidden on its own only when token-sized.
_MIN_SECRET_LENGTH = 4
_MIN_TOKEN_LENGTH = 8


def redact_url(url: str) -> str:
    """``url`` with the password of its user info, if any, replaced by ``***``."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return url
    if not password:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:{_HIDDEN}@{host}"))


def url_problem(url: object) -> str | None:
    """What is wrong with ``url`` as a streamable HTTP MCP endpoint, or ``None``."""
    if not isinstance(url, str) or not url.strip():
        return f"url must be a non-empty string, got {type(url).__name__}"
    shown = repr(redact_url(url))
    try:
        parts = urlsplit(url)
        _ = parts.port  # parsing the port is what checks it
    except ValueError as exc:
        return f"url {shown} cannot be parsed ({exc})"
    if parts.scheme not in ("http", "https"):
        scheme = f"the scheme {parts.scheme!r}" if parts.scheme else "no scheme"
        return f"url {shown} has {scheme}; MCP over HTTP needs http:// or https://"
    if not parts.hostname:
        return f"url {shown} has no host"
    return None


def headers_problem(headers: object) -> str | None:
    """What is wrong with ``headers`` (names and string values), or ``None``.

    The answer names a header but never shows a value.
    """
    if not isinstance(headers, Mapping):
        return f"headers must be a mapping of header names to values, got {type(headers).__name__}"
    for name, value in cast("Mapping[object, object]", headers).items():
        if not isinstance(name, str) or not _TOKEN.match(name):
            return f"header name {name!r} is not a valid HTTP header name"
        if not isinstance(value, str):
            return f"header {name!r} must have a string value, got {type(value).__name__}"
        if any(c in value for c in "\r\n\0"):
            return f"the value of header {name!r} contains a line break or NUL"
    return None


@dataclass(frozen=True, slots=True, repr=False)
class ServerCommand:
    """How to launch a stdio MCP server.

    ``env`` often carries credentials, so the repr lists its names only.
    """

    command: str
    args: tuple[str, ...] = ()
    env: Mapping[str, str] | None = None
    cwd: Path | None = None

    @property
    def kind(self) -> str:
        """``"command"``: how error messages introduce ``describe()``."""
        return "command"

    def describe(self) -> str:
        """The command line, for error messages."""
        return " ".join([self.command, *self.args])

    def env_names(self) -> tuple[str, ...]:
        """The names of the variables ``env`` sets (never their values)."""
        return tuple(self.env or ())

    def scrub(self, text: str) -> str:
        """``text`` with the values of ``env`` replaced by ``***``."""
        return _hide(text, (self.env or {}).values())

    def __repr__(self) -> str:
        env = list(self.env_names()) if self.env is not None else None
        return (
            f"ServerCommand(command={self.command!r}, args={self.args!r}, env={env!r}, "
            f"cwd={self.cwd!r})"
        )


@dataclass(frozen=True, slots=True, repr=False)
class ServerUrl:
    """A running MCP server reached over streamable HTTP at ``url``.

    ``headers`` are sent with every request (e.g. ``Authorization``); the
    repr lists their names only.
    """

    url: str
    headers: Mapping[str, str] | None = None

    @property
    def kind(self) -> str:
        """``"url"``: how error messages introduce ``describe()``."""
        return "url"

    def describe(self) -> str:
        """The URL, without a password it may carry, for error messages."""
        return redact_url(self.url)

    def header_names(self) -> tuple[str, ...]:
        """The names of the headers sent (never their values)."""
        return tuple(self.headers or ())

    def scrub(self, text: str) -> str:
        """``text`` with header values and the URL's password replaced by ``***``."""
        try:
            password = urlsplit(self.url).password
        except ValueError:
            password = None
        return _hide(text, [*(self.headers or {}).values(), *([password] if password else [])])

    def __repr__(self) -> str:
        return f"ServerUrl(url={self.describe()!r}, headers={list(self.header_names())!r})"


def _hide(text: str, values: Iterable[str]) -> str:
    secrets: set[str] = set()
    for value in values:
        if len(value) >= _MIN_SECRET_LENGTH:
            secrets.add(value)
        secrets.update(word for word in value.split() if len(word) >= _MIN_TOKEN_LENGTH)
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, _HIDDEN)
    return text


McpEndpoint = ServerCommand | ServerUrl
"""Where an MCP server is: the ``McpConnection`` transport follows the type."""
