"""The OpenAI Responses API adapter and its codecs."""

from tooltape.adapters.openai.adapter import OpenAIAdapter
from tooltape.adapters.openai.capabilities import (
    CAPABILITY_TABLE,
    DEFAULT_CAPABILITIES,
    model_family,
    supported_kinds,
)
from tooltape.adapters.openai.options import ResponseOptions
from tooltape.adapters.openai.tool_choice import AllowedTools, McpToolChoice

__all__ = [
    "CAPABILITY_TABLE",
    "DEFAULT_CAPABILITIES",
    "AllowedTools",
    "McpToolChoice",
    "OpenAIAdapter",
    "ResponseOptions",
    "model_family",
    "supported_kinds",
]
