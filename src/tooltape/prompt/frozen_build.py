"""Building frozen, slotted dataclass values on a hot path without ``__init__``'s cost.

A frozen dataclass's ``__init__`` sets each field through
``object.__setattr__`` (keywords parsed, the attribute looked up by name):
about 0.1 us a field. A tool call builds three or four such values, so that
is a good part of its runtime's overhead. :func:`positional_builder` gives,
once per class, a function taking every field positionally that fills a
plain twin of the class (same slots, not frozen) by ordinary stores and then
makes it an instance of the class; :func:`direct_init` gives a class an
``__init__`` (same parameters, same defaults) that fills the slots through
their descriptors. Either way: the same value (equal, hashing alike, as
immutable), built in a third to a half of the time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def _slot_setters(cls: type[Any]) -> tuple[tuple[dataclasses.Field[Any], ...], dict[str, Any]]:
    """The class's fields and, as ``set0``, ``set1``..., each slot's setter.

    Refuses a class whose ``__init__`` does more than set its fields (a
    ``__post_init__``, ``init=False`` fields) or whose slots are not exactly
    its fields, so what is built is what the class's own constructor builds.
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen:
        raise TypeError(f"{cls.__name__} is not a frozen dataclass")
    fields = dataclasses.fields(cls)
    names = tuple(f.name for f in fields)
    slots = tuple(getattr(cls, "__slots__", ()))
    if slots != names:
        raise TypeError(f"{cls.__name__}'s slots {slots} are not its fields {names}")
    if hasattr(cls, "__post_init__") or not all(f.init for f in fields):
        raise TypeError(f"{cls.__name__}'s __init__ does more than set its fields")
    namespace: dict[str, Any] = {
        f"set{i}": cls.__dict__[name].__set__ for i, name in enumerate(names)
    }
    return fields, namespace


def _compiled(source: str, namespace: dict[str, Any], name: str) -> Any:
    exec(source, namespace)  # the source holds field indexes and names only, never values
    return namespace[name]


def _twin(cls: type[Any], names: tuple[str, ...]) -> type[Any] | None:
    """A plain class with ``cls``'s slot layout, or ``None`` if CPython refuses the swap.

    An instance of it takes its fields by plain attribute stores (a third of
    the slot setters' cost) and then becomes a ``cls`` by ``__class__``
    assignment, which CPython allows only between identical layouts: it is
    tried once here, so a class it would refuse falls back to the setters.
    The probe is a ``cls`` made a twin, not the reverse: a class that cannot
    be instantiated (abstract methods left) is refused as its constructor
    refuses it, and no empty ``cls`` is ever dropped (its ``__del__`` would
    run on a value without fields).
    """
    # The same first base: CPython compares the layouts from there (a generic
    # value's ``Generic`` base, say, adds no slots but must be on both sides).
    base: type[Any] = cls.__base__ or object
    twin: type[Any] = type(f"_{cls.__name__}Twin", (base,), {"__slots__": names})
    if twin.__setattr__ is not object.__setattr__:  # plain stores must stay plain
        return None
    try:
        probe = object.__new__(cls)
        object.__setattr__(probe, "__class__", twin)
    except TypeError:
        return None
    return twin


def positional_builder(cls: type[T]) -> Callable[..., T]:
    """``build(*every_field_in_order) -> cls``, for a frozen, slotted dataclass.

    Every field is given, in declaration order (defaults and default
    factories are not applied).
    """
    fields, namespace = _slot_setters(cls)
    names = tuple(f.name for f in fields)
    twin = _twin(cls, names)
    args = ", ".join(f"f{i}" for i in range(len(fields)))
    namespace.update(new=object.__new__, cls=cls, twin=twin)
    if twin is None:
        body = ["    value = new(cls)", *(f"    set{i}(value, f{i})" for i in range(len(fields)))]
    else:
        # The twin is not frozen: these are ordinary stores, then the value becomes a cls.
        body = [
            "    value = new(twin)",
            *(f"    value.{name} = f{i}" for i, name in enumerate(names)),
            "    value.__class__ = cls",
        ]
    source = "\n".join([f"def build({args}):", *body, "    return value"])
    build: Callable[..., T] = _compiled(source, namespace, "build")
    build.__qualname__ = f"positional_builder({cls.__name__})"
    return build


def direct_init(cls: type[T]) -> type[T]:
    """Class decorator (under ``@dataclass(frozen=True, slots=True)``): a faster ``__init__``.

    The new ``__init__`` takes the same parameters, by position or keyword,
    with the same plain defaults; a class with a default factory or a
    keyword-only field is refused.
    """
    fields, namespace = _slot_setters(cls)
    params: list[str] = []
    for i, f in enumerate(fields):
        if f.kw_only or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: only plain defaults are supported")
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"default{i}"] = f.default
            params.append(f"{f.name}=default{i}")
    lines = [f"    set{i}(self, {f.name})" for i, f in enumerate(fields)]
    source = "\n".join([f"def __init__(self, {', '.join(params)}):", *lines])
    init: Callable[..., None] = _compiled(source, namespace, "__init__")
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)  # noqa: B010 (pyright refuses assigning a method)
    return cls
