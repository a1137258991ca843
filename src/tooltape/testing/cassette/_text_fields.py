"""Secret fields of a body kept as text: a URL-encoded form (``client_secret=...&...``),
multipart form-data (``Content-Disposition: form-data; name="password"``), and JSON
text a stream reassembles from its deltas (a tool call's ``arguments``).

An OAuth token request (Azure AD's client credentials, a password grant) sends
its secret as a form field, of no shape a key rule knows; a streamed tool call
spreads ``{"password": "..."}`` over several events. The project's secret body
fields (``client_secret``, ``password``, ``api_key``, ...) are redacted there as
in a JSON body: the scrubber replaces each value, the scanner reports it, both
from the spans found here.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_plus

from tooltape.testing.cassette._patterns import REDACTED, is_masked
from tooltape.testing.cassette._policy import ScrubPolicy
from tooltape.testing.cassette._span import Span

__all__ = ["FORM_FIELD_KIND", "form_field_spans", "json_field_spans"]

FORM_FIELD_KIND = "secret body field"

# A whole text of name=value pairs joined by "&" (what a form's urlencode writes).
_URLENCODED = re.compile(r"[^=&\s]+=[^&\s]*(?:&[^=&\s]+=[^&\s]*)*")
_PAIR = re.compile(r"(?:^|(?<=&))([^=&]+)=([^&]*)")
# A part's headers, then its value up to the next boundary line.
_PART = re.compile(
    r"(?im)^content-disposition:[ \t]*form-data\b[^\r\n]*?;[ \t]*"
    r"name=(?:\"([^\"\r\n]*)\"|([^;\s]+))"
    r"[^\r\n]*(?:\r?\n[^\r\n]+)*\r?\n\r?\n"
)
_PART_END = re.compile(r"\r?\n--")
_FORM_DATA = re.compile(r"(?i)form-data")
_JSON_START = re.compile(r"\s*[\[{]")


def _value_span(policy: ScrubPolicy, name: str, start: int, value: str) -> Span | None:
    if not policy.is_secret_field(name) or is_masked(unquote_plus(value)):
        return None
    return Span(start, start + len(value), FORM_FIELD_KIND, REDACTED)


def _urlencoded_spans(text: str, policy: ScrubPolicy) -> list[Span]:
    stripped = text.strip()
    if _URLENCODED.fullmatch(stripped) is None:
        return []
    offset = len(text) - len(text.lstrip())
    spans: list[Span] = []
    for pair in _PAIR.finditer(stripped):
        span = _value_span(policy, unquote_plus(pair.group(1)), offset + pair.start(2), pair[2])
        if span is not None:
            spans.append(span)
    return spans


def _multipart_spans(text: str, policy: ScrubPolicy) -> list[Span]:
    spans: list[Span] = []
    for part in _PART.finditer(text):
        name = part.group(1) if part.group(1) is not None else part.group(2)
        end = _PART_END.search(text, part.end())
        value = text[part.end() : len(text) if end is None else end.start()]
        span = _value_span(policy, name, part.end(), value)
        if span is not None:
            spans.append(span)
    return spans


def form_field_spans(text: str, policy: ScrubPolicy) -> list[Span]:
    """The value of every secret field of the form ``text`` is, in order (none when it is
    no form, or when each value is empty or already masked)."""
    if "=" not in text or _JSON_START.match(text):  # a JSON body's fields are its tree's
        return []
    if _FORM_DATA.search(text):
        return _multipart_spans(text, policy)
    return _urlencoded_spans(text, policy)


_JSON_REDACTED = f'"{REDACTED}"'


def json_field_spans(text: str, policy: ScrubPolicy) -> list[Span]:
    """The scalar value of every secret field in the JSON text ``text`` (a whole document,
    or one a stream is still writing), as written there, in order; a value already
    masked is left alone. Each becomes ``"REDACTED"``, so the text stays JSON."""
    if ":" not in text or _JSON_START.match(text) is None:
        return []
    spans: list[Span] = []
    for match in policy.field_values.finditer(text):
        value = match.group(1)
        shown = value[1:-1] if value.startswith('"') else value
        if not is_masked(shown):
            spans.append(Span(match.start(1), match.end(1), FORM_FIELD_KIND, _JSON_REDACTED))
    return spans
