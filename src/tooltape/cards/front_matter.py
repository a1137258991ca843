"""A card file: YAML front matter (validated into frozen dataclasses by pydantic) + a body.

Unknown keys are refused at every level, scalars are strict (``"4"`` is not
a number, ``true`` is not a count), and every problem becomes a
``CardError`` naming the field and the fix.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, cast

import yaml
from pydantic import (
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
    with_config,
)

from tooltape.cards.errors import CardError

__all__ = [
    "AgentEntry",
    "CardFrontMatter",
    "ClientToolEntry",
    "HostedToolEntry",
    "McpServerEntry",
    "parse_card",
]

Seconds = Annotated[float, Field(gt=0, strict=True)]
_FORBID = ConfigDict(extra="forbid")


@with_config(_FORBID)
@dataclass(frozen=True, slots=True, repr=False)
class McpServerEntry:
    """``mcp_servers[]``: an MCP server, given by exactly one of ``command`` or ``url``.

    ``command`` (with ``args``, ``env``, ``cwd``) is a stdio server tooltape
    starts (``command: python`` means this interpreter); ``url`` (with
    ``headers``) is a server that already runs, reached over streamable HTTP.
    The repr shows the names of ``env`` and ``headers``, never their values.
    """

    name: StrictStr
    command: StrictStr | None = None
    args: tuple[StrictStr, ...] = ()
    env: Mapping[StrictStr, StrictStr] | None = None
    url: StrictStr | None = None
    headers: Mapping[StrictStr, StrictStr] | None = None
    tools: tuple[StrictStr, ...] | None = None
    cwd: StrictStr | None = None
    startup_timeout_sec: Seconds = 30.0
    call_timeout_sec: Seconds = 60.0

    def __repr__(self) -> str:
        shown = {
            f.name: list(value) if f.name in ("env", "headers") and value is not None else value
            for f in dataclasses.fields(self)
            for value in [getattr(self, f.name)]
        }
        return f"McpServerEntry({', '.join(f'{k}={v!r}' for k, v in shown.items())})"


@with_config(_FORBID)
@dataclass(frozen=True, slots=True)
class HostedToolEntry:
    """``hosted_tools[]``: a provider-executed tool of a ``tooltape.tools`` kind.

    ``approver`` (``mcp`` only) is a ``file.py:function`` spec, resolved like
    hooks, whose function answers the server's approval requests.
    """

    kind: StrictStr
    name: StrictStr | None = None
    config: Mapping[StrictStr, Any] = field(default_factory=lambda: dict[str, Any]())
    approver: StrictStr | None = None


@with_config(_FORBID)
@dataclass(frozen=True, slots=True)
class ClientToolEntry:
    """``client_tools[]``: a provider-defined tool run locally.

    ``apply_patch`` (``root``; ``config`` is an ``ApplyPatchConfig``),
    ``local_shell`` (the ``shell`` tool answered here; ``cwd``, ``timeout_s``;
    ``config`` is a ``LocalShellConfig``) and ``local_shell_exec`` (the legacy
    ``local_shell`` tool; ``cwd``, ``timeout_s``); and, with a ``handler``
    given as ``file.py:name`` relative to the card: ``custom`` (the text
    handler; ``config`` is a ``CustomToolConfig``), ``computer`` and
    ``computer_use_preview`` (a zero-argument factory of the ``Computer``;
    ``acknowledge`` a safety check policy; the preview's ``config`` is a
    ``ComputerUsePreviewConfig``) and ``tool_search`` (an optional search
    function; without one the model names the deferred tools to load).
    """

    kind: Literal[
        "apply_patch",
        "local_shell",
        "local_shell_exec",
        "custom",
        "computer",
        "computer_use_preview",
        "tool_search",
    ]
    name: StrictStr | None = None
    root: StrictStr | None = None
    cwd: StrictStr | None = None
    timeout_s: Seconds | None = None
    handler: StrictStr | None = None
    acknowledge: StrictStr | None = None
    config: Mapping[StrictStr, Any] | None = None


@with_config(_FORBID)
@dataclass(frozen=True, slots=True)
class AgentEntry:
    """``agents[]``: another card exposed as a tool (a bare string is ``{card: ...}``)."""

    card: StrictStr
    name: StrictStr | None = None
    description: StrictStr | None = None


@with_config(_FORBID)
@dataclass(frozen=True, slots=True)
class CardFrontMatter:
    """Everything a card's front matter may declare."""

    name: StrictStr
    description: StrictStr | None = None
    model: StrictStr | None = None
    function_tools: tuple[StrictStr, ...] = ()
    tool_hooks: tuple[StrictStr, ...] = ()
    hosted_tools: tuple[HostedToolEntry, ...] = ()
    client_tools: tuple[ClientToolEntry, ...] = ()
    mcp_servers: tuple[McpServerEntry, ...] = ()
    agents: tuple[AgentEntry, ...] = ()
    max_parallel: Annotated[StrictInt, Field(gt=0)] = 4
    child_timeout_sec: Seconds = 120.0


