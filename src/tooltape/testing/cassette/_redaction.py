"""Text as it may be shown in a terminal: no credential, and no piece of a live one.

Scrubbing a cassette finds whole secrets. What a person reads may hold less
than a whole one: pytest shortens long values (``'9f3a7c21e4b0...c2e3b4d5'``)
and the command line cuts long lines; a run of a live credential's
characters long enough to tell it apart is redacted there too.
"""

from __future__ import annotations

from dataclasses import dataclass

from tooltape.testing.cassette._patterns import REDACTED
from tooltape.testing.cassette._policy import REPLAY_API_KEY, ScrubPolicy, scrub_policy
from tooltape.testing.cassette._scrub import scrub_text
from tooltape.testing.settings import ScrubSettings

__all__ = ["Redaction", "redaction"]

_SHORTEST_PIECE = 8
"""A run this long of a credential's characters, in order, is a piece of it."""


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
"""Lowercase that keeps every index (``str.lower`` may not, outside ASCII)."""


def _without_pieces(text: str, secrets: tuple[str, ...]) -> str:
    """``text`` with every run of at least ``_SHORTEST_PIECE`` characters of a secret
    redacted, in any case (a test may show a key upper-cased)."""
    for original in secrets:
        secret = original.translate(_ASCII_LOWER)
        start = 0
        folded = text.translate(_ASCII_LOWER)
        while start + _SHORTEST_PIECE <= len(secret):
            piece = secret[start : start + _SHORTEST_PIECE]
            at = folded.find(piece)
            if at < 0:
                start += 1
                continue
            # Grow the match both ways while text and secret agree.
            left, right = at, at + _SHORTEST_PIECE
            first, last = start, start + _SHORTEST_PIECE
            while left > 0 and first > 0 and folded[left - 1] == secret[first - 1]:
                left, first = left - 1, first - 1
            while right < len(folded) and last < len(secret) and folded[right] == secret[last]:
                right, last = right + 1, last + 1
            text = text[:left] + REDACTED + text[right:]
            folded = text.translate(_ASCII_LOWER)
    return text


@dataclass(frozen=True, slots=True)
class Redaction:
    """``redaction(text)``: every secret ``policy`` finds and every piece of ``secrets``
    (the live credentials' values) redacted."""

    policy: ScrubPolicy
    secrets: tuple[str, ...] = ()

    def __call__(self, text: str) -> str:
        return _without_pieces(scrub_text(text, self.policy), self.secrets)


def redaction(settings: ScrubSettings | None, secrets: tuple[tuple[str, str], ...]) -> Redaction:
    """The redaction for a project's scrub settings and ``live_secrets`` (``(name, value)``)."""
    # The placeholder is no secret: its pieces ("tooltape") are ordinary words.
    pieces = tuple(value for _, value in secrets if value != REPLAY_API_KEY)
    return Redaction(scrub_policy(settings, secrets), pieces)
