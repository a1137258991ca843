"""Secrets in one text: key shapes, URL credentials, seen through escapes and base64.

A text is searched as it is, then (when it holds backslashes) as the JSON
string escapes in it decode, so ``\\u0073k-...`` and a key right after
``\\n`` are found, then for key shapes as HTML character references,
percent-encoding and quoted-printable decode (see ``_escapes``), and then
inside every base64 run that decodes to text.
Each find is a :class:`Span` of the original text with what replaces it, so
the scrubber redacts exactly what the scanner reports.
"""

from __future__ import annotations

import base64
import binascii
import json
import re

from tooltape.testing.cassette._escapes import (
    encoded_view,
    is_quoted_printable,
    json_view,
    quoted_printable_view,
)
from tooltape.testing.cassette._patterns import base64_runs
from tooltape.testing.cassette._policy import DEFAULT_POLICY, ScrubPolicy
from tooltape.testing.cassette._span import Span
from tooltape.testing.cassette._urls import find_url_secrets

__all__ = [
    "base64_holds_secret",
    "encoded_holds_secret",
    "encoded_key_spans",
    "find_spans",
    "holds_secret",
    "merge_spans",
    "redact_for_display",
    "redact_spans",
]

_MAX_LEVELS = 3  # escapes within escapes: JSON text inside a JSON string inside a body
_BASE64_RUN = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{28,}={0,2}")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# MIME and PEM wrap base64 into lines of one width (76, 64 characters): each line
# decodes alone, so a key across two lines is only seen in the lines joined. A line
# break after a run of base64 as long as ``base64_runs`` looks for, and before another,
# says a block may start on the line before it.
_WRAP_POINT = re.compile(
    r"\n(?=[A-Za-z0-9+/])(?:(?<=[A-Za-z0-9+/]{28}\n)|(?<=[A-Za-z0-9+/]{28}\r\n))"
)
_WRAPPED = re.compile(r"(?:[A-Za-z0-9+/]{28,}\r?\n)+[A-Za-z0-9+/]+={0,2}(?![A-Za-z0-9+/=])")


def _escaped(text: str, original: str) -> str:
    """``text`` as it must be written where it replaces ``original`` in an escaped text:
    JSON-escaped, but for what ``original`` holds as it is (a line break in a text with a
    ``\\u`` escape elsewhere)."""
    escaped = json.dumps(text, ensure_ascii=False)[1:-1]
    if escaped == text:
        return text
    return "".join(
        char if char in original and char != "\\" else json.dumps(char)[1:-1] for char in text
    )


def _base64_text(run: str | bytes) -> tuple[str, bool, bool] | None:
    """``(decoded text, url-safe alphabet, padded)`` when a base64 run decodes to text."""
    if isinstance(run, bytes):
        run = run.decode("ascii")
    urlsafe = "-" in run or "_" in run
    if urlsafe and ("+" in run or "/" in run):
        return None
    body = run.rstrip("=")
    if len(body) % 4 == 1:
        return None
    padded = body + "=" * (-len(body) % 4)
    try:
        data = base64.b64decode(padded, altchars=b"-_" if urlsafe else None, validate=True)
        decoded = data.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    if _CONTROL.search(decoded):
        return None
    return decoded, urlsafe, body != run


class _Wrapped:
    """A block of base64 lines of one width: where it is, the run it joins to, its layout."""

    __slots__ = ("end", "newline", "padded", "run", "start", "width")

    def __init__(self, block: re.Match[str]) -> None:
        self.start, self.end = block.span()
        self.newline = "\r\n" if "\r" in block.group() else "\n"
        self.run = block.group().replace("\r", "").replace("\n", "")
        self.width = block.group().index(self.newline)
        # MIME pads: a run of whole groups is written padded again, whatever it decodes to.
        self.padded = len(self.run) % 4 == 0

    def rewrapped(self, encoded: str) -> str:
        """``encoded`` laid out as this block was."""
        if not self.padded:
            encoded = encoded.rstrip("=")
        lines = (encoded[i : i + self.width] for i in range(0, len(encoded), self.width))
        return self.newline.join(lines)


def _wrapped_blocks(text: str) -> list[_Wrapped]:
    """Every block of two or more base64 lines of one width (a multiple of 4) in ``text``."""
    blocks: list[_Wrapped] = []
    at = 0
    while (point := _WRAP_POINT.search(text, at)) is not None:
        line_start = text.rfind("\n", 0, point.start() - 1) + 1
        block = _WRAPPED.match(text, line_start)
        if block is None or block.end() <= point.start():
            at = point.end()
            continue
        wrapped = _Wrapped(block)
        widths = {len(line) for line in block.group().splitlines()[:-1]}
        last = len(block.group().splitlines()[-1])
        if widths == {wrapped.width} and wrapped.width % 4 == 0 and last <= wrapped.width:
            blocks.append(wrapped)
        at = block.end()
    return blocks


