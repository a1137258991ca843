"""OpenAI native tools as sections, checked against the model when they are built."""

from tooltape.adapters.openai.native_tools.section import OpenAINativeToolSection
from tooltape.adapters.openai.native_tools.sections import (
    OpenAICodeInterpreterSection,
    OpenAIFileSearchSection,
    OpenAIImageGenerationSection,
    OpenAIMcpSection,
    OpenAIProgrammaticToolCallingSection,
    OpenAIShellSection,
    OpenAIToolSearchSection,
    OpenAIWebSearchPreviewSection,
    OpenAIWebSearchSection,
)

__all__ = [
    "OpenAICodeInterpreterSection",
    "OpenAIFileSearchSection",
    "OpenAIImageGenerationSection",
    "OpenAIMcpSection",
    "OpenAINativeToolSection",
    "OpenAIProgrammaticToolCallingSection",
    "OpenAIShellSection",
    "OpenAIToolSearchSection",
    "OpenAIWebSearchPreviewSection",
    "OpenAIWebSearchSection",
]
