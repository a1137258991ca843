"""File search: the provider searches vector stores of uploaded files."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from tooltape.prompt import HostedTool
from tooltape.prompt.section import EnabledPredicate
from tooltape.tools.hosted_section import HostedToolSection
from tooltape.tools.rendering import JsonRendered
from tooltape.tools.validation import (
    check_choice,
    check_float_range,
    check_int_range,
    check_text,
    invalid,
    string_tuple,
)

FilterOp = Literal["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin"]
GroupOp = Literal["and", "or"]
_FILTER_OPS = ("eq", "ne", "gt", "gte", "lt", "lte", "in", "nin")
_SCALAR = (str, int, float, bool)


@dataclass(frozen=True, slots=True)
class AttributeFilter:
    """Compare a file attribute to a value: ``AttributeFilter("year", "gte", 2020)``.

    ``in`` / ``nin`` take a sequence of strings or numbers; every other
    operator takes one string, number or bool.
    """

    key: str
    op: FilterOp
    value: str | float | bool | tuple[str | float, ...]

    def __post_init__(self) -> None:
        check_text("AttributeFilter", "key", self.key)
        check_choice("AttributeFilter", "op", self.op, _FILTER_OPS)
        if self.op in ("in", "nin"):
            values = self.value
            if isinstance(values, str) or not isinstance(values, tuple | list):
                invalid("AttributeFilter", "value", f"{values!r} is not a sequence", "pass a tuple")
            items: tuple[object, ...] = tuple(values)  # pyright: ignore[reportUnknownArgumentType]
            if not items or not all(isinstance(v, str | int | float) for v in items):
                invalid("AttributeFilter", "value", f"{values!r}", "pass strings or numbers")
            object.__setattr__(self, "value", items)
        elif not isinstance(self.value, _SCALAR):
            invalid("AttributeFilter", "value", f"{self.value!r}", "pass a string, number or bool")


@dataclass(frozen=True, slots=True)
class FilterGroup:
    """All (``and``) or any (``or``) of several filters."""

    op: GroupOp
    filters: tuple[AttributeFilter | FilterGroup, ...]

    def __post_init__(self) -> None:
        check_choice("FilterGroup", "op", self.op, ("and", "or"))
        filters = tuple(self.filters)
        if not filters or not all(isinstance(f, AttributeFilter | FilterGroup) for f in filters):
            invalid(
                "FilterGroup",
                "filters",
                "must hold at least one AttributeFilter or FilterGroup",
                "add the filters to combine",
            )
        object.__setattr__(self, "filters", filters)


@dataclass(frozen=True, slots=True)
class FileSearchRanking:
    """Ranking options: ranker name, minimum score (0-1) and hybrid search weights.

    Give both ``embedding_weight`` and ``text_weight`` to use hybrid search.
    """

    ranker: str | None = None
    score_threshold: float | None = None
    embedding_weight: float | None = None
    text_weight: float | None = None

    def __post_init__(self) -> None:
        check_text("FileSearchRanking", "ranker", self.ranker)
        check_float_range("FileSearchRanking", "score_threshold", self.score_threshold, 0.0, 1.0)
        check_float_range("FileSearchRanking", "embedding_weight", self.embedding_weight, 0, 1e9)
        check_float_range("FileSearchRanking", "text_weight", self.text_weight, 0, 1e9)
        if (self.embedding_weight is None) != (self.text_weight is None):
            invalid(
                "FileSearchRanking",
                "text_weight" if self.text_weight is None else "embedding_weight",
                "hybrid search needs both weights",
                "set both embedding_weight and text_weight, or neither",
            )


@dataclass(frozen=True, slots=True)
class FileSearchConfig:
    """Which vector stores to search and how.

    ``max_num_results`` is 1-50; ``include_results=True`` asks the provider
    to return the matched chunks (text and score), not only the queries.
    """

    vector_store_ids: tuple[str, ...]
    max_num_results: int | None = None
    ranking: FileSearchRanking | None = None
    filters: AttributeFilter | FilterGroup | None = None
    include_results: bool = False

    def __post_init__(self) -> None:
        owner = "FileSearchConfig"
        ids = string_tuple(owner, "vector_store_ids", self.vector_store_ids)
        if not ids:
            invalid(owner, "vector_store_ids", "is empty", "name at least one vector store id")
        object.__setattr__(self, "vector_store_ids", ids)
        check_int_range(owner, "max_num_results", self.max_num_results, 1, 50)
        if self.ranking is not None and not isinstance(self.ranking, FileSearchRanking):
            invalid(owner, "ranking", "is not a FileSearchRanking", "wrap it: FileSearchRanking()")
        if self.filters is not None and not isinstance(self.filters, AttributeFilter | FilterGroup):
            invalid(owner, "filters", "is not a filter", "use AttributeFilter or FilterGroup")
        if not isinstance(self.include_results, bool):
            invalid(owner, "include_results", f"{self.include_results!r}", "use True/False")


@dataclass(frozen=True, slots=True)
class FileSearchHit:
    """One matched chunk: which file, how well it scored, and its text."""

    file_id: str | None
    filename: str | None
    score: float | None
    text: str | None
    attributes: Mapping[str, object] = field(default_factory=lambda: {})


@dataclass(frozen=True, slots=True)
class FileCitation:
    """A file the answer cites, at character ``index`` of the answer text."""

    file_id: str
    filename: str | None = None
    index: int | None = None


@dataclass(frozen=True, slots=True)
class FileSearchCall:
    """One search the provider ran: the queries it used."""

    queries: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FileSearchResult(JsonRendered):
    """What file search produced: queries, matched chunks (if included) and citations."""

    text: str
    queries: tuple[str, ...] = ()
    results: tuple[FileSearchHit, ...] = ()
    citations: tuple[FileCitation, ...] = ()


def file_search_tool(
    config: FileSearchConfig, *, name: str = "file_search"
) -> HostedTool[FileSearchConfig]:
    """A file search hosted tool over ``config.vector_store_ids`` (no default store exists)."""
    return HostedTool(
        kind="file_search",
        name=name,
        description="Search the uploaded files for relevant passages and cite them.",
        config=config,
    )


_TEMPLATE = (
    "You can search the uploaded files. Search them before answering questions about their "
    "content, quote only what the results contain, and cite the files you use."
)


class FileSearchSection(HostedToolSection):
    """A section that explains file search and carries the tool."""

    def __init__(
        self,
        config: FileSearchConfig,
        *,
        key: str = "file_search",
        name: str = "file_search",
        enabled: bool | EnabledPredicate | None = None,
    ) -> None:
        tool = file_search_tool(config, name=name)
        super().__init__(tool, title="File Search", key=key, template=_TEMPLATE, enabled=enabled)
