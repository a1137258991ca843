"""The cassette model: recorded HTTP interactions as frozen values.

Bodies form a small closed set (JSON tree, server-sent events, text, binary,
empty). Each body knows how to turn itself back into the bytes a client reads
on replay. Header names are lower-case; every header maps to a tuple of values.
The values built for every interaction, body and stream event of a cassette
have a faster ``__init__`` (``direct_init``): replay loads a cassette for
every test.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Literal, TypeAlias

from tooltape.prompt.frozen_build import direct_init

__all__ = [
    "BinaryBody",
    "Body",
    "Cassette",
    "CassetteFormat",
    "CassetteHeader",
    "CassetteSource",
    "EmptyBody",
    "Headers",
    "Interaction",
    "JsonBody",
    "RecordedRequest",
    "RecordedResponse",
    "SseBody",
    "SseEvent",
    "TextBody",
    "compact_json",
    "escape_lone_surrogates",
    "standard_reason",
    "utf8",
    "wire_headers",
]

Headers: TypeAlias = Mapping[str, tuple[str, ...]]
"""Lower-case header name to every value sent under that name, in order."""

CassetteSource: TypeAlias = Literal["live", "import", "loopback", "synthetic"]
"""Where a cassette's interactions came from."""

CassetteFormat: TypeAlias = Literal["tooltape", "vcrpy"]
"""The on-disk format a cassette was read from."""


_LONE_SURROGATE = re.compile(
    r"[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]"
)


def escape_lone_surrogates(text: str) -> str:
    """JSON text with each lone surrogate written as its ``\\uXXXX`` escape.

    A provider may send ``"\\ud83d"`` (half an emoji); parsed, it is a character
    UTF-8 cannot encode, so it goes back to the escape it arrived as. Only JSON
    text (where every such character sits inside a string) may be passed.
    """
    return _LONE_SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def utf8(text: str) -> bytes:
    """``text`` as UTF-8, a lone surrogate (only ever inside a JSON string) as its escape."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return escape_lone_surrogates(text).encode("utf-8")


def compact_json(tree: object) -> str:
    """Serialise a JSON tree the way the OpenAI API and most servers do: no spaces."""
    return json.dumps(tree, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


JSON_STYLES: dict[str, tuple[tuple[str, str], bool]] = {
    "compact": ((",", ":"), False),
    "spaced": ((", ", ": "), False),
    "compact-ascii": ((",", ":"), True),
    "spaced-ascii": ((", ", ": "), True),
}
"""How servers write JSON on one line: separators, and whether non-ASCII is escaped.

