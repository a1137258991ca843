"""Typed handles on the few vcrpy names tooltape uses.

vcrpy ships no type information, so its names are bound here once, through
``importlib``, to the precise types the rest of the package relies on.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, cast

__all__ = ["CassetteNotFoundError", "VcrRequest", "make_request", "serialize_with"]


class VcrRequest(Protocol):
    """The parts of ``vcr.request.Request`` tooltape reads."""

    @property
    def method(self) -> str:
        """The HTTP method."""
        ...

    @property
    def uri(self) -> str:
        """The full URI."""
        ...

    @property
    def body(self) -> object:
        """``bytes``, ``None``, or a file / iterator for streamed uploads."""
        ...

    @property
    def headers(self) -> Mapping[str, str]:
        """Case-insensitive single-valued headers."""
        ...


_request_module = importlib.import_module("vcr.request")
_filesystem_module = importlib.import_module("vcr.persisters.filesystem")
_serialize_module = importlib.import_module("vcr.serialize")

make_request = cast(
    Callable[[str, str, bytes, Mapping[str, str]], VcrRequest], _request_module.Request
)
"""``vcr.request.Request(method, uri, body, headers)``."""

CassetteNotFoundError = cast(type[FileNotFoundError], _filesystem_module.CassetteNotFoundError)
"""vcrpy's "no cassette here, record one" signal."""

serialize_with = cast(Callable[[Mapping[str, Any], object], str], _serialize_module.serialize)
"""``vcr.serialize.serialize(cassette_dict, serializer)``: vcrpy's own writing path."""

_errors_module = importlib.import_module("vcr.errors")

CannotOverwriteExistingCassetteException = cast(
    type[Exception], _errors_module.CannotOverwriteExistingCassetteException
)
"""What vcrpy raises for a request its cassette cannot answer in the current record mode."""

UnhandledHTTPRequestError = cast(type[Exception], _errors_module.UnhandledHTTPRequestError)
"""What a vcrpy cassette raises when asked to play a request it has no answer for."""

_matchers_module = importlib.import_module("vcr.matchers")

requests_match = cast(Callable[[Any, Any, Sequence[Any]], bool], _matchers_module.requests_match)
"""``vcr.matchers.requests_match(r1, r2, matchers)``: whether every matcher accepts."""

matchers_results = cast(
    Callable[[Any, Any, Sequence[Any]], tuple[list[str], list[tuple[str, str | None]]]],
    _matchers_module.get_matchers_results,
)
"""``vcr.matchers.get_matchers_results(r1, r2, matchers)``: the names of the matchers
that accept, and ``(name, message)`` of those that reject."""

vcr_method_matcher = cast(Callable[[Any, Any], None], _matchers_module.method)
"""``vcr.matchers.method``: vcrpy's own method matcher."""

_filters_module = importlib.import_module("vcr.filters")

decode_response = cast(Callable[[dict[str, Any]], dict[str, Any]], _filters_module.decode_response)
"""``vcr.filters.decode_response``: vcrpy's ``decode_compressed_response`` step."""

_util_module = importlib.import_module("vcr.util")

CaseInsensitiveHeaders = cast(type[Mapping[str, object]], _util_module.CaseInsensitiveDict)
"""``vcr.util.CaseInsensitiveDict``, the base of a vcrpy request's headers: one key per name."""


def httpx_stubs() -> Any:
    """vcrpy's httpx stub module (it serves httpx2 too; untyped), or ``None`` when httpx is
    not installed and vcrpy has no such stub."""
    try:
        return importlib.import_module("vcr.stubs.httpx_stubs")
    except ImportError:
        return None
