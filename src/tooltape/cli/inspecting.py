"""``tooltape inspect CASSETTE [--json]``: what a cassette holds, read through the codecs.

The human form gives, per interaction, the request (method, path, tools
sent), the response status and error, one line per call (its name and
arguments, then a short summary of its typed output, the provider's error,
or what the client answered), a line per output item that could not be read,
and the aggregated hosted outputs. ``--json`` prints the object documented
in ``docs/inspect-json.md``.
"""

from __future__ import annotations

import argparse
import difflib
import json
import shlex
from collections.abc import Mapping
from itertools import islice
from pathlib import Path
from typing import Any, cast

from tooltape.adapters.codec import HostedToolCodec
from tooltape.adapters.openai.codecs.envelope import describe_value
from tooltape.adapters.openai.codecs.registry import default_hosted_tool_codecs
from tooltape.cli.errors import EXIT_OK, CliError, UsageError
from tooltape.cli.folders import project_settings
from tooltape.cli.summaries import answer_text, call_detail, items_line, summarize
from tooltape.cli.terminal import Cell, Console, Style, align, plural, shorten
from tooltape.prompt.json_text import escape_surrogates
from tooltape.testing.cassette import (
    Cassette,
    CassetteError,
    live_policy,
    load_cassette,
    scrub_cassette,
)
from tooltape.testing.cassette._paths import irregular_file_error
from tooltape.testing.recorded.answers import RecordedAnswer
from tooltape.testing.recorded.calls import InspectedCall
from tooltape.testing.recorded.inspection import (
    InteractionReading,
    inspect_cassette,
    read_interactions,
    request_tools,
)

_JSON_SHAPE = """\
--json prints one object (documented in docs/inspect-json.md of the tooltape
source):
  {"cassette", "format", "interactions": [{"index", "method", "path",
   "status_code", "streamed", "response_status", "error": {"code", "message"}|null,
   "calls": [{"kind", "item_type", "id", "name", "arguments", "server_label",
              "status", "success", "message", "output"}],
   "hosted_outputs": {name: {...}}, "unread_items": [{"index", "message"}]}]}
"""
_SIBLINGS_SCANNED = 2000
_NOT_A_CASSETTE = "not a cassette"


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``tooltape inspect``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = _JSON_SHAPE
    parser.add_argument(
        "cassette", metavar="CASSETTE", help="a tooltape, vcrpy or pytest-recording cassette"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the machine-readable object (its shape is below)",
    )
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace, console: Console) -> int:
    return run_inspect(args.cassette, as_json=args.json, console=console)


def _missing(path: Path) -> UsageError:
    folder = path.parent
    if not folder.is_dir():
        return UsageError(f"{path}: no such file, and no folder {folder} either; check the path")
    try:
        names = [entry.name for entry in islice(folder.iterdir(), _SIBLINGS_SCANNED)]
    except OSError:
        names = []
    others = [name for name in names if name != path.name]
    close = difflib.get_close_matches(path.name, others, n=3, cutoff=0.6)
    guess = f" (did you mean {', '.join(str(folder / name) for name in close)}?)" if close else ""
    return UsageError(f"{path}: no such file{guess}; check the path")


def _what_json_holds(path: Path) -> str | None:
    """What a JSON file that is not a cassette holds, in a few words (``None``: not JSON)."""
    try:
        document: object = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if isinstance(document, dict):
        fields = cast("dict[str, object]", document)
        keys = list(fields)
        if {"kind", "spec"} <= set(keys):
            return "a wire spec snapshot (what `tooltape check --update-specs` writes)"
        if fields.get("object") == "response" or "output" in fields:
            return "a bare Responses API body, with no request recorded around it"
        shown = ", ".join(keys[:6]) + (", ..." if len(keys) > 6 else "")
        return f"a JSON object with the keys {shown}" if keys else "an empty JSON object"
    if isinstance(document, list):
        return f"a JSON list of {plural(len(cast('list[object]', document)), 'item')}"
    return f"a single JSON value ({describe_value(document)})"


def _not_a_cassette(path: Path) -> CliError:
    holds = (
        _what_json_holds(path)
        or "a document with neither a `tooltape` header nor an `interactions` list"
    )
    return CliError(
        f"{path} is not a cassette: it is {holds}. inspect reads a tooltape cassette "
        "(a JSON object with a `tooltape` header and `interactions`) or a vcrpy / "
        "pytest-recording cassette (YAML or JSON with an `interactions` list); pass one "
        "of those (cassettes live in ./cassettes, or the `cassette_dir` of [tool.tooltape])"
    )


