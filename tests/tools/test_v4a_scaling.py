"""V4A updates cost time linear in the file and the diff, and find what a plain search finds.

Work is measured without a clock: the Python lines the patching code runs
(a deterministic count for one input). Doubling the file and the diff must
roughly double it; a search that compares the block at every position, or
rescans the whole file for every section, quadruples it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import tooltape.tools.v4a
from tooltape.tools.context_match import _SuffixAutomaton  # pyright: ignore[reportPrivateUsage]
from tooltape.tools.v4a import PatchError, apply_update

PATCHING_CODE = str(Path(tooltape.tools.v4a.__file__).parent)


@contextmanager
def counting_lines() -> Generator[list[int]]:
    counter = [0]

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            counter[0] += 1
        return local

    def calls(frame: FrameType, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename.startswith(PATCHING_CODE) else None

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        yield counter
    finally:
        sys.settrace(previous)


def work(text: str, diff: str) -> int:
    with counting_lines() as counter:
        apply_update(text, diff, path="big.py")
    return counter[0]


def numbered(count: int) -> list[str]:
    return [f"    value_{i} = compute({i})" for i in range(count)]


def one_block_at_the_end(size: int) -> tuple[str, str]:
    # The shape of a large rewrite: one section whose context is a tenth of the file.
    lines = numbered(size)
    block = lines[-size // 10 - 2 : -2]
    diff = "@@\n" + "".join(f" {line}\n" for line in block[:-1]) + f"-{block[-1]}\n+    done()\n"
    return "\n".join(lines) + "\n", diff


def sections_that_lost_trailing_whitespace(size: int) -> tuple[str, str]:
    # Every section matches only once trailing whitespace is ignored.
    lines = [f"{line}  " for line in numbered(size)]
    diff = "".join(
        f"@@\n {lines[i].rstrip()}\n-{lines[i + 1].rstrip()}\n+    changed_{i}()\n"
        for i in range(0, size, 20)
    )
    return "\n".join(lines) + "\n", diff


def sections_whose_lines_occur_elsewhere_in_another_order(size: int) -> tuple[str, str]:
    # Each exact search has every line of its block in the file, just never in
    # this order, so only an index of the whole file saves the scan to its end.
    names = [f"    name_{i}" for i in range(size // 2)]
    pairs = [line for i in range(0, len(names) - 1, 2) for line in (names[i + 1], names[i])]
    lines = names + [f"{line} " for line in pairs]
    diff = "".join(
        f"@@\n {names[i + 1]}\n-{names[i]}\n+    changed_{i}()\n"
        for i in range(0, len(names) - 1, 2)
    )
    return "\n".join(lines) + "\n", diff


def sections_anchored_on_part_of_a_line(size: int) -> tuple[str, str]:
    lines = [
        f"def step_{i}(self, x):" if i % 20 == 0 else line for i, line in enumerate(numbered(size))
    ]
    diff = "".join(
        f"@@ step_{i}(\n-{lines[i + 1]}\n+    changed_{i}()\n" for i in range(0, size, 20)
    )
    return "\n".join(lines) + "\n", diff


def growth(shape: Callable[[int], tuple[str, str]], size: int) -> float:
    return work(*shape(2 * size)) / work(*shape(size))


def test_one_large_section_costs_linear_work() -> None:
    text, diff = one_block_at_the_end(2000)
    assert apply_update(text, diff, path="big.py").endswith(
        "    done()\n    value_1998 = compute(1998)\n    value_1999 = compute(1999)\n"
    )
    assert growth(one_block_at_the_end, 2000) < 2.3


def test_many_loosely_matching_sections_cost_linear_work() -> None:
    text, diff = sections_that_lost_trailing_whitespace(2000)
    updated = apply_update(text, diff, path="big.py").splitlines()
    assert updated[1] == "    changed_0()" and updated[1981] == "    changed_1980()"
    assert growth(sections_that_lost_trailing_whitespace, 2000) < 2.3


def test_many_sections_found_only_loosely_cost_linear_work() -> None:
    text, diff = sections_whose_lines_occur_elsewhere_in_another_order(2000)
    updated = apply_update(text, diff, path="big.py").splitlines()
    assert updated[1000:1004] == [
        "    name_1",
        "    changed_0()",
        "    name_3",
        "    changed_2()",
    ]
    assert growth(sections_whose_lines_occur_elsewhere_in_another_order, 2000) < 2.3


def test_many_sections_anchored_on_part_of_a_line_cost_linear_work() -> None:
    text, diff = sections_anchored_on_part_of_a_line(2000)
    updated = apply_update(text, diff, path="big.py").splitlines()
    assert updated[1] == "    changed_0()" and updated[1981] == "    changed_1980()"
    assert growth(sections_anchored_on_part_of_a_line, 2000) < 2.3


# A plain statement of the rules, slow on purpose: each section searches
# the current text from the cursor, exactly, then ignoring trailing, then
# surrounding whitespace; anchors match a whole stripped line, else a part.
LOOSENESS: tuple[Callable[[str], str], ...] = (str, str.rstrip, str.strip)


def plain_find(lines: Sequence[str], block: Sequence[str], start: int, at_end: bool) -> int | None:
    for loosen in LOOSENESS:
        wanted = [loosen(line) for line in block]
        starts = [len(lines) - len(block)] if at_end else range(start, len(lines) - len(block) + 1)
        for index in starts:
            if index >= start and [loosen(x) for x in lines[index : index + len(block)]] == wanted:
                return index
    return None


def plain_anchor(lines: Sequence[str], anchor: str, start: int) -> int | None:
    whole = [i for i in range(start, len(lines)) if lines[i].strip() == anchor]
    part = [i for i in range(start, len(lines)) if anchor in lines[i]]
    return (whole or part or [None])[0]


def plain_update(text: str, diff: str) -> str | None:
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    cursor = 0
    sections: list[tuple[list[str], list[str], list[str], bool]] = []
    for line in diff.split("\n")[:-1]:
        if line.startswith("@@"):
            if not sections or sections[-1][1] or sections[-1][2]:
                sections.append(([], [], [], False))
            if line[2:].strip():
                sections[-1][0].append(line[2:].strip())
        elif line == "*** End of File":
            sections[-1] = (*sections[-1][:3], True)
        else:
            if not sections:
                sections.append(([], [], [], False))
            if line[0] in " -":
                sections[-1][1].append(line[1:])
            if line[0] in " +":
                sections[-1][2].append(line[1:])
    for anchors, old, new, at_end in sections:
        for anchor in anchors:
            found = plain_anchor(lines, anchor, cursor)
            if found is None:
                return None
            cursor = found + 1
        position = (
            (len(lines) if at_end else cursor)
            if not old
            else plain_find(lines, old, cursor, at_end)
        )
        if position is None:
            return None
        lines[position : position + len(old)] = new
        cursor = position + len(new)
    return "\n".join(lines) + "\n"


WORDS = st.sampled_from(["a", "b", " a", "a ", "  b", "c", ""])


@st.composite
def updates(draw: st.DrawFn) -> tuple[str, str]:
    text = "".join(f"{word}\n" for word in draw(st.lists(WORDS, max_size=12)))
    diff: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        anchor = draw(st.sampled_from(["", "", "a", "b", "x"]))
        diff.append(f"@@ {anchor}".rstrip())
        diff.extend(
            draw(st.sampled_from(" -+")) + draw(WORDS) for _ in range(draw(st.integers(1, 3)))
        )
        if draw(st.booleans()) and draw(st.booleans()):
            diff.append("*** End of File")
    return text, "\n".join(diff) + "\n"


@settings(max_examples=400, deadline=None)
@given(updates())
def test_updates_match_what_a_plain_search_finds(case: tuple[str, str]) -> None:
    text, diff = case
    try:
        updated: str | None = apply_update(text, diff, path="t")
    except PatchError:
        updated = None
    assert updated == plain_update(text, diff)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 3), max_size=30),
    st.lists(st.integers(0, 3), min_size=1, max_size=5),
    st.integers(0, 30),
)
def test_the_automaton_knows_whether_a_block_occurs_after_a_position(
    tokens: list[int], block: list[int], start: int
) -> None:
    occurs = any(
        tokens[i : i + len(block)] == block for i in range(start, len(tokens) - len(block) + 1)
    )
    assert _SuffixAutomaton(tokens).occurs_from(block, start) == occurs
