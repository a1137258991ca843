"""The ``cli`` fixture: run ``tooltape`` in-process and capture what it prints."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from cli_helpers import Run

from tooltape.cli import main


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """``cli("check", "DIR")`` runs ``tooltape check DIR`` in-process."""

    def run(*argv: str) -> Run:
        code = main(list(argv))
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run
