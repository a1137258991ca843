"""Responses the server cut off mid-body, or never sent, while recording, noted on their
cassette.

vcrpy reads a response whole before the client sees any of it. A body the
server cuts off (it closes the connection before the ``content-length`` or
the last chunk) fails that read: the client gets a connection error (the
OpenAI SDK retries it), and nothing is recorded. So does a request the
server never answers (the client's timeout, a refused or dropped
connection). A test that expected the error passed, then failed its replay
with "no cassette" (and was told to record it, which wrote nothing again);
one whose retry was answered replays what it never saw. Neither can be
recorded, so each is noted on the cassette (:func:`cut_responses`), and the
pytest plugin fails the test with :func:`cut_message` and writes nothing.

Covered: vcrpy's httpx stub (httpx and httpx2, sync and async: the OpenAI SDK)
and its ``http.client`` stub (requests, urllib3); requests left unanswered, the
httpx stub only.
"""

from __future__ import annotations

import functools
import http.client
import importlib
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from tooltape.testing.vcr._names import httpx_stubs, make_request
from tooltape.testing.vcr.stub_wraps import wrap_once

__all__ = ["CutResponse", "cut_message", "cut_responses", "note_cut_responses"]

_NOTED = "tooltape_cut_responses"
"""The attribute of a vcrpy cassette its cut responses are kept in."""


@dataclass(frozen=True, slots=True)
class CutResponse:
    """A response whose head arrived and whose body did not, whole."""

    method: str
    uri: str
    error: str
    """The client library's account of the cut (its exception's type and message)."""
    answered: bool = True
    """Whether the response's head arrived (``False``: no response came at all)."""


def _note(
    cassette: Any, method: str, uri: str, error: BaseException, *, answered: bool = True
) -> None:
    noted: list[CutResponse] | None = getattr(cassette, _NOTED, None)
    if noted is None:
        noted = []
        setattr(cassette, _NOTED, noted)
    kind = type(error)
    account = f"{kind.__module__}.{kind.__qualname__}: {error}"
    noted.append(CutResponse(method, uri, account, answered))


def cut_responses(cassette: Any) -> tuple[CutResponse, ...]:
    """The responses cut off while ``cassette`` (a vcrpy cassette) recorded, in order."""
    return tuple(getattr(cassette, _NOTED, ()))


def _requests(cuts: Sequence[CutResponse], show: Callable[[str], str]) -> list[str]:
    """Each request of ``cuts`` once, with how often and the last error."""
    counted: dict[tuple[str, str], list[CutResponse]] = {}
    for cut in cuts:
        counted.setdefault((cut.method, show(cut.uri)), []).append(cut)
    return [
        f"{method} {uri}"
        + (f" ({len(same)} times)" if len(same) > 1 else "")
        + f": {same[-1].error}"
        for (method, uri), same in counted.items()
    ]


def cut_message(cuts: Sequence[CutResponse], path: str, show: Callable[[str], str]) -> str:
    """Why the cassette at ``path`` was not written: ``cuts``, each request once with how
    often it was cut or went unanswered (``show`` makes a URI fit to print: its
    credentials redacted)."""
    cut = _requests([c for c in cuts if c.answered], show)
    unanswered = _requests([c for c in cuts if not c.answered], show)
    if not unanswered:
        what = (
            f"its response to {cut[0]}"
            if len(cut) == 1
            else "its responses to:" + "".join(f"\n  {line}" for line in cut) + "\n"
        )
        return (
            f"tooltape: the provider cut off {what}. A response cut off mid-body cannot be "
            f"recorded (the recorder reads each response whole before the client sees it), "
            f"so {path} was not written. Record again once the provider answers whole; to "
            "test how the code handles a cut stream, script one with "
            "provider_faults.truncated_sse."
        )
    lines = [f"no response to {line}" for line in unanswered]
    lines += [f"a response cut off mid-body to {line}" for line in cut]
    listed = "".join(f"\n  {line}" for line in lines)
    what = f"got {lines[0]}" if len(lines) == 1 else f"got:{listed}"
    return (
        f"tooltape: while recording, the test {what}\nA request the provider did not answer "
        f"(a timeout, a refused or dropped connection) cannot be recorded, and replay would "
        f"not show the code what it saw, so {path} was not written. Record again once the "
        "provider answers; to test how the code handles a timeout or a lost connection, "
        "script one: provider_faults.responses.timeout() (or .connection_error()), with the "
        "client from provider_faults.client()."
    )


