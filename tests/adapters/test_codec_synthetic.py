"""The codecs against labelled synthetic responses (fixtures/responses/*.json), for shapes
no real recording holds: failures, errors, approvals, shell pairs, unusual search actions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from openai.types.responses import Response
from openapi_tools import assert_output_items_valid

from tooltape.adapters.openai.codecs import (
    CodeInterpreterCodec,
    FileSearchCodec,
    ImageGenerationCodec,
    McpCodec,
    ShellCodec,
    WebSearchCodec,
)
from tooltape.tools.code_interpreter import code_interpreter_tool
from tooltape.tools.file_search import FileSearchConfig, file_search_tool
from tooltape.tools.image_generation import image_generation_tool
from tooltape.tools.mcp import HostedMcpConfig, hosted_mcp_tool
from tooltape.tools.shell import ContainerReference, ShellConfig, shell_tool
from tooltape.tools.web_search import Citation, web_search_tool

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "responses"
DEEPWIKI = hosted_mcp_tool(HostedMcpConfig("deepwiki", server_url="https://mcp.deepwiki.com/mcp"))


def fixture(name: str) -> dict[str, Any]:
    """A synthetic response body; every fixture says what it is and why it is synthetic."""
    body = json.loads((FIXTURES / name).read_text())
    assert body["_provenance"].startswith("synthetic: ")
    return body


def both_forms(name: str) -> list[list[Any]]:
    """The output items as JSON dicts and as SDK objects."""
    body = fixture(name)
    return [body["output"], list(Response.construct(**body).output)]


def test_every_fixture_is_labelled() -> None:
    names = sorted(p.name for p in FIXTURES.glob("*.json"))
    assert len(names) >= 10
    for name in names:
        provenance = fixture(name)["_provenance"]
        assert len(provenance) > 60, f"{name}: say what it is and why no recording exists"


@pytest.mark.parametrize("form", [0, 1])
def test_failed_web_search_call_is_a_failed_call(form: int) -> None:
    items = both_forms("web_search_failed.json")[form]
    (call,) = WebSearchCodec().parse_calls(items, None)
    assert (call.success, call.status, call.output) == (False, "failed", None)
    assert call.error is not None
    assert "ws_synth_failed_01" in call.error and "'failed'" in call.error
    assert "latest CPI release date" in call.error
    result = call.to_result()
    assert not result.success and result.value is None and result.message == call.error
    output = WebSearchCodec().parse_output(items, web_search_tool())
    assert output is not None and output.queries == ("latest CPI release date",)


@pytest.mark.parametrize("form", [0, 1])
def test_search_actions_citations_and_sources(form: int) -> None:
    items = both_forms("web_search_actions.json")[form]
    codec = WebSearchCodec()
    calls = codec.parse_calls(items, None)
    assert [c.id for c in calls] == ["ws_synth_a1", "ws_synth_a2", "ws_synth_a3", "ws_synth_a4"]
    assert all(c.success for c in calls)
    search, opened, found, bare = (c.params for c in calls)
    assert search.queries == ("Mexico City altitude", "Mexico City elevation meters")
    assert (opened.action, opened.url, opened.query) == (
        "open_page",
        "https://en.wikipedia.org/wiki/Mexico_City",
        None,
    )
    assert (found.action, found.pattern) == ("find_in_page", "census")
    assert (bare.action, bare.url, bare.query) == ("open_page", None, None)
    result = codec.parse_output(items, web_search_tool())
    assert result is not None
    assert result.queries == ("Mexico City altitude", "Mexico City elevation meters")
    assert result.source_urls == (
        "https://www.inegi.org.mx/",
        "https://en.wikipedia.org/wiki/Mexico_City",
    )
    assert result.citations == (
        Citation("https://www.inegi.org.mx/", "INEGI", (26, 33)),
        Citation("https://en.wikipedia.org/wiki/Mexico_City", "Mexico City - Wikipedia", (69, 80)),
    )
    assert [result.text[a:b] for a, b in (c.span for c in result.citations if c.span)] == [
        "[INEGI]",
        "[Wikipedia]",
    ]


@pytest.mark.parametrize("form", [0, 1])
def test_mcp_errors_as_string_and_object(form: int) -> None:
    items = both_forms("mcp_call_errors.json")[form]
    codec = McpCodec()
    calls = codec.parse_calls(items, DEEPWIKI)
    assert [(c.id, c.success) for c in calls] == [
        ("mcpl_synth_1", True),
        ("mcp_synth_str", False),
        ("mcp_synth_obj", False),
        ("mcp_synth_ok", True),
    ]
    assert calls[1].error is not None and "Repository nope/missing not found" in calls[1].error
    assert calls[2].error is not None
    assert "mcp_protocol_error -32602: Invalid params: question too short" in calls[2].error
    assert calls[3].params.arguments == {"repoName": "pydantic/pydantic", "question": "What is it?"}
    result = codec.parse_output(items, DEEPWIKI)
    assert result is not None
    assert [(c.name, c.error, c.output) for c in result.calls] == [
        ("ask_question", "Repository nope/missing not found", None),
        ("ask_question", "mcp_protocol_error -32602: Invalid params: question too short", None),
        ("ask_question", None, "Pydantic is a data validation library."),
    ]
    everything = codec.parse_calls(items, None)
    assert [c.id for c in everything][-1] == "mcp_synth_other"
    other = hosted_mcp_tool(HostedMcpConfig("gitmcp", server_url="https://gitmcp.io/x"))
    other_result = codec.parse_output(items, other)
    assert other_result is not None and [c.output for c in other_result.calls] == ["docs"]


@pytest.mark.parametrize("form", [0, 1])
def test_mcp_approval_request_is_reported_not_called(form: int) -> None:
    items = both_forms("mcp_approval_request.json")[form]
    codec = McpCodec()
    assert [c.item_type for c in codec.parse_calls(items, DEEPWIKI)] == ["mcp_list_tools"]
    result = codec.parse_output(items, DEEPWIKI)
    assert result is not None
    (request,) = result.approval_requests
    assert (request.id, request.name, dict(request.arguments), request.server_label) == (
        "mcpr_synth_1",
        "read_wiki_structure",
        {"repoName": "openai/openai-python"},
        "deepwiki",
    )
    assert result.calls == ()


@pytest.mark.parametrize("form", [0, 1])
def test_shell_calls_pair_with_their_outputs(form: int) -> None:
    items = both_forms("shell_calls.json")[form]
    codec = ShellCodec()
    tool = shell_tool(ShellConfig(ContainerReference("cntr_synth_1")))
    paired, pending, incomplete = codec.parse_calls(items, tool)
    assert paired.success and paired.params.commands == ("ls /mnt/data", "sleep 999")
    assert paired.params.timeout_ms == 5000 and paired.params.max_output_length == 4096
    assert paired.output is not None
    assert paired.output.stdout == "report.csv\n"
    assert paired.output.exit_codes == (0, None)
    assert [o.timed_out for o in paired.output.outputs] == [False, True]
    assert paired.output.container_id == "cntr_synth_1"
    assert pending.success and pending.status == "in_progress"
    assert pending.output is not None and pending.output.outputs == ()
    assert pending.output.commands == ("python train.py",)
    assert not incomplete.success
    assert incomplete.error is not None and "make test" in incomplete.error
    result = codec.parse_output(items, tool)
    assert result is not None
    assert result.commands == ("ls /mnt/data", "sleep 999", "python train.py", "make test")
    assert len(result.outputs) == 2


def test_the_completed_shell_fixture_is_a_spec_valid_response() -> None:
    # A shell_call names its container by reference: the request's container_auto
    # never appears on a call item (the specification allows local / container_reference).
    items = fixture("shell_completed.json")["output"]
    assert_output_items_valid(items)
    result = ShellCodec().parse_output(items, shell_tool())
    assert result is not None and result.container_id == "cntr_synth_contract"
    assert result.stdout == "42\n"


def test_hosted_shell_leaves_local_calls_to_the_client() -> None:
    items = fixture("local_shell_call.json")["output"]
    assert ShellCodec().parse_calls(items, None) == ()
    assert ShellCodec().parse_output(items, shell_tool()) is None


@pytest.mark.parametrize("form", [0, 1])
def test_file_search_results_with_scores(form: int) -> None:
    items = both_forms("file_search_results.json")[form]
    codec = FileSearchCodec()
    tool = file_search_tool(FileSearchConfig(("vs_1",), include_results=True))
    result = codec.parse_output(items, tool)
    assert result is not None
    assert result.queries == ("Eiffel Tower height", "Eiffel Tower")
    assert [(h.file_id, h.filename, h.score, h.text) for h in result.results] == [
        ("file-synth1", "paris.txt", 0.91, "The Eiffel Tower is 330 metres tall."),
        ("file-synth2", "landmarks.md", 0.42, "Landmarks of Paris include the Louvre."),
    ]
    assert dict(result.results[0].attributes) == {"lang": "en", "year": 2024}
    assert [(c.file_id, c.index) for c in result.citations] == [("file-synth1", 36)]
    (call,) = codec.parse_calls(items, tool)
    assert call.output is not None and len(call.output.results) == 2


@pytest.mark.parametrize("form", [0, 1])
def test_code_interpreter_failure_logs_image_and_file_path(form: int) -> None:
    items = both_forms("code_interpreter_failed.json")[form]
    codec = CodeInterpreterCodec()
    ok, bad = codec.parse_calls(items, None)
    assert ok.success and ok.output is not None and ok.output.logs == ("42\n",)
    assert not bad.success and bad.error is not None and "ci_synth_bad" in bad.error
    result = codec.parse_output(items, code_interpreter_tool())
    assert result is not None
    assert result.codes == ("print(6 * 7)", "import missing_module")
    assert result.images[0].data.startswith(b"\x89PNG\r\n\x1a\n")
    assert [(f.file_id, f.span) for f in result.files] == [("cfile_synth_csv", (26, 26))]


@pytest.mark.parametrize(
    ("name", "codec", "item_id"),
    [
        ("code_interpreter_failed.json", CodeInterpreterCodec(), "ci_synth_ok"),
        ("file_search_results.json", FileSearchCodec(), None),
        ("mcp_call_errors.json", McpCodec(), "mcp_synth_ok"),
    ],
)
def test_an_incomplete_call_is_a_failed_call(name: str, codec: Any, item_id: str | None) -> None:
    # The wire's other terminal status short of ``completed``: the call did not finish.
    body = fixture(name)
    items = body["output"]
    target = next(
        i for i in items if i["type"].endswith("_call") and item_id in (None, i.get("id"))
    )
    assert target["status"] == "completed" and not target.get("error")
    target["status"] = "incomplete"
    calls = {c.id: c for c in codec.parse_calls(items, None)}
    call = calls[target["id"]]
    assert (call.success, call.status) == (False, "incomplete")
    assert call.error is not None
    assert target["id"] in call.error and "'incomplete'" in call.error
    assert "did not finish" in call.error
    assert all(
        c.success for c in codec.parse_calls(fixture(name)["output"], None) if c.id == target["id"]
    )


@pytest.mark.parametrize("form", [0, 1])
def test_failed_image_generation_carries_code_and_message(form: int) -> None:
    items = both_forms("image_generation_failed.json")[form]
    (call,) = ImageGenerationCodec().parse_calls(items, None)
    assert not call.success
    assert call.error is not None
    assert "moderation_blocked" in call.error
    assert "Your request was rejected by the safety system." in call.error
    result = ImageGenerationCodec().parse_output(items, image_generation_tool())
    assert result is not None and result.images == () and result.image == b""


def test_citation_spans_index_the_joined_answer_text() -> None:
    # Two message items: offsets in the second are relative to its own part and
    # must be shifted past the first part and the blank line that joins them.
    first = "Intro text."
    second = "See [src]."
    items = [
        {
            "type": "web_search_call",
            "id": "ws_1",
            "status": "completed",
            "action": {"type": "search", "query": "q"},
        },
        {"type": "message", "content": [{"type": "output_text", "text": first, "annotations": []}]},
        {
            "type": "message",
            "content": [
                {
                    "type": "output_text",
                    "text": second,
                    "annotations": [
                        {
                            "type": "url_citation",
                            "url": "https://s.io",
                            "title": "S",
                            "start_index": 4,
                            "end_index": 9,
                        }
                    ],
                }
            ],
        },
    ]
    result = WebSearchCodec().parse_output(items, web_search_tool())
    assert result is not None
    assert result.text == "Intro text.\n\nSee [src]."
    (citation,) = result.citations
    assert citation.span is not None
    assert result.text[citation.span[0] : citation.span[1]] == "[src]"
