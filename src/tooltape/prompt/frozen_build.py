"""Building frozen, slotted dataclass values on a hot path without ``__init__``'s cost.

A frozen dataclass's ``__init__`` sets each field through
``object.__setattr__`` (keywords parsed, the attribute looked up by name):
about 0.1 us a field. A tool call builds three or four such values, so that
is a good part of its runtime's overhead. :func:`positional_builder` gives,
once per class, a function taking every field positionally that fills the
slots directly: the same value (equal, hashing alike, as immutable), built
in about half the time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def positional_builder(cls: type[T]) -> Callable[..., T]:
    """``build(*every_field_in_order) -> cls``, for a frozen, slotted dataclass.

    Every field is given, in declaration order (defaults and default
    factories are not applied). Refuses a class whose ``__init__`` does more
    than set its fields (a ``__post_init__``, ``init=False`` fields) or whose
    slots are not exactly its fields, so the builder cannot make a value the
    class's own constructor would not.
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen:
        raise TypeError(f"{cls.__name__} is not a frozen dataclass")
    fields = dataclasses.fields(cls)  # pyright: ignore[reportArgumentType]
    names = tuple(f.name for f in fields)
    slots = tuple(getattr(cls, "__slots__", ()))
    if slots != names:
        raise TypeError(f"{cls.__name__}'s slots {slots} are not its fields {names}")
    if hasattr(cls, "__post_init__") or not all(f.init for f in fields):
        raise TypeError(f"{cls.__name__}'s __init__ does more than set its fields")
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    lines: list[str] = []
    for i, name in enumerate(names):
        namespace[f"set{i}"] = cls.__dict__[name].__set__
        lines.append(f"    set{i}(value, f{i})")
    args = ", ".join(f"f{i}" for i in range(len(names)))
    source = "\n".join([f"def build({args}):", "    value = new(cls)", *lines, "    return value"])
    exec(source, namespace)  # the source holds field indexes only, no names or values
    build: Callable[..., T] = namespace["build"]
    build.__qualname__ = f"positional_builder({cls.__name__})"
    return build
