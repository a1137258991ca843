"""The OpenAI Responses API adapter and its codecs."""

from tooltape.adapters.openai.adapter import OpenAIAdapter
from tooltape.adapters.openai.capabilities import DEFAULT_CAPABILITIES, supported_kinds

__all__ = ["DEFAULT_CAPABILITIES", "OpenAIAdapter", "supported_kinds"]