_ADAPTER: TypeAdapter[CardFrontMatter] = TypeAdapter(CardFrontMatter)

_ENTRY_TYPES: dict[str, type[Any]] = {
    "hosted_tools": HostedToolEntry,
    "client_tools": ClientToolEntry,
    "mcp_servers": McpServerEntry,
    "agents": AgentEntry,
}

FIXES: dict[str, str] = {
    "name": "write `name: my_agent` (1-64 lowercase letters, digits, '_' or '-').",
    "description": "write a one-line description of at most 200 ASCII characters.",
    "model": "write the model id as a string, e.g. `model: gpt-4.1-mini`.",
    "function_tools": "list specs like `- tools.py:add_one` (a .py file, relative to the card, "
    "and a function in it).",
    "tool_hooks": "list specs like `- hooks.py:audit` whose function takes (ctx, args, call_next).",
    "hosted_tools": "list entries like `- {kind: web_search, name: search, config: "
    "{context_size: low}}` (an mcp entry may add `approver: approvals.py:decide`).",
    "client_tools": "list entries like `- {kind: apply_patch, root: workspace}` or "
    "`- {kind: local_shell, cwd: ., timeout_s: 30}` (or kind: local_shell_exec for the legacy "
    "local_shell tool), `- {kind: custom, handler: tools.py:run_sql}`, `- {kind: computer, "
    "handler: screen.py:open_browser}` or `- {kind: tool_search}`.",
    "mcp_servers": "list entries like `- {name: time, command: python, args: [server.py], "
    "tools: [get_time]}` (a server tooltape starts) or `- {name: docs, url: "
    "'http://127.0.0.1:8000/mcp'}` (one that already runs).",
    "agents": "list card files like `- helper.md` or `- {card: helper.md, name: helper}`.",
    "max_parallel": "use a whole number greater than 0, e.g. `max_parallel: 4`.",
    "child_timeout_sec": "use seconds greater than 0, e.g. `child_timeout_sec: 120`.",
}

_OPENING = re.compile(r"\A\ufeff?---[ \t]*\r?\n")
_FRONT_MATTER = re.compile(
    r"\A\ufeff?---[ \t]*\r?\n(?P<yaml>.*?)^(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)(?P<body>.*)\Z",
    re.DOTALL | re.MULTILINE,
)


_UNKNOWN_KEY = ("unexpected_keyword_argument", "extra_forbidden")


