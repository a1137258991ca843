"""vcrpy's ``before_record_request`` / ``before_record_response`` hooks: scrub before recording.

vcrpy calls them on every interaction before it keeps it (and on every
request it matches), so what a cassette holds has already lost its
credentials and its compression. :class:`ScrubHooks` binds them to a
project's :class:`~tooltape.testing.cassette.ScrubPolicy`; the module-level
functions use tooltape's own rules. :func:`decode_compressed_response` is
vcrpy's own decoding step, run before them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from tooltape.testing.cassette._bodies import (
    decode_content,
    missing_decoders,
    normalize_headers,
    still_encoded,
)
from tooltape.testing.cassette._policy import DEFAULT_POLICY, ScrubPolicy
from tooltape.testing.cassette._scrub import (
    might_need_scrubbing,
    scrub_body,
    scrub_headers,
    scrub_response,
    scrub_text,
    scrub_uri,
)
from tooltape.testing.cassette._vcrpy_format import (
    SCANNED,
    raw_body_bytes,
    request_from_vcr,
    response_from_vcr,
    response_to_vcr,
)
from tooltape.testing.vcr._names import VcrRequest, decode_response, make_request
from tooltape.testing.vcr.deferred import DeferredResponse
from tooltape.testing.vcr.loaded import SHARED_FROM

__all__ = [
    "ScrubHooks",
    "before_record_request",
    "before_record_response",
    "decode_compressed_response",
]

VcrResponse = dict[str, Any]
"""vcrpy's response dict: ``{"status": {...}, "headers": {...}, "body": {"string": b}}``."""


def _raw_string(body: object) -> bytes | None:
    """The bytes of a vcrpy ``{"string": ...}`` body, ``None`` for any other shape."""
    string = cast(Mapping[str, object], body).get("string") if isinstance(body, Mapping) else None
    if isinstance(string, bytes):
        return string
    return string.encode("utf-8") if isinstance(string, str) else None


def _header_values(headers: Mapping[str, object], name: str) -> str:
    return " ".join(str(value) for key, value in headers.items() if key.lower() == name).lower()


_REMEMBERED = 1024
"""Body verdicts and scrubbed URIs a ``ScrubHooks`` keeps (when full, it starts again)."""

_REMEMBERED_BYTES = 16 * 1024 * 1024
"""At most this much of the bodies checked is kept as keys: a long run of large
requests (images sent inline) must not pile up in memory."""


class _Memory:
    """What the policy found in a value, by that value; bounded in entries and in size."""

    __slots__ = ("_found", "_size")

    def __init__(self) -> None:
        self._found: dict[object, object] = {}
        self._size = 0

    def __len__(self) -> int:
        return len(self._found)

    def get(self, key: object) -> object | None:
        return self._found.get(key)

    def remember(self, key: object, value: object, size: int) -> None:
        if size > _REMEMBERED_BYTES:
            return
        if len(self._found) >= _REMEMBERED or self._size + size > _REMEMBERED_BYTES:
            # Start again in one step, whatever other threads recording meanwhile do.
            self._found = {}
            self._size = 0
        self._found[key] = value
        self._size += size


