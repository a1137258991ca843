"""The prompt layer: tools, hosted tools, sections and prompts. No I/O."""

from tooltape.prompt.context import ToolContext
from tooltape.prompt.errors import (
    PromptEvaluationError,
    PromptEvaluationPhase,
    PromptRenderError,
    PromptValidationError,
)
from tooltape.prompt.hosted import HostedTool, HostedToolConfig, HostedToolOutput
from tooltape.prompt.prompt import Prompt, RenderedPrompt
from tooltape.prompt.protocols import EventBus, ProviderAdapter, SessionProtocol
from tooltape.prompt.result import ToolRenderableResult, ToolResult
from tooltape.prompt.section import MarkdownSection, Section
from tooltape.prompt.tool import NativeTool, Tool, ToolExample, ToolHandler, ToolSource

__all__ = [
    "EventBus",
    "HostedTool",
    "HostedToolConfig",
    "HostedToolOutput",
    "MarkdownSection",
    "NativeTool",
    "Prompt",
    "PromptEvaluationError",
    "PromptEvaluationPhase",
    "PromptRenderError",
    "PromptValidationError",
    "ProviderAdapter",
    "RenderedPrompt",
    "Section",
    "SessionProtocol",
    "Tool",
    "ToolContext",
    "ToolExample",
    "ToolHandler",
    "ToolRenderableResult",
    "ToolResult",
    "ToolSource",
]
