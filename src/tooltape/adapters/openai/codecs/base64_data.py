"""Decode the base64 payloads responses carry (``data:`` URLs, image results)."""

from __future__ import annotations

import base64
import binascii
import functools
from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from tooltape.adapters.openai.codecs.failures import UNKNOWN_PROMPT
from tooltape.prompt import PromptEvaluationError


def _fast_decoder() -> Callable[..., bytes] | None:
    """pybase64's decoder when it is installed (``pip install tooltape[fast]``)."""
    try:
        import pybase64  # pyright: ignore[reportMissingImports]
    except ImportError:
        return None
    decoder: Callable[..., bytes] = pybase64.b64decode  # pyright: ignore[reportUnknownMemberType]
    return decoder


_FAST_DECODE = _fast_decoder()


@functools.lru_cache(maxsize=8)
def _decoded(data: str) -> bytes:
    # pybase64 decodes a 180 KiB image some fifty times faster than the
    # standard library, which took longer than the SDK's whole parse of the
    # response. It is stricter (it refuses padding past the last block): what
    # it refuses, the standard library decides, and its message says why.
    if _FAST_DECODE is not None:
        try:
            return _FAST_DECODE(data, validate=True)
        except (binascii.Error, ValueError):
            pass
    return base64.b64decode(data, validate=True)


def clear_decoded() -> None:
    """Forget the payloads kept by :func:`decode_base64` (benchmarks start each round cold)."""
    _decoded.cache_clear()
    _data_url_parts.cache_clear()


@functools.lru_cache(maxsize=8)
def _data_url_parts(url: str) -> tuple[str, str, str]:
    """``(mime_type, encoding, payload)`` of a ``data:`` URL.

    Kept by the URL, the response's own string: a codec reads the same image
    twice, and each slice of a 200 KiB payload is a new copy whose hash (the
    key :func:`decode_base64` keeps it by) would be computed again.
    """
    comma = url.find(",", 5)
    header, payload = (url[5:], "") if comma < 0 else (url[5:comma], url[comma + 1 :])
    mime_type, _, encoding = header.partition(";")
    return mime_type, encoding, payload


def decode_base64(data: str, *, where: str) -> bytes:
    """The bytes of base64 ``data``; a corrupt payload is a parse error naming ``where``.

    The last few results are kept: a codec decodes the same image twice, once
    per call (``parse_calls``) and once for the aggregated ``parse_output``, and
    decoding is most of the time spent reading an image response. Errors are
    not kept; the bytes returned are immutable.
    """
    try:
        return _decoded(data)
    except (binascii.Error, ValueError) as exc:
        raise PromptEvaluationError(
            f"{where}: the provider sent base64 data that does not decode ({exc}).",
            prompt_name=UNKNOWN_PROMPT,
            phase="parse",
        ) from exc


def decode_data_url(url: str, *, where: str) -> tuple[str, bytes] | None:
    """``(mime_type, bytes)`` of a base64 ``data:`` URL, ``None`` for any other URL."""
    if not url.startswith("data:"):
        return None
    mime_type, encoding, payload = _data_url_parts(url)
    if encoding != "base64":
        try:
            return mime_type or "text/plain", unquote_to_bytes(payload)
        except UnicodeEncodeError as exc:  # a lone surrogate: no bytes stand for it
            raise PromptEvaluationError(
                f"{where}: the provider sent a data URL that is not text ({exc.reason}).",
                prompt_name=UNKNOWN_PROMPT,
                phase="parse",
            ) from exc
    return mime_type or "application/octet-stream", decode_base64(payload, where=where)
