"""One exit status convention for every command, as ``tooltape --help`` states it.

0: done, nothing wrong found. 1: the command read what it was given and found
something wrong (a failing contract, a finding, a cassette or module that does
not read or is of no use, a source not imported). 2: the command line (or
``[tool.tooltape]``) cannot work as written, and nothing was read: a malformed
argument, a path or name that leads to nothing, or to the wrong kind of file.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import REPO, Run, clean_interaction, write_cassette

# Each command given a path or name that leads to nothing: a typo, the same mistake.
NOTHING_THERE = {
    "check": ["check", "no-such-folder"],
    "lint": ["lint", "no-such-folder"],
    "inspect": ["inspect", "no-such-file.json"],
    "inspect in no folder": ["inspect", "no-such-folder/c.json"],
    "import": ["import", "no-such-file.yaml", "--out", "out"],
    "specs of a file": ["specs", "no_such_file.py:PROMPT"],
    "specs of a module": ["specs", "no_such_module_anywhere:PROMPT"],
    "specs of an attribute": ["specs", "prompts.py:NO_SUCH_PROMPT"],
}


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with one clean cassette and a module defining a prompt."""
    (tmp_path / "pyproject.toml").write_text("[tool.tooltape]\n")
    write_cassette(tmp_path / "cassettes" / "imported" / "clean.json", clean_interaction())
    (tmp_path / "prompts.py").write_text(
        "from tooltape import Prompt, MarkdownSection\n"
        "PROMPT = Prompt(ns='t', key='p', sections=[MarkdownSection(title='T', key='t', "
        "template='Hi.')])\n"
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("argv", list(NOTHING_THERE.values()), ids=list(NOTHING_THERE))
def test_a_path_or_name_leading_to_nothing_exits_2_naming_it(
    cli: Callable[..., Run], here: Path, argv: list[str]
) -> None:
    run = cli(*argv)
    assert run.code == 2, run.err
    assert run.out == ""
    named = next(arg for arg in argv[1:] if "no_such" in arg.lower() or "no-such" in arg)
    assert named.split(":")[-1 if "NO_SUCH" in named else 0].split("/")[0] in run.err
    assert "Traceback" not in run.err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
@pytest.mark.parametrize("kind", ["folder", "named pipe", "dangling symlink"])
def test_inspect_of_what_is_no_cassette_file_exits_2(
    cli: Callable[..., Run], here: Path, kind: str
) -> None:
    path = here / "odd.json"
    if kind == "folder":
        path.mkdir()
    elif kind == "named pipe":
        os.mkfifo(path)
    else:
        path.symlink_to("nowhere.json")
    run = cli("inspect", "odd.json")
    assert run.code == 2, run.err
    assert "odd.json" in run.err


def test_import_refuses_a_missing_source_before_writing_any(
    cli: Callable[..., Run], here: Path
) -> None:
    run = cli("import", "cassettes/imported/clean.json", "typo.yaml", "--out", "out")
    assert run.code == 2
    assert "typo.yaml" in run.err and "no such file" in run.err
    assert not (here / "out").exists()


def test_a_name_no_file_system_takes_exits_2(cli: Callable[..., Run], here: Path) -> None:
    run = cli("inspect", "c" * 300 + ".json")
    assert run.code == 2
    assert "File name too long" in run.err


@pytest.mark.parametrize(
    ("argv", "text"),
    [
        (["inspect", "broken.json"], "{not json"),
        (["inspect", "list.json"], "[1, 2, 3]\n"),
        (["specs", "raises.py:PROMPT"], "raise RuntimeError('no')\n"),
        (["specs", "number.py:PROMPT"], "PROMPT = 3\n"),
    ],
)
def test_what_was_read_and_is_wrong_exits_1(
    cli: Callable[..., Run], here: Path, argv: list[str], text: str
) -> None:
    (here / argv[1].split(":")[0]).write_text(text)
    assert cli(*argv).code == 1


def test_the_convention_is_in_the_help(cli: Callable[..., Run]) -> None:
    run = cli("--help")
    assert run.code == 0
    assert "exit status:" in run.out
    for line in ("  0  ", "  1  ", "  2  "):
        assert line in run.out
    for command in ("check", "lint", "inspect", "import", "specs"):
        assert "exit status: 0" in cli(command, "--help").out


def test_commands_printed_for_a_folder_with_a_space_run_as_pasted(
    cli: Callable[..., Run], here: Path
) -> None:
    folder = here / "my cassettes"
    (here / "cassettes").rename(folder)
    web_search = REPO / "cassettes" / "imported" / "model_web_search_tool.json"
    (folder / "imported" / web_search.name).write_bytes(web_search.read_bytes())

    check = cli("check", "my cassettes")
    assert "`tooltape check 'my cassettes' --update-specs`" in check.out
    inspect = cli("inspect", "my cassettes")
    assert "`tooltape check 'my cassettes'`" in inspect.err
