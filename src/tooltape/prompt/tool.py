"""Function tools (``Tool``) and provider-executed tool markers (``NativeTool``)."""

from __future__ import annotations

import dataclasses
import inspect
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar, cast

from tooltape.prompt.errors import PromptValidationError
from tooltape.prompt.generic import Specializable
from tooltape.prompt.naming import check_description, check_tool_name
from tooltape.prompt.result import ToolResult
from tooltape.prompt.schema import ParamsSchema, params_schema, unsendable
from tooltape.prompt.signature import describe, refuse_async_tool, signature_of
from tooltape.prompt.strict import strict_mode_problems

if TYPE_CHECKING:
    from tooltape.prompt.context import ToolContext

ToolSource = Literal["function", "native", "hosted", "agent", "mcp"]
"""Where a tool lives: hooks and ``ToolInvoked`` events carry it."""

ParamsT = TypeVar("ParamsT")
ResultT = TypeVar("ResultT")
ParamsT_contra = TypeVar("ParamsT_contra", contravariant=True)
ResultT_co = TypeVar("ResultT_co")


class ToolHandler(Protocol[ParamsT_contra, ResultT_co]):
    """``handler(params, *, context) -> ToolResult``: the one shape a tool handler has."""

    def __call__(
        self, params: ParamsT_contra, /, *, context: ToolContext
    ) -> ToolResult[ResultT_co]: ...


@dataclasses.dataclass(frozen=True, slots=True)
class ToolExample(Specializable, Generic[ParamsT, ResultT]):
    """A documented invocation: what a call looks like and what it returns."""

    description: str
    input: ParamsT
    output: ResultT


