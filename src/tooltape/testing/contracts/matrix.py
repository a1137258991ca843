"""Run the contract of every registered kind over a cassette folder."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tooltape.adapters.codec import HostedToolCodec
from tooltape.adapters.openai.codecs.registry import default_hosted_tool_codecs
from tooltape.prompt import HostedTool
from tooltape.testing.contracts.checks import KindReport, Outcome, check_kind
from tooltape.testing.contracts.corpus import Corpus, load_corpus
from tooltape.testing.kinds import canonical_tools


@dataclass(frozen=True, slots=True)
class ContractReport:
    """The matrix: one row per registered kind, plus cassettes that could not be read."""

    root: Path
    kinds: tuple[KindReport, ...]
    unreadable: tuple[tuple[Path, str], ...]

    @property
    def ok(self) -> bool:
        return not self.unreadable and all(kind.ok for kind in self.kinds)


def _missing_tool(kind: str) -> KindReport:
    why = Outcome(
        False,
        f"no representative tool for kind {kind!r}: pass one (tools={{{kind!r}: ...}}) so "
        "its spec can be snapshotted and its outputs read",
    )
    return KindReport(kind, why, why, why, Outcome(False, "-"))


def run_contracts(
    root: Path,
    *,
    codecs: Mapping[str, HostedToolCodec[Any, Any]] | None = None,
    tools: Mapping[str, HostedTool[Any]] | None = None,
    update_specs: bool = False,
    corpus: Corpus | None = None,
    on_kind: Callable[[str], None] | None = None,
) -> ContractReport:
    """Check every kind of ``codecs`` (default: the OpenAI adapter's) against ``root``."""
    registry = dict(default_hosted_tool_codecs() if codecs is None else codecs)
    representative = {**canonical_tools(), **(tools or {})}
    loaded = corpus if corpus is not None else load_corpus(root)
    reports: list[KindReport] = []
    for kind, codec in sorted(registry.items()):
        if on_kind is not None:
            on_kind(kind)
        tool = representative.get(kind)
        if tool is None:
            reports.append(_missing_tool(kind))
            continue
        reports.append(
            check_kind(codec, tool, loaded, registry=registry, update_specs=update_specs)
        )
    return ContractReport(root, tuple(reports), loaded.unreadable)