def _load(argument: str) -> Cassette:
    path = Path(argument)
    if path.is_dir():
        raise UsageError(
            f"{argument} is a folder: pass one cassette file "
            f"(or run `{shlex.join(['tooltape', 'check', argument])}` for the whole folder)"
        )
    irregular = irregular_file_error(path)  # a pipe or device is never opened to find out
    if irregular is not None:
        raise UsageError(str(irregular))
    if not path.exists():
        raise _missing(path)
    try:
        return load_cassette(path)
    except CassetteError as exc:
        if exc.problem.startswith(_NOT_A_CASSETTE):
            raise _not_a_cassette(path) from None
        raise CliError(str(exc)) from None


def run_inspect(
    argument: str,
    *,
    as_json: bool,
    console: Console,
    codecs: Mapping[str, HostedToolCodec[Any, Any]] | None = None,
) -> int:
    """Print the cassette's interactions, as text or as the ``inspect --json`` object."""
    registry = dict(default_hosted_tool_codecs() if codecs is None else codecs)
    # Scrubbed before anything is shown: a line cut short could keep a piece of a key
    # no later redaction of the line would recognise.
    cassette = scrub_cassette(_load(argument), live_policy(project_settings().scrub))
    # A provider may send a lone surrogate, which no terminal encoding carries:
    # it is printed as the JSON escape it arrived as.
    if as_json:
        report = inspect_cassette(cassette, argument, registry)
        console.print(escape_surrogates(json.dumps(report, indent=2, ensure_ascii=False)))
        return EXIT_OK
    for line in render_cassette(cassette, argument, registry, console.style):
        console.print(escape_surrogates(line))
    return EXIT_OK


def _header(cassette: Cassette, name: str, style: Style) -> list[str]:
    lines = [style.paint(name, "bold")]
    if cassette.format == "tooltape":
        what = f"tooltape cassette ({cassette.header.source})"
    else:
        what = "vcrpy cassette (import it with `tooltape import`)"
    lines.append(f"  {what}, {plural(len(cassette.interactions), 'interaction')}")
    if cassette.format == "tooltape" and cassette.header.provenance:
        lines.append(
            style.paint(f"  provenance: {shorten(cassette.header.provenance, 100)}", "dim")
        )
    return lines


def _status_line(answer: RecordedAnswer, style: Style) -> str:
    code_colour = "red" if answer.status_code >= 400 else "green"
    parts = [
        style.paint(f"#{answer.index}", "bold"),
        f"{answer.method} {answer.path}",
        "->",
        style.paint(str(answer.status_code), code_colour),
    ]
    status = answer.response_status
    if status:
        parts.append(style.paint(status, "green" if status == "completed" else "yellow"))
    if answer.streamed:
        parts.append(style.paint("(streamed)", "cyan"))
    return "  ".join(parts)


def _call_row(call: InspectedCall) -> list[Cell]:
    status = call.status or ("ok" if call.success else "failed")
    return [
        Cell(call.item_type),
        Cell(call.id, "dim"),
        Cell(status, "green" if call.success else "red"),
        Cell(call_detail(call)),
    ]


def render_answer(reading: InteractionReading, style: Style) -> list[str]:
    """The lines describing one interaction."""
    answer = reading.answer
    lines = [_status_line(answer, style)]
    if answer.is_responses_call:
        tools = request_tools(answer)
        sent = ", ".join(
            f"{tool['type']} ({tool['name']})" if "name" in tool else str(tool["type"])
            for tool in tools
        )
        lines.append(f"    tools sent: {sent or 'none'}")
    if answer.items:
        lines.append(f"    output: {items_line(answer.items)}")
    if answer.error is not None:
        message = shorten(answer.error.message, 200)
        lines.append("    " + style.paint(f"error: {answer.error.code}: {message}", "red"))
    if reading.calls:
        lines.append(f"    {plural(len(reading.calls), 'call')}:")
        lines.extend(align([_call_row(call) for call in reading.calls], style, indent="      "))
    for entry in reading.unread:
        lines.append("    " + style.paint(f"not read: {shorten(entry.message, 200)}", "yellow"))
    if reading.hosted_outputs:
        lines.append("    hosted outputs:")
        rows = [
            [Cell(name, "cyan"), Cell(summarize(out))]
            for name, out in reading.hosted_outputs.items()
        ]
        lines.extend(align(rows, style, indent="      "))
    text = answer_text(answer.items)
    if text:
        lines.append(f"    answer: {json.dumps(shorten(text, 100), ensure_ascii=False)}")
    return lines


def render_cassette(
    cassette: Cassette,
    name: str,
    codecs: Mapping[str, HostedToolCodec[Any, Any]],
    style: Style,
) -> list[str]:
    """Every line of the human form."""
    lines = _header(cassette, name, style)
    for reading in read_interactions(cassette, codecs):
        lines.append("")
        lines.extend(render_answer(reading, style))
    return lines
