"""Representative tools per kind, and tools rebuilt from recorded specs.

Contract checks need one canonical tool per kind (its serialised spec is the
kind's wire snapshot) and, when reading a recording, a tool good enough for
the codec to pick its items (hosted MCP items belong to a server label).
Hosted kinds are in ``canonical_tools()``; client-executed kinds, whose
tools carry a local handler, in ``canonical_client_tools()``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tooltape.adapters.openai.reading import field
from tooltape.prompt import HostedTool, PromptValidationError, Tool, ToolContext, ToolResult
from tooltape.testing.computer import RecordingComputer
from tooltape.tools.apply_patch import ApplyPatchCall, PatchApplied
from tooltape.tools.client import ClientExecutedTool
from tooltape.tools.code_interpreter import CodeInterpreterConfig, code_interpreter_tool
from tooltape.tools.computer import (
    ComputerUsePreviewConfig,
    computer_tool,
    computer_use_preview_tool,
)
from tooltape.tools.custom import CustomToolConfig, Grammar, custom_tool
from tooltape.tools.file_search import FileSearchConfig, file_search_tool
from tooltape.tools.function_options import Namespace, with_options
from tooltape.tools.image_generation import ImageGenerationConfig, image_generation_tool
from tooltape.tools.local_shell import local_shell_exec_tool
from tooltape.tools.mcp import HostedMcpConfig, hosted_mcp_tool
from tooltape.tools.programmatic_tool_calling import programmatic_tool_calling_tool
from tooltape.tools.shell import ShellConfig, ShellOutput, local_shell_tool, shell_tool
from tooltape.tools.tool_search import client_tool_search_tool, tool_search_tool
from tooltape.tools.web_search import DomainFilter, GeoHint, WebSearchConfig, web_search_tool
from tooltape.tools.web_search_preview import WebSearchPreviewConfig, web_search_preview_tool


def canonical_tools() -> dict[str, HostedTool[Any]]:
    """One representative tool per built-in kind; its spec is the kind's wire snapshot."""
    return {
        "web_search": web_search_tool(
            WebSearchConfig(
                domain_filter=DomainFilter(allowed=("openai.com", "python.org")),
                geo_hint=GeoHint(country_code="US", city="San Francisco"),
                context_size="medium",
            )
        ),
        "file_search": file_search_tool(
            FileSearchConfig(vector_store_ids=("vs_contract",), max_num_results=5)
        ),
        "code_interpreter": code_interpreter_tool(
            CodeInterpreterConfig(memory_limit="4g", include_outputs=True)
        ),
        "image_generation": image_generation_tool(
            ImageGenerationConfig(size="1024x1024", quality="high", output_format="jpeg")
        ),
        "mcp": hosted_mcp_tool(
            HostedMcpConfig(
                server_label="deepwiki",
                server_url="https://mcp.deepwiki.com/mcp",
                allowed_tools=("ask_question",),
                require_approval="never",
            )
        ),
        "programmatic_tool_calling": programmatic_tool_calling_tool(),
        "shell": shell_tool(ShellConfig()),
        "tool_search": tool_search_tool(),
        "web_search_preview": web_search_preview_tool(
            WebSearchPreviewConfig(
                geo_hint=GeoHint(country_code="US"),
                context_size="low",
                content_types=("text",),
                alias="web_search_preview_2025_03_11",
            )
        ),
    }


def _sql_query(text: str) -> str:
    """Run a read-only SQL query over the recorded cassettes."""
    return f"1 row for a {len(text)}-character query"


def _patched(params: ApplyPatchCall, *, context: ToolContext) -> ToolResult[PatchApplied]:
    """Say the operation was applied, and touch no file."""
    operation = params.operation
    return ToolResult.ok(PatchApplied(operation.type, operation.path), message="applied")


def _ran(command: str, *, cwd: Path | None, timeout_s: float) -> ShellOutput:
    """Say the command ran, and run nothing."""
    return ShellOutput(stdout=f"ran: {command}\n", exit_code=0)


def canonical_function_tool() -> Tool[Any, Any]:
    """The representative function tool: its spec is the ``function`` kind's wire snapshot."""
    return Tool.from_function(_find_order, name="find_order")


