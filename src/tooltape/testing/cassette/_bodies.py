"""Turn recorded header lists and raw body bytes into model values.

Compressed bodies are decoded (and their ``content-encoding`` dropped) so that
cassettes stay readable; JSON becomes a tree, event streams become events.
"""

from __future__ import annotations

import importlib
import zlib
from collections.abc import Callable, Iterable, Mapping
from typing import cast

from tooltape.testing.cassette._limits import NonFiniteNumberError, parse_json_text
from tooltape.testing.cassette._model import (
    BinaryBody,
    Body,
    EmptyBody,
    Headers,
    JsonBody,
    TextBody,
)
from tooltape.testing.cassette._sse import parse_sse

__all__ = [
    "body_from_bytes",
    "decode_content",
    "encoded_with",
    "missing_decoders",
    "normalize_headers",
    "still_encoded",
]

_BINARY_TYPES = ("image/", "audio/", "video/", "application/octet-stream", "application/pdf")


def normalize_headers(raw: Mapping[str, object]) -> dict[str, tuple[str, ...]]:
    """Lower-case names, every value a tuple of strings, sorted by name.

    Accepts vcrpy's ``{name: [values]}`` as well as ``{name: value}``; names
    that differ only in case are merged in order.
    """
    merged: dict[str, list[str]] = {}
    for name, value in raw.items():
        if isinstance(value, (list, tuple)):
            values = [str(item) for item in cast(Iterable[object], value)]
        elif value is None:
            values = []
        else:
            values = [str(value)]
        merged.setdefault(str(name).lower(), []).extend(values)
    return {name: tuple(merged[name]) for name in sorted(merged)}


def _gunzip(data: bytes) -> bytes:
    return zlib.decompress(data, 16 + zlib.MAX_WBITS)


def _inflate(data: bytes) -> bytes:
    try:
        return zlib.decompress(data)
    except zlib.error:
        return zlib.decompress(data, -zlib.MAX_WBITS)  # raw deflate, as some servers send


def _decompress_of(*modules: str) -> Callable[[bytes], bytes] | None:
    """The ``decompress`` of the first of ``modules`` that imports."""
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        return cast(Callable[[bytes], bytes], module.decompress)
    return None


def _zstd_decoder() -> Callable[[bytes], bytes] | None:
    # The modules httpx2 (the OpenAI SDK's client) and httpx decode zstd with: a client
    # asks for zstd only when one is importable, so tooltape can then read (and scrub)
    # what it recorded.
    found = _decompress_of("compression.zstd", "backports.zstd")
    if found is not None:
        return found
    try:
        zstandard = importlib.import_module("zstandard")
    except ImportError:
        return None

    def decompress(data: bytes) -> bytes:
        parts: list[bytes] = []
        while data:  # one decompressor per frame, as a server may send several
            frame = zstandard.ZstdDecompressor().decompressobj()
            parts.append(frame.decompress(data))
            if not frame.eof:  # zstandard hands back what a cut frame held, without a word
                raise ValueError("zstd data ends inside a frame")
            data = frame.unused_data
        return b"".join(parts)

    return decompress


def _decoder(coding: str) -> Callable[[bytes], bytes] | None:
    if coding in ("gzip", "x-gzip"):
        return _gunzip
    if coding == "deflate":
        return _inflate
    if coding == "br":
        return _decompress_of("brotli", "brotlicffi")
    if coding == "zstd":
        return _zstd_decoder()
    return None


def encoded_with(headers: Headers) -> tuple[str, ...]:
    """The codings ``headers``' ``content-encoding`` names, in the order they were applied."""
    return tuple(
        coding.strip().lower()
        for value in headers.get("content-encoding", ())
        for coding in value.split(",")
        if coding.strip() and coding.strip().lower() != "identity"
    )


def missing_decoders(headers: Headers) -> tuple[str, ...]:
    """The codings ``headers`` name that :func:`decode_content` has no decoder for."""
    return tuple(coding for coding in encoded_with(headers) if _decoder(coding) is None)


def _zlib_header(data: bytes) -> bool:
    return len(data) >= 2 and data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0


def still_encoded(headers: Headers, data: bytes) -> bool:
    """Whether ``data`` begins as the last coding ``headers`` name writes it: gzip's or
    zstd's magic number, or a zlib header for deflate.

    Bytes that do not decode yet begin so were never decoded; ones that do not
    begin so may be ones the client already decoded (urllib3 does, under the
    header, before vcrpy records them).
    """
    codings = encoded_with(headers)
    if not codings:
        return False
    last = codings[-1]
    if last in ("gzip", "x-gzip"):
        return data.startswith(b"\x1f\x8b")
    if last == "zstd":
        return data.startswith(b"\x28\xb5\x2f\xfd")
    if last == "deflate":
        return _zlib_header(data)
    return False


def decode_content(headers: Headers, data: bytes) -> tuple[dict[str, tuple[str, ...]], bytes]:
    """Undo ``content-encoding`` (gzip, deflate; br and zstd when a module for them is present).

    Returns the headers without ``content-encoding`` (and with ``content-length``
    fixed) plus the decoded bytes. When an encoding is unknown or the bytes do
    not decode, everything is returned unchanged.
    """
    fixed = dict(headers)
    codings = encoded_with(headers)
    if not codings or not data:
        fixed.pop("content-encoding", None)
        return fixed, data
    decoded = data
    for coding in reversed(codings):
        decoder = _decoder(coding)
        if decoder is None:
            return dict(headers), data
        try:
            decoded = decoder(decoded)
        except Exception:
            return dict(headers), data
    del fixed["content-encoding"]
    if "content-length" in fixed:
        fixed["content-length"] = (str(len(decoded)),)
    return fixed, decoded


def _content_type(headers: Headers) -> str:
    values = headers.get("content-type", ())
    return values[0].split(";", 1)[0].strip().lower() if values else ""


def body_from_bytes(headers: Headers, data: bytes) -> Body:
    """Classify already-decoded body bytes using the ``content-type`` header.

    JSON holding ``NaN``, ``Infinity`` or a number past a double (in a JSON body
    or an event's data) raises :class:`NonFiniteNumberError`: a cassette never
    holds one, and keeping it as text would replay what no JSON reader agrees on.
    """
    if not data:
        return EmptyBody()
    content_type = _content_type(headers)
    if content_type.startswith(_BINARY_TYPES):
        return BinaryBody(data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return BinaryBody(data)
    if content_type == "text/event-stream":
        return parse_sse(text)
    if content_type == "application/json" or content_type.endswith("+json"):
        try:
            tree = parse_json_text(text)
        except NonFiniteNumberError:
            raise
        except ValueError:  # not JSON, or nested too deep to keep as a tree
            return TextBody(text)
        return JsonBody(tree)
    return TextBody(text)
