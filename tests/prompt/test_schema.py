"""JSON Schema and argument validation of params dataclasses.

Rules: arguments come from a model, so every object level is closed
(``additionalProperties: false``), required fields are exactly the fields the
dataclass gives no default, ``field(metadata={"description": ...})`` reaches
the schema, and validation refuses unknown keys and wrong types with a
message naming the offending field.
"""

import dataclasses
import enum
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooltape import PromptValidationError, Tool
from tooltape.prompt.schema import ArgumentsError


@dataclass(frozen=True)
class Geo:
    lat: float
    lon: float


@dataclass(frozen=True)
class Address:
    street: str = field(metadata={"description": "Street and number"})
    geo: Geo
    city: str = "Paris"


@dataclass(frozen=True)
class Person:
    name: str = field(metadata={"description": "Full name"})
    address: Address
    age: int = 0
    tags: tuple[str, ...] = ()
    nickname: str | None = None
    scores: dict[str, int] = field(default_factory=lambda: {})


def tool() -> Tool[Person, Any]:
    # ``scores`` (a dict) is what strict function calling cannot take; the schema
    # itself is what these tests look at.
    return Tool[Person, Any](name="register", description="Register a person.", strict=False)


def required_fields(cls: type[Any]) -> set[str]:
    """The fields a dataclass cannot be built without (the rule, not the implementation)."""
    return {
        f.name
        for f in dataclasses.fields(cls)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }


def object_nodes(node: object) -> Iterator[dict[str, Any]]:
    """Every schema node describing an object with declared properties."""
    if isinstance(node, dict):
        if node.get("type") == "object" and "properties" in node:
            yield node
        for child in node.values():
            yield from object_nodes(child)
    elif isinstance(node, list):
        for child in node:
            yield from object_nodes(child)


def definition(schema: dict[str, Any], ref_holder: dict[str, Any]) -> dict[str, Any]:
    """Follow a local ``$ref`` such as ``#/$defs/Address``."""
    ref = ref_holder["$ref"]
    assert ref.startswith("#/")
    node: Any = schema
    for part in ref[2:].split("/"):
        node = node[part]
    return node


# --- the schema --------------------------------------------------------------------------


def test_every_object_level_is_closed() -> None:
    schema = tool().parameters_schema()
    objects = list(object_nodes(schema))
    assert len(objects) == 3, "Person, Address and Geo should each be an object schema"
    assert all(node["additionalProperties"] is False for node in objects)


def schema_by_class() -> dict[type[Any], dict[str, Any]]:
    """The schema node of Person and of each nested dataclass, found by following refs."""
    schema = tool().parameters_schema()
    address = definition(schema, schema["properties"]["address"])
    geo = definition(schema, address["properties"]["geo"])
    return {Person: schema, Address: address, Geo: geo}


@pytest.mark.parametrize("cls", [Person, Address, Geo])
def test_nested_dataclasses_are_closed_where_they_are_referenced(cls: type[Any]) -> None:
    assert schema_by_class()[cls]["additionalProperties"] is False


@pytest.mark.parametrize("cls", [Person, Address, Geo])
def test_required_fields_are_exactly_those_without_defaults(cls: type[Any]) -> None:
    node = schema_by_class()[cls]
    assert set(node.get("required", [])) == required_fields(cls)
    assert set(node["properties"]) == {f.name for f in dataclasses.fields(cls)}


def test_field_descriptions_are_carried_into_the_schema() -> None:
    nodes = schema_by_class()
    assert nodes[Person]["properties"]["name"]["description"] == "Full name"
    assert nodes[Address]["properties"]["street"]["description"] == "Street and number"
    assert "description" not in nodes[Person]["properties"]["age"]


def test_param_descriptions_lists_the_top_level_field_descriptions() -> None:
    assert tool().param_descriptions() == {"name": "Full name"}


def test_parameters_schema_is_a_fresh_copy() -> None:
    first = tool().parameters_schema()
    first["properties"].clear()
    assert "name" in tool().parameters_schema()["properties"]


def test_an_unresolvable_annotation_is_a_validation_error_not_a_pydantic_one() -> None:
    @dataclass
    class Broken:
        thing: "Undefined"  # type: ignore[name-defined]  # noqa: F821

    with pytest.raises(PromptValidationError, match="Broken"):
        Tool[Broken, Any](name="broken", description="Never usable.")


class Shade(enum.Enum):
    DARK = object()  # a member whose value no JSON can carry


@dataclass
class Painted:
    shade: Shade


@dataclass
class Misspelt:
    items: "list[int"  # type: ignore[valid-type]  # noqa: F722


