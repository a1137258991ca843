"""Scripted provider faults: what the OpenAI Responses API does on a bad day.

``ProviderFaults`` answers an OpenAI client's requests from a script, one
scripted reply per call, without any socket::

    faults.responses.rate_limited(retry_after=0.01).ok(response_json("hi"))
    adapter = OpenAIAdapter("gpt-4o", client=faults.client(max_retries=2))

Replies are frozen values built by ``tooltape.testing.provider.replies`` (``ok``, ``sse``,
``rate_limited``, ``server_error``, ``timeout``, ``connection_error``,
``malformed_json``, ``truncated_sse``, ``reply``). Underneath is a
``respx.Router`` (``faults.router``) driven through an ``httpx2.MockTransport``
(which an active vcrpy cassette leaves alone), so any respx route can be added
next to the scripted endpoints.

Error replies carry ``retry-after-ms`` (the SDK honours it before its own
backoff) with tiny defaults, so retry tests take milliseconds. Transport
failures (``timeout``, ``connection_error``) have no headers: the SDK then
waits its own backoff (about 0.4-0.5 s before the first retry).
"""

from __future__ import annotations

import json as jsonlib
import time
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import httpx
import httpx2
import openai
import pytest
import respx

from tooltape.testing.provider import replies
from tooltape.testing.provider._respx import (
    Fault,
    Header,
    Reply,
    RouterHandler,
    ScriptedTransport,
    TransportFault,
)
from tooltape.testing.provider.replies import (
    connection_error,
    malformed_json,
    ok,
    rate_limited,
    reply,
    response_events,
    response_json,
    server_error,
    sse,
    timeout,
    truncated_sse,
)

__all__ = [
    "BASE_URL",
    "PLACEHOLDER_API_KEY",
    "EndpointScript",
    "Fault",
    "ProviderCall",
    "ProviderFaults",
    "Reply",
    "ScriptExhausted",
    "TransportFault",
    "faults_for_test",
    "provider_faults",
]
__all__ += replies.__all__  # the reply builders, re-exported

BASE_URL = "http://tooltape.invalid/v1"
"""Where fault clients send requests (``.invalid`` never resolves)."""

PLACEHOLDER_API_KEY = "tooltape-placeholder-key"
"""The API key fault clients send; not key-shaped, so no scrubber flags it."""


class ScriptExhausted(AssertionError):
    """A scripted endpoint was called more often than replies were scripted."""


