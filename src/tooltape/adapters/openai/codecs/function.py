"""OpenAI wire format of a plain function tool, in the shape of the client-executed codecs.

A function tool is the model's most common tool and the client always runs it:
``{"type": "function", "name", "description", "parameters", "strict"}`` in,
a ``function_call`` item out, a ``function_call_output`` item back. The
adapter's tool loop answers function calls itself; this codec states the same
wire so the contract checks can hold the ``function`` kind to it like any other.
"""

from __future__ import annotations

import json
from typing import Any

from tooltape.adapters.openai.codecs.items import field, text
from tooltape.adapters.openai.request import function_spec
from tooltape.prompt import Tool, ToolResult

FUNCTION_KIND = "function"


class FunctionCodec:
    """``function`` tools: ``function_call`` in, ``function_call_output`` out."""

    @property
    def kind(self) -> str:
        return FUNCTION_KIND

    @property
    def call_item_type(self) -> str:
        return "function_call"

    def serialize(self, tool: Tool[Any, Any]) -> dict[str, Any]:
        return function_spec(tool)

    def call_arguments(self, item: Any) -> dict[str, Any]:
        """The call's JSON arguments as an object (``{}`` when they are not one)."""
        raw: object = field(item, "arguments")
        if isinstance(raw, str):
            try:
                raw = json.loads(raw) if raw.strip() else {}
            except (ValueError, RecursionError):  # RecursionError: nested past Python's limit
                return {}
        return dict(raw) if isinstance(raw, dict) else {}  # pyright: ignore[reportUnknownArgumentType]

    def call_id(self, item: Any) -> str:
        return text(item, "call_id") or ""

    def output_item(self, item: Any, result: ToolResult[Any]) -> dict[str, Any]:
        return {
            "type": "function_call_output",
            "call_id": self.call_id(item),
            "output": result.model_output(),
        }
