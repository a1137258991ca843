"""Turn a card file (and the cards it names as agents) into a ``Prompt``, validating everything."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from tooltape.agents import prompt_tool
from tooltape.cards.errors import CardError
from tooltape.cards.front_matter import FIXES, CardFrontMatter, parse_card
from tooltape.cards.mcp_entries import build_mcp_section
from tooltape.cards.tool_kinds import build_client_tool, build_hosted_tool
from tooltape.mcp import McpServerSection, mcp_sections
from tooltape.mcp.lifecycle import ServerLifecycle
from tooltape.prompt import (
    HostedTool,
    MarkdownSection,
    Prompt,
    PromptValidationError,
    Section,
    Tool,
)
from tooltape.prompt.naming import check_tool_name
from tooltape.runtime.hooks import check_hook
from tooltape.runtime.loader import ToolLoadError, load_callable

__all__ = ["LoadedCard", "load_card", "read_card"]

CARD_NAMESPACE = "cards"


def _function_tool(spec: str, fn: Callable[..., Any]) -> Tool[Any, Any]:
    # A callable instance or a partial has no name of its own: the card's
    # spec names it ("tools.py:local_weather"), so the tool is called that.
    named = getattr(fn, "__name__", None)
    name = None if isinstance(named, str) else spec.rsplit(":", 1)[1].strip()
    return Tool.from_function(fn, name=name)


def _refuse_repeated_names(
    path: Path,
    front: CardFrontMatter,
    tools: list[Tool[Any, Any]],
    hosted: list[HostedTool[Any]],
) -> None:
    # The prompt would refuse these too, but could only say "section
    # 'instructions' and again in 'instructions'": the card knows the entries.
    fields = [
        *(f"function_tools[{i}]" for i in range(len(front.function_tools))),
        *(f"client_tools[{i}]" for i in range(len(front.client_tools))),
        *(f"agents[{i}]" for i in range(len(front.agents))),
        *(f"hosted_tools[{i}]" for i in range(len(front.hosted_tools))),
    ]
    names = [t.name for t in tools] + [h.name for h in hosted]
    first: dict[str, str] = {}
    for field, name in zip(fields, names, strict=True):
        if name in first:
            raise CardError(
                path,
                field,
                f"`{field}` makes a tool named {name!r}, and so does `{first[name]}`",
                "list each tool once; two different tools need distinct names (`name:` on a "
                "hosted tool, client tool or agent entry).",
            )
        first[name] = field


@dataclass(frozen=True, slots=True)
class LoadedCard(ServerLifecycle):
    """A loaded card: its ``prompt``, its ``model``, and the MCP servers it needs.

    ``with card:`` starts every MCP server of the card and of its agent
    cards (``mcp_sections``) and stops them all when the block ends.
    """

    path: Path
    front_matter: CardFrontMatter
    prompt: Prompt[Any]
    agents: tuple[LoadedCard, ...] = ()

    @property
    def name(self) -> str:
        return self.front_matter.name

    @property
    def model(self) -> str | None:
        """The model the card asks for (``model:``), if any."""
        return self.front_matter.model

    @property
    def mcp_sections(self) -> tuple[McpServerSection, ...]:
        """Every MCP server section of this card and its agent cards, each once."""
        return mcp_sections(self.prompt)

    def start(self) -> Self:
        """Start every MCP server; if one fails, those already started are stopped."""
        started: list[McpServerSection] = []
        try:
            for section in self.mcp_sections:
                section.start()
                started.append(section)
        except BaseException:
            for section in reversed(started):
                section.close()
            raise
        return self

    def close(self) -> None:
        """Stop every MCP server (idempotent)."""
        for section in reversed(self.mcp_sections):
            section.close()


def _fail(path: Path, field: str, exc: Exception, fix_key: str) -> CardError:
    return CardError(path, field, str(exc), FIXES[fix_key])


class _Loader:
    """One load: caches cards by resolved path and detects agent cycles."""

    def __init__(self) -> None:
        self._loaded: dict[Path, LoadedCard] = {}
        self._stack: list[Path] = []

    def load(self, path: Path, *, as_child: bool) -> LoadedCard:
        if path in self._loaded:
            return self._loaded[path]
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise CardError(path, None, "no such file", "check the card path.") from None
        except IsADirectoryError:
            raise CardError(
                path, None, "it is a folder", "give the path of the card's .md file in it."
            ) from None
        except UnicodeDecodeError as exc:
            raise CardError(path, None, f"cannot read it ({exc})", "save it as UTF-8.") from exc
        except OSError as exc:
            raise CardError(
                path, None, f"cannot read it ({exc})", "check the path and its permissions."
            ) from exc
        front, body = parse_card(path, text)
        try:
            check_tool_name(front.name, what="Card")
        except PromptValidationError as exc:
            raise _fail(path, "name", exc, "name") from exc
        self._stack.append(path)
        try:
            card = self._build(path, front, body, as_child=as_child)
        finally:
            self._stack.pop()
        self._loaded[path] = card
        return card

    def _build(
        self, path: Path, front: CardFrontMatter, body: str, *, as_child: bool
    ) -> LoadedCard:
        base = path.parent
        tools: list[Tool[Any, Any]] = []
        for index, spec in enumerate(front.function_tools):
            where = f"function_tools[{index}]"
            try:
                tools.append(_function_tool(spec, load_callable(spec, base_path=base)))
            except (ToolLoadError, PromptValidationError) as exc:
                raise _fail(path, where, exc, "function_tools") from exc
        tools.extend(build_client_tool(path, i, e) for i, e in enumerate(front.client_tools))
        agents = self._agents(path, front)
        tools.extend(tool for tool, _ in agents)
        hosted: list[HostedTool[Any]] = [
            build_hosted_tool(path, i, e) for i, e in enumerate(front.hosted_tools)
        ]
        _refuse_repeated_names(path, front, tools, hosted)
        hooks = [self._hook(path, i, spec) for i, spec in enumerate(front.tool_hooks)]
        try:
            instructions: MarkdownSection[Any] = MarkdownSection(
                title="Instructions",
                key="instructions",
                template=body,
                tools=tools,
                hosted_tools=hosted,
            )
        except PromptValidationError as exc:
            raise CardError(
                path, "body", str(exc), "write $$ for a literal dollar sign in the text."
            ) from exc
        sections: list[Section[Any]] = [instructions]
        if as_child and "message" not in instructions.placeholders():
            # An agent card's caller speaks through $message; without a
            # placeholder of its own, the request follows the instructions.
            sections.append(MarkdownSection(title="Request", key="request", template="$message"))
        sections.extend(build_mcp_section(path, i, e) for i, e in enumerate(front.mcp_servers))
        try:
            prompt: Prompt[Any] = Prompt(
                ns=CARD_NAMESPACE,
                key=front.name,
                name=front.name,
                sections=sections,
                tool_hooks=hooks,
            )
        except PromptValidationError as exc:
            raise CardError(
                path,
                None,
                str(exc),
                "give every tool, hosted tool and MCP server a distinct name (`name:`).",
            ) from exc
        return LoadedCard(path, front, prompt, tuple(card for _, card in agents))

    def _hook(self, path: Path, index: int, spec: str) -> Callable[..., Any]:
        where = f"tool_hooks[{index}]"
        try:
            hook = load_callable(spec, base_path=path.parent)
            return check_hook(hook, owner=f"{path} {where}")
        except (ToolLoadError, PromptValidationError) as exc:
            raise _fail(path, where, exc, "tool_hooks") from exc

    def _agents(
        self, path: Path, front: CardFrontMatter
    ) -> list[tuple[Tool[Any, Any], LoadedCard]]:
        built: list[tuple[Tool[Any, Any], LoadedCard]] = []
        for index, entry in enumerate(front.agents):
            where = f"agents[{index}]"
            child_path = Path(os.path.abspath(path.parent / entry.card))
            if child_path in self._stack:
                cycle = [*self._stack[self._stack.index(child_path) :], child_path]
                raise CardError(
                    path,
                    where,
                    "agent cards form a cycle: " + " -> ".join(p.name for p in cycle),
                    "remove one of these references; a card cannot call itself.",
                )
            if not child_path.is_file():
                raise CardError(
                    path,
                    f"{where}.card",
                    f"no card at {child_path}",
                    "check the path (relative to this card's folder).",
                )
            child = self.load(child_path, as_child=True)
            name = entry.name or child.front_matter.name
            description = (
                entry.description or child.front_matter.description or f"Ask the {name} agent."
            )
            try:
                tool = prompt_tool(
                    child.prompt,
                    name=name,
                    description=description,
                    max_parallel=front.max_parallel,
                    child_timeout_sec=front.child_timeout_sec,
                )
            except PromptValidationError as exc:
                raise _fail(path, where, exc, "agents") from exc
            built.append((tool, child))
        return built


def read_card(path: str | os.PathLike[str]) -> LoadedCard:
    """Load and validate a card and the agent cards it names; see ``LoadedCard``.

    Nothing is started: MCP servers start with ``with card:``. Any problem
    raises ``CardError`` naming the card file, the field and the fix.
    """
    return _Loader().load(Path(os.path.abspath(path)), as_child=False)


def load_card(path: str | os.PathLike[str]) -> Prompt[Any]:
    """The ``Prompt`` a card declares (``read_card(path).prompt``).

    Its MCP servers (and those of its agent cards) start with
    ``tooltape.mcp.running_servers(prompt)``; the card's ``model`` is on
    ``read_card(path).model``.
    """
    return read_card(path).prompt
