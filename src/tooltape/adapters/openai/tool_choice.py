"""``tool_choice`` as a user writes it, and as the Responses API takes it.

A choice is ``"auto"``, ``"required"``, ``"none"``, the name of one tool of
the prompt (forced on the first round only; a namespace's name forces one of
its tools, since the API chooses among ``tools[]`` entries), ``AllowedTools`` (a subset the
model may use, on every round; ``mode="required"`` makes the first round
call one of them) or ``McpToolChoice`` (one tool of a hosted MCP server).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

__all__ = ["PLAIN_CHOICES", "AllowedTools", "McpToolChoice", "ToolChoice", "later_round_choice"]

PLAIN_CHOICES = ("auto", "required", "none")


@dataclass(frozen=True, slots=True)
class AllowedTools:
    """Restrict the model to ``tools`` (names of the prompt's tools and hosted tools)."""

    tools: tuple[str, ...]
    mode: Literal["auto", "required"] = "auto"

    def __post_init__(self) -> None:
        tools: object = self.tools
        if isinstance(tools, str) or not isinstance(tools, (tuple, list)):
            raise ValueError(
                f"AllowedTools(tools={tools!r}); give a tuple of tool names, e.g. "
                "AllowedTools(('get_weather', 'web_search'))."
            )
        names = tuple(tools)  # pyright: ignore[reportUnknownArgumentType]
        if not names or not all(isinstance(name, str) and name for name in names):
            raise ValueError(
                f"AllowedTools(tools={tools!r}); give at least one tool name (non-empty strings)."
            )
        if len(set(names)) != len(names):
            raise ValueError(f"AllowedTools(tools={tools!r}) names a tool twice; list each once.")
        object.__setattr__(self, "tools", names)
        if self.mode not in ("auto", "required"):
            raise ValueError(f"AllowedTools(mode={self.mode!r}); use 'auto' or 'required'.")


@dataclass(frozen=True, slots=True)
class McpToolChoice:
    """Force the tool ``name`` of the hosted MCP tool called ``tool`` in the prompt."""

    tool: str
    name: str

    def __post_init__(self) -> None:
        for field_name in ("tool", "name"):
            value: object = getattr(self, field_name)
            if not isinstance(value, str) or not value:
                raise ValueError(
                    f"McpToolChoice({field_name}={value!r}); give a non-empty string (tool: the "
                    "hosted MCP tool's name in the prompt, name: the server's tool)."
                )


ToolChoice: TypeAlias = "str | AllowedTools | McpToolChoice | None"


def later_round_choice(choice: ToolChoice, wire: object) -> object:
    """``tool_choice`` for rounds after the first: a forced tool or ``required`` becomes
    ``auto`` (else the model could never answer), an ``AllowedTools`` set stays with
    mode ``auto``."""
    if wire is None or wire in ("auto", "none"):
        return wire
    if isinstance(choice, AllowedTools) and isinstance(wire, dict):
        relaxed: dict[str, Any] = {**wire, "mode": "auto"}  # pyright: ignore[reportUnknownArgumentType]
        return relaxed
    return "auto"
