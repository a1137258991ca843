"""``ToolResult``: constructors, rendering and what the model is shown.

Rules (tool-runtime seed and DESIGN): ``ok`` carries a value and succeeds,
``error`` fails with ``value=None``; ``render()`` is the value's own
``render()`` if it has one, else compact JSON with ``None`` left out, and
``""`` when there is no value; ``exclude_value_from_context`` keeps the value
out of the text sent to the model while the value stays on the result.
"""

import functools
import json
import typing
from dataclasses import dataclass, field
from typing import Any

import pydantic
import pytest

from tooltape import ToolResult


@dataclass(frozen=True)
class Link:
    url: str
    title: str | None = None


@dataclass(frozen=True)
class Page:
    heading: str
    summary: str | None
    links: tuple[Link, ...] = ()
    extra: dict[str, Any] = field(default_factory=lambda: {})


@dataclass(frozen=True)
class Table:
    rows: tuple[tuple[str, int], ...]

    def render(self) -> str:
        return "\n".join(f"{name} | {count}" for name, count in self.rows)


def compact(data: object) -> str:
    return json.dumps(data, separators=(",", ":"))


def test_ok_carries_the_value_and_succeeds() -> None:
    result = ToolResult.ok(Link("https://a.example"), message="Found it.")
    assert result.success is True
    assert result.value == Link("https://a.example")
    assert result.message == "Found it."
    assert result.exclude_value_from_context is False


def test_error_fails_without_a_value() -> None:
    result = ToolResult.error("The index is offline; try again later.")
    assert result.success is False
    assert result.value is None
    assert result.message == "The index is offline; try again later."


def test_subscripted_construction_builds_a_plain_tool_result() -> None:
    result = ToolResult[Link](message="m", value=Link("u"))
    assert type(result) is ToolResult
    assert result == ToolResult(message="m", value=Link("u"))
    assert result.success is True


def test_render_uses_the_value_s_own_render() -> None:
    table = Table(rows=(("a", 1), ("b", 2)))
    assert ToolResult.ok(table).render() == table.render()


def test_render_without_a_value_is_empty() -> None:
    assert ToolResult.error("failed").render() == ""
    assert ToolResult[Any](message="nothing to show").render() == ""


def test_render_is_compact_json_with_none_left_out_at_every_level() -> None:
    page = Page(
        heading="Tools",
        summary=None,
        links=(Link("https://a.example", title="A"), Link("https://b.example")),
        extra={"lang": "en", "author": None, "meta": {"draft": None, "words": 3}},
    )
    expected = {
        "heading": "Tools",
        "links": [{"url": "https://a.example", "title": "A"}, {"url": "https://b.example"}],
        "extra": {"lang": "en", "meta": {"words": 3}},
    }
    assert ToolResult.ok(page).render() == compact(expected)


@pytest.mark.parametrize(
    ("value", "data"),
    [
        ({"a": 1, "b": None}, {"a": 1}),
        ([1, 2, 3], [1, 2, 3]),
        (42, 42),
        (True, True),
        ([None, {"k": None}], [None, {}]),  # list items stay, mapping keys go
        ({"text": "null", "n": None}, {"text": "null"}),  # the word is data, not a null
        ({"text": "null"}, {"text": "null"}),
        (Link("null"), {"url": "null"}),
    ],
)
def test_render_of_plain_json_values(value: object, data: object) -> None:
    assert ToolResult.ok(value).render() == compact(data)


def test_model_output_of_a_success_has_the_message_and_the_rendered_value() -> None:
    result = ToolResult.ok(Link("https://a.example"), message="Found one link.")
    output = result.model_output()
    assert "Found one link." in output
    assert result.render() in output


def test_model_output_of_a_value_without_message_is_the_rendered_value() -> None:
    result = ToolResult.ok(Link("https://a.example"))
    assert result.model_output() == result.render()


def test_model_output_of_a_failure_is_its_message() -> None:
    assert ToolResult.error("Bad id; send a numeric id.").model_output() == (
        "Bad id; send a numeric id."
    )


