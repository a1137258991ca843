"""``Tool[P, R](...)``-style construction that remembers its type arguments.

A plain ``typing`` alias forgets ``P`` and ``R`` until after ``__init__``,
but a tool needs its params type while it is being validated. Classes that
list ``__type_arg_names__`` get an alias whose call passes the type
arguments as keyword arguments (``params_type=P, result_type=R``).
"""

from __future__ import annotations

from typing import Any, Union, cast


class TypeArgsAlias:
    """The object ``Cls[A, B]`` evaluates to for classes that record type arguments."""

    __slots__ = ("__args__", "__origin__")

    def __init__(self, origin: type[Any], args: tuple[object, ...]) -> None:
        self.__origin__ = origin
        self.__args__ = args

    def type_kwargs(self) -> dict[str, object]:
        names: tuple[str, ...] = getattr(self.__origin__, "__type_arg_names__", ())
        return {
            name: arg
            for name, arg in zip(names, self.__args__, strict=False)
            if isinstance(arg, type)
        }

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        for name, value in self.type_kwargs().items():
            kwargs.setdefault(name, value)
        return self.__origin__(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__origin__, name)

    def __mro_entries__(self, bases: tuple[object, ...]) -> tuple[type[Any], ...]:
        return (self.__origin__,)

    def __getitem__(self, params: object) -> TypeArgsAlias:
        return specialize(self.__origin__, params)

    def __or__(self, other: object) -> Any:
        """``Tool[P, R] | None`` in an annotation evaluated at run time."""
        return Union[self, other]  # noqa: UP007 - a run-time union of run-time objects

    def __ror__(self, other: object) -> Any:
        return Union[other, self]  # noqa: UP007

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TypeArgsAlias)
            and other.__origin__ is self.__origin__
            and other.__args__ == self.__args__
        )

    def __hash__(self) -> int:
        return hash((self.__origin__, self.__args__))

    def __repr__(self) -> str:
        args = ", ".join(getattr(a, "__name__", repr(a)) for a in self.__args__)
        return f"{self.__origin__.__qualname__}[{args}]"


def specialize(origin: type[Any], params: object) -> TypeArgsAlias:
    """Build the alias for ``origin[params]``."""
    args = cast("tuple[object, ...]", params) if isinstance(params, tuple) else (params,)
    return TypeArgsAlias(origin, args)


class Specializable:
    """Mixin: ``Cls[A, B](...)`` builds ``Cls`` through ``TypeArgsAlias``.

    Needed by every generic frozen, slotted dataclass: ``typing``'s own alias
    would try to set ``__orig_class__`` on the frozen instance and fail.
    """

    __slots__ = ()

    def __class_getitem__(cls, params: object) -> TypeArgsAlias:
        return specialize(cls, params)
