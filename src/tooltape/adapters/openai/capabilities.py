"""Which hosted and provider-defined tool kinds each OpenAI model accepts.

The table is a guard, not a source of truth about OpenAI: it stops a prompt
from sending a tool a model is known to refuse, before any request is made.
Pass ``capabilities=`` to ``OpenAIAdapter`` to extend or replace it; a model
no prefix matches is not restricted.
"""

from __future__ import annotations

from collections.abc import Mapping

_ALL = frozenset(
    {
        "web_search",
        "file_search",
        "code_interpreter",
        "image_generation",
        "mcp",
        "shell",
        "apply_patch",
    }
)
_CHAT = frozenset({"web_search", "file_search", "code_interpreter", "image_generation", "mcp"})
_REASONING = frozenset({"web_search", "file_search", "code_interpreter", "mcp"})

DEFAULT_CAPABILITIES: Mapping[str, frozenset[str]] = {
    "gpt-5": _ALL,
    "gpt-4.1": _CHAT,
    "gpt-4o": _CHAT,
    "o3": _CHAT,
    "o4-mini": _CHAT,
    "o1": _REASONING,
    "gpt-3.5": frozenset(),
}


def supported_kinds(
    model: str, table: Mapping[str, frozenset[str]] = DEFAULT_CAPABILITIES
) -> frozenset[str] | None:
    """The kinds ``model`` supports (longest matching prefix), or ``None`` if unknown."""
    matches = [prefix for prefix in table if model == prefix or model.startswith(prefix)]
    if not matches:
        return None
    return table[max(matches, key=len)]
