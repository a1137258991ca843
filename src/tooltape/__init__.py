"""tooltape: typed LLM tools, hosted tool codecs, and a pytest plugin that proves the wire."""

import logging

from tooltape.prompt import (
    HostedTool,
    HostedToolConfig,
    HostedToolOutput,
    MarkdownSection,
    NativeTool,
    Prompt,
    PromptEvaluationError,
    PromptRenderError,
    PromptValidationError,
    RenderedPrompt,
    Section,
    Tool,
    ToolContext,
    ToolExample,
    ToolResult,
)
from tooltape.runtime import InProcessEventBus, PromptResponse, Session, ToolInvoked

__version__ = "0.1.0"

# A library stays quiet unless its user configures logging.
logging.getLogger("tooltape").addHandler(logging.NullHandler())

__all__ = [
    "HostedTool",
    "HostedToolConfig",
    "HostedToolOutput",
    "InProcessEventBus",
    "MarkdownSection",
    "NativeTool",
    "Prompt",
    "PromptEvaluationError",
    "PromptRenderError",
    "PromptResponse",
    "PromptValidationError",
    "RenderedPrompt",
    "Section",
    "Session",
    "Tool",
    "ToolContext",
    "ToolExample",
    "ToolInvoked",
    "ToolResult",
    "__version__",
]
