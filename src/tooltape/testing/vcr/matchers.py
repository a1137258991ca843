"""vcrpy request matchers built on ``diff_json``: the wire-drift alarm in a cassette.

When no recorded request matches, vcrpy shows the matchers' messages, so a
drifted request body reads as a field-level diff.

Each matcher also gives a request's ``request_key``: two requests it would
match always share that key, so ``tooltape.testing.vcr.index`` can compare a
request only with the recorded ones that share it, instead of with all of
them (and format no diff for the others).
"""

from __future__ import annotations

import gzip
import json
import re
import zlib
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol, cast
from urllib.parse import parse_qsl, urlsplit

from tooltape.testing.matching import (
    DEFAULT_VOLATILE_FIELDS,
    diff_json,
    format_differences,
    match_key,
)
from tooltape.testing.vcr._names import CaseInsensitiveHeaders
from tooltape.testing.volatile import compile_pattern

__all__ = [
    "BodyMatcher",
    "KeyedMatcher",
    "RequestLike",
    "differing_fields",
    "make_body_matcher",
    "path_matcher",
    "query_matcher",
]


class RequestLike(Protocol):
    """What the matchers read from a request: ``vcr.request.Request`` fits."""

    @property
    def body(self) -> Any: ...

    @property
    def headers(self) -> Any: ...


class _PathRequest(Protocol):
    @property
    def path(self) -> str: ...


class _UriRequest(Protocol):
    @property
    def uri(self) -> str: ...


class KeyedMatcher(Protocol):
    """A vcrpy matcher that can say, per request, a key it only matches within.

    ``request_key(a) != request_key(b)`` must mean the matcher rejects ``a``
    against ``b``; equal keys need not mean it accepts.
    """

    __name__: str

    def __call__(self, r1: Any, r2: Any) -> None: ...

    def request_key(self, request: Any) -> Hashable: ...


_ABSENT = object()


def _header_value(value: object) -> str:
    if isinstance(value, (list, tuple)):
        value = cast("Sequence[object]", value)[0] if value else ""
    return str(value)


def _header(request: RequestLike, name: str) -> str:
    """The first value of the header ``name`` (lower case), ``""`` when there is none."""
    headers: object = request.headers
    if isinstance(headers, CaseInsensitiveHeaders):  # a vcrpy request's: one key per name
        value = cast("Mapping[str, object]", headers).get(name, _ABSENT)
        return "" if value is _ABSENT else _header_value(value)
    if not isinstance(headers, Mapping):
        return ""
    items = cast("Mapping[str, object]", headers).items()
    for key, value in items:
        if key.lower() == name:
            return _header_value(value)
    return ""


def _raw_body(body: object) -> object:
    """Bytes of a vcrpy body (``bytes``, ``str``, file, iterator), or an already parsed tree."""
    if body is None:
        return b""
    if isinstance(body, str):
        return body.encode("utf-8")
    if isinstance(body, (bytes, bytearray)):
        return bytes(body)
    if isinstance(body, (Mapping, list)):
        return cast(object, body)
    read = getattr(body, "read", None)
    if callable(read):
        return _raw_body(read())
    if isinstance(body, Iterator):
        chunks = cast("Iterator[object]", body)
        return b"".join(cast("bytes", _raw_body(chunk)) for chunk in chunks)
    return body


def _decoded(request: RequestLike) -> object:
    raw = _raw_body(request.body)
    if not isinstance(raw, bytes):
        return raw
    encoding = _header(request, "content-encoding").strip().lower()
    try:
        if encoding == "gzip" or raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        elif encoding == "deflate":
            raw = zlib.decompress(raw)
    except (OSError, EOFError, zlib.error):
        pass  # compared as the bytes they are
    return raw


_NOT_JSON = object()


def _as_json(body: object) -> object:
    if not isinstance(body, bytes):
        return body
    if not body.strip():
        return None
    try:
        return cast(object, json.loads(body))
    except ValueError:
        return _NOT_JSON


