"""One native tool section per OpenAI hosted tool kind."""

from __future__ import annotations

from collections.abc import Mapping

from tooltape.adapters.openai.native_tools.section import OpenAINativeToolSection
from tooltape.tools.code_interpreter import CodeInterpreterConfig, code_interpreter_tool
from tooltape.tools.file_search import FileSearchConfig, file_search_tool
from tooltape.tools.image_generation import ImageGenerationConfig, image_generation_tool
from tooltape.tools.mcp import HostedMcpConfig, hosted_mcp_tool
from tooltape.tools.programmatic_tool_calling import (
    ProgrammaticToolCallingConfig,
    programmatic_tool_calling_tool,
)
from tooltape.tools.shell import ShellConfig, shell_tool
from tooltape.tools.tool_search import ToolSearchConfig, tool_search_tool
from tooltape.tools.web_search import WebSearchConfig, web_search_tool
from tooltape.tools.web_search_preview import WebSearchPreviewConfig, web_search_preview_tool

Capabilities = Mapping[str, frozenset[str]] | None


class OpenAIWebSearchSection(OpenAINativeToolSection):
    """OpenAI ``web_search``, validated against ``model`` when built."""

    def __init__(
        self,
        config: WebSearchConfig | None = None,
        *,
        model: str,
        key: str = "openai-web-search",
        name: str = "web_search",
        capabilities: Capabilities = None,
    ) -> None:
        tool = web_search_tool(config or WebSearchConfig(), name=name)
        super().__init__(tool, model=model, key=key, capabilities=capabilities)


class OpenAIFileSearchSection(OpenAINativeToolSection):
    """OpenAI ``file_search`` over vector stores (``config`` names them)."""

    def __init__(
        self,
        config: FileSearchConfig,
        *,
        model: str,
        key: str = "openai-file-search",
        name: str = "file_search",
        capabilities: Capabilities = None,
    ) -> None:
        tool = file_search_tool(config, name=name)
        super().__init__(tool, model=model, key=key, capabilities=capabilities)


class OpenAICodeInterpreterSection(OpenAINativeToolSection):
    """OpenAI ``code_interpreter`` in an automatic or given container."""

    def __init__(
        self,
        config: CodeInterpreterConfig | None = None,
        *,
        model: str,
        key: str = "openai-code-interpreter",
        name: str = "code_interpreter",
        capabilities: Capabilities = None,
    ) -> None:
        tool = code_interpreter_tool(config or CodeInterpreterConfig(), name=name)
        super().__init__(tool, model=model, key=key, capabilities=capabilities)


class OpenAIImageGenerationSection(OpenAINativeToolSection):
    """OpenAI ``image_generation``."""

    def __init__(
        self,
        config: ImageGenerationConfig | None = None,
        *,
        model: str,
        key: str = "openai-image-generation",
        name: str = "image_generation",
        capabilities: Capabilities = None,
    ) -> None:
        tool = image_generation_tool(config or ImageGenerationConfig(), name=name)
        super().__init__(tool, model=model, key=key, capabilities=capabilities)


class OpenAIMcpSection(OpenAINativeToolSection):
    """OpenAI hosted ``mcp``: the provider calls the remote MCP server."""

    def __init__(
        self,
        config: HostedMcpConfig,
        *,
        model: str,
        key: str = "openai-mcp",
        name: str = "mcp",
        capabilities: Capabilities = None,
    ) -> None:
        tool = hosted_mcp_tool(config, name=name)
        super().__init__(tool, model=model, key=key, capabilities=capabilities)


class OpenAIShellSection(OpenAINativeToolSection):
    """OpenAI hosted ``shell`` in a provider container."""

    def __init__(
        self,
        config: ShellConfig | None = None,
        *,
        model: str,
        key: str = "openai-shell",
        name: str = "shell",
        capabilities: Capabilities = None,
    ) -> None:
        tool = shell_tool(config or ShellConfig(), name=name)
        super().__init__(tool, model=model, key=key, capabilities=capabilities)


class OpenAIWebSearchPreviewSection(OpenAINativeToolSection):
    """OpenAI ``web_search_preview`` (or a dated alias), validated against ``model``."""

    def __init__(
        self,
        config: WebSearchPreviewConfig | None = None,
        *,
        model: str,
        key: str = "openai-web-search-preview",
        name: str = "web_search_preview",
        capabilities: Capabilities = None,
    ) -> None:
        tool = web_search_preview_tool(config or WebSearchPreviewConfig(), name=name)
        super().__init__(tool, model=model, key=key, capabilities=capabilities)


class OpenAIToolSearchSection(OpenAINativeToolSection):
    """OpenAI ``tool_search`` run by the provider over the prompt's deferred tools."""

    def __init__(
        self,
        config: ToolSearchConfig | None = None,
        *,
        model: str,
        key: str = "openai-tool-search",
        name: str = "tool_search",
        capabilities: Capabilities = None,
    ) -> None:
        tool = tool_search_tool(config or ToolSearchConfig(), name=name)
        super().__init__(tool, model=model, key=key, capabilities=capabilities)


class OpenAIProgrammaticToolCallingSection(OpenAINativeToolSection):
    """OpenAI ``programmatic_tool_calling``: the model may write programs that call tools."""

    def __init__(
        self,
        config: ProgrammaticToolCallingConfig | None = None,
        *,
        model: str,
        key: str = "openai-programmatic-tool-calling",
        name: str = "programmatic_tool_calling",
        capabilities: Capabilities = None,
    ) -> None:
        tool = programmatic_tool_calling_tool(config or ProgrammaticToolCallingConfig(), name=name)
        super().__init__(tool, model=model, key=key, capabilities=capabilities)
