"""Terminal output: colour only where a person reads it, aligned tables, a progress bar.

Colour goes to a stream only when it is a terminal that draws escapes (a TTY,
and ``TERM`` is not ``dumb``) and ``NO_COLOR`` is unset or empty
(https://no-color.org). The progress bar is drawn on stderr, only on such a
terminal, and only once a run has lasted long enough to be worth one.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO, TypeVar

ItemT = TypeVar("ItemT")

_CODES = {"green": "32", "red": "31", "yellow": "33", "dim": "2", "bold": "1", "cyan": "36"}


def is_tty(stream: TextIO) -> bool:
    """Whether ``stream`` is an interactive terminal (never raises)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def draws_escapes(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``stream`` is a terminal that draws ANSI escapes: a TTY whose ``TERM`` is
    not ``dumb`` (Emacs' shell, some CI consoles: they print the escapes as text)."""
    env = os.environ if environ is None else environ
    return env.get("TERM") != "dumb" and is_tty(stream)


def wants_colour(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Colour for ``stream``: a terminal that draws escapes, and ``NO_COLOR`` unset or empty."""
    env = os.environ if environ is None else environ
    return not env.get("NO_COLOR") and draws_escapes(stream, env)


@dataclass(frozen=True, slots=True)
class Style:
    """Paints text with ANSI colours when ``enabled``, else leaves it alone."""

    enabled: bool

    def paint(self, text: str, colour: str | None) -> str:
        """``text`` in ``colour`` (a name of ``_CODES``), or plain."""
        if not self.enabled or colour is None or not text:
            return text
        return f"\033[{_CODES[colour]}m{text}\033[0m"


@dataclass(frozen=True, slots=True)
class Cell:
    """A table cell: its text and an optional colour name."""

    text: str
    colour: str | None = None


def table(
    headers: Sequence[str], rows: Sequence[Sequence[Cell]], style: Style, *, gap: int = 2
) -> list[str]:
    """Lines of an aligned table; widths come from the plain text, so colour never skews it."""
    widths = [len(header) for header in headers]
    for row in rows:
        for index, cell in enumerate(row):
            widths[index] = max(widths[index], len(cell.text))
    spacer = " " * gap
    header = spacer.join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
    lines = [style.paint(header.rstrip(), "bold")]
    for row in rows:
        padded = [
            style.paint(cell.text, cell.colour) + " " * (width - len(cell.text))
            for cell, width in zip(row, widths, strict=True)
        ]
        lines.append(spacer.join(padded))
    return [line.rstrip() for line in lines]


def align(rows: Sequence[Sequence[Cell]], style: Style, *, indent: str = "") -> list[str]:
    """Rows with aligned columns and no header line."""
    if not rows:
        return []
    columns = max(len(row) for row in rows)
    widths = [0] * columns
    for row in rows:
        for index, cell in enumerate(row):
            widths[index] = max(widths[index], len(cell.text))
    lines: list[str] = []
    for row in rows:
        padded = [
            style.paint(cell.text, cell.colour) + " " * (widths[index] - len(cell.text))
            for index, cell in enumerate(row)
        ]
        lines.append((indent + "  ".join(padded)).rstrip())
    return lines


def _unchanged(text: str) -> str:
    return text


@dataclass(frozen=True, slots=True)
class Console:
    """Where a command writes: ``out`` for results, ``err`` for errors and progress.

    Every line and error message goes through ``redact`` first (the command
    line gives one that hides credentials: a cassette edited by hand may hold
    one, and ``inspect`` would print it).
    """

    out: TextIO
    err: TextIO
    style: Style
    err_style: Style
    redact: Callable[[str], str] = _unchanged

    @classmethod
    def from_std(cls, redact: Callable[[str], str] = _unchanged) -> Console:
        """The process's current stdout and stderr (read at call time, so tests can swap them)."""
        out, err = sys.stdout, sys.stderr
        return cls(out, err, Style(wants_colour(out)), Style(wants_colour(err)), redact)

    def print(self, line: str = "") -> None:
        """Write one line to ``out``."""
        _write(self.out, self.redact(line) + "\n")

    def error(self, command: str, message: str) -> None:
        """Write ``tooltape <command>: error: <message>`` to ``err``."""
        label = self.err_style.paint("error", "red")
        _write(self.err, f"tooltape {command}: {label}: {self.redact(message)}\n")


def _write(stream: TextIO, text: str) -> None:
    """``text`` on ``stream``; what its encoding cannot hold (a lone surrogate a cassette's
    key carried, any non-ASCII on an ASCII terminal) written as a backslash escape."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "utf-8"
        stream.write(text.encode(encoding, "backslashreplace").decode(encoding))


def display_path(path: Path) -> str:
    """``path`` relative to the current directory when it lies inside it; a symlink is
    named as itself, not as its target."""
    try:
        # Only the folder is resolved when the path is a link: its target may be elsewhere,
        # or nowhere at all.
        absolute = path.parent.resolve() / path.name if path.is_symlink() else path.resolve()
        relative = absolute.relative_to(Path.cwd().resolve())
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
        return str(path)
    return str(relative) if str(relative) != "." else "."


def shorten(text: str, width: int = 60) -> str:
    """``text`` on one line, cut to ``width`` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1].rstrip() + "…"


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``1 cassette``, ``2 cassettes``."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


class Progress:
    """A one-line progress bar on a terminal, drawn only after ``delay`` seconds.

    It is cleared when closed, so nothing of it stays in the terminal or in
    captured output; on a stream that does not draw escapes (a pipe, a file, a
    ``TERM=dumb`` terminal) it does nothing at all.
    """

    def __init__(
        self,
        stream: TextIO,
        total: int,
        *,
        enabled: bool | None = None,
        delay: float = 0.4,
        width: int = 24,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._stream = stream
        self._total = max(total, 1)
        self._enabled = draws_escapes(stream) if enabled is None else enabled
        self._clock = clock
        self._started = clock()
        self._delay = delay
        self._width = width
        self._done = 0
        self._drawn = False

    def advance(self, label: str) -> None:
        """Count one step, named ``label``, and redraw when it is time to."""
        self._done = min(self._done + 1, self._total)
        if not self._enabled or self._clock() - self._started < self._delay:
            return
        filled = self._width * self._done // self._total
        bar = "#" * filled + "." * (self._width - filled)
        self._stream.write(f"\r\033[K[{bar}] {self._done}/{self._total} {shorten(label, 40)}")
        self._stream.flush()
        self._drawn = True

    def track(self, items: Iterable[ItemT], label: Callable[[ItemT], str]) -> Iterator[ItemT]:
        """Yield ``items``, advancing once per item."""
        for item in items:
            self.advance(label(item))
            yield item

    def close(self) -> None:
        """Erase the bar if it was drawn."""
        if self._drawn:
            self._stream.write("\r\033[K")
            self._stream.flush()
            self._drawn = False