@dataclass(frozen=True, slots=True)
class ScrubHooks:
    """The two recording hooks for one scrub policy.

    ``configure_vcr`` makes them the last hooks of every cassette, after any
    of the project's own (``tooltape.testing.vcr.hook_chain``).
    """

    policy: ScrubPolicy = DEFAULT_POLICY
    # vcrpy runs the request hook three times on each request it matches (can it
    # play? is it in? which one?), on a fresh deep copy of the request or of what
    # the hook returned: both are remembered, as what they hold (a deep copy
    # shares its body bytes), with the scrubbed request.
    _last: list[tuple[str, str, object, tuple[tuple[str, str], ...], VcrRequest]] = field(
        default_factory=lambda: [], repr=False, compare=False
    )
    # A replayed request usually has the body and URI of the recorded one the
    # hook scrubbed as the cassette loaded: what the policy found in them is
    # remembered by value (both checks depend on nothing else).
    _verdicts: _Memory = field(default_factory=_Memory, repr=False, compare=False)
    _uris: _Memory = field(default_factory=_Memory, repr=False, compare=False)

    def _clean_headers(self, headers: Mapping[str, object]) -> bool:
        normalized = normalize_headers(headers)
        return scrub_headers(normalized, self.policy) is normalized

    def _clean_reason(self, status: object) -> bool:
        message = (
            cast(Mapping[str, object], status).get("message")
            if isinstance(status, Mapping)
            else None
        )
        return not isinstance(message, str) or scrub_text(message, self.policy) == message

    def before_record_request(self, request: VcrRequest) -> VcrRequest:
        """The request with credentials redacted (vcrpy ``before_record_request`` hook).

        Returns the same request when there is nothing to redact, else a new
        one (the request the client sent is never changed).
        """
        body = request.body
        headers = tuple(request.headers.items())
        for method, uri, last_body, last_headers, scrubbed in self._last:
            if (
                last_body is body
                and uri == request.uri
                and method == request.method
                and last_headers == headers
            ):
                return scrubbed
        scrubbed = self._scrub_request(request)
        self._last[:] = [
            (request.method, request.uri, body, headers, scrubbed),
            (
                scrubbed.method,
                scrubbed.uri,
                scrubbed.body,
                tuple(scrubbed.headers.items()),
                scrubbed,
            ),
        ]
        return scrubbed

    def _scrub_request(self, request: VcrRequest) -> VcrRequest:
        policy = self.policy
        body_bytes = raw_body_bytes(request.body, "/request/body")
        headers = normalize_headers(request.headers)
        new_body = body_bytes
        # Most bodies hold nothing to redact: literal searches say so without parsing them.
        if "content-encoding" in headers or self._might_need_scrubbing(body_bytes):
            recorded = request_from_vcr(
                {
                    "method": request.method,
                    "uri": request.uri,
                    "headers": headers,
                    "body": body_bytes,
                }
            )
            body = scrub_body(recorded.body, policy)
            decoded = recorded.headers.keys() != headers.keys()  # content-encoding was dropped
            if body is not recorded.body or decoded:
                new_body = body.to_bytes()
            headers = recorded.headers
        uri = self._scrub_uri(request.uri)
        scrubbed_headers = scrub_headers(headers, policy)
        if uri is request.uri and scrubbed_headers is headers and new_body is body_bytes:
            return request
        new_headers = {name: values[0] for name, values in scrubbed_headers.items() if values}
        if "content-length" in new_headers:
            new_headers["content-length"] = str(len(new_body))
        scrubbed = make_request(request.method, uri, new_body, new_headers)
        shared = getattr(request, SHARED_FROM, None)
        if shared is not None:  # a shared cassette's request stays known as one
            setattr(scrubbed, SHARED_FROM, shared)
        return scrubbed

    def _might_need_scrubbing(self, body: bytes) -> bool:
        verdict = self._verdicts.get(body)
        if verdict is None:
            verdict = might_need_scrubbing(body, self.policy)
            self._verdicts.remember(body, verdict, len(body))
        return verdict is True

    def _scrub_uri(self, uri: str) -> str:
        scrubbed = self._uris.get(uri)
        if not isinstance(scrubbed, str):
            scrubbed = scrub_uri(uri, self.policy)
            self._uris.remember(uri, scrubbed, len(uri))
        return uri if scrubbed == uri else scrubbed  # an unchanged URI is the request's own

    def before_record_response(self, response: VcrResponse) -> VcrResponse:
        """The response decoded and scrubbed (vcrpy ``before_record_response`` hook).

        Compressed bodies are decoded (``content-encoding`` dropped) and
        credentials redacted; a response with neither is returned as it is,
        and so is one loaded from a tooltape cassette (scanned when written).
        """
        if response.get(SCANNED) is True:
            return response
        headers = cast(Mapping[str, object], response.get("headers") or {})
        encoded = any(name.lower() == "content-encoding" for name in headers)
        # A stream's secret can be split across events: only the parsed stream shows it.
        streamed = "event-stream" in _header_values(headers, "content-type")
        raw = None if encoded or streamed else _raw_string(response.get("body"))
        if (
            raw is not None
            and not might_need_scrubbing(raw, self.policy)
            and self._clean_headers(headers)
            and self._clean_reason(response.get("status"))
        ):
            return response
        recorded = response_from_vcr(response)
        scrubbed = scrub_response(recorded, self.policy)
        if scrubbed is recorded and not encoded:
            return response
        return cast(VcrResponse, response_to_vcr(scrubbed))


