"""Property: no response shaped by the official OpenAPI schemas raises anything but the
documented error, and what tooltape sends back about it is a valid input.

Synthetic: hypothesis draws every response and stream here from the schemas in
``tests/data/openapi/responses-tools.json`` (``schema_values``), so every member
of ``OutputItem`` (hosted calls, client calls, their outputs, approvals,
programs, compactions...) and of ``ResponseStreamEvent`` appears, in any
order, with any status and any optional field present or absent.

- ``OpenAIAdapter.evaluate`` over a prompt carrying every hosted kind and the
  client-executed kinds may raise only ``PromptEvaluationError``.
- When every drawn item is valid both as an output item and as an input item,
  every item the next request carries (the answers tooltape writes) is a valid
  ``InputItem``.
- Every codec's ``parse_calls`` / ``parse_output`` reads the same items as
  openai SDK objects (built by the SDK's own ``construct_type``) without raising.
- A cassette whose body is any sequence of stream events (no terminal event,
  events out of order, an error event, a response.failed) is shown by
  ``tooltape inspect`` (human and ``--json``) with exit code 0 and no traceback.

``TOOLTAPE_FUZZ_EXAMPLES`` sets the number of examples (default 300; these
tests take a third of it each).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from openai._models import construct_type  # the SDK's own reading of a response body
from openai.types.responses.response_output_item import ResponseOutputItem
from openapi_tools import output_item_components, wire_errors
from recorded_bodies import inspected_entry
from schema_values import schema_values

from tooltape import Prompt, PromptEvaluationError, Section, Tool
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.adapters.openai.codecs import default_hosted_tool_codecs
from tooltape.testing.kinds import canonical_client_tools, canonical_tools, shareable_tools
from tooltape.testing.provider.faults import ProviderFaults

EXAMPLES = max(1, int(os.environ.get("TOOLTAPE_FUZZ_EXAMPLES", "300")) // 3)
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
ITEMS = st.lists(schema_values("OutputItem"), min_size=1, max_size=4)
_DECLARABLE = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")  # a namespace name


def add_one(x: int) -> int:
    """Add one to x."""
    return x + 1


@cache
def every_kind() -> Prompt[Any]:
    client = canonical_client_tools()
    tools = [
        Tool.from_function(add_one),
        *(client[kind] for kind in ("apply_patch", "local_shell", "computer", "custom")),
        client["namespace"],
    ]
    section = Section(
        title="T", key="t", tools=tools, hosted_tools=list(shareable_tools().values())
    )
    return Prompt(ns="tests", key="schema-shaped", sections=[section])


def evaluate(items: list[Any]) -> tuple[bool, list[dict[str, Any]]]:
    """Whether ``evaluate`` answered, and the bodies of the requests after the first."""
    faults = ProviderFaults(assert_all_played=False)
    faults.responses.ok(faults.response_json(output=items, id="resp_shaped"))
    for _ in range(3):
        faults.responses.ok(faults.response_json("done"))
    try:
        adapter = OpenAIAdapter(
            "gpt-5", client=faults.client(max_retries=0), max_rounds=4, capabilities={}
        )
        try:
            adapter.evaluate(every_kind())
        except PromptEvaluationError:
            return False, []
        return True, [call.json() for call in faults.calls[1:]]
    finally:
        faults.close()


def _valid_output_item(item: dict[str, Any]) -> bool:
    component = output_item_components().get(item.get("type"))  # type: ignore[arg-type]
    return component is not None and not wire_errors(component, item)


def _answerable(item: dict[str, Any]) -> bool:
    """Whether an answer to ``item`` can be valid at all: the fields it repeats are ones a
    provider sends (a call id, safety check ids) and a namespace a prompt can declare."""
    namespace = item.get("namespace")
    checks = item.get("pending_safety_checks") or []
    caller = item.get("caller")
    return (
        item.get("call_id") != ""
        and (not isinstance(caller, dict) or caller.get("caller_id") != "")
        and (namespace is None or bool(_DECLARABLE.match(str(namespace))))
        and all(isinstance(check, dict) and check.get("id") for check in checks)
    )


@FUZZ
@given(items=ITEMS)
def test_no_schema_shaped_response_raises_anything_but_the_documented_error(
    items: list[Any],
) -> None:
    evaluate(items)


@FUZZ
@given(items=ITEMS)
def test_every_answer_to_valid_items_is_a_valid_input_item(items: list[Any]) -> None:
    assume(all(_valid_output_item(item) for item in items))
    assume(all(not wire_errors("InputItem", item) and _answerable(item) for item in items))
    answered, followups = evaluate(items)
    event("answered" if answered else "refused")
    event(f"{len(followups)} follow-up requests")
    for body in followups:
        for index, item in enumerate(body["input"]):
            if item in items:
                continue  # resent as the provider sent it
            problems = wire_errors("InputItem", item)
            assert not problems, f"input[{index}] {json.dumps(item)[:400]}: {problems[:3]}"


@FUZZ
@given(items=ITEMS, as_sdk_objects=st.booleans())
def test_every_codec_reads_any_items_as_dicts_or_sdk_objects(
    items: list[Any], as_sdk_objects: bool
) -> None:
    read: list[Any] = (
        [construct_type(type_=ResponseOutputItem, value=item) for item in items]
        if as_sdk_objects
        else items
    )
    tools = canonical_tools()
    for kind, codec in default_hosted_tool_codecs().items():
        try:
            for call in codec.parse_calls(read, tools[kind]):
                call.to_result()
            codec.parse_calls(read, None)
            codec.parse_output(read, tools[kind])
        except PromptEvaluationError:
            pass  # a payload that must decode and does not (base64)


def _stream_cassette(path: Path, events: list[Any]) -> Path:
    sse = [
        {
            "event": event.get("type") if isinstance(event.get("type"), str) else "message",
            "data": event,
        }
        for event in events
    ]
    document = {
        "tooltape": {
            "version": "0.1.0",
            "source": "synthetic",
            "provenance": "tests/robustness: stream events drawn from the OpenAPI schemas",
        },
        "interactions": [
            {
                "request": {
                    "method": "POST",
                    "uri": "https://api.openai.com/v1/responses",
                    "headers": {"content-type": ["application/json"]},
                    "body": {"json": {"model": "gpt-5", "input": "hi", "stream": True}},
                },
                "response": {
                    "status_code": 200,
                    "reason": "OK",
                    "headers": {"content-type": ["text/event-stream"]},
                    "body": {"sse": sse},
                },
            }
        ],
    }
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


@FUZZ
@given(events=st.lists(schema_values("ResponseStreamEvent"), max_size=6))
def test_any_sequence_of_stream_events_is_shown_by_inspect(events: list[Any]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        _, entry = inspected_entry(_stream_cassette(Path(folder) / "stream.json", events))
    assert entry["streamed"] is True