def _bytes_message(recorded: bytes, current: bytes) -> str:
    at = next(
        (i for i, (a, b) in enumerate(zip(recorded, current, strict=False)) if a != b),
        min(len(recorded), len(current)),
    )
    return (
        f"the bodies differ ({len(recorded)} bytes recorded, {len(current)} bytes in this "
        f"request; first difference at byte {at})"
    )


_CACHED_BODIES = 64
"""Decoded request bodies a matcher keeps (by their bytes): each is parsed once."""

_DIFF_HEADER = "in the JSON body (recorded -> this request):"
_DIFF_COUNT = re.compile(r"(\d+) fields? differs? " + re.escape(_DIFF_HEADER))


class BodyMatcher:
    """A vcrpy matcher comparing request bodies with ``diff_json`` (see ``make_body_matcher``)."""

    __slots__ = ("__name__", "__qualname__", "_documents", "limit", "patterns")

    def __init__(self, patterns: tuple[str, ...], *, limit: int, name: str) -> None:
        self.patterns = patterns
        self.limit = limit
        self.__name__ = name
        self.__qualname__ = name
        self._documents: OrderedDict[bytes, tuple[object, str]] = OrderedDict()

    def _document(self, request: RequestLike) -> tuple[object, object, str | None]:
        """``(raw, parsed, key)``: the decoded bytes (or tree), the JSON value, its match key."""
        raw = _decoded(request)
        if not isinstance(raw, bytes):
            return raw, raw, None
        known = self._documents.get(raw)
        if known is None:
            document = _as_json(raw)
            key = "" if document is _NOT_JSON else match_key(document, volatile=self.patterns)
            known = (document, key)
            self._documents[raw] = known
            if len(self._documents) > _CACHED_BODIES:
                self._documents.popitem(last=False)
        else:
            self._documents.move_to_end(raw)
        return raw, known[0], known[1]

    def request_key(self, request: RequestLike) -> Hashable:
        """The body's match key (its bytes when it is not JSON)."""
        raw, document, key = self._document(request)
        if document is _NOT_JSON:
            return ("bytes", raw)
        if key is None:
            key = match_key(document, volatile=self.patterns)
        return ("json", key)

    def __call__(self, r1: RequestLike, r2: RequestLike) -> None:
        # vcrpy passes the request being made first and the recorded one second.
        current_raw, current, current_key = self._document(r1)
        recorded_raw, recorded, recorded_key = self._document(r2)
        if current_key and current_key == recorded_key and "~" not in current_key:
            return  # equal keys with nothing masked: diff_json would find no difference
        if current is _NOT_JSON and recorded is _NOT_JSON:
            if current_raw != recorded_raw:
                raise AssertionError(
                    _bytes_message(cast(bytes, recorded_raw), cast(bytes, current_raw))
                )
            return
        if current is _NOT_JSON or recorded is _NOT_JSON:
            which = "this request's" if current is _NOT_JSON else "the recorded"
            raise AssertionError(f"{which} body is not JSON, the other one is")
        diffs = diff_json(recorded, current, volatile=self.patterns)
        if diffs:
            count = "1 field differs" if len(diffs) == 1 else f"{len(diffs)} fields differ"
            header = f"{count} {_DIFF_HEADER}"
            raise AssertionError(f"{header}\n{format_differences(diffs, limit=self.limit)}")


def differing_fields(message: str) -> int:
    """How many fields a body matcher's rejection ``message`` names (1 for any other
    rejection): the fewer, the closer the recorded request."""
    found = _DIFF_COUNT.match(message)
    return int(found.group(1)) if found else 1


