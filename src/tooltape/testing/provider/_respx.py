"""Run a ``respx.Router`` behind an ``httpx2`` transport; the replies it scripts.

respx speaks legacy ``httpx`` while the OpenAI SDK 3.x sends ``httpx2``
requests, so requests are copied into ``httpx`` for the router and its
answers copied back. Streamed bodies stay streamed (chunk by chunk), so an
event stream can be cut mid-way, and ``httpx`` errors raised by a route or
by a body become the ``httpx2`` errors of the same name, which the SDK knows.

The scripted replies (``Reply``, ``TransportFault``) live here too: they are
respx side effects, answering legacy ``httpx`` requests.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Protocol

import httpx
import httpx2
import respx

__all__ = [
    "TIMEOUTS",
    "Fault",
    "Header",
    "Reply",
    "RouterHandler",
    "ScriptedTransport",
    "TransportFault",
    "to_httpx2_error",
    "to_httpx2_response",
    "to_httpx_request",
]


def to_httpx_request(request: httpx2.Request) -> httpx.Request:
    """A legacy ``httpx`` copy of a (read) ``httpx2`` request."""
    return httpx.Request(
        request.method,
        str(request.url),
        headers=list(request.headers.multi_items()),
        content=request.content,
    )


def to_httpx2_error(error: Exception, request: httpx2.Request) -> Exception:
    """The ``httpx2`` error of the same class name; other errors are returned unchanged."""
    if not isinstance(error, httpx.HTTPError):
        return error
    kind = getattr(httpx2, type(error).__name__, None)
    if isinstance(kind, type) and issubclass(kind, httpx2.RequestError):
        return kind(str(error), request=request)
    return httpx2.TransportError(f"{type(error).__name__}: {error}", request=request)


class _ForwardedStream(httpx2.SyncByteStream, httpx2.AsyncByteStream):
    """An ``httpx`` body stream read through ``httpx2``, errors translated."""

    def __init__(self, source: httpx.SyncByteStream, request: httpx2.Request) -> None:
        self._source = source
        self._request = request

    def __iter__(self) -> Iterator[bytes]:
        try:
            yield from self._source
        except httpx.HTTPError as exc:
            raise to_httpx2_error(exc, self._request) from exc

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self:
            yield chunk

    def close(self) -> None:
        self._source.close()

    async def aclose(self) -> None:
        self._source.close()


def to_httpx2_response(response: httpx.Response, request: httpx2.Request) -> httpx2.Response:
    """An ``httpx2`` response with the router's status, headers and (raw) body."""
    headers = list(response.headers.multi_items())
    stream = response.stream
    if isinstance(stream, httpx.ByteStream):
        # Raw bytes, not ``response.content``: an encoded body keeps its encoding.
        return httpx2.Response(
            response.status_code, headers=headers, content=b"".join(stream), request=request
        )
    if not isinstance(stream, httpx.SyncByteStream):
        raise TypeError("An async-only response stream cannot be forwarded to httpx2.")
    return httpx2.Response(
        response.status_code,
        headers=headers,
        stream=_ForwardedStream(stream, request),
        request=request,
    )


class RouterHandler:
    """An ``httpx2.MockTransport`` handler answering from a ``respx.Router``."""

    __slots__ = ("router",)

    def __init__(self, router: respx.Router) -> None:
        self.router = router

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        try:
            response = self.router.handler(to_httpx_request(request))
        except httpx.HTTPError as exc:
            raise to_httpx2_error(exc, request) from exc
        return to_httpx2_response(response, request)

    def transport(self) -> ScriptedTransport:
        """A transport for ``httpx2.Client(transport=...)``."""
        return ScriptedTransport(self)


class ScriptedTransport(httpx2.MockTransport):
    """``httpx2.MockTransport`` with a plain sync handler, invisible to vcrpy.

    vcrpy patches ``MockTransport``'s own methods while a cassette is active;
    redefining them here keeps scripted replies out of any cassette (they are
    neither recorded into one nor looked up in one).
    """

    def __init__(self, handler: Callable[[httpx2.Request], httpx2.Response]) -> None:
        super().__init__(handler)
        self._respond = handler

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        request.read()
        return self._respond(request)

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        await request.aread()
        return self._respond(request)


Header = tuple[str, str]


class Fault(Protocol):
    """One scripted answer to one call: a response, or an error raised by the transport."""

    @property
    def label(self) -> str:
        """A short description for messages, e.g. ``429 rate limited``."""
        ...

    def respond(self, request: httpx.Request) -> httpx.Response:
        """The response to ``request`` (a legacy ``httpx`` request, as respx routes see it)."""
        ...


class _Chunks(httpx.SyncByteStream):
    def __init__(self, chunks: tuple[bytes, ...], disconnect: bool) -> None:
        self._chunks = chunks
        self._disconnect = disconnect

    def __iter__(self) -> Iterator[bytes]:
        yield from self._chunks
        if self._disconnect:
            raise httpx.RemoteProtocolError(
                "peer closed connection without sending complete message body (scripted fault)"
            )


@dataclass(frozen=True, slots=True)
class Reply:
    """An HTTP answer. ``chunks`` are sent one by one; with ``disconnect`` the
    connection then drops (the client sees ``RemoteProtocolError``)."""

    status: int
    headers: tuple[Header, ...] = ()
    chunks: tuple[bytes, ...] = ()
    disconnect: bool = False
    label: str = ""

    def respond(self, request: httpx.Request) -> httpx.Response:
        """The response, streamed when it has several chunks or drops the connection."""
        if len(self.chunks) <= 1 and not self.disconnect:
            content = b"".join(self.chunks)
            return httpx.Response(
                self.status, headers=self.headers, content=content, request=request
            )
        stream = _Chunks(self.chunks, self.disconnect)
        return httpx.Response(self.status, headers=self.headers, stream=stream, request=request)


TIMEOUTS: Mapping[str, type[httpx.TimeoutException]] = {
    "connect": httpx.ConnectTimeout,
    "read": httpx.ReadTimeout,
    "write": httpx.WriteTimeout,
    "pool": httpx.PoolTimeout,
}


@dataclass(frozen=True, slots=True)
class TransportFault:
    """No HTTP answer at all: the transport raises ``error`` (an ``httpx`` error
    class, seen by the client as the ``httpx2`` error of the same name)."""

    error: type[httpx.TransportError]
    message: str
    label: str = ""

    def respond(self, request: httpx.Request) -> httpx.Response:
        """Raise the transport error."""
        raise self.error(self.message, request=request)
