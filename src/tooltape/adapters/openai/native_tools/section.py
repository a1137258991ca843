"""``OpenAINativeToolSection``: an OpenAI native tool declared as a silent section."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tooltape.adapters.codec import HostedToolCodec
from tooltape.adapters.openai.capabilities import refusal
from tooltape.adapters.openai.codecs.registry import default_hosted_tool_codecs
from tooltape.prompt import (
    HostedTool,
    PromptEvaluationError,
    PromptValidationError,
    Section,
)


class OpenAINativeToolSection(Section[Any]):
    """A section that only carries one OpenAI native tool and renders no text.

    Everything is checked when the section is built, long before a request:
    the model must support the tool's kind (per the capability table, which
    ``capabilities=`` overrides) and the codec must be able to express the
    config on the wire.
    """

    def __init__(
        self,
        tool: HostedTool[Any],
        *,
        model: str,
        key: str,
        capabilities: Mapping[str, frozenset[str]] | None = None,
        codecs: Mapping[str, HostedToolCodec[Any, Any]] | None = None,
    ) -> None:
        owner = f"{type(self).__name__}(model={model!r})"
        reason = refusal(model, tool.kind, capabilities)
        if reason is not None:
            raise PromptValidationError(
                f"{owner}: model {model!r} does not support the {tool.kind!r} tool: {reason}. "
                "Choose another model or pass capabilities= if this is out of date."
            )
        codec = (default_hosted_tool_codecs() if codecs is None else codecs).get(tool.kind)
        if codec is None:
            raise PromptValidationError(f"{owner}: no OpenAI codec for kind {tool.kind!r}.")
        try:
            codec.serialize(tool)
        except PromptEvaluationError as exc:
            raise PromptValidationError(f"{owner}: {exc.message}") from exc
        super().__init__(
            title=f"OpenAI {tool.kind}",
            key=key,
            hosted_tools=(tool,),
            accepts_overrides=False,
        )
        self.model = model
        self.capabilities = capabilities
        self.codecs = codecs
        self.tool = tool

    def render(self, params: Any, depth: int = 0, number: str = "1") -> str:
        return ""

    def _constructor_arguments(self) -> dict[str, Any]:
        return {
            "config": self.tool.config,
            "model": self.model,
            "key": self.key,
            "name": self.tool.name,
            "capabilities": self.capabilities,
        }
