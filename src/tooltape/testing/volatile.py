"""Volatile path patterns: the request fields matching ignores.

A pattern is a dotted path whose segments are object keys or array indexes
(``tools[0].filters`` and ``tools.0.filters`` are the same); ``*`` matches
exactly one key or index and ``**`` any number of them (including none). A
matching path is ignored with everything below it, e.g. ``"metadata"``,
``"input.*.encrypted_content"``, ``"**.id"``. Keys containing ``.``, ``[``
or ``]`` cannot be named in patterns.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

__all__ = [
    "VOLATILE_PATH_FORM",
    "PathPart",
    "States",
    "VolatileFields",
    "VolatilePatternError",
    "VolatileWalk",
    "compile_pattern",
    "volatile_walk",
]

PathPart = str | int
"""One step of a path into a JSON document: an object key or an array index."""

# A bracket closes where a key or index ends: before ".", "[" or the end. Any "[" or "]"
# left after these are replaced is malformed: no key the pattern could name holds one.
_BRACKET = re.compile(r"\[([^\[\]]*)\](?=[.\[]|\Z)")
VOLATILE_PATH_FORM = (
    'dotted keys and array indexes, e.g. "metadata.run_id", "input[0].content" or "**.id"'
)
"""What a volatile path pattern looks like, for messages about one that is malformed."""


class VolatilePatternError(ValueError):
    """A volatile path pattern that names no field; ``reason`` says what is wrong with it."""

    def __init__(self, pattern: str, reason: str) -> None:
        super().__init__(
            f"Invalid volatile path pattern {pattern!r}: {reason}; write {VOLATILE_PATH_FORM}"
        )
        self.pattern = pattern
        self.reason = reason


@lru_cache(maxsize=256)
def compile_pattern(pattern: str) -> tuple[str, ...]:
    """The segments of a volatile path pattern; :class:`VolatilePatternError` if malformed."""
    text = pattern.strip()
    dotted = _BRACKET.sub(lambda m: "." + m.group(1), text)
    if text.startswith("[") and dotted.startswith("."):  # a leading index: "[0].id"
        dotted = dotted[1:]
    segments = tuple(dotted.split("."))
    if not text:
        raise VolatilePatternError(pattern, "it is empty")
    if not all(segments):
        raise VolatilePatternError(
            pattern, "it has an empty key (a dot at an end, two dots in a row, or [])"
        )
    if any("[" in segment or "]" in segment for segment in segments):
        raise VolatilePatternError(
            pattern,
            'a "[" must be closed by "]" right before ".", "[" or the end, and keys cannot '
            'hold "[" or "]"',
        )
    return segments


def _matches(pattern: tuple[str, ...], path: tuple[PathPart, ...]) -> bool:
    if not pattern:
        return not path
    head, rest = pattern[0], pattern[1:]
    if head == "**":
        return any(_matches(rest, path[start:]) for start in range(len(path) + 1))
    if not path:
        return False
    return (head == "*" or head == str(path[0])) and _matches(rest, path[1:])


class VolatileFields:
    """Compiled volatile patterns."""

    __slots__ = ("_patterns",)

    def __init__(self, patterns: Iterable[str]) -> None:
        if isinstance(patterns, str):
            patterns = (patterns,)
        self._patterns = tuple(compile_pattern(p) for p in patterns)

    def __call__(self, path: tuple[PathPart, ...]) -> bool:
        return any(_matches(p, path) for p in self._patterns)


States = frozenset[tuple[int, int]]
_ANY_INDEX = "\x00"
"""A path part no pattern names literally: stands for "some array index"."""


class VolatileWalk:
    """The volatile patterns as an automaton that walks down a document, one part at a time.

    A state is a set of (pattern, position) pairs; ``**`` may match no part or
    many, ``*`` exactly one, any other segment one equal part. Steps are
    memoised, so walking a document costs a dict lookup per node, however
    many patterns there are.
    """

    __slots__ = ("_index_parts", "_patterns", "_steps", "start")

    def __init__(self, patterns: tuple[str, ...]) -> None:
        self._patterns = tuple(compile_pattern(p) for p in patterns)
        self._steps: dict[tuple[States, str], tuple[States, bool]] = {}
        # The literal parts that can name an array index, and one that names none.
        literal = {part for p in self._patterns for part in p if part.isdigit()}
        self._index_parts = (*sorted(literal), _ANY_INDEX)
        self.start = self._close({(n, 0) for n in range(len(self._patterns))})

    def _close(self, states: set[tuple[int, int]]) -> States:
        pending = list(states)
        while pending:
            n, at = pending.pop()
            pattern = self._patterns[n]
            if at < len(pattern) and pattern[at] == "**" and (n, at + 1) not in states:
                states.add((n, at + 1))
                pending.append((n, at + 1))
        return frozenset(states)

    def step(self, states: States, part: str) -> tuple[States, bool]:
        """The states after ``part``, and whether the path they end is volatile."""
        known = self._steps.get((states, part))
        if known is not None:
            return known
        following: set[tuple[int, int]] = set()
        for n, at in states:
            pattern = self._patterns[n]
            if at == len(pattern):
                continue
            segment = pattern[at]
            if segment == "**":
                following.add((n, at))
            elif segment == "*" or segment == part:
                following.add((n, at + 1))
        closed = self._close(following)
        done = (closed, any(at == len(self._patterns[n]) for n, at in closed))
        self._steps[(states, part)] = done
        return done

    def accepts(self, states: States) -> bool:
        return any(at == len(self._patterns[n]) for n, at in states)

    def may_ignore_an_index(self, states: States) -> bool:
        """Whether some index of an array here may be volatile."""
        return any(self.step(states, part)[1] for part in self._index_parts)


@lru_cache(maxsize=64)
def volatile_walk(patterns: tuple[str, ...]) -> VolatileWalk:
    return VolatileWalk(patterns)
