"""An MCP tool whose input schema has a ``$ref`` that leads nowhere is refused when the
server starts, naming the server, the tool and the reference (the provider would
refuse every request that carried it). The schemas are synthetic; the servers are real."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import child_pids, wait_no_new_children

from tooltape.mcp import McpServerError, McpServerSection

SCHEMA_SERVER = Path(__file__).parent / "servers" / "schema_server.py"

PLACE = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
FINE = {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}


def schema_section(
    name: str, offered: dict[str, dict[str, Any]], **options: Any
) -> McpServerSection:
    args = [str(SCHEMA_SERVER)]
    for tool, schema in offered.items():
        args += ["--tool", tool, json.dumps(schema)]
    return McpServerSection(name, sys.executable, args, **options)


def refers(ref: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"where": {"$ref": ref}},
        "required": ["where"],
        **extra,
    }


@pytest.mark.parametrize(
    ("schema", "ref"),
    [
        (refers("#/$defs/Place"), "#/$defs/Place"),
        (refers("#/$defs/Place", **{"$defs": {"Town": PLACE}}), "#/$defs/Place"),
        (refers("#/definitions/Place"), "#/definitions/Place"),
        (refers("https://example.com/place.json"), "https://example.com/place.json"),
        (refers("place.json#/$defs/Place"), "place.json#/$defs/Place"),
        (refers("#/properties/nowhere"), "#/properties/nowhere"),
    ],
    ids=["no-defs", "other-def", "definitions", "external-url", "relative-file", "bad-pointer"],
)
def test_a_dangling_ref_is_refused_at_start_naming_server_tool_and_ref(
    schema: dict[str, Any], ref: str
) -> None:
    before = child_pids()
    section = schema_section("places", {"lookup": schema, "fine": FINE})

    with pytest.raises(McpServerError) as caught, section:
        pass

    message = str(caught.value)
    assert "'places'" in message
    assert "'lookup'" in message
    assert repr(ref) in message
    assert "tools=['fine']" in message, "the error gives the filter that leaves the tool out"
    assert not section.started
    assert wait_no_new_children(before) == set(), "the refused server is stopped"


def test_every_broken_tool_is_named_at_once() -> None:
    section = schema_section(
        "places",
        {"lookup": refers("#/$defs/Place"), "find": refers("#/$defs/Town"), "fine": FINE},
    )

    with pytest.raises(McpServerError) as caught, section:
        pass

    message = str(caught.value)
    assert "'lookup'" in message and "'#/$defs/Place'" in message
    assert "'find'" in message and "'#/$defs/Town'" in message
    assert "tools=['fine']" in message


def test_leaving_the_broken_tool_out_with_the_filter_starts_the_server() -> None:
    section = schema_section(
        "places", {"lookup": refers("#/$defs/Place"), "fine": FINE}, tools=["fine"]
    )

    with section:
        assert [t.remote_name for t in section.tools()] == ["fine"]


@pytest.mark.parametrize(
    "schema",
    [
        refers("#/$defs/Place", **{"$defs": {"Place": PLACE}}),
        refers("#/definitions/Place", definitions={"Place": PLACE}),
        refers("#/$defs/A~1B", **{"$defs": {"A/B": PLACE}}),
        refers("#/$defs/A%20B", **{"$defs": {"A B": PLACE}}),
        {
            "type": "object",
            "properties": {"tree": {"$ref": "#/$defs/Node"}},
            "$defs": {
                "Node": {
                    "type": "object",
                    "properties": {
                        "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
                    },
                }
            },
        },
        {"type": "object", "properties": {"again": {"$ref": "#"}}},
        {"type": "object", "properties": {"x": {"type": "string", "default": {"$ref": "nowhere"}}}},
        {"type": "object", "properties": {"$ref": {"type": "string"}}},
    ],
    ids=["defs", "definitions", "escaped-slash", "percent", "recursive", "root", "data", "prop"],
)
def test_references_that_resolve_are_kept_as_the_server_wrote_them(schema: dict[str, Any]) -> None:
    with schema_section("places", {"lookup": schema}) as section:
        (tool,) = section.tools()
        assert tool.parameters_schema()["properties"] == schema["properties"]


@pytest.mark.parametrize("where", ["$defs", "definitions"])
def test_a_free_form_object_behind_a_ref_turns_strict_off_wherever_the_ref_points(
    where: str,
) -> None:
    counts = {"type": "object", "additionalProperties": {"type": "integer"}}
    schema = {
        "type": "object",
        "properties": {"counts": {"$ref": f"#/{where}/Counts"}},
        "required": ["counts"],
        where: {"Counts": counts},
    }

    with schema_section("tallies", {"tally": schema}) as section:
        (tool,) = section.tools()

    assert tool.strict is False, "strict mode cannot take a mapping with free-form keys"
