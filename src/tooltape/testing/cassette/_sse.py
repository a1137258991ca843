"""Parse a ``text/event-stream`` body into events that replay byte-for-byte."""

from __future__ import annotations

import re

from tooltape.testing.cassette._limits import NonFiniteNumberError, parse_json_text
from tooltape.testing.cassette._model import (
    JSON_STYLES,
    SseBody,
    SseEvent,
    compact_json,
    styled_json,
)

__all__ = ["parse_data", "parse_sse"]

_LINE = re.compile(r"([^\r\n]*)(\r\n|\r|\n|$)")


def parse_data(text: str) -> tuple[object, bool, str]:
    """Return ``(data, raw_data, json_style)`` for an event's data text.

    The text is kept as a tree only when it is a JSON object or array that one
    of the :data:`JSON_STYLES` writes back as exactly ``text``.
    """
    if not text or text[0] not in "{[":
        return text, True, "compact"
    try:
        tree: object = parse_json_text(text)
    except NonFiniteNumberError:
        raise
    except ValueError:
        return text, True, "compact"
    if compact_json(tree) == text:
        return tree, False, "compact"
    for style in JSON_STYLES:
        if style != "compact" and styled_json(tree, style) == text:
            return tree, False, style
    return text, True, "compact"


def _split_blocks(text: str) -> list[list[tuple[str, str]]]:
    """Split the stream into blocks of ``(line, ending)``, each ending at a blank line."""
    blocks: list[list[tuple[str, str]]] = []
    current: list[tuple[str, str]] = []
    for match in _LINE.finditer(text):
        line, ending = match.group(1), match.group(2)
        if not line and not ending:
            break  # the empty match at the very end
        current.append((line, ending))
        if not line and ending:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def _parse_block(lines: list[tuple[str, str]], line_ending: str) -> SseEvent:
    event: str | None = None
    event_id: str | None = None
    retry: str | None = None
    comments: list[str] = []
    data_lines: list[str] = []
    for line, _ in lines:
        if not line:
            continue
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "":
            comments.append(value)
        elif name == "event":
            event = value
        elif name == "data":
            data_lines.append(value)
        elif name == "id":
            event_id = value
        elif name == "retry":
            retry = value
        # any other field is kept through ``raw`` below
    data: object = None
    raw_data = False
    style = "compact"
    if data_lines:
        data, raw_data, style = parse_data("\n".join(data_lines))
    parsed = SseEvent(
        event=event,
        data=data,
        raw_data=raw_data,
        id=event_id,
        retry=retry,
        comments=tuple(comments),
        json_style=style,
    )
    original = "".join(line + ending for line, ending in lines)
    if parsed.to_text(line_ending) == original:
        return parsed
    return SseEvent(
        event=event,
        data=data,
        raw_data=raw_data,
        id=event_id,
        retry=retry,
        comments=tuple(comments),
        raw=original,
        json_style=style,
    )


def parse_sse(text: str) -> SseBody:
    """Parse an event stream; ``parse_sse(t).to_text() == t`` for every ``t``."""
    first = _LINE.search(text)
    line_ending = first.group(2) if first is not None and first.group(2) else "\n"
    events = tuple(_parse_block(block, line_ending) for block in _split_blocks(text))
    return SseBody(events=events, line_ending=line_ending)
