"""Bodies a cassette would hold still encoded: refused, since no scrubbing read them.

Scrubbing reads a body once its ``content-encoding`` is undone. One tooltape
cannot undo (``br`` with no brotli module installed, a coding it does not
know, bytes that do not decode as their coding says) would reach the file
compressed, with whatever credentials it holds unseen: such a cassette is not
written, and the error names each request, its coding and what to do.
"""

from __future__ import annotations

from pathlib import Path

from tooltape.testing.cassette._bodies import encoded_with, missing_decoders
from tooltape.testing.cassette._errors import ENCODED_HINT, CassetteEncodedError, EncodedBody
from tooltape.testing.cassette._model import Cassette, Headers

__all__ = ["encoded_bodies", "refuse_encoded_bodies"]

_MODULES = {"br": "brotli or brotlicffi", "zstd": "backports.zstd or zstandard"}
"""The modules that decode a coding tooltape reads only when one is installed."""


def _why(headers: Headers) -> str:
    missing = missing_decoders(headers)
    if not missing:
        return f"its bytes do not decode as {', '.join(encoded_with(headers))}"
    reasons: list[str] = []
    for coding in missing:
        module = _MODULES.get(coding)
        if module is None:
            reasons.append(f"tooltape has no decoder for {coding!r}")
        else:
            reasons.append(f"no decoder for {coding!r} is installed ({module})")
    return "; ".join(reasons)


def encoded_bodies(cassette: Cassette) -> tuple[EncodedBody, ...]:
    """Every body of ``cassette`` still under a ``content-encoding``, in order."""
    found: list[EncodedBody] = []
    for index, interaction in enumerate(cassette.interactions):
        request = interaction.request
        for side, headers in (
            ("request", request.headers),
            ("response", interaction.response.headers),
        ):
            if encoded_with(headers):
                found.append(
                    EncodedBody(
                        f"/interactions/{index}/{side}",
                        f"{request.method} {request.uri}",
                        ", ".join(encoded_with(headers)),
                        _why(headers),
                    )
                )
    return tuple(found)


def refuse_encoded_bodies(
    cassette: Cassette, path: Path | str, *, hint: str = ENCODED_HINT
) -> None:
    """Raise :class:`CassetteEncodedError` when ``cassette`` holds a body still encoded;
    ``hint`` says what to do (by default: how to record it again decodable)."""
    found = encoded_bodies(cassette)
    if found:
        raise CassetteEncodedError(path, found, hint=hint)
