"""Real recorded Responses bodies, the mutations applied to them, and the two ways in.

Bodies are read (with plain ``yaml``/``json``, not tooltape's reader) from the
real recordings in ``tests/data/real-cassettes/openai-responses/`` (see their
PROVENANCE.md) and from the repository's ``cassettes/`` (real recordings
imported, and tooltape's own recordings against a loopback server replaying
them). A mutated body is one of those with a few edits of the kinds a broken
provider or a hand edit makes: a value of another type, a field dropped or
copied under another name, an item duplicated, a lone surrogate inserted, a
list where a string was.

A body goes in through ``OpenAIAdapter.evaluate`` (a ``ProviderFaults`` client
answering with it) and through ``tooltape inspect`` (``tooltape.cli.main`` on
a cassette file holding it).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tooltape import Prompt, PromptEvaluationError, PromptResponse, Section, Tool
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.cli import main
from tooltape.prompt import EventBus, HostedTool, PromptValidationError
from tooltape.testing.kinds import shareable_tools
from tooltape.testing.provider.faults import ProviderFaults
from tooltape.tools.mcp import HostedMcpConfig, hosted_mcp_tool

REPO = Path(__file__).resolve().parents[2]
REAL = REPO / "tests" / "data" / "real-cassettes" / "openai-responses"
TERMINAL_EVENTS = ("response.completed", "response.failed", "response.incomplete")


@dataclass(frozen=True)
class RecordedBody:
    """One recorded Responses body: where it came from, its request and its response."""

    source: str
    request: dict[str, Any] | None
    response: dict[str, Any]

    def copy(self) -> dict[str, Any]:
        """A private deep copy of the response, to edit."""
        return copy.deepcopy(self.response)


def _completed(events: Sequence[Any]) -> dict[str, Any] | None:
    for data in reversed(events):
        if isinstance(data, dict) and data.get("type") in TERMINAL_EVENTS:
            return data.get("response")
    return None


def _sse_text_events(text: str) -> list[Any]:
    return [
        json.loads(line[len("data:") :])
        for line in text.splitlines()
        if line.startswith("data:") and line[len("data:") :].strip().startswith("{")
    ]


def _from_vcr_yaml(path: Path) -> Iterator[RecordedBody]:
    document = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    for index, recorded in enumerate(document["interactions"]):
        request, response = recorded["request"], recorded["response"]
        body = request.get("parsed_body")
        if body is None and isinstance(request.get("body"), str) and request["body"]:
            with contextlib.suppress(ValueError):
                body = json.loads(request["body"])
        if "parsed_body" in response:
            tree = response["parsed_body"]
        else:
            tree = _completed(_sse_text_events(response["body"]["string"]))
        if isinstance(tree, dict) and isinstance(tree.get("output"), list) and tree["output"]:
            yield RecordedBody(
                f"{path.name}#{index}", body if isinstance(body, dict) else None, tree
            )


def _from_tooltape_json(path: Path) -> Iterator[RecordedBody]:
    document = json.loads(path.read_text(encoding="utf-8"))
    for index, recorded in enumerate(document.get("interactions", [])):
        request_body = recorded["request"].get("body") or {}
        response_body = recorded["response"].get("body") or {}
        if "json" in response_body:
            tree = response_body["json"]
        else:
            tree = _completed([event.get("data") for event in response_body.get("sse", [])])
        request = request_body.get("json")
        if isinstance(tree, dict) and isinstance(tree.get("output"), list) and tree["output"]:
            yield RecordedBody(
                f"{path.name}#{index}", request if isinstance(request, dict) else None, tree
            )


def recorded_bodies() -> tuple[RecordedBody, ...]:
    """Every recorded Responses body with output items, from both places, in a fixed order."""
    bodies = [body for path in sorted(REAL.glob("*.yaml")) for body in _from_vcr_yaml(path)]
    for path in sorted((REPO / "cassettes").rglob("*.json")):
        if "specs" not in path.parts:
            bodies.extend(_from_tooltape_json(path))
    return tuple(bodies)


def body(source: str) -> RecordedBody:
    """The recorded body named ``<file>#<interaction>``."""
    return next(b for b in recorded_bodies() if b.source == source)


def item_index(response: dict[str, Any], item_type: str) -> int:
    """The index of the first output item of ``item_type``."""
    return next(i for i, item in enumerate(response["output"]) if item.get("type") == item_type)


# --- mutations -------------------------------------------------------------------------------