def test_excluded_value_stays_on_the_result_but_out_of_the_model_output() -> None:
    secret = Link("https://internal.example/token=abc")
    result = ToolResult(message="Stored the link.", value=secret, exclude_value_from_context=True)
    assert result.model_output() == "Stored the link."
    assert "internal.example" not in result.model_output()
    assert result.value is secret
    assert "internal.example" in result.render()


def test_subscripted_types_can_be_used_in_unions_evaluated_at_run_time() -> None:
    # Without ``from __future__ import annotations`` an annotation such as
    # ``-> ToolResult[Link] | None`` is evaluated when the function is defined.
    def maybe_link(found: bool) -> ToolResult[Link] | None:
        return ToolResult.ok(Link("u")) if found else None

    hints = typing.get_type_hints(maybe_link)
    assert typing.get_args(hints["return"]) == (ToolResult[Link], type(None))
    assert typing.get_args(str | ToolResult[Link]) == (str, ToolResult[Link])


@dataclass
class Counted:
    """A dataclass with a class variable, a slot-less mutable field and a later-set field."""

    kind: typing.ClassVar[str] = "counted"
    name: str
    tags: list[str] = field(default_factory=lambda: ["a"])
    total: int = field(init=False, default=0)


@dataclass(slots=True)
class Slotted:
    point: tuple[int, int]
    note: object = None


@pydantic.dataclasses.dataclass
class Aliased:
    """A pydantic dataclass writes itself with its own serializer (aliases included)."""

    name: str = pydantic.Field(serialization_alias="Name")


@dataclass(frozen=True)
class Cached:
    """A cached property lands in the instance's ``__dict__``, beside the fields."""

    name: str
    size: int = 1

    @functools.cached_property
    def shout(self) -> str:
        return self.name.upper()


def _cached_and_read() -> Cached:
    value = Cached("c")
    assert value.shout == "C"
    return value


def _reset_out_of_order() -> Cached:
    value = Cached("c", 2)
    object.__delattr__(value, "name")
    object.__setattr__(value, "name", "d")  # now after ``size`` in ``__dict__``
    return value


class Opaque:
    def __repr__(self) -> str:
        return "<opaque>"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Counted("c"), '{"name":"c","tags":["a"],"total":0}'),
        (Slotted((1, 2)), '{"point":[1,2]}'),
        (Slotted((1, 2), Opaque()), '{"point":[1,2],"note":"<opaque>"}'),
        (Slotted((0, 0), Link("u", "t")), '{"point":[0,0],"note":{"url":"u","title":"t"}}'),
        (Aliased("x"), '{"Name":"x"}'),
        (_cached_and_read(), '{"name":"c","size":1}'),
        (_reset_out_of_order(), '{"name":"d","size":2}'),
        (Link("\ud83d"), '{"url":"\\ud83d"}'),  # a lone surrogate, as the escape it came as
    ],
    ids=[
        "class-var-and-init-false",
        "slots",
        "unknown-type",
        "nested",
        "pydantic",
        "cached-property",
        "field-set-again",
        "surrogate",
    ],
)
def test_render_of_dataclasses_is_the_json_of_their_fields(value: object, text: str) -> None:
    assert ToolResult.ok(value).render() == text


@dataclass(frozen=True)
class Plain:
    name: str


@dataclass(frozen=True)
class Lending:
    """``__getattr__`` answers for attributes an instance lacks, ``render`` among them."""

    name: str

    def __getattr__(self, attribute: str) -> Any:
        if attribute == "render":
            return lambda: f"lent {self.name}"
        raise AttributeError(attribute)


@dataclass(frozen=True)
class RenderField:
    render: Any
    name: str = "n"


def _with_own_render() -> Plain:
    value = Plain("p")
    object.__setattr__(value, "render", lambda: "own p")  # on the instance, not the class
    return value


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (_with_own_render(), "own p"),
        (Lending("l"), "lent l"),
        (RenderField(lambda: "from the field"), "from the field"),
        (RenderField(None), '{"name":"n"}'),
        (Plain("p"), '{"name":"p"}'),
    ],
    ids=["instance-render", "getattr-render", "render-field", "render-field-none", "plain"],
)
def test_a_render_the_class_does_not_declare_is_still_the_value_s_own(
    value: object, text: str
) -> None:
    assert ToolResult.ok(value).render() == text
