"""OpenAI wire format of ``web_search``: the tool spec, ``web_search_call`` items, url citations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from tooltape.adapters.codec import HostedCall
from tooltape.adapters.openai.codecs.calls import hosted_call
from tooltape.adapters.openai.codecs.failures import call_failure, cannot_express
from tooltape.adapters.openai.codecs.items import elements, field, of_types, strings, text
from tooltape.adapters.openai.codecs.messages import answer
from tooltape.prompt import HostedTool
from tooltape.tools.web_search import (
    Citation,
    GeoHint,
    WebSearchCall,
    WebSearchConfig,
    WebSearchResult,
    WebSource,
)

_MAX_DOMAINS = 100
_ITEM = "web_search_call"


def _unique(values: Sequence[str | None]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(v for v in values if v))


def _search(item: object) -> WebSearchCall:
    action = field(item, "action")
    sources = tuple(
        WebSource(type=text(s, "type") or "unknown", url=text(s, "url"), name=text(s, "name"))
        for s in elements(action, "sources")
    )
    return WebSearchCall(
        action=text(action, "type") or "unknown",
        query=text(action, "query"),
        queries=strings(action, "queries"),
        url=text(action, "url"),
        pattern=text(action, "pattern"),
        sources=sources,
    )


def _urls(searches: Sequence[WebSearchCall]) -> list[str | None]:
    urls: list[str | None] = []
    for search in searches:
        urls.append(search.url)
        urls.extend(source.url for source in search.sources)
    return urls


def user_location(geo: GeoHint) -> dict[str, Any]:
    """An approximate ``user_location`` with only the fields ``geo`` sets."""
    location: dict[str, Any] = {"type": "approximate"}
    for key, value in (
        ("country", geo.country_code),
        ("city", geo.city),
        ("region", geo.region),
        ("timezone", geo.timezone),
    ):
        if value is not None:
            location[key] = value
    return location


class WebSearchCodec:
    """``web_search`` for the OpenAI Responses API."""

    result_type: ClassVar[type[WebSearchResult]] = WebSearchResult

    @property
    def kind(self) -> str:
        return "web_search"

    @property
    def item_types(self) -> tuple[str, ...]:
        return (_ITEM,)

    def serialize(self, tool: HostedTool[WebSearchConfig]) -> dict[str, Any]:
        config = tool.config
        spec: dict[str, Any] = {"type": config.alias}
        domains = config.domain_filter
        if domains is not None and (domains.allowed or domains.blocked):
            if max(len(domains.allowed), len(domains.blocked)) > _MAX_DOMAINS:
                raise cannot_express(tool, f"OpenAI takes at most {_MAX_DOMAINS} domains a list.")
            filters: dict[str, Any] = {}
            if domains.allowed:
                filters["allowed_domains"] = list(domains.allowed)
            if domains.blocked:
                filters["blocked_domains"] = list(domains.blocked)
            spec["filters"] = filters
        if config.geo_hint is not None:
            spec["user_location"] = user_location(config.geo_hint)
        if config.context_size is not None:
            spec["search_context_size"] = config.context_size
        if not config.allow_live_access:
            spec["external_web_access"] = False
        return spec

    def includes(self, tool: HostedTool[WebSearchConfig]) -> tuple[str, ...]:
        return ("web_search_call.action.sources",)

    def tool_choice(self, tool: HostedTool[Any]) -> dict[str, Any]:
        # The SDK's hosted tool choice types do not list web_search; an allowed-tools
        # choice in "required" mode forces it with a shape the SDK does accept.
        config: object = tool.config
        alias = config.alias if isinstance(config, WebSearchConfig) else "web_search"
        return {"type": "allowed_tools", "mode": "required", "tools": [{"type": alias}]}

    def parse_calls(
        self, response_items: Sequence[Any], tool: HostedTool[Any] | None
    ) -> tuple[HostedCall, ...]:
        calls: list[HostedCall] = []
        for item in of_types(response_items, (_ITEM,)):
            search = _search(item)
            what = f"{search.action} {search.query or search.url or ''}".strip()
            error = call_failure(item, what)
            output = self.result_type(
                text="", source_urls=_unique(_urls([search])), searches=(search,)
            )
            calls.append(hosted_call(self.kind, item, params=search, output=output, error=error))
        return tuple(calls)

    def parse_output(
        self, response_items: Sequence[Any], tool: HostedTool[Any]
    ) -> WebSearchResult | None:
        items = of_types(response_items, (_ITEM,))
        if not items:
            return None
        searches = tuple(_search(item) for item in items)
        reply = answer(response_items)
        citations = tuple(
            Citation(
                url=text(a.value, "url") or "",
                title=text(a.value, "title") or "",
                span=a.span(),
            )
            for a in reply.of_type("url_citation")
        )
        urls = _urls(searches) + [c.url for c in citations]
        return self.result_type(
            text=reply.text,
            citations=citations,
            source_urls=_unique(urls),
            searches=searches,
        )