``compact`` is the OpenAI API's; ``spaced`` is Python's ``json.dumps`` default
spacing. An event stream's data is kept as a tree in the style it came in,
so it still replays byte for byte."""


def styled_json(tree: object, style: str) -> str:
    """``tree`` as one line of JSON in ``style`` (a key of :data:`JSON_STYLES`)."""
    if style == "compact":
        return compact_json(tree)
    separators, ascii_only = JSON_STYLES[style]
    return json.dumps(tree, separators=separators, ensure_ascii=ascii_only, allow_nan=False)


@direct_init
@dataclass(frozen=True, slots=True)
class JsonBody:
    """A JSON document, kept as its parsed tree (key order preserved)."""

    data: object

    def to_bytes(self) -> bytes:
        """The tree as compact UTF-8 JSON."""
        return utf8(compact_json(self.data))


@direct_init
@dataclass(frozen=True, slots=True)
class SseEvent:
    """One server-sent event block.

    ``data`` is the event's data lines joined with ``"\\n"``: a parsed JSON tree
    (a dict or a list) when ``raw_data`` is false, the original text when it is
    true, and ``None`` when the block has no data line at all. ``comments``,
    ``id`` and ``retry`` keep the other standard fields. ``json_style`` says how
    a tree is written back (a key of :data:`JSON_STYLES`). ``raw`` holds the exact
    block text (terminating blank line included) when the block cannot be
    rebuilt byte-for-byte from the fields above, e.g. unusual spacing, field
    order or an unterminated last block; it then wins in :meth:`to_text`.
    """

    event: str | None
    data: object
    raw_data: bool = False
    id: str | None = None
    retry: str | None = None
    comments: tuple[str, ...] = ()
    raw: str | None = None
    json_style: str = "compact"

    @property
    def data_text(self) -> str | None:
        """The data as the text a client receives (``None`` without data lines)."""
        if self.data is None:
            return None
        if self.raw_data:
            return str(self.data)
        return styled_json(self.data, self.json_style)

    def to_text(self, line_ending: str = "\n") -> str:
        """The block as it goes on the wire, terminating blank line included."""
        if self.raw is not None:
            return self.raw
        lines = [f": {comment}" for comment in self.comments]
        if self.id is not None:
            lines.append(f"id: {self.id}")
        if self.event is not None:
            lines.append(f"event: {self.event}")
        if self.retry is not None:
            lines.append(f"retry: {self.retry}")
        text = self.data_text
        if text is not None:
            lines.extend(f"data: {line}" for line in text.split("\n"))
        lines.append("")
        return line_ending.join(lines) + line_ending


@dataclass(frozen=True, slots=True)
class SseBody:
    """A ``text/event-stream`` body as a sequence of event blocks."""

    events: tuple[SseEvent, ...]
    line_ending: str = "\n"

    def to_text(self) -> str:
        """The whole stream as text."""
        ending = self.line_ending
        return "".join(event.to_text(ending) for event in self.events)

    def to_bytes(self) -> bytes:
        """The whole stream as UTF-8 bytes."""
        return utf8(self.to_text())


@dataclass(frozen=True, slots=True)
class TextBody:
    """A body that is valid UTF-8 text but neither JSON nor an event stream."""

    text: str

    def to_bytes(self) -> bytes:
        """The text as UTF-8 bytes."""
        return utf8(self.text)


@dataclass(frozen=True, slots=True)
class BinaryBody:
    """Bytes that are not UTF-8 text (stored base64-encoded on disk)."""

    data: bytes

    def to_bytes(self) -> bytes:
        """The bytes themselves."""
        return self.data


@dataclass(frozen=True, slots=True)
class EmptyBody:
    """No body at all."""

    def to_bytes(self) -> bytes:
        """Always ``b""``."""
        return b""


Body: TypeAlias = JsonBody | SseBody | TextBody | BinaryBody | EmptyBody
"""Every kind of body a cassette can hold."""


def wire_headers(headers: Headers, body_bytes: bytes) -> dict[str, tuple[str, ...]]:
    """Headers to send with ``body_bytes``: ``content-length`` fixed to its real size.

    A JSON tree re-serialised for replay rarely has the recorded length, and a
    decoded body is longer than the compressed one that was recorded.
    """
    fixed = dict(headers)
    if body_bytes and "content-length" in fixed:  # an empty body (HEAD, 304) keeps its header
        fixed["content-length"] = (str(len(body_bytes)),)
    return fixed


@direct_init
@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """A request as the client sent it."""

    method: str
    uri: str
    headers: Headers
    body: Body

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (any case), or ``None``."""
        values = self.headers.get(name.lower())
        return values[0] if values else None


def standard_reason(status_code: int) -> str:
    """The reason phrase HTTP names for ``status_code`` (``""`` for a code it does not name).

    A cassette that holds no reason (written by hand, or by vcrpy from HTTP/2, which
    has none) replays this one, as httpx shows for a response without one; a recorded
    ``""`` (the status line ``HTTP/1.1 200 ``) replays as ``""``.
    """
    try:
        return HTTPStatus(status_code).phrase
    except ValueError:
        return ""


@direct_init
@dataclass(frozen=True, slots=True)
class RecordedResponse:
    """A response as the server answered it (``reason`` as the status line held it)."""

    status_code: int
    reason: str
    headers: Headers
    body: Body

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (any case), or ``None``."""
        values = self.headers.get(name.lower())
        return values[0] if values else None


@direct_init
@dataclass(frozen=True, slots=True)
class Interaction:
    """One request and the response it got."""

    request: RecordedRequest
    response: RecordedResponse


@dataclass(frozen=True, slots=True)
class CassetteHeader:
    """Who wrote a cassette and where its interactions came from."""

    tooltape_version: str
    source: CassetteSource
    provenance: str | None = None


@dataclass(frozen=True, slots=True)
class Cassette:
    """A cassette: a header and the interactions in recording order.

    ``metadata`` carries vcrpy's per-cassette metadata (rarely used).
    ``format`` says which on-disk format the cassette was read from; it takes
    no part in equality.
    """

    header: CassetteHeader
    interactions: tuple[Interaction, ...]
    metadata: Mapping[str, object] = field(default_factory=lambda: {})
    format: CassetteFormat = field(default="tooltape", compare=False)
