"""OpenAI wire format of custom tools: free-text ``custom_tool_call`` in, text out."""

from __future__ import annotations

from typing import Any

from tooltape.adapters.openai.callers import echoed_caller
from tooltape.adapters.openai.codecs.items import text
from tooltape.adapters.openai.function_options import option_fields
from tooltape.prompt import Tool, ToolResult
from tooltape.tools.custom import CustomToolConfig
from tooltape.tools.function_options import options_of


class CustomCodec:
    """``{"type": "custom", "name", "description", "format"}`` for the OpenAI Responses API.

    The call's ``input`` text becomes the tool's ``CustomInput``; the
    answer is a ``custom_tool_call_output`` whose ``output`` is what the
    model reads (the handler's text, or the failure message).
    """

    @property
    def kind(self) -> str:
        return "custom"

    @property
    def call_item_type(self) -> str:
        return "custom_tool_call"

    @property
    def item_types(self) -> tuple[str, ...]:
        """The call item types this codec answers."""
        return (self.call_item_type,)

    def serialize(self, tool: Tool[Any, Any]) -> dict[str, Any]:
        spec: dict[str, Any] = {
            "type": "custom",
            "name": tool.name,
            "description": tool.description,
        }
        config: object = getattr(tool, "config", None)
        if isinstance(config, CustomToolConfig) and config.grammar is not None:
            spec["format"] = {
                "type": "grammar",
                "syntax": config.grammar.syntax,
                "definition": config.grammar.definition,
            }
        spec.update(option_fields(options_of(tool)))
        return spec

    def tool_choice(self, tool: Tool[Any, Any]) -> dict[str, Any]:
        """The ``tool_choice`` that forces this custom tool."""
        return {"type": "custom", "name": tool.name}

    def call_arguments(self, item: Any) -> dict[str, Any]:
        return {"input": text(item, "input") or ""}

    def call_id(self, item: Any) -> str:
        return text(item, "call_id") or ""

    def output_item(self, item: Any, result: ToolResult[Any]) -> dict[str, Any]:
        return {
            "type": "custom_tool_call_output",
            "call_id": self.call_id(item),
            "output": result.model_output(),
            **echoed_caller(item),
        }
