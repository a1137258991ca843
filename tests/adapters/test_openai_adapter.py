"""OpenAIAdapter: request bodies the SDK accepts, and the tool loop over a scripted transport.

The transport is a respx router behind ``httpx2.MockTransport``
(``tooltape.testing.provider.faults.ProviderFaults``): the SDK runs for real, only the
provider is scripted. Response bodies here are synthetic and minimal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import openai
import pytest
from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming
from pydantic import TypeAdapter

from tooltape import (
    InProcessEventBus,
    MarkdownSection,
    Prompt,
    PromptEvaluationError,
    PromptValidationError,
    Session,
    Tool,
    ToolContext,
    ToolInvoked,
    ToolResult,
)
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.adapters.openai.codecs.registry import default_hosted_tool_codecs
from tooltape.adapters.openai.native_tools import OpenAIShellSection, OpenAIWebSearchSection
from tooltape.runtime.hooks import ToolHookContext
from tooltape.testing.kinds import shareable_tools
from tooltape.testing.provider.faults import ProviderFaults
from tooltape.tools.apply_patch import apply_patch_tool
from tooltape.tools.shell import ShellSection
from tooltape.tools.web_search import WebSearchSection

CREATE_PARAMS = TypeAdapter(ResponseCreateParamsNonStreaming)


def add_one(x: int) -> int:
    """Add one to x."""
    return x + 1


@dataclass(frozen=True)
class Nothing:
    pass


def explode(params: Nothing, *, context: ToolContext) -> ToolResult[None]:
    raise RuntimeError("disk on fire")


def delete_everything(params: Nothing, *, context: ToolContext) -> ToolResult[str]:
    raise AssertionError("the guard hook must stop this call")


def guard(ctx: ToolHookContext, args: dict[str, Any], call_next: Any) -> ToolResult[Any]:
    if ctx.tool_name == "delete_everything":
        return ToolResult.error("blocked by policy: delete_everything is not allowed")
    return call_next(args)


def function_call(name: str, arguments: dict[str, Any], call_id: str) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": f"fc_{call_id}",
        "call_id": call_id,
        "name": name,
        "arguments": json.dumps(arguments),
        "status": "completed",
    }


def workshop_prompt(root: Path) -> Prompt[Any]:
    tools = [
        Tool.from_function(add_one),
        Tool(name="explode", description="Always fails.", handler=explode),
        Tool(name="delete_everything", description="Dangerous.", handler=delete_everything),
        apply_patch_tool(root),
    ]
    return Prompt(
        ns="tests",
        key="workshop",
        tool_hooks=[guard],
        sections=[MarkdownSection(title="Task", template="Do the work.", tools=tools)],
    )


@pytest.fixture
def faults() -> ProviderFaults:
    return ProviderFaults()


def test_tool_loop_answers_every_call_and_sends_the_results_back(
    tmp_path: Path, faults: ProviderFaults
) -> None:
    first = faults.response_json(
        output=[
            function_call("add_one", {"x": 41}, "call_1"),
            function_call("explode", {}, "call_2"),
            function_call("delete_everything", {}, "call_3"),
            {
                "type": "apply_patch_call",
                "id": "apc_1",
                "call_id": "call_4",
                "status": "completed",
                "operation": {"type": "create_file", "path": "notes/hello.txt", "diff": "+hi\n"},
            },
        ]
    )
    faults.script(faults.ok(first), faults.ok(faults.response_json("all done")))
    session = Session()
    adapter = OpenAIAdapter("gpt-5.1", client=faults.client(max_retries=0))

    response = adapter.evaluate(workshop_prompt(tmp_path), session=session)

    assert response.text == "all done"
    assert (tmp_path / "notes" / "hello.txt").read_text() == "hi\n"
    second = faults.calls[1].json()
    outputs = {item["call_id"]: item for item in second["input"] if "output" in item}
    assert outputs["call_1"]["type"] == "function_call_output"
    assert "42" in outputs["call_1"]["output"]
    assert "disk on fire" in outputs["call_2"]["output"]
    assert outputs["call_3"]["output"] == "blocked by policy: delete_everything is not allowed"
    assert outputs["call_4"]["type"] == "apply_patch_call_output"
    assert outputs["call_4"]["status"] == "completed"
    # the model's own calls are replayed to it before the answers
    assert second["input"][0] == {"role": "user", "content": "## 1. Task\n\nDo the work."}
    assert [i["type"] for i in second["input"][1:5]] == [
        *["function_call"] * 3,
        "apply_patch_call",
    ]
    events = session.tool_invocations
    assert [e.name for e in events] == ["add_one", "explode", "delete_everything", "apply_patch"]
    assert [e.result.success for e in events] == [True, False, False, True]
    assert events[0].rendered_output == "42"
    assert events[1].rendered_output == ""
    assert events[3].source == "native" and events[3].kind == "apply_patch"
    assert response.tool_invocations == events


def test_hosted_calls_become_tool_invoked_events_and_typed_outputs(faults: ProviderFaults) -> None:
    items = [
        {
            "type": "web_search_call",
            "id": "ws_1",
            "status": "completed",
            "action": {"type": "search", "query": "tooltape cassettes"},
        },
        {
            "type": "web_search_call",
            "id": "ws_2",
            "status": "failed",
            "action": {"type": "search", "query": "broken"},
        },
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "Found it.", "annotations": []}],
        },
    ]
    faults.script(faults.ok(faults.response_json(output=items)))
    prompt = Prompt(ns="t", key="search", sections=[WebSearchSection()])
    bus = InProcessEventBus()
    seen: list[ToolInvoked] = []
    bus.subscribe(ToolInvoked, seen.append)

    response = OpenAIAdapter("gpt-5", client=faults.client()).evaluate(prompt, bus=bus)

    assert [(e.call_id, e.source, e.provider, e.kind) for e in seen] == [
        ("ws_1", "hosted", "openai", "web_search"),
        ("ws_2", "hosted", "openai", "web_search"),
    ]
    assert seen[0].result.success and seen[0].params.query == "tooltape cassettes"
    assert not seen[1].result.success and seen[1].result.value is None
    assert "ws_2" in seen[1].result.message or "failed" in seen[1].result.message
    result = response.hosted_outputs["web_search"]
    assert result.text == "Found it."  # type: ignore[attr-defined]


def test_an_unknown_hosted_kind_fails_before_anything_is_sent(faults: ProviderFaults) -> None:
    codecs = default_hosted_tool_codecs()
    del codecs["web_search"]
    adapter = OpenAIAdapter("gpt-5", client=faults.client(), hosted_tool_codecs=codecs)
    prompt = Prompt(ns="t", key="search", sections=[WebSearchSection()])
    with pytest.raises(PromptEvaluationError) as raised:
        adapter.evaluate(prompt)
    assert raised.value.phase == "render"
    assert "web_search" in str(raised.value)
    assert faults.calls == ()


def test_a_model_family_documented_without_the_kind_is_refused_citing_the_docs() -> None:
    prompt = Prompt(ns="t", key="shell", sections=[ShellSection()])
    for model in ("gpt-5-nano", "gpt-5-nano-2025-08-07", "gpt-5-chat-latest", "gpt-5"):
        with pytest.raises(PromptEvaluationError, match="does not support 'shell'") as raised:
            OpenAIAdapter(model).build_request(prompt)
        assert "https://developers.openai.com/api/docs/guides/tools-shell" in str(raised.value)
    # The family, not the prefix: gpt-5.1 takes shell although gpt-5 does not.
    assert OpenAIAdapter("gpt-5.1-2025-11-13").build_request(prompt)["tools"][0]["type"] == "shell"
    # A family the table does not know is not restricted.
    assert OpenAIAdapter("some-future-model").build_request(prompt)["tools"][0]["type"] == "shell"


def test_a_capabilities_table_given_to_the_adapter_replaces_the_documented_one() -> None:
    prompt = Prompt(ns="t", key="search", sections=[WebSearchSection()])
    table = {"gpt-4.1-nano": frozenset({"file_search"})}
    with pytest.raises(PromptEvaluationError, match="lists only file_search"):
        OpenAIAdapter("gpt-4.1-nano-2025-04-14", capabilities=table).build_request(prompt)
    shell = Prompt(ns="t", key="shell", sections=[ShellSection()])
    assert OpenAIAdapter("gpt-5-nano", capabilities=table).build_request(shell)["tools"]


def test_a_runaway_tool_loop_stops_at_the_round_limit(faults: ProviderFaults) -> None:
    looping = faults.response_json(output=[function_call("add_one", {"x": 1}, "c")])
    faults.script(*[faults.ok(looping)] * 3)
    prompt = Prompt(
        ns="t",
        key="loop",
        sections=[MarkdownSection(title="T", template="go", tools=[Tool.from_function(add_one)])],
    )
    adapter = OpenAIAdapter("gpt-5", client=faults.client(), max_rounds=3)
    with pytest.raises(PromptEvaluationError) as raised:
        adapter.evaluate(prompt)
    assert raised.value.phase == "tool"
    assert "3 rounds" in str(raised.value)


@dataclass(frozen=True)
class Answer:
    city: str
    temperature_c: float


def test_structured_output_is_requested_strictly_and_parsed(faults: ProviderFaults) -> None:
    prompt = Prompt[Answer](
        ns="t", key="answer", sections=[MarkdownSection(title="T", template="Weather?")]
    )
    adapter = OpenAIAdapter("gpt-5", client=faults.client())
    body = adapter.build_request(prompt)
    text_format = body["text"]["format"]
    assert text_format["type"] == "json_schema" and text_format["strict"] is True
    assert text_format["schema"]["required"] == ["city", "temperature_c"]
    assert text_format["schema"]["additionalProperties"] is False

    faults.script(
        faults.ok(faults.response_json('{"city": "Paris", "temperature_c": 21.5}')),
        faults.ok(faults.response_json('{"city": "Paris"}')),
    )
    assert adapter.evaluate(prompt).output == Answer("Paris", 21.5)
    with pytest.raises(PromptEvaluationError) as raised:
        adapter.evaluate(prompt)
    assert raised.value.phase == "parse"


def test_a_refused_structured_answer_says_the_model_refused_and_why(
    faults: ProviderFaults,
) -> None:
    prompt = Prompt[Answer](
        ns="t", key="answer", sections=[MarkdownSection(title="T", template="Weather?")]
    )
    refusal = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "refusal", "refusal": "I can't help with that."}],
    }
    faults.script(faults.ok(faults.response_json(output=[refusal])))

    with pytest.raises(PromptEvaluationError) as raised:
        OpenAIAdapter("gpt-5", client=faults.client()).evaluate(prompt)

    assert raised.value.phase == "parse"
    assert "refused" in str(raised.value) and "Answer" in str(raised.value)
    assert "I can't help with that." in str(raised.value)
    assert "Invalid JSON" not in str(raised.value)
    assert raised.value.provider_payload == "I can't help with that."


@dataclass(frozen=True)
class Greeting:
    name: str
    excited: bool = False
    tags: list[str] = field(default_factory=lambda: ["x"])


def test_strict_wire_nulls_fall_back_to_dataclass_defaults(faults: ProviderFaults) -> None:
    received: list[Greeting] = []

    def greet(params: Greeting, *, context: ToolContext) -> ToolResult[str]:
        received.append(params)
        return ToolResult.ok("hi")

    tool = Tool(name="greet", description="Greet someone.", handler=greet)
    prompt = Prompt(
        ns="t", key="g", sections=[MarkdownSection(title="T", template="hi", tools=[tool])]
    )
    adapter = OpenAIAdapter("gpt-5", client=faults.client())
    spec = adapter.build_request(prompt)["tools"][0]
    assert spec["strict"] is True
    assert sorted(spec["parameters"]["required"]) == ["excited", "name", "tags"]
    call = function_call("greet", {"name": "Ada", "excited": None, "tags": None}, "c1")
    faults.script(faults.ok(faults.response_json(output=[call])), faults.ok())
    adapter.evaluate(prompt)
    assert received == [Greeting("Ada")]


@dataclass
class Filters:
    tags: list[str] = field(default_factory=lambda: ["all"])


def test_strict_wire_nulls_fall_back_to_a_functions_mutable_defaults(
    faults: ProviderFaults,
) -> None:
    received: list[tuple[str, Filters, list[str]]] = []

    # what a user writes: mutable defaults, as ruff's B006/B008 warn
    def search(query: str, filters: Filters = Filters(), seen: list[str] = []) -> str:  # noqa: B006, B008
        """Search the catalogue."""
        received.append((query, filters, seen))
        return query

    prompt = Prompt(
        ns="t",
        key="s",
        sections=[MarkdownSection(title="T", template="hi", tools=[Tool.from_function(search)])],
    )
    adapter = OpenAIAdapter("gpt-5", client=faults.client())
    spec = adapter.build_request(prompt)["tools"][0]
    assert spec["strict"] is True and spec["parameters"]["required"] == ["query", "filters", "seen"]
    calls = [
        function_call("search", {"query": "a", "filters": None, "seen": None}, "c1"),
        function_call("search", {"query": "b", "filters": {"tags": ["new"]}, "seen": ["x"]}, "c2"),
    ]
    faults.script(faults.ok(faults.response_json(output=calls)), faults.ok())
    adapter.evaluate(prompt)
    assert received == [("a", Filters(), []), ("b", Filters(["new"]), ["x"])]


def test_tool_choice_maps_names_to_the_wire_and_relaxes_after_the_first_round(
    faults: ProviderFaults,
) -> None:
    prompt = Prompt(
        ns="t",
        key="choice",
        sections=[
            MarkdownSection(title="T", template="go", tools=[Tool.from_function(add_one)]),
            WebSearchSection(),
        ],
    )
    adapter = OpenAIAdapter("gpt-5", client=faults.client())
    assert adapter.build_request(prompt, tool_choice="add_one")["tool_choice"] == {
        "type": "function",
        "name": "add_one",
    }
    assert adapter.build_request(prompt, tool_choice="required")["tool_choice"] == "required"
    with pytest.raises(PromptEvaluationError, match="names no tool"):
        adapter.build_request(prompt, tool_choice="nope")

    faults.script(
        faults.ok(faults.response_json(output=[function_call("add_one", {"x": 1}, "c")])),
        faults.ok(),
    )
    adapter.evaluate(prompt, tool_choice="add_one")
    assert faults.calls[0].json()["tool_choice"] == {"type": "function", "name": "add_one"}
    assert faults.calls[1].json()["tool_choice"] == "auto"


def test_every_request_body_validates_against_the_sdk_types(tmp_path: Path) -> None:
    hosted = list(shareable_tools("gpt-5.1").values())
    prompt = Prompt[Answer](
        ns="t",
        key="everything",
        sections=[
            MarkdownSection(
                title="T",
                template="go",
                tools=[Tool.from_function(add_one), apply_patch_tool(tmp_path)],
                hosted_tools=hosted,
            )
        ],
    )
    adapter = OpenAIAdapter("gpt-5.1")
    for choice in (None, "auto", "required", "add_one", "apply_patch", *(h.name for h in hosted)):
        body = adapter.build_request(prompt, tool_choice=choice)
        CREATE_PARAMS.validate_python(body)
        assert len(body["tools"]) == 2 + len(hosted)


def test_native_tool_sections_are_checked_when_built_and_render_no_text() -> None:
    with pytest.raises(PromptValidationError, match="does not support the 'shell' tool"):
        OpenAIShellSection(model="gpt-5-nano")
    section = OpenAIWebSearchSection(model="gpt-5")
    prompt = Prompt(ns="t", key="n", sections=[MarkdownSection(title="T", template="go"), section])
    rendered = prompt.render()
    assert "web_search" not in rendered.text.lower()
    assert [t.kind for t in rendered.hosted_tools] == ["web_search"]
    assert section.clone(key="other").key == "other"


def test_http_errors_and_failed_responses_raise_with_phase_and_payload(
    faults: ProviderFaults,
) -> None:
    prompt = Prompt(ns="t", key="e", sections=[MarkdownSection(title="T", template="go")])
    adapter = OpenAIAdapter("gpt-5", client=faults.client(max_retries=0))
    faults.script(
        faults.reply(400, json={"error": {"code": "bad_thing", "message": "nope"}}),
        faults.ok(
            faults.response_json(status="failed", error={"code": "server_error", "message": "oops"})
        ),
    )
    with pytest.raises(PromptEvaluationError) as request_error:
        adapter.evaluate(prompt)
    assert request_error.value.phase == "request"
    assert "bad_thing" in str(request_error.value)
    assert request_error.value.provider_payload is not None
    with pytest.raises(PromptEvaluationError) as response_error:
        adapter.evaluate(prompt)
    assert response_error.value.phase == "response"
    assert response_error.value.provider_payload == {"code": "server_error", "message": "oops"}


def test_a_connection_failure_names_the_url_it_tried_without_credentials() -> None:
    import socket

    import openai

    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = openai.OpenAI(
        api_key="placeholder", base_url=f"http://user:hunter2@127.0.0.1:{port}/v1", max_retries=0
    )
    prompt = Prompt(ns="t", key="offline", sections=[MarkdownSection(title="T", template="hi")])
    with pytest.raises(PromptEvaluationError) as caught:
        OpenAIAdapter("gpt-4o", client=client).evaluate(prompt)
    message = str(caught.value)
    assert caught.value.phase == "request"
    assert f"at http://127.0.0.1:{port}/v1/responses" in message
    assert "hunter2" not in message and "OPENAI_BASE_URL" in message


@pytest.mark.parametrize(
    ("body", "content_type", "text"),
    [
        # A lone surrogate escape: the fast parser refuses it, the standard one reads it.
        (b'{"id": "r1", "output": [%s]}', "application/json", "\ud800 kept"),
        # Latin-1 declared: read as the HTTP client decodes it, not as UTF-8.
        (b'{"id": "r1", "output": [%s]}', "application/json; charset=latin-1", "caf\u00e9"),
    ],
    ids=["lone-surrogate", "latin-1"],
)
def test_response_bodies_are_read_as_the_http_client_decodes_them(
    faults: ProviderFaults, body: bytes, content_type: str, text: str
) -> None:
    prompt = Prompt(ns="t", key="b", sections=[MarkdownSection(title="T", template="go")])
    message = {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }
    encoded = (
        json.dumps(message).encode()
        if "latin" not in content_type
        else (json.dumps(message, ensure_ascii=False).encode("latin-1"))
    )
    faults.script(
        faults.reply(200, body=body.replace(b"%s", encoded), headers={"content-type": content_type})
    )
    response = OpenAIAdapter("gpt-5", client=faults.client(max_retries=0)).evaluate(prompt)
    assert response.text == text


def test_a_body_that_is_not_json_names_where_it_breaks(faults: ProviderFaults) -> None:
    prompt = Prompt(ns="t", key="b", sections=[MarkdownSection(title="T", template="go")])
    faults.script(faults.malformed_json('{"id": "r1", "output": [}'))
    with pytest.raises(PromptEvaluationError) as raised:
        OpenAIAdapter("gpt-5", client=faults.client(max_retries=0)).evaluate(prompt)
    assert raised.value.phase == "parse"
    assert "not JSON (Expecting value at position 24)" in str(raised.value)
    assert raised.value.provider_payload == '{"id": "r1", "output": [}'


def test_a_client_tool_of_an_unregistered_kind_is_refused_before_sending(tmp_path: Path) -> None:
    from tooltape.adapters.openai.codecs.registry import default_client_tool_codecs
    from tooltape.tools.apply_patch import apply_patch_tool

    codecs = {k: c for k, c in default_client_tool_codecs().items() if k != "apply_patch"}
    prompt = Prompt(
        ns="t",
        key="patch",
        sections=[MarkdownSection(title="T", template="hi", tools=[apply_patch_tool(tmp_path)])],
    )
    with pytest.raises(PromptEvaluationError) as caught:
        OpenAIAdapter("gpt-5.1", client_tool_codecs=codecs).build_request(prompt)
    assert caught.value.phase == "render"
    assert "client-executed tool kind 'apply_patch'" in str(caught.value)


def test_an_async_client_is_refused_when_the_adapter_is_built() -> None:
    # Its calls return coroutines the blocking tool loop would never await.
    client = openai.AsyncOpenAI(api_key="sk-test", base_url="http://127.0.0.1:9/v1")
    with pytest.raises(TypeError, match=r"AsyncOpenAI.*openai\.OpenAI.*asyncio\.to_thread"):
        OpenAIAdapter("gpt-4o", client=client)  # type: ignore[arg-type]
