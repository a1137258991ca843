"""The V4A diff format of the provider's ``apply_patch`` operations, applied to text.

A ``create_file`` diff is the new file with every line prefixed by ``+``.
An ``update_file`` diff is a list of sections; each starts with ``@@``
(optionally followed by a line of the file, such as ``@@ def main():``, that
anchors the section) and holds context (`` ``), removed (``-``) and added
(``+``) lines of one contiguous region. Sections apply in order, each after
the previous one; ``*** End of File`` pins a section to the end of the file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tooltape.tools.context_match import AnchorSearch, LineSearch

_ENVELOPE = ("*** Begin Patch", "*** End Patch", "*** Update File:", "*** Add File:")
_END_OF_FILE = "*** End of File"


class PatchError(ValueError):
    """A diff is malformed or does not match the file; the message tells a model what to fix."""


@dataclass(slots=True)
class _Section:
    anchors: list[str] = field(default_factory=lambda: [])
    old: list[str] = field(default_factory=lambda: [])
    new: list[str] = field(default_factory=lambda: [])
    at_end: bool = False
    started: bool = False


def _diff_lines(diff: str) -> list[str]:
    lines = diff.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def create_text(diff: str) -> str:
    """The content of a new file from a ``create_file`` diff."""
    body: list[str] = []
    for number, line in enumerate(_diff_lines(diff), start=1):
        if line == _END_OF_FILE or line.startswith(_ENVELOPE):
            continue
        if not line.startswith("+"):
            raise PatchError(
                f"create_file diff line {number} is {line!r}; every line of a new file must "
                "start with '+'."
            )
        body.append(line[1:])
    return "\n".join(body) + "\n" if body else ""


def _parse_sections(diff: str) -> list[_Section]:
    sections: list[_Section] = [_Section()]
    for number, line in enumerate(_diff_lines(diff), start=1):
        current = sections[-1]
        if line.startswith("@@"):
            anchor = line[2:].strip()
            if current.started:
                current = _Section()
                sections.append(current)
            if anchor:
                current.anchors.append(anchor)
        elif line == _END_OF_FILE:
            current.at_end = True
        elif line.startswith(_ENVELOPE):
            continue
        elif line == "" or line[0] == " ":
            current.old.append(line[1:])
            current.new.append(line[1:])
            current.started = True
        elif line[0] == "-":
            current.old.append(line[1:])
            current.started = True
        elif line[0] == "+":
            current.new.append(line[1:])
            current.started = True
        else:
            raise PatchError(
                f"update_file diff line {number} is {line!r}; each line must start with ' ' "
                "(context), '-' (remove), '+' (add) or '@@' (new section)."
            )
    return [s for s in sections if s.started or s.anchors]


# Exact first, then ignoring trailing and finally surrounding whitespace, so a
# model that lost indentation still patches the intended lines.
_MATCHERS: tuple[Callable[[str], str], ...] = (
    lambda text: text,
    lambda text: text.rstrip(),
    lambda text: text.strip(),
)


def _describe(section: _Section, number: int) -> str:
    where = "".join(f" after '@@ {a}'" for a in section.anchors)
    expected = "\n".join(f"  |{text}" for text in section.old)
    return f"section {number}{where}; expected these lines in order:\n{expected}"


def apply_update(text: str, diff: str, *, path: str) -> str:
    """``text`` with an ``update_file`` diff applied; raises ``PatchError`` if it does not fit.

    Time is linear in the lengths of ``text`` and ``diff``.
    """
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(newline)
    ends_with_newline = bool(lines) and lines[-1] == ""
    if ends_with_newline:
        lines.pop()
    sections = _parse_sections(diff)
    if not sections:
        raise PatchError(f"The update_file diff for {path} has no changes; send '-'/'+' lines.")
    # Every search runs on the original lines after the cursor, which no
    # earlier section changed; the result is assembled once, left to right.
    searches = [LineSearch(lines, normalise) for normalise in _MATCHERS]
    anchors = AnchorSearch(lines)
    result: list[str] = []
    cursor = copied = 0
    for number, section in enumerate(sections, start=1):
        for anchor in section.anchors:
            found = anchors.find(anchor, cursor)
            if found is None:
                raise PatchError(
                    f"{path}: section {number}: no line matching '@@ {anchor}' after line "
                    f"{cursor + 1}. Re-read the file and anchor the section on a line it has."
                )
            cursor = found + 1
        if not section.old:
            position = len(lines) if section.at_end else cursor
        else:
            found = _find_block(searches, section, cursor)
            if found is None:
                raise PatchError(
                    f"{path}: the diff does not match the file at {_describe(section, number)}\n"
                    "Re-read the file and send context and '-' lines exactly as they are."
                )
            position = found
        result.extend(lines[copied:position])
        result.extend(section.new)
        copied = cursor = position + len(section.old)
    result.extend(lines[copied:])
    return newline.join(result) + (newline if ends_with_newline or not text else "")


def _find_block(searches: list[LineSearch], section: _Section, start: int) -> int | None:
    for search in searches:
        found = search.find(section.old, start, at_end=section.at_end)
        if found is not None:
            return found
    return None
