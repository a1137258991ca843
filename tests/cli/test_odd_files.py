"""The ``tooltape`` command on files that are not plain cassettes: symlink loops, pipes,
devices, symlinks to nothing.

Cases that could hang run the installed command in a subprocess, as a user
does, with a timeout: a traceback, a hang or exit 0 on a broken input is a
failure. The others run it in-process (the ``cli`` fixture).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import Run


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
    assert done.returncode == 2
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
    # in a folder it is a finding; named on the command line, no file to read (usage)
    assert done.returncode == (2 if argv[0] == "inspect" else 1), done.stdout + done.stderr
    assert "pipe.json" in done.stdout + done.stderr
    assert "not a regular file" in done.stdout + done.stderr


@pytest.mark.parametrize("command", ["lint", "check"])
def test_a_cassette_dir_no_path_can_hold_is_a_settings_error(tmp_path: Path, command: str) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.tooltape]\ncassette_dir = "a\\u0000b"\n')
    done = tooltape(command, cwd=tmp_path)
    assert "Traceback" not in done.stdout + done.stderr
    assert done.returncode == 2
    assert "pyproject.toml: cassette_dir" in done.stderr


def _odd_files(folder: Path) -> dict[str, Path]:
    """A folder of cassette names that no cassette sits behind: a symlink to ``/dev/zero``,
    a named pipe and a symlink to nothing."""
    folder.mkdir(parents=True, exist_ok=True)
    odd = {"zero": folder / "zero.json", "pipe": folder / "pipe.yaml", "gone": folder / "gone.json"}
    odd["zero"].symlink_to("/dev/zero")
    os.mkfifo(odd["pipe"])
    odd["gone"].symlink_to("nowhere.json")
    return odd


posix_only = pytest.mark.skipif(
    not hasattr(os, "mkfifo") or not Path("/dev/zero").exists(), reason="pipes, /dev/zero: POSIX"
)

SAID = {
    "zero": "is not a regular file: it is a symlink to /dev/zero, a character device",
    "pipe": "is not a regular file: it is a named pipe",
    "gone": "is a symlink to nowhere.json, which does not exist",
}


@posix_only
@pytest.mark.parametrize("name", list(SAID))
def test_importing_what_is_no_regular_file_says_what_it_is(
    cli: Callable[..., Run], tmp_path: Path, name: str
) -> None:
    source = _odd_files(tmp_path / "src")[name]
    run = cli("import", str(source), "--out", str(tmp_path / "out"))
    assert run.code == 2
    assert f"{source} {SAID[name]}: pass cassette files" in run.err
    assert "no such file" not in run.err


@posix_only
def test_importing_a_folder_names_each_file_it_skips_and_why(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    odd = _odd_files(tmp_path / "src")
    (tmp_path / "src" / "sub.json").mkdir()  # a folder with a cassette's name is walked
    run = cli("import", str(tmp_path / "src"), "--out", str(tmp_path / "out"))
    assert run.code == 1
    for name, path in odd.items():
        assert f"skipped  {path}: {SAID[name]}" in run.out
    assert "0 cassettes written" in run.out and "3 not" in run.out


def test_inspect_of_a_dangling_symlink_names_its_missing_target(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    link = tmp_path / "gone.json"
    link.symlink_to("nowhere.json")
    run = cli("inspect", str(link))
    assert run.code == 2
    assert f"{link}: is a symlink to nowhere.json, which does not exist" in run.err
    assert "did you mean" not in run.err


def test_lint_names_a_dangling_symlink_by_its_own_name(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "cassettes").mkdir()
    (tmp_path / "cassettes" / "test_x.json").symlink_to("nowhere.json")
    monkeypatch.chdir(tmp_path)
    run = cli("lint", "cassettes")
    assert run.code == 1
    lines = run.out.splitlines()
    assert "cassettes/test_x.json" in lines
    assert "is a symlink to nowhere.json, which does not exist" in run.out
    assert "nowhere.json" not in [line.strip() for line in lines]
    assert "cassettes/nowhere.json" not in run.out
    assert "--record-mode=once" not in run.out


@posix_only
@pytest.mark.parametrize("kind", ["device", "pipe", "link"])
def test_specs_of_a_path_that_is_no_regular_file_says_what_it_is(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    monkeypatch.chdir(tmp_path)
    odd = _odd_files(tmp_path / "src")
    path, said = {
        "device": ("/dev/zero", "/dev/zero is not a regular file: it is a character device"),
        "pipe": (str(odd["pipe"]), f"{odd['pipe']} {SAID['pipe']}"),
        "link": ("src/gone.json", f"src/gone.json {SAID['gone']}"),
    }[kind]
    run = cli("specs", f"{path}:PROMPT")
    assert run.code == 2
    assert said in run.err
    assert "no file" not in run.err


@pytest.mark.parametrize("command", ["inspect", "lint", "check", "import"])
def test_a_path_with_a_name_longer_than_a_file_system_takes_is_named(
    cli: Callable[..., Run], tmp_path: Path, command: str
) -> None:
    # Python 3.11's Path.is_dir() and exists() raise ENAMETOOLONG rather than say False.
    path = tmp_path / ("c" * 300 + ".json")
    argv = [command, str(path)] if command != "import" else [command, "--out", "o", str(path)]
    run = cli(*argv)
    assert run.code != 0
    assert "Traceback" not in run.out + run.err
    assert f"{path}: File name too long; give a shorter path" in run.err


def _broken_link(path: Path, kind: str) -> str:
    """A symlink at ``path`` that loops or leads nowhere; what the error says about it."""
    if kind == "loop":
        path.symlink_to(path.name)
        return f"is a symlink to {path.name} that cannot be followed"
    path.symlink_to("gone")
    return "is a symlink to gone, which does not exist"


@pytest.mark.parametrize("command", ["lint", "check"])
@pytest.mark.parametrize("kind", ["loop", "dangling"])
def test_a_cassette_dir_that_is_a_broken_symlink_is_named_as_the_link(
    cli: Callable[..., Run],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    kind: str,
) -> None:
    # A loop raised a traceback; a link to nothing passed as a project with nothing recorded.
    (tmp_path / "pyproject.toml").write_text('[tool.tooltape]\ncassette_dir = "cas"\n')
    said = _broken_link(tmp_path / "cas", kind)
    monkeypatch.chdir(tmp_path)
    run = cli(command)
    assert run.code == 2, run.out
    assert (
        f"cassette folder cas (cassette_dir from {tmp_path / 'pyproject.toml'}) {said}" in run.err
    )
    assert "point the link at" in run.err
    assert "gone:" not in run.err + run.out and "no cassettes in gone" not in run.out


@pytest.mark.parametrize("command", ["lint", "check"])
@pytest.mark.parametrize("kind", ["loop", "dangling"])
def test_a_folder_argument_that_is_a_broken_symlink_is_not_called_missing(
    cli: Callable[..., Run],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    kind: str,
) -> None:
    said = _broken_link(tmp_path / "cas", kind)
    monkeypatch.chdir(tmp_path)
    run = cli(command, "cas")
    assert run.code == 2
    assert f"cas {said}" in run.err and "does not exist:" not in run.err
