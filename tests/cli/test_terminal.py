"""Terminal behaviour: colour only on a TTY without NO_COLOR, aligned tables, the progress bar,
usage errors."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable

import pytest
from cli_helpers import REPO, FakeTerminal, Run

from tooltape.cli.terminal import Cell, Console, Progress, Style, table, wants_colour

ANSI = re.compile(r"\033\[[0-9;]*[mK]")


def test_colour_needs_a_tty_and_no_NO_COLOR() -> None:
    assert wants_colour(FakeTerminal(), {})
    assert wants_colour(FakeTerminal(), {"NO_COLOR": ""})  # empty means unset (no-color.org)
    assert not wants_colour(FakeTerminal(), {"NO_COLOR": "1"})
    assert not wants_colour(io.StringIO(), {})


def test_check_is_coloured_on_a_terminal_only(
    cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    monkeypatch.delenv("NO_COLOR", raising=False)
    plain = cli("check").out
    assert not ANSI.search(plain)

    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    cli("check")
    coloured = terminal.getvalue()
    assert "\033[32mok\033[0m" in coloured
    assert ANSI.sub("", coloured) == plain  # colour changes nothing else, alignment included

    monkeypatch.setenv("NO_COLOR", "1")
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    cli("check")
    assert terminal.getvalue() == plain


def test_table_alignment_ignores_colour() -> None:
    rows = [[Cell("a", "red"), Cell("long value")], [Cell("longer", "green"), Cell("x")]]
    plain = table(("h", "second"), rows, Style(False))
    coloured = table(("h", "second"), rows, Style(True))
    assert [ANSI.sub("", line) for line in coloured] == plain
    assert plain == ["h       second", "a       long value", "longer  x"]


def test_progress_draws_only_after_its_delay_and_erases_itself() -> None:
    now = [0.0]
    stream = FakeTerminal()
    progress = Progress(stream, 4, delay=1.0, clock=lambda: now[0])
    progress.advance("first")
    assert stream.getvalue() == ""  # a short run shows nothing
    now[0] = 2.0
    progress.advance("second.json")
    assert stream.getvalue().endswith("[############............] 2/4 second.json")
    progress.close()
    assert stream.getvalue().endswith("\r\033[K")

    silent = io.StringIO()
    quiet = Progress(silent, 2, delay=0)
    quiet.advance("x")
    quiet.close()
    assert silent.getvalue() == ""  # never on a pipe or a file


@pytest.mark.parametrize(
    "argv",
    [[], ["bogus"], ["inspect"], ["import", "x.yaml"], ["specs"], ["check", "--nope"]],
)
def test_usage_errors_exit_2(cli: Callable[..., Run], argv: list[str]) -> None:
    run = cli(*argv)
    assert run.code == 2
    assert "usage: tooltape" in run.err


def test_help_exits_0(cli: Callable[..., Run]) -> None:
    run = cli("--help")
    assert run.code == 0
    for command in ("check", "inspect", "import", "lint", "specs"):
        assert command in run.out


def test_what_the_terminal_cannot_encode_is_written_as_escapes() -> None:
    # A lone surrogate (from a cassette's key, or a file name) on a UTF-8 stdout, and a
    # degree sign on an ASCII one: both strict, as Python's own stdout is.
    for encoding, text, shown in (
        ("utf-8", "a\ud800b", "a\\ud800b"),
        ("ascii", "73°F", "73\\xb0F"),
    ):
        raw = io.BytesIO()
        out = io.TextIOWrapper(raw, encoding=encoding, errors="strict")
        Console(out, out, Style(False), Style(False)).print(text)
        Console(out, out, Style(False), Style(False)).error("inspect", text)
        out.flush()
        assert raw.getvalue().decode(encoding) == f"{shown}\ntooltape inspect: error: {shown}\n"


def test_a_dumb_terminal_gets_no_colour_and_no_progress_bar(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert not wants_colour(FakeTerminal(), {"TERM": "dumb"})
    assert wants_colour(FakeTerminal(), {"TERM": "xterm-256color"})
    monkeypatch.setenv("TERM", "dumb")
    stream = FakeTerminal()
    progress = Progress(stream, 2, delay=0)
    progress.advance("x")
    progress.close()
    assert stream.getvalue() == ""  # a dumb terminal shows the escapes as text


@pytest.mark.parametrize(
    ("argv", "usage", "unknown", "meant"),
    [
        (["check", "--strik"], "usage: tooltape check ", "--strik", "--strict"),
        (
            ["check", "cassettes", "--updatespecs"],
            "usage: tooltape check ",
            "--updatespecs",
            "--update-specs",
        ),
        (
            ["import", "a.yaml", "--out", "o", "--forse"],
            "usage: tooltape import ",
            "--forse",
            "--force",
        ),
        (["lint", "--zzz"], "usage: tooltape lint ", "--zzz", None),
        (["--verison", "check"], "usage: tooltape [-h]", "--verison", "--version"),
    ],
)
def test_an_unknown_option_shows_its_command_usage_and_the_option_meant(
    cli: Callable[..., Run], argv: list[str], usage: str, unknown: str, meant: str | None
) -> None:
    run = cli(*argv)
    assert run.code == 2
    assert run.err.startswith(usage), run.err
    last = run.err.splitlines()[-1]
    assert f"unrecognized arguments: {unknown}" in last
    if meant is None:
        assert "did you mean" not in last
    else:
        assert last.endswith(f" (did you mean {meant}?)")
