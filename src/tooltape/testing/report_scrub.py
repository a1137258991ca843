"""A cassette test's report scrubbed like its cassette: no secret reaches the terminal.

A compatible provider may echo the key it refused in its error message, and
the SDK puts that message in the exception a test fails with; a test may
print or log a token, or skip with the error's text. The report pytest shows
(and writes to JUnit XML) is the one place all of these pass through, so it
is scrubbed with the same policy as the cassette, live credentials included.
pytest also shortens long values (``'9f3a7c21e4b0...c2e3b4d5f6071'``): what
is left of a live credential there is redacted too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import cast

import pytest

from tooltape.testing.cassette import REDACTED, ScrubPolicy
from tooltape.testing.cassette._scrub import scrub_text

__all__ = ["scrub_report"]

_SHORTEST_PIECE = 8
"""A run this long of a credential's characters, in order, is a piece of it."""


def _without_pieces(text: str, secrets: tuple[str, ...]) -> str:
    """``text`` with every run of at least ``_SHORTEST_PIECE`` characters of a secret redacted."""
    for secret in secrets:
        start = 0
        while start + _SHORTEST_PIECE <= len(secret):
            piece = secret[start : start + _SHORTEST_PIECE]
            at = text.find(piece)
            if at < 0:
                start += 1
                continue
            # Grow the match both ways while text and secret agree.
            left, right = at, at + _SHORTEST_PIECE
            first, last = start, start + _SHORTEST_PIECE
            while left > 0 and first > 0 and text[left - 1] == secret[first - 1]:
                left, first = left - 1, first - 1
            while right < len(text) and last < len(secret) and text[right] == secret[last]:
                right, last = right + 1, last + 1
            text = text[:left] + REDACTED + text[right:]
    return text


def _walk(value: object, scrub: Callable[[str], str]) -> object:
    """``value`` with every string in it scrubbed; pytest's repr objects are changed in place."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, list):
        items = cast("list[object]", value)
        items[:] = [_walk(item, scrub) for item in items]
        return items
    if isinstance(value, tuple):
        return tuple(_walk(item, scrub) for item in cast("tuple[object, ...]", value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            object.__setattr__(value, field.name, _walk(getattr(value, field.name), scrub))
    return value


def scrub_report(
    report: pytest.TestReport, policy: ScrubPolicy, secrets: tuple[str, ...] = ()
) -> None:
    """Redact ``report``'s failure or skip text, xfail reason and captured sections in place.

    ``secrets`` are the live credentials whose pieces are redacted as well.
    pytest's own rendering (colours, the crash line of the summary) is kept;
    a failure text of a kind not known here is shown as plain text.
    """

    def scrub(text: str) -> str:
        return _without_pieces(scrub_text(text, policy), secrets)

    longrepr = report.longrepr
    if longrepr is not None:
        text = str(longrepr)
        if scrub(text) != text:
            longrepr = report.longrepr = _walk(longrepr, scrub)  # type: ignore[assignment]
            text = str(longrepr)
            if scrub(text) != text:  # something the walk did not reach
                report.longrepr = scrub(text)
    wasxfail = getattr(report, "wasxfail", None)
    if isinstance(wasxfail, str):
        report.wasxfail = scrub(wasxfail)
    if report.sections:
        report.sections = [(title, scrub(content)) for title, content in report.sections]
