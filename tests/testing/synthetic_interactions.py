"""Synthetic interactions for the scrubbing tests: one POST and its 200 reply.

Every value is made up by the test that builds it (synthetic: no recording
holds these secrets).
"""

from __future__ import annotations

from tooltape.testing.cassette import (
    Body,
    EmptyBody,
    Interaction,
    JsonBody,
    RecordedRequest,
    RecordedResponse,
)


def synthetic_interaction(
    *,
    uri: str = "https://api.example.test/v1/responses",
    request_headers: dict[str, tuple[str, ...]] | None = None,
    request_body: object = None,
    response_headers: dict[str, tuple[str, ...]] | None = None,
    response_body: Body | None = None,
) -> Interaction:
    """A ``POST uri`` with a JSON body (none when ``request_body`` is None), answered 200."""
    return Interaction(
        RecordedRequest(
            "POST",
            uri,
            request_headers or {},
            EmptyBody() if request_body is None else JsonBody(request_body),
        ),
        RecordedResponse(
            200,
            "OK",
            response_headers or {},
            EmptyBody() if response_body is None else response_body,
        ),
    )
