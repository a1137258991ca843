"""Decode the base64 payloads responses carry (``data:`` URLs, image results)."""

from __future__ import annotations

import base64
import binascii
import functools
from urllib.parse import unquote_to_bytes

from tooltape.adapters.openai.codecs.failures import UNKNOWN_PROMPT
from tooltape.prompt import PromptEvaluationError


@functools.lru_cache(maxsize=8)
def _decoded(data: str) -> bytes:
    return base64.b64decode(data, validate=True)


def clear_decoded() -> None:
    """Forget the payloads kept by :func:`decode_base64` (benchmarks start each round cold)."""
    _decoded.cache_clear()


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
    header, _, payload = url[5:].partition(",")
    mime_type, _, encoding = header.partition(";")
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
