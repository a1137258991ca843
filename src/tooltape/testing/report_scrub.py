"""A cassette test's report scrubbed like its cassette: no secret reaches the terminal.

A compatible provider may echo the key it refused in its error message, and
the SDK puts that message in the exception a test fails with; a test may
print or log a token, or skip with the error's text. The report pytest shows
(and writes to JUnit XML) is the one place all of these pass through, so it
is scrubbed with the same policy as the cassette, live credentials included.
pytest also shortens long values: what is left of a live credential there
is redacted too (see ``Redaction``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import cast

import pytest

__all__ = ["parameter_id", "scrub_report"]


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


def scrub_report(report: pytest.TestReport, scrub: Callable[[str], str]) -> None:
    """Redact ``report``'s failure or skip text, xfail reason, captured sections and
    recorded properties in place.

    ``scrub`` is the project's ``Redaction``. pytest's own rendering (colours,
    the crash line of the summary) is kept; a failure text of a kind not
    known here is shown as plain text.
    """
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
    if report.user_properties:  # `record_property`, written to JUnit XML
        report.user_properties = [
            (name, scrub(value) if isinstance(value, str) else value)
            for name, value in report.user_properties
        ]


def parameter_id(value: object, scrub: Callable[[str], str]) -> str | None:
    """The test id of a parameter value holding a secret: the value redacted.

    pytest makes a text value the test's id as it is, and the id is in every
    line that names the test (``-v``, the summary, ``--collect-only``, JUnit
    XML, the cache) and in the cassette's file name. ``None`` for any other
    value: pytest's own id stands. Two values redacted alike get pytest's
    usual suffixes (``REDACTED0``, ``REDACTED1``).
    """
    if isinstance(value, bytes):
        text = value.decode("utf-8", "backslashreplace")
    elif isinstance(value, str):
        text = value
    else:
        return None
    redacted = scrub(text)
    if redacted == text:
        return None
    return redacted.encode("unicode_escape").decode("ascii")  # ASCII, as pytest's ids are
