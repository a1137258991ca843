"""``RecordingComputer``: a ``Computer`` for tests that remembers what it was asked to do."""

from __future__ import annotations

import base64

from tooltape.tools.computer import ComputerAction

BLANK_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
)
"""A 1x1 transparent PNG: the screen a ``RecordingComputer`` shows by default."""


class RecordingComputer:
    """Performs nothing, records every action in ``performed``, and always shows ``screen``.

    Deterministic, so a recorded computer-use round trip replays the same
    screenshot; set ``fail_on`` to an action type to make that action raise.
    """

    def __init__(self, screen: bytes = BLANK_PNG, *, fail_on: str | None = None) -> None:
        self.screen = screen
        self.fail_on = fail_on
        self.performed: list[ComputerAction] = []

    def perform(self, action: ComputerAction) -> None:
        """Record ``action`` (or raise ``RuntimeError`` when its type is ``fail_on``)."""
        if action.type == self.fail_on:
            raise RuntimeError(f"the screen did not respond to {action.type}")
        self.performed.append(action)

    def screenshot(self) -> bytes:
        """The configured screen."""
        return self.screen
