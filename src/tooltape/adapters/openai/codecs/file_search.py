"""OpenAI wire format of ``file_search``: spec, ``file_search_call`` items, file citations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tooltape.adapters.codec import HostedCall
from tooltape.adapters.openai.codecs.calls import hosted_call
from tooltape.adapters.openai.codecs.failures import call_failure, cannot_express
from tooltape.adapters.openai.codecs.items import (
    elements,
    field,
    mapping,
    number,
    of_types,
    strings,
    text,
)
from tooltape.adapters.openai.codecs.messages import answer
from tooltape.prompt import HostedTool
from tooltape.tools.file_search import (
    AttributeFilter,
    FileCitation,
    FileSearchCall,
    FileSearchConfig,
    FileSearchHit,
    FileSearchRanking,
    FileSearchResult,
    FilterGroup,
)

_ITEM = "file_search_call"
_RANKERS = ("auto", "default-2024-11-15")


def _filter(node: AttributeFilter | FilterGroup) -> dict[str, Any]:
    if isinstance(node, FilterGroup):
        return {"type": node.op, "filters": [_filter(child) for child in node.filters]}
    value = list(node.value) if isinstance(node.value, tuple) else node.value
    return {"type": node.op, "key": node.key, "value": value}


def _ranking(tool: HostedTool[FileSearchConfig], ranking: FileSearchRanking) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if ranking.ranker is not None:
        if ranking.ranker not in _RANKERS:
            raise cannot_express(
                tool, f"ranker {ranking.ranker!r} is unknown to OpenAI; use one of {_RANKERS}."
            )
        options["ranker"] = ranking.ranker
    if ranking.score_threshold is not None:
        options["score_threshold"] = ranking.score_threshold
    if ranking.embedding_weight is not None and ranking.text_weight is not None:
        options["hybrid_search"] = {
            "embedding_weight": ranking.embedding_weight,
            "text_weight": ranking.text_weight,
        }
    return options


def _hit(result: object) -> FileSearchHit:
    return FileSearchHit(
        file_id=text(result, "file_id"),
        filename=text(result, "filename"),
        score=number(result, "score"),
        text=text(result, "text"),
        attributes=mapping(field(result, "attributes")),
    )


class FileSearchCodec:
    """``file_search`` for the OpenAI Responses API."""

    @property
    def kind(self) -> str:
        return "file_search"

    @property
    def item_types(self) -> tuple[str, ...]:
        return (_ITEM,)

    def serialize(self, tool: HostedTool[FileSearchConfig]) -> dict[str, Any]:
        config = tool.config
        spec: dict[str, Any] = {
            "type": "file_search",
            "vector_store_ids": list(config.vector_store_ids),
        }
        if config.max_num_results is not None:
            spec["max_num_results"] = config.max_num_results
        if config.ranking is not None:
            options = _ranking(tool, config.ranking)
            if options:
                spec["ranking_options"] = options
        if config.filters is not None:
            spec["filters"] = _filter(config.filters)
        return spec

    def includes(self, tool: HostedTool[FileSearchConfig]) -> tuple[str, ...]:
        return ("file_search_call.results",) if tool.config.include_results else ()

    def tool_choice(self, tool: HostedTool[FileSearchConfig]) -> dict[str, Any]:
        return {"type": "file_search"}

    def parse_calls(
        self, response_items: Sequence[Any], tool: HostedTool[FileSearchConfig] | None
    ) -> tuple[HostedCall, ...]:
        calls: list[HostedCall] = []
        for item in of_types(response_items, self.item_types):
            queries = strings(item, "queries")
            error = call_failure(item, f"queries {list(queries)}")
            hits = tuple(_hit(r) for r in elements(item, "results"))
            output = FileSearchResult(text="", queries=queries, results=hits)
            params = FileSearchCall(queries)
            calls.append(hosted_call(self.kind, item, params=params, output=output, error=error))
        return tuple(calls)

    def parse_output(
        self, response_items: Sequence[Any], tool: HostedTool[FileSearchConfig]
    ) -> FileSearchResult | None:
        items = of_types(response_items, self.item_types)
        if not items:
            return None
        reply = answer(response_items)
        citations = tuple(
            FileCitation(
                file_id=text(a.value, "file_id") or "",
                filename=text(a.value, "filename"),
                index=a.index(),
            )
            for a in reply.of_type("file_citation")
        )
        return FileSearchResult(
            text=reply.text,
            queries=tuple(q for item in items for q in strings(item, "queries")),
            results=tuple(_hit(r) for item in items for r in elements(item, "results")),
            citations=citations,
        )
