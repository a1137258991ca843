"""The ``cli`` fixture (run ``tooltape`` in-process and capture what it prints) and an empty
``project`` (modules that need another project define their own)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

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


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project root (the current directory) with a ``cassettes/`` folder."""
    (tmp_path / "cassettes").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path
