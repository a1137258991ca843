"""One-line summaries of typed hosted tool outputs, for ``tooltape inspect``.

A person scanning a cassette wants the query, the code's first line, the
image's size and weight or the MCP tool name, not the whole JSON (that is
what ``--json`` is for).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from itertools import groupby
from typing import Any, cast

from tooltape.adapters.openai.reading import field
from tooltape.cli.terminal import plural, shorten
from tooltape.testing.recorded.calls import Arguments, InspectedCall
from tooltape.tools.code_interpreter import CodeInterpreterResult
from tooltape.tools.file_search import FileSearchResult
from tooltape.tools.image_generation import ImageGenerationResult
from tooltape.tools.mcp import HostedMcpResult
from tooltape.tools.rendering import output_json
from tooltape.tools.shell import ShellResult
from tooltape.tools.web_search import WebSearchCall, WebSearchResult


def byte_size(count: int) -> str:
    """``532 B``, ``14.2 kB``, ``1.3 MB``."""
    if count < 1000:
        return f"{count} B"
    if count < 1_000_000:
        return f"{count / 1000:.1f} kB"
    return f"{count / 1_000_000:.1f} MB"


def _quoted(text: str, width: int = 60) -> str:
    return json.dumps(shorten(text, width), ensure_ascii=False)


def _search(call: WebSearchCall) -> str:
    if call.action == "search":
        queries = [q for q in (call.query, *call.queries) if q]
        unique = list(dict.fromkeys(queries))
        found = f", {plural(len(call.sources), 'source')}" if call.sources else ""
        return "search " + ", ".join(_quoted(q) for q in unique) + found if unique else "search"
    if call.action == "open_page":
        return f"open_page {call.url or '?'}"
    if call.action == "find_in_page":
        return f"find_in_page {_quoted(call.pattern or '')} in {call.url or '?'}"
    return call.action


def _web_search(output: WebSearchResult) -> list[str]:
    parts = [_search(call) for call in output.searches]
    if output.citations:
        parts.append(plural(len(output.citations), "citation"))
    return parts


def _file_search(output: FileSearchResult) -> list[str]:
    parts = (
        ["queries " + ", ".join(_quoted(q, 40) for q in output.queries)] if output.queries else []
    )
    parts.append(plural(len(output.results), "result"))
    if output.citations:
        parts.append(plural(len(output.citations), "citation"))
    return parts


def _first_line(code: str) -> str:
    lines = [line for line in code.splitlines() if line.strip()]
    if not lines:
        return "code (empty)"
    more = f" (+{plural(len(lines) - 1, 'line')})" if len(lines) > 1 else ""
    return f"code {_quoted(lines[0], 50)}{more}"


def _code_interpreter(output: CodeInterpreterResult) -> list[str]:
    parts = [_first_line(code) for code in output.codes]
    if output.logs:
        parts.append(plural(len(output.logs), "log"))
    parts.extend(
        f"image {image.mime_type} {byte_size(len(image.data))}"
        if image.data
        else f"image {image.url or image.mime_type}"
        for image in output.images
    )
    if output.files:
        parts.append(plural(len(output.files), "file"))
    return parts


def _image_generation(output: ImageGenerationResult) -> list[str]:
    parts: list[str] = []
    for image in output.images:
        shape = " ".join(p for p in (image.size, image.format, image.quality) if p)
        parts.append(f"image {shape + ' ' if shape else ''}{byte_size(len(image.data))}")
        if image.revised_prompt:
            parts.append(f"prompt {_quoted(image.revised_prompt, 40)}")
    return parts or ["no image"]


def _arguments(arguments: Mapping[str, object], raw: str) -> str:
    text = json.dumps(dict(arguments), ensure_ascii=False) if arguments else raw
    return shorten(text, 60)


def _mcp(output: HostedMcpResult) -> list[str]:
    label = output.server_label
    parts: list[str] = []
    if output.listed_tools:
        names = ", ".join(tool.name for tool in output.listed_tools)
        parts.append(
            f"{label}: lists {plural(len(output.listed_tools), 'tool')} ({shorten(names, 50)})"
        )
    for call in output.calls:
        outcome = f" error {_quoted(call.error, 40)}" if call.error else ""
        parts.append(
            f"{label}.{call.name}({_arguments(call.arguments, call.raw_arguments)}){outcome}"
        )
    parts.extend(f"{label}.{request.name} awaits approval" for request in output.approval_requests)
    return parts or [f"{label}: no call"]


def _shell(output: ShellResult) -> list[str]:
    parts = [f"$ {shorten(command, 50)}" for command in output.commands]
    exits = [str(o.exit_code) for o in output.outputs if o.exit_code is not None]
    if exits:
        parts.append("exit " + ", ".join(exits))
    if any(o.timed_out for o in output.outputs):
        parts.append("timed out")
    return parts or ["no command"]


_SUMMARIES: tuple[tuple[type[Any], Callable[[Any], list[str]]], ...] = (
    (WebSearchResult, _web_search),
    (FileSearchResult, _file_search),
    (CodeInterpreterResult, _code_interpreter),
    (ImageGenerationResult, _image_generation),
    (HostedMcpResult, _mcp),
    (ShellResult, _shell),
)


def item_label(item: object) -> str:
    """An output item by its type, with the function or tool name when it has one."""
    kind = str(field(item, "type") or "?")
    name = field(item, "name")
    return f"{kind} {name}" if isinstance(name, str) and name else kind


def items_line(items: Sequence[object]) -> str:
    """Output items in order, runs of one label counted: ``reasoning, message x2``."""
    labels = [item_label(item) for item in items]
    runs = [(label, len(list(group))) for label, group in groupby(labels)]
    return ", ".join(label if n == 1 else f"{label} x{n}" for label, n in runs)


def answer_text(items: Sequence[object]) -> str:
    """The assistant's ``output_text`` across message items, joined."""
    texts: list[str] = []
    for item in items:
        if field(item, "type") != "message":
            continue
        content: object = field(item, "content")
        parts: list[object] = cast("list[object]", content) if isinstance(content, list) else []
        for part in parts:
            text: object = field(part, "text")
            if field(part, "type") == "output_text" and isinstance(text, str):
                texts.append(text)
    return "".join(texts)


