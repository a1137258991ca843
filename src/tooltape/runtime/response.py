"""``PromptResponse``: what an evaluation returns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from tooltape.prompt import HostedToolOutput
from tooltape.prompt.generic import Specializable
from tooltape.runtime.events import ToolInvoked

OutputT = TypeVar("OutputT")


@dataclass(frozen=True, slots=True)
class PromptResponse(Specializable, Generic[OutputT]):
    """The final text, the parsed structured output (or ``None``), every tool call made,
    and the typed outputs of provider-executed tools keyed by tool name."""

    prompt_name: str
    text: str
    output: OutputT | None = None
    hosted_outputs: Mapping[str, HostedToolOutput] = field(
        default_factory=lambda: dict[str, HostedToolOutput]()
    )
    tool_invocations: tuple[ToolInvoked, ...] = ()
    response_id: str | None = None