_DEFAULT_HOOKS = ScrubHooks()


def before_record_request(request: VcrRequest) -> VcrRequest:
    """vcrpy ``before_record_request`` hook with tooltape's own rules (see :class:`ScrubHooks`)."""
    return _DEFAULT_HOOKS.before_record_request(request)


def before_record_response(response: VcrResponse) -> VcrResponse:
    """vcrpy ``before_record_response`` hook with tooltape's own rules (see :class:`ScrubHooks`)."""
    return _DEFAULT_HOOKS.before_record_response(response)


def decode_compressed_response(response: VcrResponse) -> VcrResponse:
    """vcrpy's ``decode_compressed_response`` step, as a ``before_record_response`` hook.

    The same step, except for a response loaded from a tooltape cassette that
    nothing has read yet (a pending
    :class:`~tooltape.testing.vcr.deferred.DeferredResponse`): it has no
    ``content-encoding`` to undo, and reading its headers would write its
    body as vcrpy loads the cassette, whether the test plays it or not. A body
    tooltape decodes is decoded as it decodes it (see :func:`_decoded`).
    """
    if isinstance(response, DeferredResponse) and response.pending:
        return response
    return _decoded(response) or decode_response(response)


def _decoded(response: VcrResponse) -> VcrResponse | None:
    """``response`` decoded by tooltape's reading of ``content-encoding``, or ``None``
    when it has none or names a coding tooltape has no decoder for (then vcrpy's
    step decides, and keeps the header with the bytes it holds).

    vcrpy undoes only the first coding (a header naming two was kept over a
    body urllib3 had already decoded), and a deflate body without a zlib
    header (raw deflate, which httpx and urllib3 read) fails its decoder,
    which keeps the compressed bytes and drops ``content-encoding`` all the
    same: a cassette holding bytes no client reads back, and whatever keys
    they hold out of the scrubbing's sight. Bytes that begin as their coding
    writes them and still do not decode are ``response`` unchanged, header and
    all: a cassette holding them is refused when saved
    (:func:`~tooltape.testing.cassette.refuse_encoded_bodies`).
    """
    headers = cast(Mapping[str, object], response.get("headers") or {})
    if not any(name.lower() == "content-encoding" for name in headers):
        return None
    raw = _raw_string(response.get("body"))
    if raw is None:
        return None
    normalized = normalize_headers(headers)
    fixed, data = decode_content(normalized, raw)
    if "content-encoding" in fixed:
        if missing_decoders(normalized):
            return None
        if still_encoded(normalized, raw):
            # Bytes that never decoded: kept with their header, so that saving refuses
            # them (whatever they hold, no scrubbing read it).
            return response
        # vcrpy's reading of a body its one coding does not decode, for several: it
        # came decoded (urllib3 decodes what it hands vcrpy's http.client stub).
        data = raw
    kept: dict[str, object] = {}
    for name, value in headers.items():
        lowered = name.lower()
        if lowered == "content-length":
            kept[name] = [str(len(data))]
        elif lowered != "content-encoding":
            kept[name] = value
    body = cast(Mapping[str, object], response.get("body"))
    return {**response, "headers": kept, "body": {**body, "string": data}}