def summarize(output: object) -> str:
    """A short summary of a typed output; compact JSON for a kind it does not know."""
    for output_type, summary in _SUMMARIES:
        if isinstance(output, output_type):
            return "; ".join(summary(output))
    if output is None:
        return "no output"
    return shorten(json.dumps(output_json(output), ensure_ascii=False), 80)


def shown_arguments(arguments: Arguments, width: int = 60) -> str:
    """Call arguments on one line: compact JSON of an object, the raw text otherwise."""
    if arguments is None:
        return ""
    if isinstance(arguments, str):
        return shorten(arguments, width)
    return shorten(json.dumps(dict(arguments), ensure_ascii=False), width)


def signature(call: InspectedCall) -> str:
    """``get_weather({"city": "Paris"})``, ``deepwiki.ask_question({...})``; else the arguments."""
    if call.name is None:
        return shown_arguments(call.arguments)
    label = f"{call.server_label}." if call.server_label else ""
    return f"{label}{call.name}({shown_arguments(call.arguments)})"


def call_detail(call: InspectedCall) -> str:
    """What one call did: its summary, the provider's error, or the client's answer."""
    if call.runs_on_client:
        if call.answer is None:
            return f"{signature(call)}  (no answer in this cassette)".strip()
        return f"{signature(call)} -> {_quoted(call.message)}".strip()
    if call.success:
        return summarize(call.output)
    return f"{signature(call)}  error: {call.message or 'no detail'}".strip()
