"""How a function (or custom) tool is offered: deferred, callable from programs, in a namespace.

A plain ``Tool`` is offered directly: loaded into the model's context and
called by the model itself. ``with_options`` returns the same tool with
``FunctionOptions``: ``defer_loading`` keeps its definition out of the
context until a tool search loads it, ``allowed_callers`` says whether the
model (``direct``), programs it writes (``programmatic``) or both may call it,
and ``namespace`` groups it with others under a ``Namespace``.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from tooltape.prompt import PromptValidationError, Tool
from tooltape.prompt.generic import TypeArgsAlias, specialize
from tooltape.tools.callers import Caller, check_allowed_callers
from tooltape.tools.validation import check_bool, check_text, invalid

_NAMESPACE = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")

ParamsT = TypeVar("ParamsT")
ResultT = TypeVar("ResultT")


@dataclass(frozen=True, slots=True)
class Namespace:
    """A named group of tools the model sees as one entry (``crm``: "Customer records")."""

    name: str
    description: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAMESPACE.fullmatch(self.name):
            invalid(
                "Namespace",
                "name",
                f"{self.name!r} is not a namespace name",
                "use 1-64 letters, digits, '_' or '-'",
            )
        check_text("Namespace", "description", self.description)
        if self.description is None:  # pyright: ignore[reportUnnecessaryComparison]
            invalid("Namespace", "description", "is None", "say what the namespace's tools do")


@dataclass(frozen=True, slots=True)
class FunctionOptions:
    """Offer options of one function or custom tool (the defaults offer it plainly)."""

    defer_loading: bool = False
    allowed_callers: tuple[Caller, ...] | None = None
    namespace: Namespace | None = None

    def __post_init__(self) -> None:
        owner = "FunctionOptions"
        check_bool(owner, "defer_loading", self.defer_loading)
        object.__setattr__(
            self, "allowed_callers", check_allowed_callers(owner, self.allowed_callers)
        )
        if self.namespace is not None and not isinstance(self.namespace, Namespace):
            invalid(owner, "namespace", f"{self.namespace!r}", "use Namespace(name, description)")

    @property
    def programmatic(self) -> bool:
        """Whether programs the model writes may call the tool."""
        return self.allowed_callers is not None and "programmatic" in self.allowed_callers


PLAIN = FunctionOptions()


@dataclasses.dataclass(frozen=True, slots=True)
class ToolWithOptions(Tool[ParamsT, ResultT]):
    """A function tool and the ``FunctionOptions`` it is offered with (see ``with_options``)."""

    options: FunctionOptions = PLAIN

    def __class_getitem__(cls, params: object) -> TypeArgsAlias:  # pyright: ignore[reportIncompatibleMethodOverride]
        return specialize(cls, params)

    def __post_init__(self) -> None:
        if not isinstance(self.options, FunctionOptions):
            raise PromptValidationError(
                f"Tool {self.name!r}: options must be FunctionOptions(...), got {self.options!r}."
            )
        # Two-argument super: slots=True rebuilds the class, which breaks the bare form.
        super(ToolWithOptions, self).__post_init__()


def options_of(tool: Tool[Any, Any]) -> FunctionOptions:
    """The options ``tool`` is offered with (a custom tool keeps them in its config)."""
    own: object = getattr(tool, "options", None)
    if isinstance(own, FunctionOptions):
        return own
    config: object = getattr(tool, "config", None)
    nested: object = getattr(config, "options", None)
    return nested if isinstance(nested, FunctionOptions) else PLAIN


_UNSET: Any = object()


def with_options(
    tool: Tool[ParamsT, ResultT],
    *,
    defer_loading: bool = _UNSET,
    allowed_callers: tuple[Caller, ...] | None = _UNSET,
    namespace: Namespace | None = _UNSET,
) -> Tool[ParamsT, ResultT]:
    """``tool`` offered with the given options (the ones not given are kept).

    Works for function tools (``Tool``, ``Tool.from_function``) and custom
    tools; other tools (MCP, agents, provider tools) have their own wire
    form and are refused.
    """
    given = {
        key: value
        for key, value in (
            ("defer_loading", defer_loading),
            ("allowed_callers", allowed_callers),
            ("namespace", namespace),
        )
        if value is not _UNSET
    }
    options = dataclasses.replace(options_of(tool), **given)
    config: object = getattr(tool, "config", None)
    if isinstance(getattr(config, "options", None), FunctionOptions):
        return dataclasses.replace(
            tool,
            config=dataclasses.replace(cast(Any, config), options=options),  # pyright: ignore[reportCallIssue]
        )
    if type(tool) not in (Tool, ToolWithOptions):
        raise PromptValidationError(
            f"with_options: tool {tool.name!r} is a {type(tool).__name__}; only function tools "
            "and custom tools take defer_loading, allowed_callers or a namespace."
        )
    fields = {f.name: getattr(tool, f.name) for f in dataclasses.fields(Tool)}
    return ToolWithOptions(**fields, options=options)
