"""``CardError``: a prompt card that cannot be loaded, and why, and what to change."""

from __future__ import annotations

from pathlib import Path


class CardError(ValueError):
    """A card failed to load. The message names the card file, the field, and the fix.

    ``path``, ``field`` (``None`` for the file as a whole; dotted with list
    indexes, e.g. ``hosted_tools[0].config.context_size``), ``problem`` and
    ``fix`` are also available separately.
    """

    def __init__(self, path: Path, field: str | None, problem: str, fix: str) -> None:
        self.path = path
        self.field = field
        self.problem = problem.rstrip()
        self.fix = fix.rstrip()
        where = f"card {path}" + (f", field `{field}`" if field else "")
        problem_text = (
            self.problem if self.problem.endswith((".", "?", "!")) else self.problem + "."
        )
        super().__init__(f"{where}: {problem_text} Fix: {self.fix}")
