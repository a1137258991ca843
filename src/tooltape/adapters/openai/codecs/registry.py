"""The codecs the OpenAI adapter registers by default, keyed by kind."""

from __future__ import annotations

from typing import Any

from tooltape.adapters.codec import ClientToolCodec, HostedToolCodec
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
from tooltape.adapters.openai.codecs.shell import ShellCodec
from tooltape.adapters.openai.codecs.tool_search import ClientToolSearchCodec, ToolSearchCodec
from tooltape.adapters.openai.codecs.web_search import WebSearchCodec
from tooltape.adapters.openai.codecs.web_search_preview import WebSearchPreviewCodec


def default_hosted_tool_codecs() -> dict[str, HostedToolCodec[Any, Any]]:
    """A fresh ``{kind: codec}`` for every hosted kind (web_search ... shell)."""
    codecs: tuple[HostedToolCodec[Any, Any], ...] = (
        WebSearchCodec(),
        FileSearchCodec(),
        CodeInterpreterCodec(),
        ImageGenerationCodec(),
        McpCodec(),
        ShellCodec(),
        WebSearchPreviewCodec(),
        ToolSearchCodec(),
        ProgrammaticToolCallingCodec(),
    )
    return {codec.kind: codec for codec in codecs}


def default_client_tool_codecs() -> dict[str, ClientToolCodec]:
    """A fresh ``{kind: codec}`` for the client-executed provider tools (apply_patch, shell...)."""
    codecs: tuple[ClientToolCodec, ...] = (
        ApplyPatchCodec(),
        LocalShellCodec(),
        LocalShellExecCodec(),
        ComputerCodec(),
        ComputerUsePreviewCodec(),
        CustomCodec(),
        NamespaceCodec(),
        ClientToolSearchCodec(),
    )
    return {codec.kind: codec for codec in codecs}