class _Body:
    """A real response's byte stream, noting on the cassette an error that cuts it."""

    __slots__ = ("_cassette", "_method", "_stream", "_uri")

    def __init__(self, stream: Any, cassette: Any, method: str, uri: str) -> None:
        self._stream = stream
        self._cassette = cassette
        self._method = method
        self._uri = uri

    def __iter__(self) -> Iterator[bytes]:
        try:
            yield from self._stream
        except Exception as error:
            _note(self._cassette, self._method, self._uri, error)
            raise

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for part in self._stream:
                yield part
        except Exception as error:
            _note(self._cassette, self._method, self._uri, error)
            raise

    def close(self) -> None:
        self._stream.close()

    async def aclose(self) -> None:
        await self._stream.aclose()


def _httpx_noting(handle: Callable[..., Any], *, asynchronous: bool) -> Callable[..., Any]:
    """vcrpy's ``_vcr_handle_request`` (or its async twin) with the real response's body
    read through :class:`_Body` (the stub reads it whole, then replaces it)."""

    @functools.wraps(handle)
    def handled(
        cassette: Any, real: Callable[..., Any], transport: Any, request: Any, httpx: Any
    ) -> Any:
        method, uri = str(request.method), str(request.url)

        def body_noted(response: Any) -> Any:
            response.stream = _Body(response.stream, cassette, method, uri)
            return response

        def unanswered(error: BaseException) -> None:
            # A request the cassette would not keep (a trace export, an ignored host)
            # goes where it goes, answered or not, as without a recorder.
            body = b"".join(request.stream)  # vcrpy has read it into a ByteStream
            if cassette.filter_request(make_request(method, uri, body, request.headers)):
                _note(cassette, method, uri, error, answered=False)

        async def sent_async(*call: Any) -> Any:
            try:
                response = await real(*call)
            except Exception as error:
                unanswered(error)
                raise
            return body_noted(response)

        def sent(*call: Any) -> Any:
            try:
                response = real(*call)
            except Exception as error:
                unanswered(error)
                raise
            return body_noted(response)

        return handle(cassette, sent_async if asynchronous else sent, transport, request, httpx)

    return handled


def _cut_read(error: BaseException) -> bool:
    """Whether ``error`` (or one it wraps) is ``http.client``'s account of a cut body."""
    seen: set[int] = set()
    pending: list[object] = [error]
    while pending:
        current = pending.pop()
        if not isinstance(current, BaseException) or id(current) in seen:
            continue
        if isinstance(current, http.client.IncompleteRead):
            return True
        seen.add(id(current))
        pending.extend((current.__cause__, current.__context__, *current.args))
    return False


def _http_client_noting(getresponse: Callable[..., Any]) -> Callable[..., Any]:
    """vcrpy's ``VCRConnection.getresponse``, noting a body that arrived cut."""

    @functools.wraps(getresponse)
    def noted(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return getresponse(self, *args, **kwargs)
        except Exception as error:
            request = getattr(self, "_vcr_request", None)
            if request is not None and _cut_read(error):
                _note(self.cassette, request.method, request.uri, error)
            raise

    return noted


def note_cut_responses() -> None:
    """Have vcrpy's httpx and ``http.client`` stubs note cut responses on their cassette
    (once; a vcrpy without the functions wrapped is left alone)."""
    stubs = httpx_stubs()
    for name, asynchronous in (("_vcr_handle_request", False), ("_vcr_handle_async_request", True)):
        wrap_once(
            stubs,
            name,
            "tooltape_notes_cut",
            functools.partial(_httpx_noting, asynchronous=asynchronous),
        )
    connection: Any = getattr(importlib.import_module("vcr.stubs"), "VCRConnection", None)
    wrap_once(connection, "getresponse", "tooltape_notes_cut", _http_client_noting)
