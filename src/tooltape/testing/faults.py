"""Scripted provider faults: what the OpenAI Responses API does on a bad day.

``ProviderFaults`` answers an OpenAI client's requests from a script, one
scripted reply per call, without any socket::

    faults.responses.rate_limited(retry_after=0.01).ok(response_json("hi"))
    adapter = OpenAIAdapter("gpt-4o", client=faults.client(max_retries=2))

Replies are frozen values built by the functions here (``ok``, ``sse``,
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
import math
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

from tooltape.testing._respx_bridge import (
    TIMEOUTS,
    Fault,
    Header,
    Reply,
    RouterHandler,
    ScriptedTransport,
    TransportFault,
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
    "connection_error",
    "malformed_json",
    "ok",
    "provider_faults",
    "rate_limited",
    "reply",
    "response_events",
    "response_json",
    "server_error",
    "sse",
    "timeout",
    "truncated_sse",
]

BASE_URL = "http://tooltape.invalid/v1"
"""Where fault clients send requests (``.invalid`` never resolves)."""

PLACEHOLDER_API_KEY = "tooltape-placeholder-key"
"""The API key fault clients send; not key-shaped, so no scrubber flags it."""


def _json_bytes(value: object) -> bytes:
    return jsonlib.dumps(value, separators=(",", ":")).encode()


def _headers(*pairs: Header, extra: Mapping[str, str]) -> tuple[Header, ...]:
    return (*pairs, *extra.items())


def _retry_headers(retry_after: float | None) -> tuple[Header, ...]:
    if retry_after is None:
        return ()
    if not 0 < retry_after <= 120:
        # The SDK ignores other values and falls back to its exponential backoff.
        raise ValueError("retry_after must be in (0, 120] seconds, or None for no header.")
    return (
        ("retry-after-ms", f"{retry_after * 1000:g}"),
        ("retry-after", str(math.ceil(retry_after))),
    )


def _error_body(message: str, kind: str, code: str | None) -> dict[str, object]:
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


def reply(
    status: int,
    *,
    json: object = None,
    body: bytes | str = b"",
    headers: Mapping[str, str] | None = None,
    label: str = "",
) -> Reply:
    """Any HTTP answer: a ``json`` body (sent with its content type) or a raw ``body``."""
    if json is not None:
        data = _json_bytes(json)
        fixed = _headers(("content-type", "application/json"), extra=headers or {})
    else:
        data = body.encode() if isinstance(body, str) else body
        fixed = _headers(extra=headers or {})
    return Reply(status, fixed, (data,) if data else (), label=label or f"{status} reply")


def ok(body: object = None, *, headers: Mapping[str, str] | None = None) -> Reply:
    """``200`` with a JSON body (default: ``response_json("ok")``)."""
    payload = response_json("ok") if body is None else body
    return reply(200, json=payload, headers=headers, label="200 ok")


def _event_bytes(event: Mapping[str, object]) -> bytes:
    name = event.get("type")
    head = f"event: {name}\n" if isinstance(name, str) else ""
    return f"{head}data: {jsonlib.dumps(event, separators=(',', ':'))}\n\n".encode()


def sse(events: Sequence[Mapping[str, object]] | None = None) -> Reply:
    """``200`` ``text/event-stream``, one chunk per event (default: ``response_events("ok")``).

    Each event's ``type`` becomes its ``event:`` line; the event is its ``data:``.
    """
    chunks = tuple(_event_bytes(e) for e in (response_events("ok") if events is None else events))
    headers = (("content-type", "text/event-stream"), ("cache-control", "no-cache"))
    return Reply(200, headers, chunks, label=f"200 event stream ({len(chunks)} events)")


def truncated_sse(
    events: Sequence[Mapping[str, object]] | None = None,
    *,
    keep: int | None = None,
    disconnect: bool = True,
) -> Reply:
    """An event stream cut short: the first ``keep`` events (default: all but the
    last), then half of the next one, then the connection drops (``disconnect``)
    or the body just ends."""
    full = tuple(_event_bytes(e) for e in (response_events("ok") if events is None else events))
    kept = len(full) - 1 if keep is None else keep
    if not 0 <= kept < len(full):
        raise ValueError(f"keep must be between 0 and {len(full) - 1} for {len(full)} events.")
    partial = full[kept][: len(full[kept]) // 2]
    headers = (("content-type", "text/event-stream"), ("cache-control", "no-cache"))
    label = f"event stream cut after {kept} of {len(full)} events"
    return Reply(200, headers, (*full[:kept], partial), disconnect=disconnect, label=label)


def rate_limited(
    retry_after: float | None = 0.01,
    *,
    message: str = "Rate limit reached for requests (scripted fault).",
    code: str = "rate_limit_exceeded",
) -> Reply:
    """``429`` with OpenAI's error body and ``retry-after-ms``/``retry-after`` headers."""
    headers = (("content-type", "application/json"), *_retry_headers(retry_after))
    body = _json_bytes(_error_body(message, "requests", code))
    return Reply(429, headers, (body,), label="429 rate limited")


