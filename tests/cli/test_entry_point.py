"""The real command, in a child process: ``python -m tooltape.cli`` and the console script."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from cli_helpers import REPO


def _run(*argv: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": ""}
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_python_m_tooltape_cli_check() -> None:
    done = _run(sys.executable, "-m", "tooltape.cli", "check")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""
    assert "every contract holds" in done.stdout
    assert "web_search" in done.stdout


def test_python_m_tooltape_cli_usage_error() -> None:
    done = _run(sys.executable, "-m", "tooltape.cli", "inspect")
    assert done.returncode == 2
    assert "usage: tooltape inspect" in done.stderr


def test_the_console_script_is_installed() -> None:
    script = shutil.which("tooltape", path=str(Path(sys.executable).parent))
    assert script is not None, "pip install -e . puts the tooltape script next to this Python"
    done = _run(script, "lint")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no findings" in done.stdout


def test_version() -> None:
    done = _run(sys.executable, "-m", "tooltape.cli", "--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"tooltape {metadata.version('tooltape')}"


def test_a_misspelt_option_shows_the_command_usage_and_the_option_meant() -> None:
    done = _run(sys.executable, "-m", "tooltape.cli", "check", "--strik")
    assert done.returncode == 2
    assert done.stderr.startswith("usage: tooltape check ")
    assert done.stderr.endswith(
        "tooltape check: error: unrecognized arguments: --strik (did you mean --strict?)\n"
    )


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="pseudo-terminals are POSIX")
@pytest.mark.parametrize(("term", "coloured"), [("xterm-256color", True), ("dumb", False)])
def test_colour_on_a_real_terminal_unless_it_is_dumb(term: str, coloured: bool) -> None:
    leader, follower = os.openpty()
    env = {**os.environ, "TERM": term}
    env.pop("NO_COLOR", None)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tooltape.cli", "check"],
            cwd=REPO,
            env=env,
            stdout=follower,
            stderr=subprocess.PIPE,
            timeout=120,
            check=False,
        )
        os.close(follower)
        written = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the terminal's other end is closed and all was read
                break
            if not chunk:
                break
            written += chunk
    finally:
        os.close(leader)
    assert done.returncode == 0, done.stderr
    assert b"every contract holds" in written
    assert (b"\033[" in written) is coloured