def _check_handler(handler: Callable[..., Any], *, owner: str) -> None:
    sig = signature_of(handler, owner=owner)
    refuse_async_tool(handler, owner=owner)
    positional = [
        p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    context = sig.parameters.get("context")
    extra_required = [
        p.name
        for p in sig.parameters.values()
        if p.kind == p.KEYWORD_ONLY and p.name != "context" and p.default is p.empty
    ]
    problems: list[str] = []
    if len(positional) != 1 or any(p.kind == p.VAR_POSITIONAL for p in sig.parameters.values()):
        problems.append("exactly one positional parameter (params)")
    if context is None or context.kind != context.KEYWORD_ONLY:
        problems.append("a keyword-only parameter named 'context'")
    if extra_required:
        problems.append(f"no other required parameters (found {', '.join(extra_required)})")
    if problems:
        raise PromptValidationError(
            f"{owner}: handler {describe(handler)}{sig} must take "
            + " and ".join(problems)
            + "; write it as `def handler(params: Params, *, context: ToolContext) -> ToolResult`."
        )


def _first_param_type(handler: Callable[..., Any]) -> type[Any] | None:
    """The class the handler's first parameter is annotated with, if it can be resolved.

    Only that one annotation is resolved: ``context: ToolContext`` is often
    imported under ``TYPE_CHECKING`` only, and must not hide the params type.
    """
    first = next(iter(inspect.signature(handler).parameters.values()), None)
    if first is None or first.annotation is first.empty:
        return None
    hint: object = first.annotation
    if isinstance(hint, str):
        function = inspect.unwrap(getattr(handler, "__func__", handler))
        namespace: dict[str, Any] = getattr(function, "__globals__", {})
        annotated = types.SimpleNamespace(__annotations__={first.name: hint})
        try:
            hint = typing.get_type_hints(annotated, globalns=namespace)[first.name]
        except Exception:
            return None
    return hint if isinstance(hint, type) else None


@dataclasses.dataclass(frozen=True, slots=True)
class Tool(Specializable, Generic[ParamsT, ResultT]):
    """A typed function tool a model can call.

    ``Tool[Params, Result](name=..., description=..., handler=...)``; the
    params type comes from the subscript, from ``params_type=``, or from the
    handler's first annotation. Every rule is checked here, when the tool is
    built, and a violation raises ``PromptValidationError``.

    ``strict`` (default ``True``) asks the provider to hold the model's
    arguments to the params schema; a schema strict mode cannot take (a
    ``dict[str, int]`` or ``Any`` field) is then refused here. ``strict=False``
    sends the schema as it is, unconstrained.
    """

    __type_arg_names__: typing.ClassVar[tuple[str, ...]] = ("params_type", "result_type")

    name: str
    description: str
    handler: ToolHandler[ParamsT, ResultT] | None = None
    examples: Sequence[ToolExample[ParamsT, ResultT]] = ()
    accepts_overrides: bool = True
    params_type: type[ParamsT] | None = None
    result_type: type[ResultT] | None = None
    strict: bool = True

    def __post_init__(self) -> None:
        check_tool_name(self.name)
        owner = f"Tool {self.name!r}"
        check_description(self.description, owner=owner)
        if self.handler is not None:
            _check_handler(self.handler, owner=owner)
        params_type = self.params_type
        if params_type is None and self.handler is not None:
            params_type = cast("type[ParamsT] | None", _first_param_type(self.handler))
            object.__setattr__(self, "params_type", params_type)
        if params_type is None:
            raise PromptValidationError(
                f"{owner}: cannot tell its params type; write "
                f"Tool[Params, Result](...), pass params_type=, or annotate the handler's "
                "first parameter."
            )
        try:
            schema = params_schema(params_type)
        except PromptValidationError as exc:
            raise PromptValidationError(f"{owner}: {exc}") from exc
        if not isinstance(self.strict, bool):
            raise PromptValidationError(f"{owner}: strict={self.strict!r}; use True or False.")
        problem = unsendable(schema.schema, without_defaults=self.strict)
        if problem is not None:
            raise PromptValidationError(
                f"{owner}: the JSON Schema of {params_type.__name__} cannot be sent: {problem}. "
                "Give the field a default (and a description) that JSON can carry."
            )
        problems = strict_mode_problems(schema.schema) if self.strict else ()
        if problems:
            raise PromptValidationError(
                f"{owner}: strict function calling cannot take the schema of "
                f"{params_type.__name__}: {'; '.join(problems)}. Model the data as a dataclass "
                "or a list of them, or pass strict=False to send the schema as it is (the "
                "provider then does not hold the model's arguments to it)."
            )
        object.__setattr__(self, "examples", tuple(self.examples))
        for index, example in enumerate(self.examples):
            if not isinstance(example.input, params_type):
                raise PromptValidationError(
                    f"{owner}: example {index} input is {type(example.input).__name__}, "
                    f"expected {params_type.__name__}."
                )

    @property
    def source(self) -> ToolSource:
        """Where this tool runs; subclasses for MCP, agents and provider tools override it."""
        return "function"

    @property
    def server_name(self) -> str | None:
        """The server that provides this tool (MCP tools), if any."""
        return None

    @property
    def schema(self) -> ParamsSchema[ParamsT]:
        """Validation and JSON Schema for this tool's params."""
        assert self.params_type is not None
        return params_schema(self.params_type)

    def parameters_schema(self) -> dict[str, Any]:
        """The JSON Schema of the params (``additionalProperties: false``)."""
        return self.schema.json_schema()

    def param_descriptions(self) -> Mapping[str, str]:
        """Per-field descriptions taken from ``field(metadata={"description": ...})``."""
        assert self.params_type is not None
        return {
            f.name: str(f.metadata["description"])
            for f in dataclasses.fields(cast("Any", self.params_type))
            if "description" in f.metadata
        }

    @staticmethod
    def from_function(
        fn: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        strict: bool = True,
    ) -> Tool[Any, Any]:
        """Wrap a plain typed function (``def add_one(x: int) -> int``) into a tool.

        Params come from the signature, the description from the docstring's
        first paragraph. A keyword-only ``context`` parameter, if present,
        receives the ``ToolContext``. A parameter's default applies when the
        model leaves it out; one of a mutable type (a list, a dataclass, a
        pydantic model) is copied for each call. A plain return value becomes
        ``ToolResult.ok(value)``; a returned ``ToolResult`` is kept as is.

        ``fn`` may also be a callable instance (named after its class in snake
        case, described by the class's docstring) or a ``functools.partial``
        (named and described by its function); arguments a partial binds by
        keyword are not parameters the model sees or sets.
        """
        from tooltape.prompt.function_tool import function_tool

        return function_tool(fn, name=name, description=description, strict=strict)


@dataclasses.dataclass(frozen=True, slots=True)
class NativeTool(Tool[ParamsT, ResultT]):
    """A tool the provider executes: no local handler, overrides off by default."""

    accepts_overrides: bool = False

    @property
    def source(self) -> ToolSource:
        return "native"

    def __post_init__(self) -> None:
        if self.handler is not None:
            raise PromptValidationError(
                f"NativeTool {self.name!r}: a native tool is executed by the provider and "
                "must not have a handler; use Tool for client-executed tools."
            )
        Tool.__post_init__(self)  # pyright: ignore[reportUnknownMemberType]
