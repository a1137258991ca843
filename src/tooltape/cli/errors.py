"""Errors a command raises to stop with a message and an exit status."""

from __future__ import annotations

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2


class CliError(Exception):
    """A command cannot go on: ``message`` says what is wrong and what to do."""

    def __init__(self, message: str, *, code: int = EXIT_FAILURE) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class UsageError(CliError):
    """The command line asks for something that cannot be done as written (exit 2)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code=EXIT_USAGE)