def _base64_spans(text: str, policy: ScrubPolicy) -> list[Span]:
    spans: list[Span] = []
    for block in _wrapped_blocks(text) if "\n" in text else ():
        found = _base64_text(block.run)
        if found is None:
            continue
        inner = find_spans(found[0], policy, _level=_MAX_LEVELS)
        if inner:
            cleaned = redact_spans(found[0], inner).encode("utf-8")
            replacement = block.rewrapped(base64.b64encode(cleaned).decode("ascii"))
            spans.append(Span(block.start, block.end, f"{inner[0].kind} in base64", replacement))
    for match in _BASE64_RUN.finditer(text):
        found = _base64_text(match.group())
        if found is None:
            continue
        decoded, urlsafe, padded = found
        inner = find_spans(decoded, policy, _level=_MAX_LEVELS)
        if not inner:
            continue
        cleaned = redact_spans(decoded, inner).encode("utf-8")
        encoded = base64.b64encode(cleaned, altchars=b"-_" if urlsafe else None).decode("ascii")
        replacement = encoded if padded else encoded.rstrip("=")
        spans.append(Span(match.start(), match.end(), f"{inner[0].kind} in base64", replacement))
    return spans


def _merged(spans: list[Span]) -> list[Span]:
    """Spans in order, overlapping ones joined: the first one's replacement takes the place
    of both (the other's characters go with it). Both replacements side by side could read
    as another secret: "Bearer REDACTED" then "sk-REDACTED" is a bearer token again, when a
    key's escapes (``%BEARER sk-...%30``) make it end past the token found as written."""
    if len(spans) < 2:
        return spans
    ordered = sorted(spans, key=lambda span: (span.start, -span.end))
    result = [ordered[0]]
    for span in ordered[1:]:
        last = result[-1]
        if span.start >= last.end:
            result.append(span)
        elif span.end > last.end:
            result[-1] = Span(last.start, span.end, last.kind, last.replacement)
    return result


def merge_spans(spans: list[Span]) -> list[Span]:
    """``spans`` of one text found by different searches, in order, overlapping ones joined
    (the first one's replacement takes the place of both)."""
    return _merged(spans)


def _may_be_encoded(text: str) -> bool:
    """``False`` when ``text`` cannot hold an HTML, percent or quoted-printable escape:
    most texts, told by three literal searches before anything else is."""
    return "&" in text or "%" in text or "=" in text


def _shape_spans(text: str, policy: ScrubPolicy) -> list[Span]:
    """Every match of a key shape (or a live value) in ``text``."""
    spans: list[Span] = []
    for rule in policy.candidate_rules(text):
        for match in rule.pattern.finditer(text):
            replacement = match.expand(rule.replacement)
            if replacement != match.group():
                spans.append(Span(match.start(), match.end(), rule.kind, replacement))
    return spans


def _encoded_spans(text: str, policy: ScrubPolicy, level: int) -> list[Span]:
    """Key shapes spelled with HTML character references, percent-encoding or in
    quoted-printable (encoded twice too), written back in that spelling.

    Only key shapes: a URL's query is what it is on the wire, found as it is.
    """
    view = encoded_view(text)
    if view is None:
        return []
    inner = _shape_spans(view.text, policy)
    if level + 1 < _MAX_LEVELS:
        inner.extend(_encoded_spans(view.text, policy, level + 1))
    spans: list[Span] = []
    for span in _merged(inner):
        start, end = view.raw_span(span.start, span.end)
        replacement = view.respelled(span.replacement, span.start, span.end)
        spans.append(Span(start, end, span.kind, replacement))
    return spans


def encoded_key_spans(text: str, policy: ScrubPolicy = DEFAULT_POLICY) -> list[Span]:
    """The key shapes :func:`find_spans` finds behind HTML character references,
    percent-encoding or quoted-printable: what to redact in a URL before its rewrite,
    which would cut ``&#115;`` apart at ``&``, ``#`` and ``;``."""
    return _encoded_spans(text, policy, 0)


def _url_spans(text: str, policy: ScrubPolicy, encoded: list[Span]) -> list[Span]:
    """Each URL with credentials, as its rewrite. The keys an encoder spelled (``encoded``)
    are redacted first: the rewrite splits a query at "&", "#" and ";", which would cut
    ``&#115;`` apart, and whether a value is still to hide depends on what it decodes to.
    In quoted-printable a URL is found as it decodes (across soft line breaks, "=3D" an
    "="), and its rewrite written back so."""
    written = redact_spans(text, encoded)
    decoded = quoted_printable_view(written) if "=" in text and is_quoted_printable(text) else None
    found: list[Span] = []
    for url in find_url_secrets(written if decoded is None else decoded.text, policy):
        # A key in the URL's path survives the rewrite of its query: redact that too.
        replacement = redact_spans(url.replacement, find_spans(url.replacement, policy, _level=99))
        start, end = url.start, url.end
        if decoded is not None:
            replacement = decoded.respelled(replacement, start, end)
            # As written again, a key a soft break glued to the word before stands alone.
            replacement = redact_spans(replacement, find_spans(replacement, policy, _level=99))
            start, end = decoded.raw_span(start, end)
        start = _before_redaction(start, encoded, end=False)
        end = _before_redaction(end, encoded, end=True)
        found.append(Span(start, end, url.kind, replacement))
    return found


