"""One codec per tool kind: the OpenAI Responses wire format of hosted tools and of the
client-executed provider tools, plus the default registries."""

from tooltape.adapters.openai.codecs.apply_patch import ApplyPatchCodec
from tooltape.adapters.openai.codecs.code_interpreter import CodeInterpreterCodec
from tooltape.adapters.openai.codecs.computer import ComputerCodec, ComputerUsePreviewCodec
from tooltape.adapters.openai.codecs.custom import CustomCodec
from tooltape.adapters.openai.codecs.file_search import FileSearchCodec
from tooltape.adapters.openai.codecs.image_generation import ImageGenerationCodec
from tooltape.adapters.openai.codecs.local_shell import LocalShellCodec
from tooltape.adapters.openai.codecs.local_shell_exec import LocalShellExecCodec
from tooltape.adapters.openai.codecs.mcp import McpCodec
from tooltape.adapters.openai.codecs.namespace import NamespaceCodec
from tooltape.adapters.openai.codecs.programmatic_tool_calling import (
    ProgrammaticToolCallingCodec,
)
from tooltape.adapters.openai.codecs.registry import (
    default_client_tool_codecs,
    default_hosted_tool_codecs,
)
from tooltape.adapters.openai.codecs.shell import ShellCodec
from tooltape.adapters.openai.codecs.tool_search import ClientToolSearchCodec, ToolSearchCodec
from tooltape.adapters.openai.codecs.web_search import WebSearchCodec
from tooltape.adapters.openai.codecs.web_search_preview import WebSearchPreviewCodec

__all__ = [
    "ApplyPatchCodec",
    "ClientToolSearchCodec",
    "CodeInterpreterCodec",
    "ComputerCodec",
    "ComputerUsePreviewCodec",
    "CustomCodec",
    "FileSearchCodec",
    "ImageGenerationCodec",
    "LocalShellCodec",
    "LocalShellExecCodec",
    "McpCodec",
    "NamespaceCodec",
    "ProgrammaticToolCallingCodec",
    "ShellCodec",
    "ToolSearchCodec",
    "WebSearchCodec",
    "WebSearchPreviewCodec",
    "default_client_tool_codecs",
    "default_hosted_tool_codecs",
]
