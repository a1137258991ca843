"""vcrpy request matchers built on ``diff_json``: the wire-drift alarm in a cassette.

When no recorded request matches, vcrpy shows the matchers' messages, so a
drifted request body reads as a field-level diff.
"""

from __future__ import annotations

import gzip
import json
import re
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol, cast

from tooltape.testing.matching import (
    DEFAULT_VOLATILE_FIELDS,
    compile_pattern,
    diff_json,
    format_differences,
)

__all__ = ["RequestLike", "make_body_matcher", "path_matcher"]


class RequestLike(Protocol):
    """What the matchers read from a request: ``vcr.request.Request`` fits."""

    @property
    def body(self) -> Any: ...

    @property
    def headers(self) -> Any: ...


class _PathRequest(Protocol):
    @property
    def path(self) -> str: ...


def _header(request: RequestLike, name: str) -> str:
    headers: object = request.headers
    if not isinstance(headers, Mapping):
        return ""
    items = cast("Mapping[str, object]", headers).items()
    for key, value in items:
        if key.lower() == name:
            if isinstance(value, (list, tuple)):
                value = cast("Sequence[object]", value)[0] if value else ""
            return str(value)
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


def make_body_matcher(
    volatile: Iterable[str] = (),
    *,
    include_defaults: bool = True,
    limit: int = 20,
    name: str = "json_body",
) -> Callable[[RequestLike, RequestLike], None]:
    """A vcrpy matcher comparing request bodies with ``diff_json``.

    ``volatile`` patterns are ignored, on top of ``DEFAULT_VOLATILE_FIELDS``
    unless ``include_defaults`` is false. Bodies may be bytes or text,
    gzip/deflate encoded, JSON or not (non-JSON bodies must be byte-equal).
    On a mismatch it raises ``AssertionError`` whose message is the formatted
    field diff (``recorded -> this request``), which vcrpy shows when no
    recorded request matches. Register it with
    ``vcr.register_matcher(name, matcher)`` and list ``name`` in ``match_on``.
    """
    patterns = tuple(volatile) if not isinstance(volatile, str) else (volatile,)
    if include_defaults:
        patterns = (*DEFAULT_VOLATILE_FIELDS, *patterns)
    for pattern in patterns:
        compile_pattern(pattern)  # fail at configuration time, not on the first request

    def matcher(r1: RequestLike, r2: RequestLike) -> None:
        # vcrpy passes the request being made first and the recorded one second.
        current_raw, recorded_raw = _decoded(r1), _decoded(r2)
        current, recorded = _as_json(current_raw), _as_json(recorded_raw)
        if current is _NOT_JSON and recorded is _NOT_JSON:
            if current_raw != recorded_raw:
                raise AssertionError(
                    _bytes_message(cast(bytes, recorded_raw), cast(bytes, current_raw))
                )
            return
        if current is _NOT_JSON or recorded is _NOT_JSON:
            which = "this request's" if current is _NOT_JSON else "the recorded"
            raise AssertionError(f"{which} body is not JSON, the other one is")
        diffs = diff_json(recorded, current, volatile=patterns)
        if diffs:
            count = "1 field differs" if len(diffs) == 1 else f"{len(diffs)} fields differ"
            header = f"{count} in the JSON body (recorded -> this request):"
            raise AssertionError(f"{header}\n{format_differences(diffs, limit=limit)}")

    matcher.__name__ = name
    matcher.__qualname__ = name
    return matcher


_API_VERSION = re.compile(r"v\d+\Z")


def _api_path(path: str) -> str:
    segments = [s for s in path.split("/") if s]
    for index, segment in enumerate(segments):
        if _API_VERSION.match(segment):
            segments = segments[index:]
            break
    return "/" + "/".join(segments)


def path_matcher(r1: _PathRequest, r2: _PathRequest) -> None:
    """vcrpy matcher: the API path from the version segment on (``/v1/responses``).

    Unlike vcrpy's ``path`` it ignores a base-URL prefix before ``/v1`` (a
    proxy or gateway mount point), duplicate and trailing slashes, so a
    cassette recorded against one base URL replays against another.
    """
    current, recorded = _api_path(r1.path), _api_path(r2.path)
    if current != recorded:
        raise AssertionError(f"{r1.path} != {r2.path} (compared as {current} and {recorded})")