VALUES: tuple[object, ...] = (
    None,
    True,
    False,
    0,
    -1,
    2**64,
    1.5,
    "",
    "x",
    "\ud83d",
    "not base64 !!",
    [],
    {},
    [None],
    ["search"],
    {"type": None},
    {"type": ["message"]},
)
IDENTITY_FIELDS = ("type", "id", "call_id", "name", "server_label", "arguments", "status", "code")
SURROGATES = ("\ud83d", "\udc00", "\udfff")
OPERATIONS = (
    "replace",
    "drop",
    "duplicate",
    "copy_field",
    "surrogate",
    "listify",
    "wrap",
    "retype",
)
ITEM_TYPES = (
    "message",
    "function_call",
    "custom_tool_call",
    "web_search_call",
    "file_search_call",
    "code_interpreter_call",
    "image_generation_call",
    "mcp_call",
    "mcp_list_tools",
    "shell_call",
    "shell_call_output",
    "apply_patch_call",
    "reasoning",
)


@dataclass(frozen=True)
class Mutation:
    """One edit: ``operation`` on the node ``target`` picks (modulo the node count);
    ``choice`` picks the value, field name or position it uses."""

    operation: str
    target: int
    choice: int


def _nodes(tree: object, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(tree, dict):
        for key, value in list(tree.items()):
            yield from _nodes(value, (*path, key))
    elif isinstance(tree, list):
        for index, value in enumerate(tree):
            yield from _nodes(value, (*path, index))


def _at(tree: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        tree = tree[key]
    return tree


def _apply(response: dict[str, Any], mutation: Mutation) -> None:
    nodes = list(_nodes(response))[1:]  # never the body itself
    if not nodes:
        return
    path = nodes[mutation.target % len(nodes)]
    parent, key = _at(response, path[:-1]), path[-1]
    current = parent[key]
    choice, operation = mutation.choice, mutation.operation
    if operation == "replace":
        parent[key] = copy.deepcopy(VALUES[choice % len(VALUES)])
    elif operation == "drop":
        del parent[key]
    elif operation == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(current))
    elif operation in ("duplicate", "copy_field") and isinstance(parent, dict):
        parent[IDENTITY_FIELDS[choice % len(IDENTITY_FIELDS)]] = copy.deepcopy(current)
    elif operation == "surrogate" and isinstance(current, str):
        at = choice % (len(current) + 1)
        parent[key] = current[:at] + SURROGATES[choice % len(SURROGATES)] + current[at:]
    elif operation == "surrogate" and isinstance(parent, dict):
        parent[f"{key}{SURROGATES[choice % len(SURROGATES)]}"] = parent.pop(key)
    elif operation == "listify":
        parent[key] = [current]
    elif operation == "wrap":
        parent[key] = {"type": current} if not isinstance(current, dict) else [current]
    elif operation == "retype" and isinstance(current, dict):
        current["type"] = ITEM_TYPES[choice % len(ITEM_TYPES)]
    else:
        parent[key] = copy.deepcopy(VALUES[choice % len(VALUES)])


def mutated(recorded: RecordedBody, mutations: Sequence[Mutation]) -> dict[str, Any]:
    """A copy of ``recorded``'s response with ``mutations`` applied in order."""
    response = recorded.copy()
    for mutation in mutations:
        _apply(response, mutation)
    return response


# --- the ways in -----------------------------------------------------------------------------


def get_capital(country: str) -> str:
    """The capital of a country (answers as the real recording's client did)."""
    return "Potato City"


def get_weather(city: str) -> str:
    """The weather in a city (answers as the real recording's client did)."""
    return "Sunny and 72F in Paris"


def _mcp_labels(recorded_request: dict[str, Any] | None, response: dict[str, Any]) -> list[str]:
    labels: list[str] = []
    specs = (recorded_request or {}).get("tools") or []
    items = response.get("output") if isinstance(response.get("output"), list) else []
    for entry in [*specs, *items]:
        label = entry.get("server_label") if isinstance(entry, dict) else None
        if isinstance(label, str) and label not in labels:
            labels.append(label)
    return labels


@functools.cache
def _function_tools() -> tuple[Tool[Any, Any], ...]:
    return (Tool.from_function(get_capital), Tool.from_function(get_weather))


@functools.cache
def _mcp_tool(label: str, name: str) -> HostedTool[Any] | None:
    try:
        config = HostedMcpConfig(label, server_url="https://mcp.deepwiki.com/mcp")
    except PromptValidationError:  # a label no tool can carry: no tool of the prompt reads it
        return None
    return hosted_mcp_tool(config, name=name)


def prompt_for(recorded: RecordedBody, response: dict[str, Any] | None = None) -> Prompt[Any]:
    """A prompt with every hosted kind, an MCP tool per valid recorded label, and the
    function tools the real recordings call."""
    hosted: list[HostedTool[Any]] = [
        tool for kind, tool in shareable_tools().items() if kind != "mcp"
    ]
    labels = _mcp_labels(recorded.request, response or recorded.response)
    tools = (_mcp_tool(label, f"mcp_{index}") for index, label in enumerate(labels))
    hosted.extend(tool for tool in tools if tool is not None)
    section = Section(title="Task", key="task", tools=list(_function_tools()), hosted_tools=hosted)
    return Prompt(ns="tests", key="mutated", sections=[section])


def evaluate(
    recorded: RecordedBody,
    response: dict[str, Any],
    *followups: dict[str, Any],
    bus: EventBus | None = None,
) -> PromptResponse[Any]:
    """``OpenAIAdapter.evaluate`` answered by ``response``, then ``followups``, then "done"."""
    faults = ProviderFaults(assert_all_played=False)
    for reply in (response, *followups):
        faults.responses.ok(reply)
    for _ in range(3):
        faults.responses.ok(faults.response_json("done"))
    try:
        # no capability table: every kind is read, whatever a model accepts
        adapter = OpenAIAdapter(
            "gpt-5", client=faults.client(max_retries=0), max_rounds=4, capabilities={}
        )
        return adapter.evaluate(prompt_for(recorded, response), bus=bus)
    finally:
        faults.close()


def evaluation_error(
    recorded: RecordedBody, response: dict[str, Any], *, bus: EventBus | None = None
) -> PromptEvaluationError:
    """The ``PromptEvaluationError`` evaluating ``response`` raises (fails if none)."""
    try:
        evaluate(recorded, response, bus=bus)
    except PromptEvaluationError as error:
        return error
    raise AssertionError("evaluate() accepted the body")


def write_cassette(
    path: Path, recorded: RecordedBody, response: dict[str, Any], *, streamed: bool = False
) -> Path:
    """A tooltape cassette holding one exchange whose response body is ``response``."""
    body: dict[str, Any]
    if streamed:
        event = {"type": "response.completed", "sequence_number": 0, "response": response}
        body = {"sse": [{"event": "response.completed", "data": event}]}
    else:
        body = {"json": response}
    document = {
        "tooltape": {
            "version": "0.1.0",
            "source": "synthetic",
            "provenance": f"tests/robustness: the real body {recorded.source}, mutated",
        },
        "interactions": [
            {
                "request": {
                    "method": "POST",
                    "uri": "https://api.openai.com/v1/responses",
                    "headers": {"content-type": ["application/json"]},
                    "body": {"json": recorded.request} if recorded.request else None,
                },
                "response": {
                    "status_code": 200,
                    "reason": "OK",
                    "headers": {"content-type": ["application/json"]},
                    "body": body,
                },
            }
        ],
    }
    # ensure_ascii keeps lone surrogates as escapes, as a provider sends them.
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


@dataclass(frozen=True)
class Inspected:
    """What ``tooltape inspect`` returned and printed."""

    code: int
    out: str
    err: str


def inspect(path: Path, *args: str) -> Inspected:
    """``tooltape inspect PATH [args]`` in-process, its output encoded as a terminal would
    (strict UTF-8: a character no terminal carries fails here as it would there)."""
    out_bytes, err = io.BytesIO(), io.StringIO()
    out = io.TextIOWrapper(out_bytes, encoding="utf-8", errors="strict", write_through=True)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["inspect", str(path), *args])
    return Inspected(code, out_bytes.getvalue().decode("utf-8"), err.getvalue())


def inspected_entry(path: Path) -> tuple[str, dict[str, Any]]:
    """What ``tooltape inspect`` prints for ``path`` and the one interaction its ``--json``
    view shows, after checking that both views exit 0 without a traceback."""
    human = inspect(path)
    machine = inspect(path, "--json")
    for shown in (human, machine):
        assert shown.code == 0, shown.err
        assert "Traceback" not in shown.err
    (entry,) = json.loads(machine.out)["interactions"]
    return human.out, entry
