"""Find a diff section's lines in a file in time linear in the file and the diff.

A V4A update searches the file once per section, each time from the end of
the previous section, for a block of context and removed lines, first
exactly and then with looser whitespace. Comparing the block at every
position costs lines times block lines; a search at one looseness that fails scans
to the end of the file, and a diff of many sections would pay that for
each of them. So each looseness turns the file into line tokens once,
finds blocks with Knuth-Morris-Pratt (a successful search reads only up to
its match, and the next section starts after it), and after its first
failed search builds a suffix automaton of the tokens, which says in
block-length steps whether the block occurs after a position at all.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence

Normalise = Callable[[str], str]

_MISSING = -1


class _SuffixAutomaton:
    """Every block of consecutive tokens, with the last position each one ends at."""

    __slots__ = ("_last_end", "_moves")

    def __init__(self, tokens: Sequence[int]) -> None:
        moves: list[dict[int, int]] = [{}]
        link = [-1]
        length = [0]
        last_end = [-1]
        tail = 0
        for position, token in enumerate(tokens):
            state = len(moves)
            moves.append({})
            link.append(0)
            length.append(length[tail] + 1)
            last_end.append(position)
            walker = tail
            while walker != -1 and token not in moves[walker]:
                moves[walker][token] = state
                walker = link[walker]
            if walker != -1:
                target = moves[walker][token]
                if length[walker] + 1 == length[target]:
                    link[state] = target
                else:
                    clone = len(moves)
                    moves.append(dict(moves[target]))
                    link.append(link[target])
                    length.append(length[walker] + 1)
                    last_end.append(-1)
                    while walker != -1 and moves[walker].get(token) == target:
                        moves[walker][token] = clone
                        walker = link[walker]
                    link[target] = clone
                    link[state] = clone
            tail = state
        # A state's end positions are its own and those of every state whose
        # suffix link leads to it: fold the maximum up, longest states first.
        by_length: list[list[int]] = [[] for _ in range(len(tokens) + 1)]
        for state, size in enumerate(length):
            by_length[size].append(state)
        for size in range(len(tokens), 0, -1):
            for state in by_length[size]:
                parent = link[state]
                if last_end[state] > last_end[parent]:
                    last_end[parent] = last_end[state]
        self._moves = moves
        self._last_end = last_end

    def occurs_from(self, block: Sequence[int], start: int) -> bool:
        """Whether ``block`` occurs starting at ``start`` or later."""
        state = 0
        for token in block:
            state = self._moves[state].get(token, _MISSING)
            if state == _MISSING:
                return False
        return self._last_end[state] - len(block) + 1 >= start


def _failure_table(block: Sequence[int]) -> list[int]:
    table = [0] * len(block)
    matched = 0
    for index in range(1, len(block)):
        while matched and block[index] != block[matched]:
            matched = table[matched - 1]
        if block[index] == block[matched]:
            matched += 1
        table[index] = matched
    return table


def _first_from(tokens: Sequence[int], block: Sequence[int], start: int) -> int | None:
    table = _failure_table(block)
    matched = 0
    for index in range(start, len(tokens)):
        token = tokens[index]
        while matched and token != block[matched]:
            matched = table[matched - 1]
        if token == block[matched]:
            matched += 1
            if matched == len(block):
                return index - matched + 1
    return None


class LineSearch:
    """The lines of one file, searched for blocks of lines compared after ``normalise``."""

    def __init__(self, lines: Sequence[str], normalise: Normalise) -> None:
        self._lines = lines
        self._normalise = normalise
        self._vocabulary: dict[str, int] | None = None
        self._tokens: list[int] = []
        self._automaton: _SuffixAutomaton | None = None

    def _tokenise(self) -> dict[str, int]:
        if self._vocabulary is None:
            vocabulary: dict[str, int] = {}
            self._tokens = [
                vocabulary.setdefault(self._normalise(line), len(vocabulary))
                for line in self._lines
            ]
            self._vocabulary = vocabulary
        return self._vocabulary

    def find(self, block: Sequence[str], start: int, *, at_end: bool = False) -> int | None:
        """The first index at or after ``start`` where ``block`` begins (only the last
        possible index when ``at_end``), or ``None``."""
        vocabulary = self._tokenise()
        wanted = [vocabulary.get(self._normalise(line), _MISSING) for line in block]
        if not wanted or _MISSING in wanted:
            return None
        if at_end:
            index = len(self._tokens) - len(wanted)
            window = self._tokens[index:] if index >= start else []
            return index if window == wanted else None
        if self._automaton is not None and not self._automaton.occurs_from(wanted, start):
            return None
        found = _first_from(self._tokens, wanted, start)
        if found is None and self._automaton is None:
            self._automaton = _SuffixAutomaton(self._tokens)
        return found


class AnchorSearch:
    """The lines of one file, searched for an ``@@`` anchor: a whole stripped line, else a
    part of a line."""

    def __init__(self, lines: Sequence[str]) -> None:
        self._lines = lines
        self._positions: dict[str, list[int]] | None = None

    def find(self, anchor: str, start: int) -> int | None:
        """The first index at or after ``start`` of a line that is ``anchor`` once stripped,
        else of a line that contains it, or ``None``."""
        if self._positions is None:
            positions: dict[str, list[int]] = {}
            for index, line in enumerate(self._lines):
                positions.setdefault(line.strip(), []).append(index)
            self._positions = positions
        whole = self._positions.get(anchor, [])
        at = bisect.bisect_left(whole, start)
        if at < len(whole):
            return whole[at]
        for index in range(start, len(self._lines)):
            if anchor in self._lines[index]:
                return index
        return None