def make_body_matcher(
    volatile: Iterable[str] = (),
    *,
    include_defaults: bool = True,
    limit: int = 20,
    name: str = "json_body",
) -> BodyMatcher:
    """A vcrpy matcher comparing request bodies with ``diff_json``.

    ``volatile`` patterns are ignored, on top of ``DEFAULT_VOLATILE_FIELDS``
    unless ``include_defaults`` is false. Bodies may be bytes or text,
    gzip/deflate encoded, JSON or not (non-JSON bodies must be byte-equal).
    On a mismatch it raises ``AssertionError`` whose message is the formatted
    field diff (``recorded -> this request``), which vcrpy shows when no
    recorded request matches. Register it with
    ``vcr.register_matcher(name, matcher)`` and list ``name`` in ``match_on``.
    Each body is decoded and parsed once, however many recorded requests it
    is compared with.
    """
    patterns = tuple(volatile) if not isinstance(volatile, str) else (volatile,)
    if include_defaults:
        patterns = (*DEFAULT_VOLATILE_FIELDS, *patterns)
    for pattern in patterns:
        compile_pattern(pattern)  # fail at configuration time, not on the first request
    return BodyMatcher(patterns, limit=limit, name=name)


_API_VERSION = re.compile(r"v\d+\Z")


def _api_path(path: str) -> str:
    segments = [s for s in path.split("/") if s]
    for index, segment in enumerate(segments):
        if _API_VERSION.match(segment):
            segments = segments[index:]
            break
    return "/" + "/".join(segments)


class _PathMatcher:
    """vcrpy matcher: the API path from the version segment on (``/v1/responses``).

    Unlike vcrpy's ``path`` it ignores a base-URL prefix before ``/v1`` (a
    proxy or gateway mount point), duplicate and trailing slashes, so a
    cassette recorded against one base URL replays against another.
    """

    __name__ = "path_matcher"
    __qualname__ = "path_matcher"

    def __call__(self, r1: _PathRequest, r2: _PathRequest) -> None:
        current, recorded = _api_path(r1.path), _api_path(r2.path)
        if current != recorded:
            raise AssertionError(f"{r1.path} != {r2.path} (compared as {current} and {recorded})")

    def request_key(self, request: _PathRequest) -> Hashable:
        """The API path the matcher compares."""
        return _api_path(request.path)


path_matcher = _PathMatcher()
"""vcrpy matcher: the API path from the version segment on (``/v1/responses``).

Unlike vcrpy's ``path`` it ignores a base-URL prefix before ``/v1`` (a proxy
or gateway mount point), duplicate and trailing slashes, so a cassette
recorded against one base URL replays against another."""


def _query(uri: str) -> dict[str, list[str]]:
    """A URI's query parameters, each name with its values in order (names sorted)."""
    values: dict[str, list[str]] = {}
    for name, value in parse_qsl(urlsplit(uri).query, keep_blank_values=True):
        values.setdefault(name, []).append(value)
    return dict(sorted(values.items()))


class _QueryMatcher:
    """vcrpy matcher: the URL's query parameters (paging, ``include``, ``api-version``).

    Both sides are compared as the cassette holds them, so a secret value
    (redacted when recorded, and in the request being played before it is
    matched) compares as ``REDACTED`` on both. A mismatch is a field diff
    (``~ query.limit: ["2"] -> ["3"]``): a request asking for another page or
    other fields is not answered with the recorded one.
    """

    __name__ = "tooltape_query"
    __qualname__ = "tooltape_query"

    def __call__(self, r1: _UriRequest, r2: _UriRequest) -> None:
        # vcrpy passes the request being made first and the recorded one second.
        current, recorded = _query(r1.uri), _query(r2.uri)
        if current == recorded:
            return
        diffs = diff_json({"query": recorded}, {"query": current})
        count = (
            "1 query parameter differs"
            if len(diffs) == 1
            else (f"{len(diffs)} query parameters differ")
        )
        raise AssertionError(f"{count} (recorded -> this request):\n{format_differences(diffs)}")

    def request_key(self, request: _UriRequest) -> Hashable:
        """The query parameters the matcher compares."""
        return tuple((name, tuple(values)) for name, values in _query(request.uri).items())


query_matcher = _QueryMatcher()
"""vcrpy matcher: the URL's query parameters, a mismatch shown as a field diff."""
