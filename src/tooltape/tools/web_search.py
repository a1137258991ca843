"""Web search: the provider searches the web and cites the pages it used."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tooltape.prompt import HostedTool
from tooltape.prompt.section import EnabledPredicate
from tooltape.tools.hosted_section import HostedToolSection
from tooltape.tools.rendering import JsonRendered
from tooltape.tools.validation import (
    check_choice,
    check_country_code,
    check_domain,
    check_text,
    check_timezone,
    invalid,
    string_tuple,
)

ContextSize = Literal["low", "medium", "high"]
WebSearchAlias = Literal["web_search", "web_search_2025_08_26"]

WEB_SEARCH_ALIASES: tuple[WebSearchAlias, ...] = ("web_search", "web_search_2025_08_26")


@dataclass(frozen=True, slots=True)
class DomainFilter:
    """Restrict results to ``allowed`` domains and/or drop ``blocked`` ones.

    Domains are bare host names (``"cdc.gov"``, not ``"https://cdc.gov"``);
    subdomains are included. A domain may not be both allowed and blocked.
    """

    allowed: tuple[str, ...] = ()
    blocked: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for field in ("allowed", "blocked"):
            domains = string_tuple("DomainFilter", field, getattr(self, field))
            for domain in domains:
                check_domain("DomainFilter", field, domain)
            object.__setattr__(self, field, domains)
        both = sorted(set(self.allowed) & set(self.blocked))
        if both:
            invalid(
                "DomainFilter",
                "blocked",
                f"{', '.join(both)} is also allowed",
                "list each domain in only one of allowed / blocked",
            )


@dataclass(frozen=True, slots=True)
class GeoHint:
    """Where the user roughly is, so results can be localised."""

    country_code: str | None = None
    city: str | None = None
    region: str | None = None
    timezone: str | None = None

    def __post_init__(self) -> None:
        check_country_code("GeoHint", "country_code", self.country_code)
        check_text("GeoHint", "city", self.city)
        check_text("GeoHint", "region", self.region)
        check_timezone("GeoHint", "timezone", self.timezone)


@dataclass(frozen=True, slots=True)
class WebSearchConfig:
    """How the provider may search: domains, location, live access, context size.

    ``allow_live_access=False`` keeps the search to the provider's cache;
    ``context_size`` (``low``/``medium``/``high``) trades answer depth for
    tokens. ``None`` leaves a setting to the provider's default. ``alias`` is
    the tool type sent: ``web_search`` or a dated alias that pins its
    behaviour (``web_search_2025_08_26``).
    """

    domain_filter: DomainFilter | None = None
    geo_hint: GeoHint | None = None
    allow_live_access: bool = True
    context_size: ContextSize | None = None
    alias: WebSearchAlias = "web_search"

    def __post_init__(self) -> None:
        owner = "WebSearchConfig"
        if self.domain_filter is not None and not isinstance(self.domain_filter, DomainFilter):
            invalid(owner, "domain_filter", "is not a DomainFilter", "wrap it: DomainFilter(...)")
        if self.geo_hint is not None and not isinstance(self.geo_hint, GeoHint):
            invalid(owner, "geo_hint", "is not a GeoHint", "wrap it: GeoHint(...)")
        if not isinstance(self.allow_live_access, bool):
            invalid(owner, "allow_live_access", f"{self.allow_live_access!r}", "use True/False")
        check_choice(owner, "context_size", self.context_size, ("low", "medium", "high"))
        check_choice(owner, "alias", self.alias, WEB_SEARCH_ALIASES)


DEFAULT_WEB_SEARCH_CONFIG = WebSearchConfig()


@dataclass(frozen=True, slots=True)
class Citation:
    """A web page the answer cites; ``span`` is the cited ``[start, end)`` of the text."""

    url: str
    title: str
    span: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class WebSource:
    """Something a search consulted: a page (``url``) or a provider data feed (``name``)."""

    type: str
    url: str | None = None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class WebSearchCall:
    """One search action the provider ran.

    ``action`` is ``search`` (``query``/``queries``), ``open_page`` (``url``)
    or ``find_in_page`` (``url`` and ``pattern``); other actions keep their
    name and whatever fields apply.
    """

    action: str
    query: str | None = None
    queries: tuple[str, ...] = ()
    url: str | None = None
    pattern: str | None = None
    sources: tuple[WebSource, ...] = ()


@dataclass(frozen=True, slots=True)
class WebSearchResult(JsonRendered):
    """What web search produced: the answer text, its citations and the searches run."""

    text: str
    citations: tuple[Citation, ...] = ()
    source_urls: tuple[str, ...] = ()
    searches: tuple[WebSearchCall, ...] = ()

    @property
    def queries(self) -> tuple[str, ...]:
        """Every query searched for, in order, without repeats."""
        seen: dict[str, None] = {}
        for search in self.searches:
            for query in (search.query, *search.queries):
                if query:
                    seen.setdefault(query, None)
        return tuple(seen)


WEB_SEARCH_DESCRIPTION = "Search the web for current information and cite sources."
"""The description of a web search tool (both web search kinds)."""


def web_search_tool(
    config: WebSearchConfig = DEFAULT_WEB_SEARCH_CONFIG, *, name: str = "web_search"
) -> HostedTool[WebSearchConfig]:
    """A web search hosted tool; pass ``name`` to carry two differently configured ones."""
    return HostedTool(
        kind="web_search",
        name=name,
        description=WEB_SEARCH_DESCRIPTION,
        config=config,
    )


WEB_SEARCH_TEMPLATE = (
    "You can search the web. Search when the answer depends on recent or specific facts, "
    "prefer authoritative sources, and cite the pages you rely on."
)
"""What a web search section tells the model (both web search kinds)."""


class WebSearchSection(HostedToolSection):
    """A section that explains web search and carries the tool."""

    def __init__(
        self,
        config: WebSearchConfig = DEFAULT_WEB_SEARCH_CONFIG,
        *,
        key: str = "web_search",
        name: str = "web_search",
        enabled: bool | EnabledPredicate | None = None,
    ) -> None:
        tool = web_search_tool(config, name=name)
        super().__init__(
            tool, title="Web Search", key=key, template=WEB_SEARCH_TEMPLATE, enabled=enabled
        )
