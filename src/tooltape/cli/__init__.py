"""The ``tooltape`` command: ``check``, ``inspect``, ``import``, ``lint`` and ``specs``.

``main(argv)`` returns the exit status of :data:`EXIT_STATUS`: 0 when all is
well, 1 when what was read fails (a check, a finding, a file that does not
read), 2 for a command line that cannot work as written (nothing read).
Errors go to stderr and name the file (or target) and what to do.
"""

from __future__ import annotations

import argparse
import difflib
import errno
import os
import re
import sys
from collections.abc import Callable, Sequence
from importlib import metadata
from typing import TYPE_CHECKING

from tooltape.cli import check, importing, inspecting, lint, specs
from tooltape.cli.errors import EXIT_FAILURE, EXIT_USAGE, CliError
from tooltape.cli.folders import project_settings
from tooltape.cli.terminal import Console
from tooltape.testing.cassette import live_secrets, redaction
from tooltape.testing.contracts import UnreadableFolderError

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = ["main"]

_COMMANDS: tuple[tuple[str, str, Callable[[argparse.ArgumentParser], None]], ...] = (
    (
        "check",
        "replay every cassette through the codecs and print the contract matrix",
        check.configure,
    ),
    ("inspect", "show what a cassette holds, read through the codecs", inspecting.configure),
    (
        "import",
        "convert vcrpy / pytest-recording cassettes to scrubbed tooltape ones",
        importing.configure,
    ),
    ("lint", "find secrets, escaped or binary bodies and cassettes no test uses", lint.configure),
    ("specs", "print the request body a prompt would send", specs.configure),
)


EXIT_STATUS = """\
exit status:
  0    done, and nothing wrong found (lint and check say so, also for a
       project with nothing recorded yet)
  1    what was read is wrong: a contract fails, lint finds something, a
       cassette or module does not read or is of no use, a source is not
       imported, the system refuses to read a file
  2    the command line cannot work as written, and nothing was read: an
       unknown option or malformed argument, a path or name that leads to
       nothing (no such file, folder, module or attribute, a dangling
       symlink) or to the wrong kind of file (a folder for a file, a file
       for a folder, a named pipe), settings in [tool.tooltape] that
       cannot be used
  130  interrupted (Ctrl-C)
  141  the reader of the output left (`tooltape ... | head`)
"""
"""The exit statuses of every command, as ``tooltape --help`` shows them."""

_COMMAND_EXIT_STATUS = """\
exit status: 0 all is well, 1 something read is wrong, 2 the command line
cannot work as written, nothing read (`tooltape --help` says more)"""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose messages (a usage error quotes the argument it refuses:
    ``--api-key=sk-...``) hide credentials, as everything else a command prints."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        super()._print_message(_credentials_hidden()(message) if message else message, file)


def build_parser() -> argparse.ArgumentParser:
    """The ``tooltape`` argument parser with one sub-parser per command."""
    parser = _Parser(
        prog="tooltape",
        description="Record, replay and contract-check LLM tool calls on the OpenAI Responses API.",
        epilog=EXIT_STATUS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"tooltape {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, summary, configure in _COMMANDS:
        command = commands.add_parser(
            name,
            help=summary,
            description=summary[0].upper() + summary[1:] + ".",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        configure(command)
        command.set_defaults(command_parser=command)
        command.epilog = "\n".join(filter(None, (command.epilog, _COMMAND_EXIT_STATUS)))
    return parser


def _version() -> str:
    try:
        return metadata.version("tooltape")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``tooltape`` with ``argv`` (default: the process arguments); return the exit status."""
    parser = build_parser()
    try:
        args = _parse(parser, list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:  # argparse exits on --help (0) and on usage errors (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    console = Console.from_std(redact=_credentials_hidden())
    if args.command is None:
        parser.print_help(console.err)
        return EXIT_USAGE
    try:
        status: int = args.handler(args, console)
    except CliError as exc:
        console.error(args.command, exc.message)
        return exc.code
    except UnreadableFolderError as exc:  # names the folder and the fix
        console.error(args.command, str(exc))
        return EXIT_FAILURE
    except KeyboardInterrupt:
        console.error(args.command, "interrupted")
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 141  # the reader (`head`, a pager) left: stop quietly, as 128 + SIGPIPE
    except OSError as exc:  # the system refused a path: a name too long, a folder not readable
        console.error(args.command, _system_refusal(exc))
        # a name no file system takes leads to nothing, as a path that does not exist
        return EXIT_USAGE if exc.errno == errno.ENAMETOOLONG else EXIT_FAILURE
    return status


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """``argv`` parsed; an unknown option is a usage error of the command it follows
    (argparse would show ``tooltape``'s usage), naming the option it most looks like."""
    args, unknown = parser.parse_known_args(argv)
    if not unknown:
        return args
    command: argparse.ArgumentParser | None = getattr(args, "command_parser", None)
    given = argv.index(args.command) if args.command in argv else len(argv)
    owner = parser if command is None or unknown[0] in argv[:given] else command
    owner.error(f"unrecognized arguments: {' '.join(unknown)}{_meant(unknown, owner)}")


_OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")


def _meant(unknown: Sequence[str], parser: argparse.ArgumentParser) -> str:
    """`` (did you mean --strict?)`` for the options among ``unknown`` close to one of
    ``parser``'s (those its usage lists)."""
    options = _OPTION.findall(parser.format_usage())
    meant = [
        close[0]
        for word in unknown
        if word.startswith("-")
        and (close := difflib.get_close_matches(word.split("=", 1)[0], options, n=1))
    ]
    return f" (did you mean {' or '.join(dict.fromkeys(meant))}?)" if meant else ""


def _system_refusal(error: OSError) -> str:
    """What the system refused, naming the path, and what to do about it."""
    if error.filename is None:
        return f"{error}; check the paths given and run again"
    reason = error.strerror or type(error).__name__
    fix = (
        "give a shorter path (a file system takes names of at most 255 bytes)"
        if error.errno == errno.ENAMETOOLONG
        else "check the path and its permissions, then run again"
    )
    return f"{error.filename}: {reason}; {fix}"


def _credentials_hidden() -> Callable[[str], str]:
    """What hides credentials in everything a command prints: the key shapes tooltape
    knows, the project's own patterns, and the live values in the environment."""
    try:
        scrub = project_settings().scrub
    except CliError:  # the command itself reports what is wrong with the settings
        scrub = None
    return redaction(scrub, live_secrets(os.environ))


def _silence_stdout() -> None:
    # Python would otherwise report the broken pipe again when it flushes stdout at exit.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
