"""Read the Responses API answers a cassette holds, streamed or not.

A streamed answer is reduced to its final ``Response`` object (the
``response.completed`` / ``failed`` / ``incomplete`` event); a stream cut off
before that is rebuilt from its ``response.output_item.done`` events and
reported as truncated.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import urlsplit

from tooltape.adapters.openai.reading import is_mapping
from tooltape.testing.cassette import Cassette, Interaction, JsonBody, SseBody, TextBody

_TERMINAL_EVENTS = ("response.completed", "response.failed", "response.incomplete")


@dataclass(frozen=True, slots=True)
class ProviderError:
    """An error the provider reported (HTTP error body, failed response, cut stream)."""

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class RecordedAnswer:
    """One interaction seen as a Responses API exchange."""

    index: int
    method: str
    path: str
    status_code: int
    streamed: bool
    response: Mapping[str, Any] | None
    error: ProviderError | None
    request_body: Mapping[str, Any] | None

    @property
    def items(self) -> Sequence[Any]:
        """The response's ``output`` items (empty when there is no response)."""
        if self.response is None:
            return ()
        output = self.response.get("output")
        return cast("list[Any]", output) if isinstance(output, list) else ()

    @property
    def response_status(self) -> str | None:
        """The response's own ``status`` (``completed``, ``failed``...)."""
        if self.response is None or not self.is_responses_call:
            return None
        status = self.response.get("status")
        return status if isinstance(status, str) else None

    @property
    def is_responses_call(self) -> bool:
        """Whether this is a ``POST .../responses`` exchange."""
        return self.method == "POST" and self.path.rstrip("/").endswith("/responses")


def _error_from(payload: object, default_code: str) -> ProviderError | None:
    if not is_mapping(payload):
        return None
    inner: object = payload.get("error", payload)
    if not is_mapping(inner):
        return None
    code = inner.get("code") or inner.get("type") or default_code
    message = inner.get("message") or inner.get("reason") or ""
    return ProviderError(str(code), str(message))


def _from_stream(body: SseBody) -> tuple[Mapping[str, Any] | None, ProviderError | None]:
    done_items: dict[int, Any] = {}
    for event in reversed(body.events):
        data = event.data
        if is_mapping(data) and data.get("type") in _TERMINAL_EVENTS:
            response: object = data.get("response")
            if is_mapping(response):
                return response, None
    for event in body.events:
        data = event.data
        if is_mapping(data) and data.get("type") == "response.output_item.done":
            index = data.get("output_index")
            done_items[index if isinstance(index, int) else len(done_items)] = data.get("item")
    if not done_items:
        return None, ProviderError("truncated_stream", "the stream ended before any output")
    rebuilt = {"status": "incomplete", "output": [done_items[i] for i in sorted(done_items)]}
    return rebuilt, ProviderError(
        "truncated_stream", "the stream ended without a response.completed event"
    )


def _unreadable(text: str) -> ProviderError | None:
    """Why a response recorded as text is no answer a client can read, if it meant to be
    JSON (a body cut off, or edited by hand): the SDK would fail on it."""
    if not text.lstrip().startswith(("{", "[")):
        return None  # plain text: not meant as JSON
    try:
        json.loads(text)
    except ValueError as exc:
        return ProviderError("unreadable_body", f"the JSON body does not parse: {exc}")
    return None  # JSON kept as text on purpose (escaped): lint reports that shape


def read_answer(index: int, interaction: Interaction) -> RecordedAnswer:
    """Interpret one interaction."""
    request, response = interaction.request, interaction.response
    path = urlsplit(request.uri).path
    request_body = request.body.data if isinstance(request.body, JsonBody) else None
    body_tree: Mapping[str, Any] | None = None
    error: ProviderError | None = None
    streamed = isinstance(response.body, SseBody)
    if isinstance(response.body, SseBody):
        body_tree, error = _from_stream(response.body)
    elif isinstance(response.body, JsonBody) and is_mapping(response.body.data):
        body_tree = response.body.data
    elif isinstance(response.body, TextBody) and response.status_code < 400:
        error = _unreadable(response.body.text)
    if response.status_code >= 400:
        error = _error_from(body_tree, f"http_{response.status_code}") or ProviderError(
            f"http_{response.status_code}", response.reason
        )
        body_tree = None
    elif body_tree is not None and body_tree.get("status") in ("failed", "incomplete"):
        failure = body_tree.get("error") or body_tree.get("incomplete_details")
        error = error or _error_from(failure, str(body_tree.get("status")))
    return RecordedAnswer(
        index=index,
        method=request.method.upper(),
        path=path,
        status_code=response.status_code,
        streamed=streamed,
        response=body_tree,
        error=error,
        request_body=request_body if is_mapping(request_body) else None,
    )


def read_answers(cassette: Cassette) -> tuple[RecordedAnswer, ...]:
    """Every interaction of ``cassette``, in recording order."""
    return tuple(read_answer(i, interaction) for i, interaction in enumerate(cassette.interactions))
