"""A cassette test's report scrubbed like its cassette: no secret reaches the terminal.

A compatible provider may echo the key it refused in its error message, and
the SDK puts that message in the exception a test fails with; a test may
print or log a token. The report pytest shows (and writes to JUnit XML) is
the one place all of these pass through, so it is scrubbed with the same
policy as the cassette, live credentials included.
"""

from __future__ import annotations

import pytest

from tooltape.testing.cassette import ScrubPolicy
from tooltape.testing.cassette._scrub import scrub_text

__all__ = ["scrub_report"]


def scrub_report(report: pytest.TestReport, policy: ScrubPolicy) -> None:
    """Redact ``report``'s failure text and captured sections in place.

    A failure holding a secret is shown as plain text (pytest's colours and
    crash line are lost with it); one holding none keeps its own rendering.
    """
    if report.failed and report.longrepr is not None:
        text = str(report.longrepr)
        scrubbed = scrub_text(text, policy)
        if scrubbed != text:
            report.longrepr = scrubbed
    if report.sections:
        report.sections = [
            (title, scrub_text(content, policy)) for title, content in report.sections
        ]
