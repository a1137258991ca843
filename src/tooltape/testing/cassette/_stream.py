"""Secrets split across the events of a stream, found in the text a client reassembles.

A streamed answer arrives as pieces (``response.output_text.delta``,
``response.function_call_arguments.delta``, Chat Completions'
``choices[].delta``): a key can start in one event and end in the next, where
no single event shows it. The pieces of each output are joined, searched, and
every event that holds a piece of a secret gets its piece replaced: the first
by the placeholder, the rest by nothing, so the stream still reassembles
(to the redacted text) on replay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import cast

from tooltape.testing.cassette._limits import parse_json_text
from tooltape.testing.cassette._model import SseEvent
from tooltape.testing.cassette._policy import ScrubPolicy
from tooltape.testing.cassette._span import Span
from tooltape.testing.cassette._text import find_spans, merge_spans
from tooltape.testing.cassette._text_fields import FORM_FIELD_KIND, json_field_spans

__all__ = ["Piece", "SplitSecret", "find_split_secrets", "redact_split_secrets"]

Step = str | int


@dataclass(frozen=True, slots=True)
class Piece:
    """One event's share of a reassembled text: which event, where in its data, what."""

    event: int
    path: tuple[Step, ...]
    text: str


@dataclass(frozen=True, slots=True)
class SplitSecret:
    """A secret whose characters span several events (``first`` to ``last``)."""

    first: Piece
    last: Piece
    kind: str
    length: int


def _key(value: object) -> object:
    return (
        value if value is None or isinstance(value, (str, int, float, bool)) else repr(type(value))
    )


def event_tree(event: SseEvent) -> Mapping[str, object] | None:
    """An event's data as a JSON object, parsing text data when it is one."""
    data = event.data
    if event.raw_data and isinstance(data, str) and data.startswith("{"):
        try:
            data = parse_json_text(data)
        except ValueError:
            return None
    return cast(Mapping[str, object], data) if isinstance(data, Mapping) else None


def _chat_pieces(index: int, choices: list[object], groups: dict[object, list[Piece]]) -> None:
    for position, choice in enumerate(choices):
        if not isinstance(choice, Mapping):
            continue
        choice_map = cast(Mapping[str, object], choice)
        delta = choice_map.get("delta")
        if not isinstance(delta, Mapping):
            continue
        delta_map = cast(Mapping[str, object], delta)
        which = _key(choice_map.get("index", position))
        at: tuple[Step, ...] = ("choices", position, "delta")
        content = delta_map.get("content")
        if isinstance(content, str):
            groups.setdefault(("chat", which), []).append(Piece(index, (*at, "content"), content))
        calls = delta_map.get("tool_calls")
        for number, call in enumerate(cast(list[object], calls) if isinstance(calls, list) else []):
            empty: Mapping[str, object] = {}
            call_map = cast(Mapping[str, object], call) if isinstance(call, Mapping) else empty
            function = call_map.get("function")
            arguments = (
                cast(Mapping[str, object], function).get("arguments")
                if isinstance(function, Mapping)
                else None
            )
            if isinstance(arguments, str):
                key = ("chat tool", which, _key(call_map.get("index", number)))
                path = (*at, "tool_calls", number, "function", "arguments")
                groups.setdefault(key, []).append(Piece(index, path, arguments))


def stream_groups(events: Sequence[SseEvent]) -> list[list[Piece]]:
    """The pieces of every text spread over two or more events, in stream order."""
    groups: dict[object, list[Piece]] = {}
    for index, event in enumerate(events):
        data = event_tree(event)
        if data is None:
            continue
        delta = data.get("delta")
        if isinstance(delta, str):
            key = (
                _key(data.get("type", event.event)),
                *(_key(data.get(name)) for name in ("item_id", "output_index", "content_index")),
                _key(data.get("summary_index")),
            )
            groups.setdefault(key, []).append(Piece(index, ("delta",), delta))
        choices = data.get("choices")
        if isinstance(choices, list):
            _chat_pieces(index, cast(list[object], choices), groups)
    return [pieces for pieces in groups.values() if len(pieces) > 1]


def _bounds(pieces: Sequence[Piece]) -> list[tuple[int, int]]:
    bounds: list[tuple[int, int]] = []
    start = 0
    for piece in pieces:
        bounds.append((start, start + len(piece.text)))
        start += len(piece.text)
    return bounds


def _joined_spans(text: str, policy: ScrubPolicy) -> list[Span]:
    """The secrets in a reassembled text: key shapes, and the values of secret fields when
    it is JSON (a tool call's arguments)."""
    return merge_spans(find_spans(text, policy) + json_field_spans(text, policy))


def find_split_secrets(events: Sequence[SseEvent], policy: ScrubPolicy) -> list[SplitSecret]:
    """Secrets no single event holds whole (a secret field's value: what no single event
    shows to be one)."""
    found: list[SplitSecret] = []
    for pieces in stream_groups(events):
        bounds = _bounds(pieces)
        text = "".join(piece.text for piece in pieces)
        for span in _joined_spans(text, policy):
            hit = [i for i, (a, b) in enumerate(bounds) if a < span.end and span.start < b]
            # A field's value is a secret only the reassembled JSON shows, even in one piece.
            if len(hit) > 1 or (hit and span.kind == FORM_FIELD_KIND):
                length = span.end - span.start
                found.append(SplitSecret(pieces[hit[0]], pieces[hit[-1]], span.kind, length))
    return found


def _new_texts(text: str, bounds: list[tuple[int, int]], spans: list[Span]) -> list[str]:
    """Each piece's text with its share of every span replaced (the placeholder goes
    where the span starts)."""
    texts: list[str] = []
    for start, end in bounds:
        parts: list[str] = []
        at = start
        for span in spans:
            if span.end <= start or span.start >= end:
                continue
            if span.start >= start:
                parts.append(text[at : span.start])
                parts.append(span.replacement)
            at = max(at, min(span.end, end))
        parts.append(text[at:end])
        texts.append("".join(parts))
    return texts


def _with_value(tree: object, path: tuple[Step, ...], value: str) -> object:
    """``tree`` with the value at ``path`` replaced (containers on the way copied)."""
    if not path:
        return value
    step, rest = path[0], path[1:]
    if isinstance(tree, Mapping) and isinstance(step, str):
        copied = dict(cast(Mapping[str, object], tree))
        copied[step] = _with_value(copied[step], rest, value)
        return copied
    items = list(cast(list[object], tree))
    items[cast(int, step)] = _with_value(items[cast(int, step)], rest, value)
    return items


def redact_split_secrets(events: tuple[SseEvent, ...], policy: ScrubPolicy) -> tuple[SseEvent, ...]:
    """``events`` with every piece of every reassembled secret redacted; the same
    tuple when there is none."""
    trees: dict[int, object] = {}
    for pieces in stream_groups(events):
        bounds = _bounds(pieces)
        text = "".join(piece.text for piece in pieces)
        spans = _joined_spans(text, policy)
        if not spans:
            continue
        for piece, new in zip(pieces, _new_texts(text, bounds, spans), strict=True):
            if new != piece.text:
                tree = trees.get(piece.event, event_tree(events[piece.event]))
                trees[piece.event] = _with_value(tree, piece.path, new)
    if not trees:
        return events
    result = list(events)
    for index, tree in trees.items():
        result[index] = replace(events[index], data=tree, raw_data=False, raw=None)
    return tuple(result)
