"""vcrpy's ``before_record_request`` / ``before_record_response`` hooks: scrub before recording.

vcrpy calls them on every interaction before it keeps it, so what a cassette
holds has already lost its credentials and its compression.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from tooltape.testing.cassette._bodies import normalize_headers
from tooltape.testing.cassette._scrub import (
    might_need_scrubbing,
    scrub_body,
    scrub_headers,
    scrub_response,
    scrub_uri,
)
from tooltape.testing.cassette._vcrpy_format import (
    raw_body_bytes,
    request_from_vcr,
    response_from_vcr,
    response_to_vcr,
)
from tooltape.testing.vcr._names import VcrRequest, make_request

__all__ = ["before_record_request", "before_record_response"]

VcrResponse = dict[str, Any]
"""vcrpy's response dict: ``{"status": {...}, "headers": {...}, "body": {"string": b}}``."""


def _clean_headers(headers: Mapping[str, object]) -> bool:
    """Whether scrubbing would leave these vcrpy headers (value or list of values) alone."""
    normalized = normalize_headers(headers)
    return scrub_headers(normalized) is normalized


def _raw_string(body: object) -> bytes | None:
    """The bytes of a vcrpy ``{"string": ...}`` body, ``None`` for any other shape."""
    string = cast(Mapping[str, object], body).get("string") if isinstance(body, Mapping) else None
    if isinstance(string, bytes):
        return string
    return string.encode("utf-8") if isinstance(string, str) else None


def before_record_request(request: VcrRequest) -> VcrRequest:
    """vcrpy ``before_record_request`` hook: the request with credentials redacted.

    Returns the same request when there is nothing to redact, else a new one
    (the request the client sent is never changed).
    """
    body_bytes = raw_body_bytes(request.body, "/request/body")
    headers = normalize_headers(request.headers)
    new_body = body_bytes
    # Most bodies hold nothing to redact: a literal search says so without parsing them.
    if "content-encoding" in headers or might_need_scrubbing(body_bytes):
        recorded = request_from_vcr(
            {"method": request.method, "uri": request.uri, "headers": headers, "body": body_bytes}
        )
        body = scrub_body(recorded.body)
        decoded = recorded.headers.keys() != headers.keys()  # content-encoding was dropped
        if body is not recorded.body or decoded:
            new_body = body.to_bytes()
        headers = recorded.headers
    uri = scrub_uri(request.uri)
    scrubbed_headers = scrub_headers(headers)
    if uri is request.uri and scrubbed_headers is headers and new_body is body_bytes:
        return request
    new_headers = {name: values[0] for name, values in scrubbed_headers.items() if values}
    if "content-length" in new_headers:
        new_headers["content-length"] = str(len(new_body))
    return make_request(request.method, uri, new_body, new_headers)


def before_record_response(response: VcrResponse) -> VcrResponse:
    """vcrpy ``before_record_response`` hook: the response decoded and scrubbed.

    Compressed bodies are decoded (``content-encoding`` dropped) and credentials
    redacted; a response with neither is returned as it is.
    """
    headers = cast(Mapping[str, object], response.get("headers") or {})
    encoded = any(name.lower() == "content-encoding" for name in headers)
    raw = None if encoded else _raw_string(response.get("body"))
    if raw is not None and not might_need_scrubbing(raw) and _clean_headers(headers):
        return response
    recorded = response_from_vcr(response)
    scrubbed = scrub_response(recorded)
    if scrubbed is recorded and not encoded:
        return response
    return cast(VcrResponse, response_to_vcr(scrubbed))