def canonical_client_tools() -> dict[str, Tool[Any, Any]]:
    """One representative client-executed tool per kind.

    Their specs are the kinds' wire snapshots; their handlers are harmless
    stand-ins (the workspace editor and the shell only say what they would
    do; the legacy local shell runs in the current directory), so a recorded
    round trip replays the same answers.
    """
    return {
        "apply_patch": ClientExecutedTool[ApplyPatchCall, PatchApplied](
            name="apply_patch",
            description="Apply a patch to the workspace.",
            handler=_patched,
            kind="apply_patch",
        ),
        "shell": local_shell_tool(_ran),
        "computer": computer_tool(RecordingComputer(), acknowledge=lambda check: True),
        "computer_use_preview": computer_use_preview_tool(
            RecordingComputer(),
            ComputerUsePreviewConfig("browser", display_width=1280, display_height=800),
            acknowledge=lambda check: True,
        ),
        "custom": custom_tool(
            _sql_query,
            CustomToolConfig(grammar=Grammar("regex", r"^SELECT [^;]+$")),
            name="sql_query",
        ),
        "local_shell": local_shell_exec_tool(timeout_s=30),
        "namespace": with_options(
            Tool.from_function(_find_order, name="find_order"),
            namespace=Namespace("orders", "Find and inspect customer orders."),
        ),
        "tool_search": client_tool_search_tool(),
    }


def _find_order(order_id: str) -> str:
    """Find an order by its id."""
    return f"order {order_id}: 2 items"


def _lookup_order(order_id: str) -> str:
    """Look an order up by its id."""
    return f"order {order_id}: shipped"


def canonical_companions() -> dict[str, tuple[Tool[Any, Any], ...]]:
    """Tools a kind's canonical tool needs beside it in a prompt, by kind.

    A tool search needs deferred tools to load: its prompt also carries
    ``lookup_order``, offered with ``defer_loading``.
    """
    deferred = with_options(
        Tool.from_function(_lookup_order, name="lookup_order"), defer_loading=True
    )
    return {"tool_search": (deferred,)}


def shareable_tools(model: str | None = None) -> dict[str, HostedTool[Any]]:
    """The canonical tools that can share one prompt (for ``model``, if given), by kind.

    A kind whose call items an earlier kind already reads (web_search_preview
    sends the web_search_call items web_search reads) is left out: the API
    could not tell which tool a call is for, so a prompt refuses the pair. So
    is a kind the capability table says ``model`` cannot take.
    """
    from tooltape.adapters.openai.capabilities import refusal
    from tooltape.adapters.openai.codecs.registry import default_hosted_tool_codecs

    codecs = default_hosted_tool_codecs()
    read: set[str] = set()
    tools: dict[str, HostedTool[Any]] = {}
    for kind, tool in canonical_tools().items():
        item_types = set(codecs[kind].item_types)
        if item_types & read or (model is not None and refusal(model, kind) is not None):
            continue
        read |= item_types
        tools[kind] = tool
    return tools


_PLACEHOLDER_URL = "https://recorded.invalid/mcp"


def _label_tool(label: str, spec: object = None) -> HostedTool[Any] | None:
    url = field(spec, "server_url") if spec is not None else None
    connector = field(spec, "connector_id") if spec is not None else None
    recorded: tuple[str | None, str | None] = (_PLACEHOLDER_URL, None)
    if isinstance(connector, str):
        recorded = (None, connector)
    elif isinstance(url, str):
        recorded = (url, None)
    for server_url, connector_id in (recorded, (_PLACEHOLDER_URL, None)):
        try:
            config = HostedMcpConfig(
                label,
                server_url=server_url,
                connector_id=connector_id,  # pyright: ignore[reportArgumentType]
            )
        except PromptValidationError:
            continue  # a recorded URL no config accepts; then a label none does
        return hosted_mcp_tool(config, name="mcp")
    return None


def reading_tools(
    kinds: Sequence[str], request_body: Mapping[str, Any] | None, items: Sequence[Any]
) -> dict[str, HostedTool[Any]]:
    """A tool per kind (``mcp`` per server label) to read a recorded response with.

    Keys are the names ``hosted_outputs`` uses: the kind, or ``mcp-<label>``
    when a response talks to more than one MCP server.
    """
    canonical = canonical_tools()
    tools: dict[str, HostedTool[Any]] = {}
    labels: list[str] = []
    specs: dict[str, object] = {}
    recorded: object = request_body.get("tools") if request_body else None
    recorded_specs: list[object] = recorded if isinstance(recorded, list) else []  # pyright: ignore[reportUnknownVariableType]
    for spec in recorded_specs:
        label = field(spec, "server_label")
        if field(spec, "type") == "mcp" and isinstance(label, str) and label not in labels:
            labels.append(label)
            specs[label] = spec
    for item in items:
        label = field(item, "server_label")
        if isinstance(label, str) and label not in labels:
            labels.append(label)
    for kind in kinds:
        if kind == "mcp":
            for label in labels:
                tool = _label_tool(label, specs.get(label))
                if tool is not None:
                    tools["mcp" if len(labels) == 1 else f"mcp-{label}"] = tool
        elif kind in canonical:
            tools[kind] = canonical[kind]
    return tools
