"""``ToolResult``: what every tool call produces, success or not."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, cast, runtime_checkable

from pydantic_core import to_json

from tooltape.prompt.frozen_build import direct_init, positional_builder
from tooltape.prompt.generic import Specializable
from tooltape.prompt.json_text import UNENCODABLE, json_text, jsonable

ValueT = TypeVar("ValueT")
OkT = TypeVar("OkT")


@runtime_checkable
class ToolRenderableResult(Protocol):
    """A tool value that knows how to present itself to a model."""

    def render(self) -> str: ...


def _without_none(data: object) -> object:
    """Drop ``None``-valued keys from every mapping in plain JSON data (list items stay)."""
    if isinstance(data, dict):
        items = cast("dict[str, object]", data).items()
        return {key: _without_none(item) for key, item in items if item is not None}
    if isinstance(data, list):
        return [_without_none(item) for item in cast("list[object]", data)]
    return data


@dataclass(frozen=True, slots=True)
class _ClassFacts:
    """What rendering needs to know of a value's class, asked once per class."""

    renders: bool
    """The class provides ``render``."""
    names: tuple[str, ...] | None
    """A plain dataclass's field names (``None`` for anything else)."""
    by_dict: bool
    """An instance's ``__dict__`` can stand for those fields."""


_CLASSES: dict[type, _ClassFacts] = {}
_PLAIN: dict[type, tuple[str, ...]] = {}
"""The field names of each class seen whose instances are written from their
``__dict__`` alone: ``by_dict``, and nothing can give an instance a ``render``
besides an extra ``__dict__`` key (a ``__dict__`` holding exactly the fields has none)."""


def _class_facts(cls: type) -> _ClassFacts:
    renders = issubclass(cls, ToolRenderableResult)
    lends = hasattr(cls, "__getattr__")  # may answer for attributes an instance lacks
    names: tuple[str, ...] | None = None
    by_dict = False
    # A pydantic dataclass has a serializer of its own (aliases, field
    # serializers): only a standard one is read field by field here.
    if dataclasses.is_dataclass(cls) and not hasattr(cls, "__pydantic_serializer__"):
        names = tuple(f.name for f in dataclasses.fields(cls))
        # ``getattr`` reads the instance's ``__dict__`` unless something on the
        # class intercepts it: a data descriptor (a slot, a property) or a hook.
        by_dict = cls.__getattribute__ is object.__getattribute__ and not any(
            _is_data_descriptor(getattr(cls, name, None)) for name in names
        )
    if by_dict and names is not None and not renders and "render" not in names and not lends:
        _PLAIN[cls] = names
    facts = _CLASSES[cls] = _ClassFacts(renders, names, by_dict)
    return facts


def _is_data_descriptor(attribute: object) -> bool:
    kind = type(attribute)
    return hasattr(kind, "__set__") or hasattr(kind, "__delete__")


def render_value(value: object) -> str:
    """Render a tool value: its own ``render()`` if it has one, else compact JSON.

    ``None`` fields are left out of the JSON at every level (pydantic's own
    ``exclude_none`` only applies to typed schemas, not to the inferred
    dataclasses and dicts tool values usually are).
    """
    if value is None:
        return ""
    cls = value.__class__
    # pydantic writes a dataclass as the mapping of its fields; given that
    # mapping (its values untouched) it writes the same text in a third of the time.
    encoded: object = value
    names = _PLAIN.get(cls)
    fields = value.__dict__ if names is not None else None
    if fields is not None and tuple(fields) == names:  # exactly the fields, in order
        encoded = fields  # the usual tool value: nothing else to ask of it
    else:
        # ``isinstance(value, ToolRenderableResult)`` without its per-call cost: on
        # Python 3.11 a runtime-checkable protocol recomputes its members on every
        # check (~6 us, most of rendering a small value). The same test: the class
        # provides ``render`` (asked once per class), or the instance has a
        # ``render`` attribute that is not ``None``.
        facts = _CLASSES.get(cls) or _class_facts(cls)
        if facts.renders or getattr(value, "render", None) is not None:
            own: object = cast("ToolRenderableResult", value).render()
            if not isinstance(own, str):
                raise TypeError(f"{cls.__name__}.render returned {type(own).__name__}, not str")
            return own
        if isinstance(value, str):
            return value
        names = facts.names
        if names is not None:
            fields = getattr(value, "__dict__", None) if facts.by_dict else None
            if fields is not None and tuple(fields) == names:
                encoded = fields
            else:
                try:
                    encoded = {name: getattr(value, name) for name in names}
                except AttributeError:  # a field never set: pydantic says what it makes of it
                    encoded = value
    try:
        text = to_json(encoded, fallback=repr).decode()
    except UNENCODABLE:
        text = json_text(value, fallback=repr)
    if "null" not in text:  # nothing to drop: the common case, at a third of the cost
        return text
    data = _without_none(jsonable(value, fallback=repr))
    return json_text(data)


@direct_init  # every tool call makes one
@dataclass(frozen=True, slots=True)
class ToolResult(Specializable, Generic[ValueT]):
    """The outcome of one tool call.

    ``message`` is the short reply a model reads; ``value`` the typed payload
    (``None`` on failure); ``success`` the flag reducers and hooks rely on;
    ``exclude_value_from_context`` keeps the payload out of the text sent
    back to the model while still recording it.
    """

    message: str
    value: ValueT | None = None
    success: bool = True
    exclude_value_from_context: bool = False

    @staticmethod
    def ok(value: OkT, message: str = "") -> ToolResult[OkT]:
        """A successful result carrying ``value``."""
        return _result(message, value, True, False)

    @staticmethod
    def error(message: str) -> ToolResult[Any]:
        """A failed result: ``value`` is ``None`` and ``message`` says what went wrong."""
        return _result(message, None, False, False)

    def render(self) -> str:
        """The value as text (``""`` when there is no value)."""
        return render_value(self.value)

    def model_output(self) -> str:
        """The text handed back to the model as this call's output."""
        return model_text(self, None)


_result: Callable[[str, object, bool, bool], ToolResult[Any]] = positional_builder(ToolResult)


def model_text(result: ToolResult[Any], rendered: str | None) -> str:
    """``result.model_output()`` as ``ToolResult`` makes it, with the value's ``rendered``
    text when it was already made (``None``: rendered here)."""
    if not result.success or result.value is None or result.exclude_value_from_context:
        return result.message
    if rendered is None:
        rendered = result.render()
    return f"{result.message}\n\n{rendered}" if result.message else rendered
