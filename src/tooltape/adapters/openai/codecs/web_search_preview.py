"""OpenAI wire format of ``web_search_preview``: its own spec, the ``web_search_call`` items
and url citations it shares with ``web_search``."""

from __future__ import annotations

from typing import Any, ClassVar

from tooltape.adapters.openai.codecs.web_search import WebSearchCodec, user_location
from tooltape.prompt import HostedTool
from tooltape.tools.web_search import WebSearchResult
from tooltape.tools.web_search_preview import WebSearchPreviewConfig, WebSearchPreviewResult


class WebSearchPreviewCodec(WebSearchCodec):
    """``web_search_preview`` (or a dated alias) for the OpenAI Responses API.

    Calls are the ``web_search_call`` items ``web_search`` reads, read the
    same way into ``WebSearchPreviewResult`` values. A prompt carries one of
    the two kinds (the request builder refuses both); a recording is told
    apart only by the request's tool type.
    """

    result_type: ClassVar[type[WebSearchResult]] = WebSearchPreviewResult

    @property
    def kind(self) -> str:
        return "web_search_preview"

    def serialize(self, tool: HostedTool[WebSearchPreviewConfig]) -> dict[str, Any]:  # pyright: ignore[reportIncompatibleMethodOverride]
        config = tool.config
        spec: dict[str, Any] = {"type": config.alias}
        if config.geo_hint is not None:
            spec["user_location"] = user_location(config.geo_hint)
        if config.context_size is not None:
            spec["search_context_size"] = config.context_size
        if config.content_types:
            spec["search_content_types"] = list(config.content_types)
        return spec

    def includes(self, tool: HostedTool[Any]) -> tuple[str, ...]:
        return ("web_search_call.action.sources",)

    def tool_choice(self, tool: HostedTool[Any]) -> dict[str, Any]:
        # Both the plain and the dated type are hosted tool choices the API lists.
        config: object = tool.config
        alias = config.alias if isinstance(config, WebSearchPreviewConfig) else self.kind
        return {"type": alias}
