"""``ClientExecutedTool``: a provider-defined tool whose calls the client runs."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from tooltape.prompt import PromptValidationError, Tool
from tooltape.prompt.generic import TypeArgsAlias, specialize
from tooltape.prompt.hosted import is_frozen_dataclass_instance
from tooltape.prompt.naming import check_tool_name

ParamsT = TypeVar("ParamsT")
ResultT = TypeVar("ResultT")


@dataclasses.dataclass(frozen=True, slots=True)
class ClientExecutedTool(Tool[ParamsT, ResultT]):
    """A tool whose wire spec and call item the provider defines, run by a local handler.

    ``kind`` names the provider tool (``"apply_patch"``, ``"shell"``): an
    adapter serialises it with the client codec of that kind instead of as
    a function, reads the arguments from the provider's call item, runs the
    handler through the same executor and hooks as any function tool, and
    answers with the kind's ``*_output`` item. The params dataclass mirrors
    the provider's call item, so hooks see the same arguments the provider
    sent. Overrides are off by default: the provider, not the description,
    tells the model how to use the tool. ``config`` holds the kind's own
    settings (a frozen dataclass the codec serialises, such as the display of
    a computer or the grammar of a custom tool); ``None`` when it has none.
    """

    accepts_overrides: bool = False
    # No function schema goes on the wire: the provider defines the call's shape.
    strict: bool = False
    kind: str = ""
    config: Any = None

    def __class_getitem__(cls, params: object) -> TypeArgsAlias:  # pyright: ignore[reportIncompatibleMethodOverride]
        return specialize(cls, params)

    def __post_init__(self) -> None:
        check_tool_name(self.kind, what="Client-executed tool kind")
        if self.config is not None and not is_frozen_dataclass_instance(self.config):
            raise PromptValidationError(
                f"ClientExecutedTool {self.name!r}: config must be a frozen dataclass instance "
                f"(got {type(self.config).__name__})."
            )
        if self.handler is None:
            raise PromptValidationError(
                f"ClientExecutedTool {self.name!r}: the client runs its calls, so it needs a "
                "handler; use NativeTool for tools the provider runs."
            )
        # Two-argument super: slots=True rebuilds the class, which breaks the bare form.
        super(ClientExecutedTool, self).__post_init__()
