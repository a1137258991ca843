"""The assistant's answer text and its annotations (citations, file links).

Annotation offsets are relative to their own ``output_text`` part; the
answer joins the parts with a blank line, so offsets are shifted to stay
valid against the joined text.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from tooltape.adapters.openai.codecs.items import elements, integer, item_type, text

_SEPARATOR = "\n\n"


@dataclass(frozen=True, slots=True)
class Annotation:
    """One annotation and the offset of its part within the joined answer."""

    offset: int
    value: object

    @property
    def type(self) -> str | None:
        """``url_citation``, ``file_citation``, ``container_file_citation``, ``file_path``..."""
        return item_type(self.value)

    def span(self) -> tuple[int, int] | None:
        """``(start, end)`` in the joined answer, when the annotation has both indices."""
        start, end = integer(self.value, "start_index"), integer(self.value, "end_index")
        if start is None or end is None:
            return None
        return (start + self.offset, end + self.offset)

    def index(self) -> int | None:
        """``index`` in the joined answer, for annotations that mark one position."""
        position = integer(self.value, "index")
        return None if position is None else position + self.offset


@dataclass(frozen=True, slots=True)
class Answer:
    """The assistant's output text across all message items, with annotations."""

    text: str
    annotations: tuple[Annotation, ...]

    def of_type(self, *types: str) -> Iterator[Annotation]:
        """Annotations of the given types, in order."""
        return (a for a in self.annotations if a.type in types)


def answer(items: Sequence[Any]) -> Answer:
    """Collect every ``output_text`` part of every ``message`` item."""
    parts: list[str] = []
    annotations: list[Annotation] = []
    offset = 0
    for item in items:
        if item_type(item) != "message":
            continue
        for part in elements(item, "content"):
            if item_type(part) != "output_text":
                continue
            if parts:
                offset += len(_SEPARATOR)
            body = text(part, "text") or ""
            annotations.extend(Annotation(offset, a) for a in elements(part, "annotations"))
            parts.append(body)
            offset += len(body)
    return Answer(_SEPARATOR.join(parts), tuple(annotations))
