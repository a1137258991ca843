"""``tooltape inspect CASSETTE [--json]``: what a cassette holds, read through the codecs.

The human form gives, per interaction, the request (method, path, tools
sent), the response status and error, one line per provider tool call item
of a registered kind with a short summary of its typed output, and the
aggregated hosted outputs. ``--json`` prints the object DESIGN.md specifies.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tooltape.adapters.codec import HostedCall, HostedToolCodec
from tooltape.adapters.openai.codecs.registry import default_hosted_tool_codecs
from tooltape.cli.errors import EXIT_OK, CliError, UsageError
from tooltape.cli.summaries import answer_text, items_line, summarize
from tooltape.cli.terminal import Cell, Console, Style, align, plural, shorten
from tooltape.testing.cassette import Cassette, CassetteError, load_cassette
from tooltape.testing.recorded.answers import RecordedAnswer, read_answers
from tooltape.testing.recorded.inspection import (
    inspect_cassette,
    ordered_calls,
    request_tools,
    typed_hosted_outputs,
)


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``tooltape inspect``."""
    parser.add_argument(
        "cassette", metavar="CASSETTE", help="a tooltape, vcrpy or pytest-recording cassette"
    )
    parser.add_argument(
        "--json", action="store_true", help="print the machine-readable object (see DESIGN.md)"
    )
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace, console: Console) -> int:
    return run_inspect(args.cassette, as_json=args.json, console=console)


def _load(argument: str) -> Cassette:
    path = Path(argument)
    if path.is_dir():
        raise UsageError(
            f"{argument} is a folder: pass one cassette file "
            f"(or run `tooltape check {argument}` for the whole folder)"
        )
    try:
        return load_cassette(path)
    except CassetteError as exc:
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
    cassette = _load(argument)
    if as_json:
        report = inspect_cassette(cassette, argument, registry)
        console.print(json.dumps(report, indent=2, ensure_ascii=False))
        return EXIT_OK
    for line in render_cassette(cassette, argument, registry, console.style):
        console.print(line)
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


def _call_row(call: HostedCall) -> list[Cell]:
    status = call.status or ("ok" if call.success else "failed")
    detail = summarize(call.output) if call.success else f"error: {call.error or 'no detail'}"
    return [
        Cell(call.item_type),
        Cell(call.id, "dim"),
        Cell(status, "green" if call.success else "red"),
        Cell(detail),
    ]


def render_answer(
    answer: RecordedAnswer, codecs: Mapping[str, HostedToolCodec[Any, Any]], style: Style
) -> list[str]:
    """The lines describing one interaction."""
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
    calls = ordered_calls(answer, codecs)
    if calls:
        lines.append(f"    {plural(len(calls), 'call')}:")
        lines.extend(align([_call_row(call) for call in calls], style, indent="      "))
    outputs = typed_hosted_outputs(answer, codecs, calls)
    if outputs:
        lines.append("    hosted outputs:")
        rows = [[Cell(name, "cyan"), Cell(summarize(out))] for name, out in outputs.items()]
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
    for answer in read_answers(cassette):
        lines.append("")
        lines.extend(render_answer(answer, codecs, style))
    return lines