def field_path(loc: tuple[int | str, ...]) -> str:
    """``("hosted_tools", 0, "config")`` as ``hosted_tools[0].config``."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def _known_fields(loc: tuple[int | str, ...]) -> list[str]:
    owner: type[Any] = CardFrontMatter
    if len(loc) >= 3 and isinstance(loc[0], str) and loc[0] in _ENTRY_TYPES:
        owner = _ENTRY_TYPES[loc[0]]
    return [f.name for f in dataclasses.fields(owner)]


_SAFE_LOADER = cast("type[yaml.SafeLoader]", getattr(yaml, "CSafeLoader", yaml.SafeLoader))


class _DuplicateKey(yaml.YAMLError):
    """A mapping of the front matter gives ``key`` twice (YAML would keep the last silently)."""

    def __init__(self, key: str, lines: tuple[int, int]) -> None:
        super().__init__(key)
        self.key = key
        self.lines = lines


class _CardLoader(_SAFE_LOADER):
    """The safe loader, refusing a key given twice in one mapping."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        first: dict[str, int] = {}
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.value == "<<":
                continue
            key, line = str(key_node.value), key_node.start_mark.line
            if key in first:
                raise _DuplicateKey(key, (first[key], line))
            first[key] = line
        return super().construct_mapping(node, deep)


def _validation_error(path: Path, error: ValidationError) -> CardError:
    problems: list[str] = []
    first_loc: tuple[int | str, ...] = ()
    fix = ""
    details = error.errors(include_url=False)
    # A misspelt key also makes the real one "missing": report the stray key first.
    details.sort(key=lambda d: d["type"] not in _UNKNOWN_KEY)
    for index, detail in enumerate(details):
        loc = tuple(detail["loc"])
        where = field_path(loc) or "<front matter>"
        if detail["type"] in _UNKNOWN_KEY:
            problem = f"`{where}` is not a known field"
            candidate_fix = f"remove it or use one of: {', '.join(_known_fields(loc))}."
        else:
            problem = f"`{where}`: {detail['msg']}"
            top = loc[0] if loc and isinstance(loc[0], str) else ""
            candidate_fix = FIXES.get(top, "see the card format in tooltape.cards.")
        problems.append(problem)
        if index == 0:
            first_loc, fix = loc, candidate_fix
    return CardError(path, field_path(first_loc) or None, "; ".join(problems), fix)


def parse_card(path: Path, text: str) -> tuple[CardFrontMatter, str]:
    """The validated front matter and the body text of a card file."""
    match = _FRONT_MATTER.match(text)
    if match is None and _OPENING.match(text):
        raise CardError(
            path,
            None,
            "the front matter opened by `---` on line 1 is never closed",
            "end the YAML fields with a line `---`, then write the instruction text.",
        )
    if match is None:
        raise CardError(
            path,
            None,
            "the file has no YAML front matter",
            "start it with a line `---`, the YAML fields (at least `name:`), a line `---`, "
            "then the instruction text.",
        )
    try:
        data: object = yaml.load(match.group("yaml"), Loader=_CardLoader)
    except _DuplicateKey as exc:
        # The front matter starts on the file's second line; YAML counts lines from 0.
        first, again = (line + 2 for line in exc.lines)
        raise CardError(
            path,
            exc.key,
            f"`{exc.key}` is given twice in the front matter (lines {first} and {again}); "
            "YAML would keep only the last",
            "give each field once.",
        ) from None
    except yaml.YAMLError as exc:
        raise CardError(
            path, None, f"the front matter is not valid YAML ({exc})", "fix the YAML syntax."
        ) from exc
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise CardError(
            path,
            None,
            f"the front matter is a {type(data).__name__}, not a mapping of fields",
            "write `key: value` lines between the `---` lines.",
        )
    fields = dict(cast("dict[str, object]", data))
    agents = fields.get("agents")
    if isinstance(agents, list):
        fields["agents"] = [
            {"card": item} if isinstance(item, str) else item
            for item in cast("list[object]", agents)
        ]
    try:
        front = _ADAPTER.validate_python(fields)
    except ValidationError as exc:
        raise _validation_error(path, exc) from None
    body = match.group("body").strip()
    if not body:
        raise CardError(
            path,
            "body",
            "the card has no instruction text after the front matter",
            "write the instructions below the closing `---` line.",
        )
    return front, body