def server_error(
    status: int = 500,
    *,
    retry_after: float | None = 0.001,
    message: str = "The server had an error while processing your request (scripted fault).",
) -> Reply:
    """A ``5xx`` with OpenAI's error body; ``retry_after`` keeps the SDK's retries fast."""
    if not 500 <= status <= 599:
        raise ValueError(f"A server error has a 5xx status, not {status}.")
    headers = (("content-type", "application/json"), *_retry_headers(retry_after))
    body = _json_bytes(_error_body(message, "server_error", None))
    return Reply(status, headers, (body,), label=f"{status} server error")


def timeout(phase: Literal["connect", "read", "write", "pool"] = "read") -> TransportFault:
    """The request times out (``httpx2.ReadTimeout`` and friends); nothing is answered."""
    return TransportFault(
        TIMEOUTS[phase], f"timed out ({phase}, scripted fault)", f"{phase} timeout"
    )


def connection_error(message: str = "connection refused (scripted fault)") -> TransportFault:
    """The connection cannot be made (``httpx2.ConnectError``)."""
    return TransportFault(httpx.ConnectError, message, "connection error")


def malformed_json(
    text: str = '{"id": "resp_tooltape", "object": "response", "output": [',
) -> Reply:
    """``200`` claiming ``application/json`` whose body does not parse."""
    return Reply(
        200, (("content-type", "application/json"),), (text.encode(),), label="200 malformed JSON"
    )


def response_json(
    text: str = "ok",
    *,
    status: str = "completed",
    id: str = "resp_tooltape_1",
    model: str = "gpt-4o",
    output: Sequence[Mapping[str, object]] | None = None,
    error: Mapping[str, object] | None = None,
) -> dict[str, Any]:
    """A minimal Responses API body: one assistant message saying ``text``
    (or the given ``output`` items), with ``status`` and ``error`` as given."""
    items = [dict(item) for item in output] if output is not None else [_message(text, id)]
    return {
        "id": id,
        "object": "response",
        "created_at": 1_700_000_000,
        "status": status,
        "model": model,
        "output": items if status == "completed" or output is not None else [],
        "error": dict(error) if error is not None else None,
        "incomplete_details": None,
        "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2},
    }


def _message(text: str, response_id: str) -> dict[str, Any]:
    return {
        "id": f"msg_{response_id.removeprefix('resp_')}",
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }


def response_events(text: str = "ok", *, id: str = "resp_tooltape_1") -> list[dict[str, Any]]:
    """The events of a streamed response saying ``text``, ending in ``response.completed``."""
    done = response_json(text, id=id)
    message = done["output"][0]
    at = {"item_id": message["id"], "output_index": 0, "content_index": 0}
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {**done, "status": "in_progress", "output": []}},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**message, "status": "in_progress", "content": []},
        },
        {
            "type": "response.content_part.added",
            **at,
            "part": {"type": "output_text", "text": "", "annotations": []},
        },
        *({"type": "response.output_text.delta", **at, "delta": w} for w in _pieces(text)),
        {"type": "response.output_text.done", **at, "text": text},
        {"type": "response.content_part.done", **at, "part": message["content"][0]},
        {"type": "response.output_item.done", "output_index": 0, "item": message},
        {"type": "response.completed", "response": done},
    ]
    return [{**event, "sequence_number": n} for n, event in enumerate(events)]


def _pieces(text: str) -> list[str]:
    words = text.split(" ")
    return [w if i == len(words) - 1 else w + " " for i, w in enumerate(words)]


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


@pytest.fixture
def provider_faults(request: pytest.FixtureRequest) -> Iterator[ProviderFaults]:
    """A fresh ``ProviderFaults``; unused scripted replies fail a passing test
    (set ``provider_faults.assert_all_played = False`` to allow them)."""
    faults = ProviderFaults()
    failed_before = request.session.testsfailed
    yield faults
    faults.close()
    # Only a test that passed is told about leftovers; a failing one already says why.
    if faults.assert_all_played and request.session.testsfailed == failed_before:
        faults.verify()
