"""Reply values for scripted providers: plain answers, faults, and Responses bodies.

Each function returns a frozen ``Reply`` (status, headers, body chunks) or a
``TransportFault`` (a timeout or refused connection). Error replies carry
``retry-after-ms`` with tiny defaults, so retry tests take milliseconds.
"""

from __future__ import annotations

import json as jsonlib
import math
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import httpx

from tooltape.testing.provider._respx import TIMEOUTS, Header, Reply, TransportFault

__all__ = [
    "connection_error",
    "malformed_json",
    "ok",
    "rate_limited",
    "reply",
    "response_events",
    "response_json",
    "server_error",
    "sse",
    "timeout",
    "truncated_sse",
]


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