@pytest.mark.parametrize(
    ("params_type", "said"),
    [
        (Painted, "Unable to serialize unknown type"),
        (Misspelt, "Forward reference must be an expression"),
    ],
)
def test_a_type_pydantic_cannot_describe_is_refused_naming_the_tool_and_the_type(
    params_type: type[Any], said: str
) -> None:
    with pytest.raises(PromptValidationError) as raised:
        Tool(name="paint", description="Paint.", params_type=params_type)
    message = str(raised.value)
    assert message.startswith("Tool 'paint': ")
    assert f"Cannot build a schema for {params_type.__name__}" in message and said in message


@dataclass
class Unbounded:
    limit: float = math.inf


@dataclass
class Huge:
    count: int = 10**5000


@dataclass
class HalfEmoji:
    mood: str = field(default="ok", metadata={"description": "Mood \ud83d"})


@dataclass
class OddDescription:
    mood: str = field(default="ok", metadata={"description": Shade})


@pytest.mark.parametrize(
    ("params_type", "strict", "where", "what"),
    [
        (Unbounded, False, "properties.limit.default", "inf"),
        (Huge, False, "properties.count.default", "an integer of more than 4300 digits"),
        (HalfEmoji, True, "properties.mood.description", "a lone surrogate"),
        (HalfEmoji, False, "properties.mood.description", "a lone surrogate"),
        (OddDescription, True, "properties.mood.description", "EnumType"),
    ],
)
def test_a_schema_holding_what_json_cannot_carry_is_refused_when_the_tool_is_built(
    params_type: type[Any], strict: bool, where: str, what: str
) -> None:
    with pytest.raises(PromptValidationError) as raised:
        Tool(name="odd", description="Odd.", params_type=params_type, strict=strict)
    message = str(raised.value)
    assert message.startswith(f"Tool 'odd': the JSON Schema of {params_type.__name__} ")
    assert f"`{where}`" in message and what in message


def test_a_strict_tool_keeps_a_default_json_cannot_carry_off_the_wire() -> None:
    # strict mode sends no defaults: the dataclass default still applies when the
    # model sends null, and nothing unsendable reaches the wire.
    tool = Tool(name="bounded", description="Bounded.", params_type=Unbounded)
    assert tool.schema.validate({}) == Unbounded(math.inf)


# --- validation --------------------------------------------------------------------------

VALID = {"name": "Ada", "address": {"street": "1 Rue", "geo": {"lat": 1.5, "lon": 2}}}


def test_valid_arguments_build_the_dataclass_with_its_defaults() -> None:
    person = tool().schema.validate(VALID)
    assert person == Person(name="Ada", address=Address(street="1 Rue", geo=Geo(1.5, 2.0)))
    assert isinstance(person.address.geo, Geo)


@pytest.mark.parametrize(
    ("arguments", "names"),
    [
        pytest.param({**VALID, "email": "a@b"}, ["email"], id="unknown-top-level-key"),
        pytest.param(
            {**VALID, "address": {**VALID["address"], "zip": "75001"}},
            ["address", "zip"],
            id="unknown-nested-key",
        ),
        pytest.param(
            {**VALID, "address": {"street": "1 Rue", "geo": {"lat": 1, "lon": 2, "alt": 3}}},
            ["address", "geo", "alt"],
            id="unknown-key-two-levels-down",
        ),
    ],
)
def test_unknown_keys_are_refused_naming_the_key(
    arguments: dict[str, Any], names: list[str]
) -> None:
    with pytest.raises(ArgumentsError) as caught:
        tool().schema.validate(arguments)
    for name in names:
        assert name in str(caught.value)


@pytest.mark.parametrize(
    ("arguments", "names"),
    [
        pytest.param({**VALID, "name": 5}, ["name"], id="int-for-str"),
        pytest.param({**VALID, "age": "old"}, ["age"], id="str-for-int"),
        pytest.param({**VALID, "tags": "a,b"}, ["tags"], id="str-for-tuple"),
        pytest.param(
            {**VALID, "address": {"street": "1 Rue", "geo": {"lat": "north", "lon": 2}}},
            ["address", "geo", "lat"],
            id="nested-wrong-type",
        ),
        pytest.param({"address": VALID["address"]}, ["name"], id="missing-required"),
    ],
)
def test_wrong_types_are_refused_naming_the_field(
    arguments: dict[str, Any], names: list[str]
) -> None:
    with pytest.raises(ArgumentsError) as caught:
        tool().schema.validate(arguments)
    for name in names:
        assert name in str(caught.value)


FIELD_NAMES = {f.name for f in dataclasses.fields(Person)}


@given(
    st.from_regex(r"[a-z][a-z0-9_]{0,20}", fullmatch=True).filter(lambda k: k not in FIELD_NAMES)
)
def test_any_key_that_is_not_a_field_is_refused(key: str) -> None:
    with pytest.raises(ArgumentsError, match=key):
        tool().schema.validate({**VALID, key: 1})
