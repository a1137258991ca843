"""Provider-executed ("hosted") tools: declared here, serialised by adapter codecs."""

from __future__ import annotations

import dataclasses
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from tooltape.prompt.errors import PromptValidationError
from tooltape.prompt.generic import Specializable
from tooltape.prompt.naming import check_description, check_tool_name


@runtime_checkable
class HostedToolConfig(Protocol):
    """Marker for hosted tool configurations (frozen dataclasses)."""


@runtime_checkable
class HostedToolOutput(Protocol):
    """Marker for typed outputs parsed from a provider's response."""


ConfigT = TypeVar("ConfigT")


def is_frozen_dataclass_instance(value: object) -> bool:
    """True for an instance (not a class) of a ``frozen=True`` dataclass."""
    if isinstance(value, type) or not dataclasses.is_dataclass(value):
        return False
    params: Any = getattr(type(value), "__dataclass_params__", None)
    return bool(getattr(params, "frozen", False))


@dataclasses.dataclass(frozen=True, slots=True)
class HostedTool(Specializable, Generic[ConfigT]):
    """A capability the provider runs server side (web search, code interpreter...).

    ``kind`` selects the adapter codec that owns its wire format; ``name`` is
    the key its parsed output is stored under and must be unique in a prompt.
    """

    kind: str
    name: str
    description: str
    config: ConfigT

    def __post_init__(self) -> None:
        check_tool_name(self.kind, what="Hosted tool kind")
        check_tool_name(self.name, what="Hosted tool")
        check_description(self.description, owner=f"Hosted tool {self.name!r}")
        if not is_frozen_dataclass_instance(self.config):
            raise PromptValidationError(
                f"Hosted tool {self.name!r}: config must be an instance of a frozen dataclass "
                f"(got {type(self.config).__name__}); declare it with "
                "@dataclass(frozen=True, slots=True)."
            )
