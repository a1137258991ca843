"""``positional_builder``: the same frozen values as the class's own constructor.

Rules: every field is set from its position; the value equals, hashes like
and is as immutable as one the constructor builds; a class the builder could
build wrongly (not frozen, a ``__post_init__``, fields that are not init
parameters, slots that are not the fields) is refused when the builder is made.
"""

import abc
import copy
import dataclasses
import gc
import pickle
from datetime import UTC, datetime
from typing import Any

import pytest

from tooltape import ToolContext, ToolInvoked, ToolResult
from tooltape.prompt.frozen_build import _twin, direct_init, positional_builder  # pyright: ignore[reportPrivateUsage]
from tooltape.runtime import ToolHookContext
from tooltape.runtime.events import PublishResult


@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 0
    tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)


def test_the_value_built_equals_the_constructed_one_and_stays_frozen() -> None:
    built = positional_builder(Point)(1, 2, ("a",))
    assert type(built) is Point
    assert built == Point(1, 2, ("a",))
    assert hash(built) == hash(Point(1, 2, ("a",)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.x = 3  # type: ignore[misc]


def test_every_field_of_the_runtime_events_lands_where_the_constructor_puts_it() -> None:
    result: ToolResult[Any] = ToolResult.ok({"n": 1})
    now = datetime.now(UTC)
    values = ("p", "openai", "t", {"a": 1}, result, '{"n":1}', "c", "function", "o", "k", now, True)
    assert positional_builder(ToolInvoked)(*values) == ToolInvoked(*values)

    def original(args: dict[str, Any]) -> ToolResult[Any]:
        return result

    built = positional_builder(ToolHookContext)(
        "t", "hosted", original, "p", "srv", "c", "openai", True
    )
    assert built == ToolHookContext(
        tool_name="t",
        tool_source="hosted",
        original_tool_func=original,
        prompt_name="p",
        server_name="srv",
        call_id="c",
        provider="openai",
        approval=True,
    )


class Plain:
    """A base without ``__slots__``: its subclasses' instances carry a ``__dict__``."""


@dataclasses.dataclass(frozen=True, slots=True)
class OnAPlainBase(Plain):
    x: int
    y: str = ""


@pytest.mark.parametrize(
    ("cls", "values"),
    [
        (Point, (1, 2, ("a",))),
        (OnAPlainBase, (1, "b")),
        (ToolHookContext, ("t", "function", None, None, None, None, None, False)),
        (ToolResult, ("found", {"n": 1}, True, False)),  # a generic class: Generic is a base
    ],
)
def test_a_built_value_is_an_ordinary_instance_of_its_class(
    cls: type[Any], values: tuple[Any, ...]
) -> None:
    """Whether it is built through a plain twin (same slots) or slot by slot."""
    built = positional_builder(cls)(*values)
    assert built.__class__ is cls
    assert type(built) is cls
    assert gc.is_tracked(built)  # the collector sees what it holds
    names = [f.name for f in dataclasses.fields(cls)]
    assert built == cls(**dict(zip(names, values, strict=True)))
    assert copy.copy(built) == built
    assert pickle.loads(pickle.dumps(built)) == built
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(built, names[0], 5)


def test_the_twin_shares_the_first_base_so_its_layout_matches() -> None:
    assert _twin(Point, ("x", "y", "tags")) is not None
    twin = _twin(OnAPlainBase, ("x", "y"))
    assert twin is not None and twin.__base__ is Plain  # its instances carry a __dict__ too
    built = positional_builder(OnAPlainBase)(1, "b")
    assert built.__dict__ == OnAPlainBase(1, "b").__dict__ == {}


class Guarded:
    """A base without fields whose instances refuse every store."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{name} is read-only")


@dataclasses.dataclass(frozen=True, slots=True)
class OnAGuardedBase(Guarded):
    x: int


def test_a_base_that_refuses_stores_keeps_the_slot_setters() -> None:
    """The twin shares the class's first base, so it must not inherit a store guard."""
    assert _twin(OnAGuardedBase, ("x",)) is None
    assert positional_builder(OnAGuardedBase)(3) == OnAGuardedBase(3)


@dataclasses.dataclass(frozen=True, slots=True)
class Abstract(metaclass=abc.ABCMeta):
    x: int

    @abc.abstractmethod
    def area(self) -> int: ...


def test_a_class_its_constructor_refuses_to_make_is_refused_alike() -> None:
    with pytest.raises(TypeError, match="abstract"):
        Abstract(1)  # type: ignore[abstract]
    with pytest.raises(TypeError, match="abstract"):
        positional_builder(Abstract)(1)


FINALIZED: list[tuple[int, ...]] = []


@dataclasses.dataclass(frozen=True, slots=True)
class Finalized:
    x: int
    y: int

    def __del__(self) -> None:
        FINALIZED.append((self.x, self.y))  # raises on a value without fields


def test_no_value_is_finalized_but_the_ones_built() -> None:
    FINALIZED.clear()
    build = positional_builder(Finalized)
    assert FINALIZED == []  # making the builder made no value to drop
    value = build(1, 2)
    del value
    gc.collect()
    assert FINALIZED == [(1, 2)]


@pytest.mark.parametrize(
    "cls", [ToolInvoked, ToolHookContext, ToolContext, PublishResult, ToolResult]
)
def test_the_values_of_every_tool_call_take_the_fast_way(cls: type[Any]) -> None:
    assert _twin(cls, tuple(f.name for f in dataclasses.fields(cls))) is not None
    assert "twin" in positional_builder(cls).__code__.co_names  # and the builder uses it


def test_too_few_values_is_a_type_error_not_a_half_built_value() -> None:
    with pytest.raises(TypeError):
        positional_builder(Point)(1, 2)


@dataclasses.dataclass(slots=True)
class Mutable:
    x: int


@dataclasses.dataclass(frozen=True, slots=True)
class Checked:
    x: int

    def __post_init__(self) -> None:
        if self.x < 0:
            raise ValueError("x")


@dataclasses.dataclass(frozen=True, slots=True)
class Derived:
    x: int
    twice: int = dataclasses.field(init=False, default=0)


@dataclasses.dataclass(frozen=True)
class Unslotted:
    x: int


@pytest.mark.parametrize("cls", [Mutable, Checked, Derived, Unslotted])
def test_a_class_whose_constructor_does_more_is_refused(cls: type) -> None:
    with pytest.raises(TypeError, match=cls.__name__):
        positional_builder(cls)


@direct_init
@dataclasses.dataclass(frozen=True, slots=True)
class Call:
    name: str
    arguments: object
    call_id: str | None = None


def test_direct_init_takes_the_same_parameters_and_builds_the_same_value() -> None:
    reference = dataclasses.make_dataclass(
        "Reference",
        [("name", str), ("arguments", object), ("call_id", "str | None", None)],
        frozen=True,
        slots=True,
    )
    for args, kwargs in (
        (("search", "{}"), {}),
        (("search", "{}", "call_1"), {}),
        ((), {"name": "search", "arguments": {"q": 1}, "call_id": "call_2"}),
        (("search",), {"arguments": "{}"}),
    ):
        built = Call(*args, **kwargs)
        expected = reference(*args, **kwargs)
        assert dataclasses.astuple(built) == dataclasses.astuple(expected)
    assert Call("a", "{}") == Call("a", "{}", None)
    assert hash(Call("a", "{}")) == hash(Call("a", "{}"))
    assert dataclasses.replace(Call("a", "{}"), call_id="c").call_id == "c"
    with pytest.raises(dataclasses.FrozenInstanceError):
        Call("a", "{}").name = "b"  # type: ignore[misc]


def test_direct_init_refuses_what_the_constructor_would_be_called_wrongly_with() -> None:
    with pytest.raises(TypeError):
        Call("only a name")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Call("a", "{}", "c", "extra")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Call("a", "{}", nope=1)  # type: ignore[call-arg]


@pytest.mark.parametrize("cls", [Point, Mutable, Checked, Derived, Unslotted])
def test_direct_init_refuses_a_class_it_could_build_wrongly(cls: type) -> None:
    with pytest.raises(TypeError, match=cls.__name__):
        direct_init(cls)
