"""Web search preview: the earlier web search tool, still offered under its own type.

It takes a location and a context size like ``web_search``, plus the kinds
of content to search (``text``, ``image``), but no domain filter and no
cache-only mode. Its calls are the same ``web_search_call`` items, so its
output has the shape of ``WebSearchResult``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tooltape.prompt import HostedTool
from tooltape.prompt.section import EnabledPredicate
from tooltape.tools.hosted_section import HostedToolSection
from tooltape.tools.validation import check_choice, invalid
from tooltape.tools.web_search import (
    WEB_SEARCH_DESCRIPTION,
    WEB_SEARCH_TEMPLATE,
    ContextSize,
    GeoHint,
    WebSearchResult,
)

PreviewAlias = Literal["web_search_preview", "web_search_preview_2025_03_11"]
SearchContentType = Literal["text", "image"]

PREVIEW_ALIASES: tuple[PreviewAlias, ...] = ("web_search_preview", "web_search_preview_2025_03_11")
_CONTENT_TYPES = ("text", "image")


@dataclass(frozen=True, slots=True)
class WebSearchPreviewConfig:
    """How the preview search runs; ``None`` / empty leaves a setting to the provider.

    ``alias`` is the tool type sent: ``web_search_preview`` or a dated alias
    that pins its behaviour (``web_search_preview_2025_03_11``).
    ``content_types`` restricts results to ``text`` and/or ``image``.
    """

    geo_hint: GeoHint | None = None
    context_size: ContextSize | None = None
    content_types: tuple[SearchContentType, ...] = ()
    alias: PreviewAlias = "web_search_preview"

    def __post_init__(self) -> None:
        owner = "WebSearchPreviewConfig"
        if self.geo_hint is not None and not isinstance(self.geo_hint, GeoHint):
            invalid(owner, "geo_hint", "is not a GeoHint", "wrap it: GeoHint(...)")
        check_choice(owner, "context_size", self.context_size, ("low", "medium", "high"))
        if isinstance(self.content_types, str):
            invalid(
                owner,
                "content_types",
                f"expected a sequence, got {self.content_types!r}",
                f"write content_types=({self.content_types!r},)",
            )
        types = tuple(self.content_types)
        for content_type in types:
            check_choice(owner, "content_types", content_type, _CONTENT_TYPES)
        if len(set(types)) != len(types):
            invalid(owner, "content_types", f"{types!r} repeats a type", "list each once")
        object.__setattr__(self, "content_types", types)
        check_choice(owner, "alias", self.alias, PREVIEW_ALIASES)


DEFAULT_WEB_SEARCH_PREVIEW_CONFIG = WebSearchPreviewConfig()


@dataclass(frozen=True, slots=True)
class WebSearchPreviewResult(WebSearchResult):
    """What the preview search produced: the same fields as ``WebSearchResult``."""


def web_search_preview_tool(
    config: WebSearchPreviewConfig = DEFAULT_WEB_SEARCH_PREVIEW_CONFIG,
    *,
    name: str = "web_search_preview",
) -> HostedTool[WebSearchPreviewConfig]:
    """A web search preview hosted tool."""
    return HostedTool(
        kind="web_search_preview",
        name=name,
        description=WEB_SEARCH_DESCRIPTION,
        config=config,
    )


class WebSearchPreviewSection(HostedToolSection):
    """A section that explains web search and carries the preview tool."""

    def __init__(
        self,
        config: WebSearchPreviewConfig = DEFAULT_WEB_SEARCH_PREVIEW_CONFIG,
        *,
        key: str = "web_search_preview",
        name: str = "web_search_preview",
        enabled: bool | EnabledPredicate | None = None,
    ) -> None:
        tool = web_search_preview_tool(config, name=name)
        super().__init__(
            tool, title="Web Search", key=key, template=WEB_SEARCH_TEMPLATE, enabled=enabled
        )
