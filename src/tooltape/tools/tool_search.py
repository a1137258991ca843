"""Tool search: deferred tools are loaded into the model's context only when it searches.

Tools offered with ``defer_loading`` (see ``tooltape.tools.function_options``),
namespaces and hosted MCP servers with ``defer_loading`` are searchable. The
provider can run the search (``tool_search_tool``, a hosted kind) or the
client can (``client_tool_search_tool``): the model then asks for tools and a
local handler picks which deferred tools of the prompt to load.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from tooltape.prompt import HostedTool, PromptValidationError, ToolContext, ToolResult
from tooltape.prompt.section import EnabledPredicate
from tooltape.tools.client import ClientExecutedTool
from tooltape.tools.client_section import ClientToolSection
from tooltape.tools.function_options import options_of
from tooltape.tools.hosted_section import HostedToolSection
from tooltape.tools.rendering import JsonRendered

Execution = Literal["server", "client"]


@dataclass(frozen=True, slots=True)
class ToolSearchConfig:
    """Provider-run tool search has no settings: it searches the prompt's deferred tools."""


DEFAULT_TOOL_SEARCH_CONFIG = ToolSearchConfig()


@dataclass(frozen=True, slots=True)
class LoadedTool:
    """A tool a search made available: its type, its name (or server label), its namespace."""

    type: str
    name: str | None = None
    namespace: str | None = None


@dataclass(frozen=True, slots=True)
class ToolSearchCall:
    """One search: what the model asked for (``arguments``) and who ran it."""

    arguments: Mapping[str, object] = field(default_factory=lambda: {})
    execution: Execution | None = None
    call_id: str | None = None


@dataclass(frozen=True, slots=True)
class ToolSearchResult(JsonRendered):
    """The searches of a response and the tools they loaded.

    ``additional`` lists tools an ``additional_tools`` item made available.
    """

    searches: tuple[ToolSearchCall, ...] = ()
    loaded: tuple[LoadedTool, ...] = ()
    additional: tuple[LoadedTool, ...] = ()

    @property
    def loaded_names(self) -> tuple[str, ...]:
        """The names of the loaded tools, in order."""
        return tuple(tool.name for tool in self.loaded if tool.name)


def tool_search_tool(
    config: ToolSearchConfig = DEFAULT_TOOL_SEARCH_CONFIG, *, name: str = "tool_search"
) -> HostedTool[ToolSearchConfig]:
    """A provider-run tool search over the prompt's deferred tools."""
    return HostedTool(
        kind="tool_search",
        name=name,
        description="Search the deferred tools and load the ones the task needs.",
        config=config,
    )


_TEMPLATE = (
    "Some tools are not loaded yet. When a task needs a capability you do not see, search for "
    "it, then call the tool the search loads."
)


class ToolSearchSection(HostedToolSection):
    """A section that explains tool search and carries the provider-run tool."""

    def __init__(
        self,
        config: ToolSearchConfig = DEFAULT_TOOL_SEARCH_CONFIG,
        *,
        key: str = "tool_search",
        name: str = "tool_search",
        enabled: bool | EnabledPredicate | None = None,
    ) -> None:
        tool = tool_search_tool(config, name=name)
        super().__init__(tool, title="Tool Search", key=key, template=_TEMPLATE, enabled=enabled)


@dataclass(frozen=True, slots=True)
class ToolPaths:
    """The arguments of the provider's default client tool search: what to load, by name."""

    paths: tuple[str, ...] = field(
        metadata={"description": "Names of deferred tools, namespaces or MCP servers to load."}
    )


@dataclass(frozen=True, slots=True)
class LoadedTools(JsonRendered):
    """What a client-run search loads: deferred tools, namespaces or MCP server labels."""

    names: tuple[str, ...]


def searchable_names(context: ToolContext | None) -> tuple[str, ...]:
    """The names a client search may load in this prompt: deferred tools, their namespaces,
    and deferred hosted MCP servers (by label)."""
    rendered = context.rendered_prompt if context is not None else None
    if rendered is None:
        return ()
    names: dict[str, None] = {}
    for tool in rendered.tools:
        options = options_of(tool)
        if options.defer_loading:
            names.setdefault(tool.name, None)
            if options.namespace is not None:
                names.setdefault(options.namespace.name, None)
    for hosted in rendered.hosted_tools:
        label: object = getattr(hosted.config, "server_label", None)
        if getattr(hosted.config, "defer_loading", False) and isinstance(label, str):
            names.setdefault(label, None)
    return tuple(names)


ToolSearchHandler = Callable[[Any, tuple[str, ...]], Iterable[str]]
"""``search(params, searchable) -> names to load`` for a client-run tool search."""


def _load_paths(params: ToolPaths, searchable: tuple[str, ...]) -> Iterable[str]:
    return params.paths


def client_tool_search_tool(
    search: ToolSearchHandler | None = None,
    *,
    params_type: type[Any] = ToolPaths,
    description: str = "Load deferred tools by name before calling them.",
    name: str = "tool_search",
) -> ClientExecutedTool[Any, LoadedTools]:
    """A tool search the client runs.

    The model's arguments are validated as ``params_type`` (by default the
    provider's own ``{paths: [...]}`` form, which needs no ``search``: the
    named tools are loaded). ``search(params, searchable)`` returns the
    names to load among ``searchable`` (deferred tools, their namespaces,
    deferred MCP server labels). A name the prompt cannot load fails the
    call with the list of names it can.
    """
    if search is None and params_type is not ToolPaths:
        raise PromptValidationError(
            f"client_tool_search_tool: params_type={params_type.__name__} needs a search "
            "function that turns its arguments into tool names; pass search=."
        )
    chosen: ToolSearchHandler = search if search is not None else _load_paths

    def handler(params: Any, *, context: ToolContext) -> ToolResult[LoadedTools]:
        searchable = searchable_names(context)
        names = tuple(dict.fromkeys(chosen(params, searchable)))
        unknown = [n for n in names if n not in searchable]
        if unknown:
            return ToolResult.error(
                f"Cannot load {', '.join(map(repr, unknown))}: not a deferred tool of this "
                f"prompt. Loadable: {', '.join(searchable) or 'none'}."
            )
        return ToolResult.ok(LoadedTools(names), message=f"Loaded {', '.join(names) or 'nothing'}.")

    return ClientExecutedTool(
        name=name,
        description=description,
        handler=handler,
        params_type=params_type,
        result_type=LoadedTools,
        kind="tool_search",
    )


class ClientToolSearchSection(ClientToolSection):
    """A section that explains tool search and carries the client-run tool."""

    title_text = "Tool Search"
    template_text = _TEMPLATE

    def __init__(
        self,
        tool: ClientExecutedTool[Any, LoadedTools],
        *,
        key: str = "tool_search",
        enabled: bool | EnabledPredicate | None = None,
    ) -> None:
        super().__init__(tool, key=key, enabled=enabled)
