"""``Tool.from_function``: plain typed functions as tools."""

from __future__ import annotations

import copy
import dataclasses
import functools
import inspect
import re
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tooltape.prompt.context import ToolContext
from tooltape.prompt.errors import PromptValidationError
from tooltape.prompt.naming import TOOL_NAME_PATTERN
from tooltape.prompt.result import ToolResult
from tooltape.prompt.signature import (
    called,
    describe,
    is_callable_instance,
    refuse_async_tool,
    signature_of,
)

if TYPE_CHECKING:
    from tooltape.prompt.tool import Tool


def _docstring_summary(fn: Callable[..., Any]) -> str | None:
    """The first paragraph of what documents ``fn``: a partial's function, a callable
    instance's class (or its ``__call__``), else ``fn`` itself."""
    while isinstance(fn, functools.partial):
        fn = typing.cast("functools.partial[Any]", fn).func
    if is_callable_instance(fn):
        # Own docs only: inspect.getdoc would inherit "Call self as a function." from type.
        call_doc = getattr(type(fn).__call__, "__doc__", None)
        doc = inspect.cleandoc(type(fn).__doc__ or call_doc or "")
    else:
        doc = inspect.getdoc(fn)
    if not doc:
        return None
    first_paragraph = doc.strip().split("\n\n", 1)[0]
    return " ".join(first_paragraph.split())


def _snake(name: str) -> str:
    return re.sub(r"([a-z0-9])([A-Z])|([A-Z])([A-Z][a-z])", r"\1\3_\2\4", name).lower()


def _default_name(fn: object) -> str:
    """The tool name ``fn`` suggests: a partial's function's, a callable instance's class
    in snake case (``CityWeather()`` -> ``city_weather``), else ``__name__``."""
    while isinstance(fn, functools.partial):
        fn = typing.cast("functools.partial[Any]", fn).func
    if is_callable_instance(fn):
        return _snake(type(fn).__name__)
    return str(getattr(fn, "__name__", ""))


def _tool_name(fn: object, name: str | None, owner: str) -> str:
    if name is not None:
        return name
    derived = _default_name(fn)
    if TOOL_NAME_PATTERN.fullmatch(derived):
        return derived
    suggestion = re.sub(r"[^a-z0-9_-]+", "_", _snake(derived)).strip("_")[:64] or "tool"
    raise PromptValidationError(
        f"{owner}: the tool name {derived!r} taken from it is not a tool name (1-64 lowercase "
        f"ASCII letters, digits, '_' or '-'); pass name=, e.g. name={suggestion!r}."
    )


def _bound_keywords(fn: object) -> frozenset[str]:
    """The arguments a partial binds by keyword (none for anything else)."""
    if isinstance(fn, functools.partial):
        return frozenset(typing.cast("functools.partial[Any]", fn).keywords)
    return frozenset()


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.replace("-", "_").split("_")) or "Tool"


def _field(default: object, empty: object) -> Any:
    """The params dataclass field of a parameter with this default.

    A default of a type without a hash (a list, a plain dataclass, a pydantic
    model) is not allowed as a dataclass default; each call gets a copy of it
    instead, so a handler that changes it never changes the next call's.
    """
    if default is empty:
        return dataclasses.field()
    if type(default).__hash__ is None:
        return dataclasses.field(default_factory=functools.partial(copy.deepcopy, default))
    return dataclasses.field(default=default)


def _with_keyword_only_context(sig: inspect.Signature) -> str:
    """``sig`` with its ``context`` parameter moved after a ``*`` (annotated ``ToolContext``)."""
    params = [p for p in sig.parameters.values() if p.name != "context"]
    context = inspect.Parameter("context", inspect.Parameter.KEYWORD_ONLY, annotation="ToolContext")
    text = str(sig.replace(parameters=[*params, context], return_annotation=sig.empty))
    return text.replace("'ToolContext'", "ToolContext")


def function_tool(
    fn: Callable[..., Any],
    *,
    name: str | None = None,
    description: str | None = None,
    strict: bool = True,
) -> Tool[Any, Any]:
    """Build a ``Tool`` whose params dataclass mirrors ``fn``'s signature."""
    from tooltape.prompt.tool import Tool

    owner = f"Tool.from_function({describe(fn)})"
    sig = signature_of(fn, owner=owner)
    refuse_async_tool(fn, owner=owner)
    tool_name = _tool_name(fn, name, owner)
    target = called(fn)
    # Arguments a partial binds by keyword are the caller's, not the model's: they
    # stay out of the schema (where a bound key would be shown) and out of reach.
    bound = _bound_keywords(fn)
    try:
        hints = typing.get_type_hints(target)
    except Exception as exc:
        raise PromptValidationError(f"{owner}: cannot resolve annotations ({exc}).") from exc

    fields: list[tuple[str, Any, Any]] = []
    takes_context = False
    for param in sig.parameters.values():
        if param.name in bound:
            continue
        if param.name == "context" and param.kind == param.KEYWORD_ONLY:
            takes_context = True
            continue
        if param.name == "context" and hints.get("context", ToolContext) is ToolContext:
            raise PromptValidationError(
                f"{owner}: parameter 'context' gets the ToolContext only when it is keyword-only; "
                f"write it after a `*`: `def {getattr(target, '__name__', 'tool')}"
                f"{_with_keyword_only_context(sig)}`."
            )
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise PromptValidationError(
                f"{owner}: *{param.name} parameters cannot be described to a model; "
                "list each parameter explicitly."
            )
        if param.name not in hints:
            raise PromptValidationError(
                f"{owner}: parameter {param.name!r} has no type annotation; annotate it "
                "(for example `x: int`)."
            )
        fields.append((param.name, hints[param.name], _field(param.default, param.empty)))

    summary = description if description is not None else _docstring_summary(fn)
    if summary is None:
        raise PromptValidationError(
            f"{owner}: no description; add a docstring or pass description=."
        )
    # kw_only: a required keyword-only parameter may follow a defaulted one in a
    # signature (``def f(a: int = 1, *, b: int)``) but not in a positional __init__.
    params_type = dataclasses.make_dataclass(
        f"{_camel(tool_name)}Params", fields, frozen=True, slots=True, kw_only=True
    )
    params_type.__module__ = getattr(target, "__module__", __name__)
    result_type = hints.get("return")
    positional = [p.name for p in sig.parameters.values() if p.kind == p.POSITIONAL_ONLY]

    def handler(params: Any, *, context: ToolContext) -> ToolResult[Any]:
        values = {f.name: getattr(params, f.name) for f in dataclasses.fields(params)}
        args = [values.pop(n) for n in positional]
        if takes_context:
            values["context"] = context
        outcome = fn(*args, **values)
        if isinstance(outcome, ToolResult):
            return typing.cast("ToolResult[Any]", outcome)
        if inspect.isawaitable(outcome):
            # Never awaited here: the executor turns this into the call's failed result.
            if inspect.iscoroutine(outcome):
                outcome.close()
            raise TypeError(
                f"{describe(fn)} returned a {type(outcome).__name__}, which tooltape cannot "
                "await; tools run synchronously, so return the value itself."
            )
        return ToolResult.ok(outcome)

    handler.__qualname__ = getattr(target, "__qualname__", tool_name)
    return Tool(
        name=tool_name,
        description=summary,
        handler=handler,
        params_type=params_type,
        result_type=result_type if isinstance(result_type, type) else None,
        strict=strict,
    )
