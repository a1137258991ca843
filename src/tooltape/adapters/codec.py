"""The seam between provider-agnostic tools and one provider's wire format."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from tooltape.prompt import HostedTool, HostedToolOutput, Tool, ToolResult

ConfigT = TypeVar("ConfigT")
ConfigT_contra = TypeVar("ConfigT_contra")
OutputT_co = TypeVar("OutputT_co", covariant=True)


@dataclass(frozen=True, slots=True)
class HostedCall:
    """One provider-executed call item of a response, read by its kind's codec.

    ``params`` is what the provider says the call was asked to do (a typed
    value such as the search query); ``output`` is the typed output of this
    call alone; ``error`` carries the provider's error code and text when the
    call failed.
    """

    kind: str
    item_type: str
    id: str
    status: str | None
    success: bool
    params: object = None
    output: HostedToolOutput | None = None
    error: str | None = None

    def to_result(self) -> ToolResult[Any]:
        """The ``ToolResult`` recorded for this call."""
        if not self.success:
            return ToolResult.error(self.error or f"{self.item_type} {self.id} failed.")
        return ToolResult.ok(self.output, message=f"{self.item_type} {self.status or 'done'}")


class HostedToolCodec(Protocol[ConfigT_contra, OutputT_co]):
    """Serialises one hosted tool kind and parses what the provider returns for it."""

    @property
    def kind(self) -> str:
        """The provider-agnostic kind this codec owns (``"web_search"``...)."""
        ...

    @property
    def item_types(self) -> tuple[str, ...]:
        """Response item types that are calls of this kind (``"web_search_call"``...)."""
        ...

    def serialize(self, tool: HostedTool[ConfigT_contra]) -> dict[str, Any]:
        """The ``tools[]`` entry for ``tool``; raises ``PromptEvaluationError`` (render) if
        the provider cannot express its config."""
        ...

    def includes(self, tool: HostedTool[ConfigT_contra]) -> tuple[str, ...]:
        """``include[]`` entries the request needs for this tool's outputs."""
        ...

    def tool_choice(self, tool: HostedTool[ConfigT_contra]) -> dict[str, Any]:
        """The ``tool_choice`` object that forces this tool."""
        ...

    def parse_calls(
        self, response_items: Sequence[Any], tool: HostedTool[ConfigT_contra] | None
    ) -> tuple[HostedCall, ...]:
        """Every call item of this kind (belonging to ``tool`` when given), in order."""
        ...

    def parse_output(
        self, response_items: Sequence[Any], tool: HostedTool[ConfigT_contra]
    ) -> OutputT_co | None:
        """The aggregated typed output for ``tool``; ``None`` when it was not invoked."""
        ...


class ClientToolCodec(Protocol):
    """Wire format of a provider-defined tool that the client executes (apply_patch, shell).

    The provider defines the spec and the call item; the client runs the call
    through the executor and answers with an ``*_output`` item.
    """

    @property
    def kind(self) -> str: ...

    @property
    def call_item_type(self) -> str: ...

    def serialize(self, tool: Tool[Any, Any]) -> dict[str, Any]: ...

    def call_arguments(self, item: Mapping[str, Any]) -> dict[str, Any]:
        """The tool's JSON arguments taken from a call item."""
        ...

    def call_id(self, item: Mapping[str, Any]) -> str: ...

    def output_item(self, item: Mapping[str, Any], result: ToolResult[Any]) -> dict[str, Any]:
        """The ``*_output`` input item answering ``item`` with ``result``."""
        ...
