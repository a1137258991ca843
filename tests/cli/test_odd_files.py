"""The ``tooltape`` command on files that are not plain cassettes: symlink loops, pipes.

Each case runs the installed command in a subprocess, as a user does, with a
timeout: a traceback, a hang or exit 0 on a broken input is a failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def tooltape(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "tooltape.cli", *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def symlink_loop(folder: Path) -> Path:
    """``a.json -> b.json -> a.json``; returns ``a.json``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "a.json").symlink_to("b.json")
    (folder / "b.json").symlink_to("a.json")
    return folder / "a.json"


@pytest.mark.parametrize("command", ["lint", "check"])
def test_a_symlink_loop_among_the_cassettes_is_a_finding_not_a_traceback(
    tmp_path: Path, command: str
) -> None:
    symlink_loop(tmp_path / "cassettes")
    done = tooltape(command, "cassettes", cwd=tmp_path)
    assert "Traceback" not in done.stdout + done.stderr
    assert done.returncode == 1, done.stdout + done.stderr
    assert "a.json" in done.stdout


def test_specs_of_a_module_file_in_a_symlink_loop_names_it(tmp_path: Path) -> None:
    (tmp_path / "a.py").symlink_to("b.py")
    (tmp_path / "b.py").symlink_to("a.py")
    done = tooltape("specs", "a.py:PROMPT", cwd=tmp_path)
    assert "Traceback" not in done.stdout + done.stderr
    assert done.returncode == 1
    assert "tooltape specs: error: 'a.py:PROMPT': a.py cannot be resolved" in done.stderr
    assert "ymlink loop" in done.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
@pytest.mark.parametrize(
    "argv", [("lint", "cassettes"), ("check", "cassettes"), ("inspect", "cassettes/pipe.json")]
)
def test_a_named_pipe_where_a_cassette_would_be_is_refused_without_waiting_on_it(
    tmp_path: Path, argv: tuple[str, ...]
) -> None:
    (tmp_path / "cassettes").mkdir()
    os.mkfifo(tmp_path / "cassettes" / "pipe.json")  # opening it for reading blocks for ever
    done = tooltape(*argv, cwd=tmp_path)
    assert "Traceback" not in done.stdout + done.stderr
    assert done.returncode == 1, done.stdout + done.stderr
    assert "pipe.json" in done.stdout + done.stderr
    assert "not a regular file" in done.stdout + done.stderr


@pytest.mark.parametrize("command", ["lint", "check"])
def test_a_cassette_dir_no_path_can_hold_is_a_settings_error(tmp_path: Path, command: str) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.tooltape]\ncassette_dir = "a\\u0000b"\n')
    done = tooltape(command, cwd=tmp_path)
    assert "Traceback" not in done.stdout + done.stderr
    assert done.returncode == 2
    assert "pyproject.toml: cassette_dir" in done.stderr