def _before_redaction(offset: int, spans: list[Span], *, end: bool) -> int:
    """Where ``offset`` of ``redact_spans(text, spans)`` stands in ``text`` (one inside a
    replacement: where what it replaced starts, or ends for the ``end`` of a span)."""
    shift = 0  # how much longer the redacted text is, up to the span at hand
    for span in spans:
        start = span.start + shift
        if offset <= start:
            break
        if offset < start + len(span.replacement) or (
            end and offset == start + len(span.replacement)
        ):
            return span.end if end else span.start
        shift += len(span.replacement) - (span.end - span.start)
    return offset - shift


def find_spans(text: str, policy: ScrubPolicy = DEFAULT_POLICY, *, _level: int = 0) -> list[Span]:
    """Every secret in ``text``, in order, as spans of ``text``."""
    spans: list[Span] = []
    # Base64 runs first: where a run is exactly a live value's base64 spelling,
    # the run written again (the placeholder's base64) wins the tie, as it is
    # what a key shape found in the same run gives when no value is known.
    if _level < _MAX_LEVELS and base64_holds_secret(text, policy):
        spans.extend(_base64_spans(text, policy))
    spans.extend(_shape_spans(text, policy))
    encoded: list[Span] = []
    if _level < _MAX_LEVELS and _may_be_encoded(text):
        encoded = _encoded_spans(text, policy, _level)
    if "://" in text:
        spans.extend(_url_spans(text, policy, encoded))
    if _level < _MAX_LEVELS:
        view = json_view(text) if "\\" in text else None
        if view is not None:
            for inner in find_spans(view.text, policy, _level=_level + 1):
                start, end = view.raw_span(inner.start, inner.end)
                replacement = _escaped(inner.replacement, text[start:end])
                spans.append(Span(start, end, inner.kind, replacement))
    spans.extend(encoded)
    return _merged(spans)


def holds_secret(
    text: str, policy: ScrubPolicy = DEFAULT_POLICY, *, escapes: bool = True, _level: int = 0
) -> bool:
    """Whether :func:`find_spans` finds anything; stops at the first find.

    ``escapes=False`` skips decoding JSON escapes, for a caller that sends
    every text with a ``\\u`` escape down the slow path anyway.
    """
    for rule in policy.candidate_rules(text):
        if rule.pattern.search(text):
            return True
    if "://" in text and find_url_secrets(text, policy):
        return True
    if escapes and _level < _MAX_LEVELS and "\\" in text:
        view = json_view(text)
        if view is not None and holds_secret(view.text, policy, _level=_level + 1):
            return True
    if (
        _level < _MAX_LEVELS
        and _may_be_encoded(text)
        and encoded_holds_secret(text, policy, _level=_level)
    ):
        return True
    return _level < _MAX_LEVELS and base64_holds_secret(text, policy)


def encoded_holds_secret(
    text: str, policy: ScrubPolicy = DEFAULT_POLICY, *, loose: bool = False, _level: int = 0
) -> bool:
    """Whether a key shape is spelled in ``text`` with HTML character references,
    percent-encoding or in quoted-printable.

    ``loose``: each rule's pattern without what may not precede a match, for
    serialised JSON (see ``SecretRule.loose``).
    """
    view = encoded_view(text)
    if view is None:
        return False
    for rule in policy.candidate_rules(view.text):
        pattern = rule.loose if loose else rule.pattern
        if pattern is None or pattern.search(view.text):
            return True
    return _level + 1 < _MAX_LEVELS and encoded_holds_secret(
        view.text, policy, loose=loose, _level=_level + 1
    )


def base64_holds_secret(text: str, policy: ScrubPolicy = DEFAULT_POLICY) -> bool:
    """Whether a base64 run in ``text`` decodes to text holding a secret."""
    runs = base64_runs(text)
    for run in runs:
        found = _base64_text(run)
        if found is not None and holds_secret(found[0], policy, _level=_MAX_LEVELS):
            return True
    for block in _wrapped_blocks(text) if runs and "\n" in text else ():
        found = _base64_text(block.run)
        if found is not None and holds_secret(found[0], policy, _level=_MAX_LEVELS):
            return True
    return False


def redact_spans(text: str, spans: list[Span]) -> str:
    """``text`` with each span replaced; ``text`` itself when there are none."""
    if not spans:
        return text
    parts: list[str] = []
    last = 0
    for span in spans:
        parts.append(text[last : span.start])
        parts.append(span.replacement)
        last = span.end
    parts.append(text[last:])
    return "".join(parts)


def redact_for_display(text: str) -> str:
    """``text`` with every secret tooltape knows replaced, for an error message."""
    return redact_spans(text, find_spans(text)) if holds_secret(text) else text