@dataclass(frozen=True, slots=True)
class ProviderCall:
    """One request the fault transport saw, and how it was answered.

    ``at`` is ``time.monotonic()`` on arrival; ``status`` is ``None`` when the
    transport raised instead (``error`` then names the ``httpx2`` error).
    """

    method: str
    url: str
    headers: tuple[Header, ...]
    body: bytes
    at: float
    status: int | None
    error: str | None

    @property
    def path(self) -> str:
        """The URL path, e.g. ``/v1/responses``."""
        return httpx2.URL(self.url).path

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (case-insensitive), or ``None``."""
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)

    def json(self) -> Any:
        """The request body parsed as JSON."""
        return jsonlib.loads(self.body)


class EndpointScript:
    """The replies one endpoint gives, used in order, one per call.

    Every method appends to the script and returns it, so a script reads
    like the exchange: ``faults.responses.rate_limited().ok(body)``.
    """

    def __init__(self, route: respx.Route, label: str) -> None:
        self._queue: deque[Fault] = deque()
        self._played: list[Fault] = []
        self.label = label
        self.route = route
        route.side_effect = self._answer

    def _answer(self, request: httpx.Request) -> httpx.Response:
        if not self._queue:
            labels = [f.label for f in self._played[-5:]]
            if len(self._played) > 5:
                labels.insert(0, f"… {len(self._played) - 5} more")
            scripted = ", ".join(labels) or "none"
            raise ScriptExhausted(
                f"{self.label}: call {len(self._played) + 1} has no scripted reply "
                f"(scripted: {scripted}). Add one, e.g. faults.responses.ok(...)."
            )
        fault = self._queue.popleft()
        self._played.append(fault)
        return fault.respond(request)

    @property
    def remaining(self) -> tuple[Fault, ...]:
        """Replies scripted but not used yet."""
        return tuple(self._queue)

    @property
    def played(self) -> tuple[Fault, ...]:
        """Replies already given, in order."""
        return tuple(self._played)

    def then(self, *faults: Fault, times: int = 1) -> EndpointScript:
        """Append ``faults`` (the whole group ``times`` times)."""
        self._queue.extend(fault for _ in range(times) for fault in faults)
        return self

    def replace(self, *faults: Fault) -> EndpointScript:
        """Drop the replies not used yet and script ``faults`` instead."""
        self._queue.clear()
        return self.then(*faults)

    def ok(self, body: object = None) -> EndpointScript:
        """Append ``ok(body)``."""
        return self.then(ok(body))

    def sse(self, events: Sequence[Mapping[str, object]] | None = None) -> EndpointScript:
        """Append ``sse(events)``."""
        return self.then(sse(events))

    def rate_limited(self, retry_after: float | None = 0.01, *, times: int = 1) -> EndpointScript:
        """Append ``rate_limited(retry_after)``, ``times`` times."""
        return self.then(rate_limited(retry_after), times=times)

    def server_error(
        self, status: int = 500, *, retry_after: float | None = 0.001, times: int = 1
    ) -> EndpointScript:
        """Append ``server_error(status)``, ``times`` times."""
        return self.then(server_error(status, retry_after=retry_after), times=times)

    def timeout(
        self, phase: Literal["connect", "read", "write", "pool"] = "read", *, times: int = 1
    ) -> EndpointScript:
        """Append ``timeout(phase)``, ``times`` times."""
        return self.then(timeout(phase), times=times)

    def connection_error(self, *, times: int = 1) -> EndpointScript:
        """Append ``connection_error()``, ``times`` times."""
        return self.then(connection_error(), times=times)

    def malformed_json(self, text: str | None = None) -> EndpointScript:
        """Append ``malformed_json(text)``."""
        return self.then(malformed_json() if text is None else malformed_json(text))

    def truncated_sse(
        self,
        events: Sequence[Mapping[str, object]] | None = None,
        *,
        keep: int | None = None,
        disconnect: bool = True,
    ) -> EndpointScript:
        """Append ``truncated_sse(events, keep=..., disconnect=...)``."""
        return self.then(truncated_sse(events, keep=keep, disconnect=disconnect))


class ProviderFaults:
    """Scripted OpenAI endpoints behind an ``httpx2`` mock transport.

    ``responses`` scripts ``POST /v1/responses``; ``endpoint()`` scripts any
    other; ``router`` takes plain respx routes. Requests nothing answers fail
    with respx's "not mocked" error. ``client()`` builds OpenAI clients that
    talk only to this transport; ``calls`` lists what they sent.
    """

    # The reply constructors, so a test needs only the fixture.
    ok = staticmethod(ok)
    sse = staticmethod(sse)
    reply = staticmethod(reply)
    rate_limited = staticmethod(rate_limited)
    server_error = staticmethod(server_error)
    timeout = staticmethod(timeout)
    connection_error = staticmethod(connection_error)
    malformed_json = staticmethod(malformed_json)
    truncated_sse = staticmethod(truncated_sse)
    response_json = staticmethod(response_json)
    response_events = staticmethod(response_events)

    def __init__(self, *, base_url: str = BASE_URL, assert_all_played: bool = True) -> None:
        self.base_url = base_url.rstrip("/")
        self.assert_all_played = assert_all_played
        self.router = respx.Router(base_url=self.base_url, assert_all_called=False)
        self._scripts: dict[tuple[str, str], EndpointScript] = {}
        self._calls: list[ProviderCall] = []
        self._handler = RouterHandler(self.router)
        self._clients: list[httpx2.Client | httpx2.AsyncClient] = []
        self.transport = ScriptedTransport(self._handle)
        self.responses = self.endpoint("POST", "/responses")

    def endpoint(self, method: str, path: str) -> EndpointScript:
        """The script of ``method path`` (relative to ``base_url``), created on first use."""
        key = (method.upper(), "/" + path.lstrip("/"))
        if key not in self._scripts:
            route = self.router.route(method=key[0], path=key[1])
            self._scripts[key] = EndpointScript(route, f"{key[0]} {self.base_url}{key[1]}")
        return self._scripts[key]

    def script(self, *faults: Fault, endpoint: EndpointScript | None = None) -> EndpointScript:
        """Script exactly ``faults`` for ``endpoint`` (default ``responses``), one per call."""
        return (endpoint or self.responses).replace(*faults)

    def _handle(self, request: httpx2.Request) -> httpx2.Response:
        at = time.monotonic()
        headers = tuple(request.headers.multi_items())
        content = request.content
        try:
            response = self._handler(request)
        except Exception as exc:
            self._calls.append(
                ProviderCall(
                    request.method, str(request.url), headers, content, at, None, type(exc).__name__
                )
            )
            raise
        self._calls.append(
            ProviderCall(
                request.method, str(request.url), headers, content, at, response.status_code, None
            )
        )
        return response

    @property
    def calls(self) -> tuple[ProviderCall, ...]:
        """Every request seen, in arrival order (retries included)."""
        return tuple(self._calls)

    def client(self, *, max_retries: int = 2, timeout: float = 10.0) -> openai.OpenAI:
        """An ``openai.OpenAI`` client answered only by this script."""
        http_client = httpx2.Client(transport=self.transport)
        self._clients.append(http_client)
        return openai.OpenAI(
            api_key=PLACEHOLDER_API_KEY,
            base_url=self.base_url,
            max_retries=max_retries,
            timeout=timeout,
            http_client=http_client,
        )

    def async_client(self, *, max_retries: int = 2, timeout: float = 10.0) -> openai.AsyncOpenAI:
        """An ``openai.AsyncOpenAI`` client answered only by this script."""
        http_client = httpx2.AsyncClient(transport=self.transport)
        self._clients.append(http_client)
        return openai.AsyncOpenAI(
            api_key=PLACEHOLDER_API_KEY,
            base_url=self.base_url,
            max_retries=max_retries,
            timeout=timeout,
            http_client=http_client,
        )

    def verify(self) -> None:
        """Raise ``AssertionError`` if a scripted reply was never used."""
        unused = [
            f"{script.label}: {', '.join(f.label for f in script.remaining)}"
            for script in self._scripts.values()
            if script.remaining
        ]
        if unused:
            raise AssertionError("Scripted replies were never requested:\n  " + "\n  ".join(unused))

    def close(self) -> None:
        """Close the HTTP clients handed out (async ones only drop their pool)."""
        for http_client in self._clients:
            if isinstance(http_client, httpx2.Client):
                http_client.close()
        self._clients.clear()


def faults_for_test(request: pytest.FixtureRequest) -> Iterator[ProviderFaults]:
    """The body of the ``provider_faults`` fixture: a fresh ``ProviderFaults`` for the
    test of ``request``, closed after it and verified when the test passed."""
    faults = ProviderFaults()
    failed_before = request.session.testsfailed
    yield faults
    faults.close()
    # Only a test that passed is told about leftovers; a failing one already says why.
    if faults.assert_all_played and request.session.testsfailed == failed_before:
        faults.verify()


@pytest.fixture
def provider_faults(request: pytest.FixtureRequest) -> Iterator[ProviderFaults]:
    """A fresh ``ProviderFaults``; unused scripted replies fail a passing test
    (set ``provider_faults.assert_all_played = False`` to allow them)."""
    yield from faults_for_test(request)
